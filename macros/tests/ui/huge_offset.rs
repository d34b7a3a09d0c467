bitforge_macros::magic_set!(mod set = "huge_offset.magics");

fn main() {}
