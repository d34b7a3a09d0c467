//! PEXT indexing into `u16` entries that PDEP expands: a quarter of the table.

use crate::{Bitboard, Square};

use super::bmi2::pdep;
use super::pext::{BISHOP_INDEX, ROOK_INDEX, SquareIndex};
use super::{Bmi2, Slider};
use crate::tables::pext::COMPRESSED;

/// `pdep(COMPRESSED[offset + pext(occupancy, mask)], rays)`: each entry keeps only the bits of
/// the square's empty-board rays (at most 14), so the table is 107,648 `u16`s (210 KiB) and
/// fits in L2 where the dense `u64` table does not. One more instruction per lookup.
#[derive(Clone, Copy, Debug)]
pub struct PextPdep(());

impl PextPdep {
    #[inline(always)]
    fn lookup(index: &SquareIndex, square: Square, occupancy: Bitboard) -> Bitboard {
        // SAFETY: a `PextPdep` value exists only where BMI2 does (see `new`).
        let slot = unsafe { index.slot(square, occupancy) };
        // SAFETY: `slot` is inside the table (see there).
        let compressed = unsafe { *COMPRESSED.get_unchecked(slot) };
        // SAFETY: BMI2, as above.
        Bitboard(unsafe { pdep(u64::from(compressed), index.rays(square)) })
    }
}

impl Slider for PextPdep {
    const NAME: &'static str = "pext-pdep";
    const TABLE_BYTES: usize =
        size_of_val(&COMPRESSED) + size_of_val(&ROOK_INDEX) + size_of_val(&BISHOP_INDEX);
    type Level = Bmi2;

    #[inline]
    unsafe fn new_unchecked() -> Self {
        PextPdep(())
    }

    #[inline(always)]
    fn rook_attacks(self, square: Square, occupancy: Bitboard) -> Bitboard {
        Self::lookup(&ROOK_INDEX, square, occupancy)
    }

    #[inline(always)]
    fn bishop_attacks(self, square: Square, occupancy: Bitboard) -> Bitboard {
        Self::lookup(&BISHOP_INDEX, square, occupancy)
    }
}
