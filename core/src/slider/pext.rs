//! PEXT bitboards: the BMI2 bit extraction is the index, no magic needed.

use crate::{Bitboard, Square};

use super::bmi2::pext;
use super::{Slider, cpu};
use crate::tables::pext::{ATTACKS, BISHOP, ENTRIES, Entry, ROOK};

/// `ATTACKS[offset + pext(occupancy, mask)]` in a dense 107,648-entry table (841 KiB). Fast
/// on Intel since Haswell and AMD since Zen 3; available wherever BMI2 is, but
/// [`Backend::best`](super::Backend::best) avoids it where `PEXT` is microcoded.
#[derive(Clone, Copy, Debug)]
pub struct Pext(());

/// The slot that `occupancy` selects in the PEXT tables: the square's offset plus the bits of
/// the occupancy under its mask, packed.
///
/// # Safety
///
/// The CPU must support BMI2.
#[inline(always)]
pub(super) unsafe fn pext_slot(entry: &Entry, occupancy: Bitboard) -> usize {
    // SAFETY: the caller guarantees BMI2.
    let slot = entry.offset + unsafe { pext(occupancy.0, entry.mask) } as usize;
    // `pext` under the mask gives fewer than `2^popcount(mask)` values, the length of the
    // square's slice, which the table macro laid out inside the tables.
    debug_assert!(slot < ENTRIES);
    slot
}

impl Pext {
    #[inline(always)]
    fn lookup(entry: &Entry, occupancy: Bitboard) -> Bitboard {
        // SAFETY: a `Pext` value exists only where BMI2 does (see `new`).
        let slot = unsafe { pext_slot(entry, occupancy) };
        // SAFETY: `pext_slot` is inside the table (see there).
        Bitboard(unsafe { *ATTACKS.get_unchecked(slot) })
    }
}

impl Slider for Pext {
    const NAME: &'static str = "pext";
    const TABLE_BYTES: usize = size_of_val(&ATTACKS) + 2 * size_of_val(&ROOK);

    #[inline]
    fn is_available() -> bool {
        cpu::has_bmi2()
    }

    #[inline]
    unsafe fn new_unchecked() -> Self {
        Pext(())
    }

    #[inline(always)]
    fn rook_attacks(self, square: Square, occupancy: Bitboard) -> Bitboard {
        Self::lookup(&ROOK[square.index()], occupancy)
    }

    #[inline(always)]
    fn bishop_attacks(self, square: Square, occupancy: Bitboard) -> Bitboard {
        Self::lookup(&BISHOP[square.index()], occupancy)
    }
}
