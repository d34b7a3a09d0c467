//! PEXT bitboards: the BMI2 bit extraction is the index, no magic needed.

use crate::{Bitboard, Square};

use super::bmi2::pext;
use super::{Bmi2, Slider};
use crate::tables::pext::{ATTACKS, BISHOP, ENTRIES, Entry, ROOK};

/// `ATTACKS[offset + pext(occupancy, mask)]` in a dense 107,648-entry table (841 KiB). Fast
/// on Intel since Haswell and AMD since Zen 3; available wherever BMI2 is, but
/// [`Backend::best`](super::Backend::best) avoids it where `PEXT` is microcoded.
#[derive(Clone, Copy, Debug)]
pub struct Pext(());

/// One slider kind's PEXT index by square: each [`Entry`] field in an array of its own, so a
/// square's number addresses it directly instead of being scaled by the 24-byte entry first
/// (measured in results/analysis.md, issue 6, third part).
pub(super) struct SquareIndex {
    masks: [u64; 64],
    offsets: [usize; 64],
    rays: [u64; 64],
}

impl SquareIndex {
    /// The bytes [`slot`](Self::slot) reads: the masks and the offsets (the rays are only
    /// for `pext-pdep`).
    pub(super) const SLOT_BYTES: usize = size_of::<[u64; 64]>() + size_of::<[usize; 64]>();

    const fn new(entries: &[Entry; 64]) -> SquareIndex {
        let mut index = SquareIndex {
            masks: [0; 64],
            offsets: [0; 64],
            rays: [0; 64],
        };
        let mut square = 0;
        while square < 64 {
            index.masks[square] = entries[square].mask;
            index.offsets[square] = entries[square].offset;
            index.rays[square] = entries[square].rays;
            square += 1;
        }
        index
    }

    /// The slot that `occupancy` selects for `square` in the PEXT tables: the square's offset
    /// plus the bits of the occupancy under its mask, packed.
    ///
    /// # Safety
    ///
    /// The CPU must support BMI2.
    #[inline(always)]
    pub(super) unsafe fn slot(&self, square: Square, occupancy: Bitboard) -> usize {
        let square = square.index();
        // SAFETY: the caller guarantees BMI2.
        let slot = self.offsets[square] + unsafe { pext(occupancy.0, self.masks[square]) } as usize;
        // `pext` under the mask gives fewer than `2^popcount(mask)` values, the length of the
        // square's slice, which the table macro laid out inside the tables.
        debug_assert!(slot < ENTRIES);
        slot
    }

    /// The empty-board attacks from `square`.
    #[inline(always)]
    pub(super) fn rays(&self, square: Square) -> u64 {
        self.rays[square.index()]
    }
}

/// The rook entries, field by field.
pub(super) static ROOK_INDEX: SquareIndex = SquareIndex::new(&ROOK);
/// The bishop entries, field by field.
pub(super) static BISHOP_INDEX: SquareIndex = SquareIndex::new(&BISHOP);

impl Pext {
    #[inline(always)]
    fn lookup(index: &SquareIndex, square: Square, occupancy: Bitboard) -> Bitboard {
        // SAFETY: a `Pext` value exists only where BMI2 does (see `new`).
        let slot = unsafe { index.slot(square, occupancy) };
        // SAFETY: `slot` is inside the table (see there).
        Bitboard(unsafe { *ATTACKS.get_unchecked(slot) })
    }
}

impl Slider for Pext {
    const NAME: &'static str = "pext";
    const TABLE_BYTES: usize = size_of_val(&ATTACKS) + 2 * SquareIndex::SLOT_BYTES;
    type Level = Bmi2;

    #[inline]
    unsafe fn new_unchecked() -> Self {
        Pext(())
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
