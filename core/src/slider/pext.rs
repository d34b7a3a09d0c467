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

impl Pext {
    #[inline(always)]
    fn lookup(entry: &Entry, occupancy: Bitboard) -> Bitboard {
        // SAFETY: a `Pext` value exists only where BMI2 does (see `new`).
        let index = unsafe { pext(occupancy.0, entry.mask) } as usize;
        let slot = entry.offset + index;
        debug_assert!(slot < ENTRIES);
        // SAFETY: `pext` under the mask gives fewer than `2^popcount(mask)` values, the length
        // of the square's slice, which the table macro laid out inside the table.
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
