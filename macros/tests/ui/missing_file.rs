bitforge_macros::magic_set!(mod set = "no-such-file.magics");

fn main() {}
