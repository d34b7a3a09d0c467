//! Fancy magic bitboards: variable shift, one dense table, from the embedded set.

use crate::{Bitboard, Square};

use super::Slider;
use crate::tables::fancy as set;

/// `((occupancy & mask) * magic) >> shift` into a dense 107,648-entry table (841 KiB): the
/// classic method, fast on every 64-bit CPU.
#[derive(Clone, Copy, Debug, Default)]
pub struct FancyMagic;

impl Slider for FancyMagic {
    const NAME: &'static str = "fancy";
    const TABLE_BYTES: usize = size_of_val(&set::ATTACKS) + 2 * size_of_val(&set::ROOK);

    #[inline]
    fn is_available() -> bool {
        true
    }

    #[inline]
    unsafe fn new_unchecked() -> Self {
        FancyMagic
    }

    #[inline(always)]
    fn rook_attacks(self, square: Square, occupancy: Bitboard) -> Bitboard {
        Bitboard(set::rook_attacks(square.index(), occupancy.0))
    }

    #[inline(always)]
    fn bishop_attacks(self, square: Square, occupancy: Bitboard) -> Bitboard {
        Bitboard(set::bishop_attacks(square.index(), occupancy.0))
    }
}
