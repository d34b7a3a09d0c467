bitforge_macros::magic_set!(mod set = "malformed.magics");

fn main() {}
