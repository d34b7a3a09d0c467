//! Black magic bitboards: fixed shift, one overlapped table, from the embedded packed set.

use crate::{Bitboard, Square};

use super::Slider;
use crate::tables::black as set;

/// `((occupancy | !mask) * magic) >> 52` (rook) or `>> 55` (bishop) into one table where the
/// squares' slices overlap. Setting the bits outside the mask leaves each square's indices
/// clustered, so the slices pack into fewer entries than their 294,912 slots.
#[derive(Clone, Copy, Debug, Default)]
pub struct BlackMagic;

impl Slider for BlackMagic {
    const NAME: &'static str = "black";
    const TABLE_BYTES: usize = size_of_val(&set::ATTACKS) + 2 * size_of_val(&set::ROOK);

    #[inline]
    fn is_available() -> bool {
        true
    }

    #[inline]
    unsafe fn new_unchecked() -> Self {
        BlackMagic
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
