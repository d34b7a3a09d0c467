static FILES: [u64; 8] = bitforge_macros::file_masks!(Bitboard(1));
static DISTANCE: [[u8; 64]; 64] = bitforge_macros::distance_table!(u8);
bitforge_macros::pext_tables!(pub mod pext; extra);
bitforge_macros::magic_set!(mod set = 12);
static RANKS: [u64; 8] = bitforge_macros::rank_masks!(a::);
static SQUARES: [u64; 64] = bitforge_macros::square_masks!(a b);
bitforge_macros::pext_tables!(pub mod);

fn main() {}
