//! Magic bitboards from the embedded sets: fancy (variable shift, dense), black (fixed shift,
//! packed) and fancy-combined (the fancy magics in one post-masked table). Each is a multiply,
//! a shift and one load (and an AND for the combined table); they differ only in the set (its
//! index formula and mask), which the generated module carries.

use crate::{Bitboard, Square};

use super::{Baseline, Slider};

/// A backend that looks attacks up in one of the modules `magic_set!` generates.
macro_rules! magic_backend {
    ($(#[$doc:meta])* $backend:ident, $name:literal, $set:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $backend;

        impl Slider for $backend {
            const NAME: &'static str = $name;
            const TABLE_BYTES: usize = size_of_val(&crate::tables::$set::ATTACKS)
                + size_of_val(&crate::tables::$set::FIELDS);
            type Level = Baseline;


            #[inline]
            unsafe fn new_unchecked() -> Self {
                $backend
            }

            #[inline(always)]
            fn rook_attacks(self, square: Square, occupancy: Bitboard) -> Bitboard {
                Bitboard(super::kept_scalar(crate::tables::$set::rook_attacks(
                    square.index(),
                    occupancy.0,
                )))
            }

            #[inline(always)]
            fn bishop_attacks(self, square: Square, occupancy: Bitboard) -> Bitboard {
                Bitboard(super::kept_scalar(crate::tables::$set::bishop_attacks(
                    square.index(),
                    occupancy.0,
                )))
            }
        }
    };
}

magic_backend!(
    /// `((occupancy & mask) * magic) >> shift` into a dense 107,648-entry table (841 KiB): the
    /// classic method, fast on every 64-bit CPU.
    FancyMagic,
    "fancy",
    fancy
);

magic_backend!(
    /// Fancy magics in one combined table where rook and bishop slices share slots:
    /// `ATTACKS[offset + index] & empty_board_attacks`. One AND more per lookup than `fancy`,
    /// for 56,312 entries (440 KiB) instead of 107,648: the reduced-bit set of the best
    /// published size (92,864 slots), packed.
    FancyCombinedMagic,
    "fancy-combined",
    fancy_combined
);

magic_backend!(
    /// `((occupancy | !mask) * magic) >> 52` (rook) or `>> 55` (bishop) into one table where
    /// the squares' slices overlap. Setting the bits outside the mask leaves each square's
    /// indices clustered, so the slices pack into fewer entries than their 294,912 slots.
    BlackMagic,
    "black",
    black
);
