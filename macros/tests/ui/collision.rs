bitforge_macros::magic_set!(mod set = "collision.magics");

fn main() {}
