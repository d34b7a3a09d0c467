bitforge_macros::magic_set!(mod set = "unmasked_combined.magics");

fn main() {}
