bitforge_macros::magic_set!(static SET = "collision.magics");

fn main() {}
