//! Hyperbola quintessence with the lines through a square in the lanes of one AVX2 register
//! (file, rank, diagonal, anti-diagonal), so rook and bishop come from one pass.
//!
//! The downward half needs the board mirrored. Files and diagonals have one square per rank,
//! so mirroring the ranks (a byte swap, one `vpshufb`) is enough for them; that is
//! [`HyperbolaDual`], Stockfish's 2026 scheme, which takes the rank from the first-rank table.
//! A rank needs its bits mirrored too: [`HyperbolaAvx2`] puts it in the fourth lane and uses a
//! full 64-bit bit reversal (the byte swap, then a nibble table, `vpshufb` again, within each
//! byte); [`HyperbolaGfni`] reverses within bytes with one GFNI affine transform instead.

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use crate::{Bitboard, Square};

#[cfg(not(target_arch = "x86_64"))]
use super::Hyperbola;
use super::hyperbola::{FIRST_RANK, line_masks};
use super::{Slider, V3, V3Gfni};

/// Hyperbola quintessence on all four lines through a square at once, in AVX2 lanes.
#[derive(Clone, Copy, Debug)]
pub struct HyperbolaAvx2(());

/// [`HyperbolaAvx2`] with the bits of each byte reversed by one GFNI instruction
/// (`vgf2p8affineqb`) instead of two nibble-table shuffles: the GFNI experiment.
#[derive(Clone, Copy, Debug)]
pub struct HyperbolaGfni(());

/// Stockfish's 2026 x86 slider ("DualMagic"): hyperbola quintessence on the file and both
/// diagonals in AVX2 lanes, mirrored by a byte swap alone (each of those lines has one square
/// per rank), and the rank from the 512-byte first-rank table indexed by its six inner squares.
#[derive(Clone, Copy, Debug)]
pub struct HyperbolaDual(());

/// Per square, its file, rank, diagonal and anti-diagonal without the square (2 KiB).
static LINES: [[u64; 4]; 64] = {
    let mut table = [[0; 4]; 64];
    let mut square = 0;
    while square < 64 {
        table[square] = line_masks(square);
        square += 1;
    }
    table
};

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::*;
    use crate::slider::RookAndBishop;
    use crate::slider::hyperbola::rank_attacks;

    /// Mirrors the bytes of each lane: byte `i` takes byte `7 - i` (the shuffle indexes within
    /// 128-bit halves). (Safe `target_feature` functions: only callers compiled for the
    /// feature can call them without `unsafe`.)
    #[target_feature(enable = "avx2")]
    #[inline]
    fn swap_bytes(x: __m256i) -> __m256i {
        let byte_swap = _mm256_set_epi8(
            8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0,
            1, 2, 3, 4, 5, 6, 7,
        );
        _mm256_shuffle_epi8(x, byte_swap)
    }

    /// Reverses the 64 bits of each lane.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn reverse_bits(x: __m256i) -> __m256i {
        let swapped = swap_bytes(x);
        // A reversed nibble `n` is `REVERSED[n]`; the low nibble goes high and the high low.
        let reversed_to_high = _mm256_set_epi8(
            -16, 112, -80, 48, -48, 80, -112, 16, -32, 96, -96, 32, -64, 64, -128, 0, -16, 112,
            -80, 48, -48, 80, -112, 16, -32, 96, -96, 32, -64, 64, -128, 0,
        );
        let reversed_to_low = _mm256_set_epi8(
            15, 7, 11, 3, 13, 5, 9, 1, 14, 6, 10, 2, 12, 4, 8, 0, 15, 7, 11, 3, 13, 5, 9, 1, 14, 6,
            10, 2, 12, 4, 8, 0,
        );
        let nibble = _mm256_set1_epi8(0x0F);
        let low = _mm256_and_si256(swapped, nibble);
        let high = _mm256_and_si256(_mm256_srli_epi16::<4>(swapped), nibble);
        _mm256_or_si256(
            _mm256_shuffle_epi8(reversed_to_high, low),
            _mm256_shuffle_epi8(reversed_to_low, high),
        )
    }

    /// Reverses the bits within each byte with one GF(2) affine transform (`vgf2p8affineqb`
    /// with the anti-diagonal bit matrix), after the same byte swap.
    #[target_feature(enable = "avx2,gfni")]
    #[inline]
    fn reverse_bits_gfni(x: __m256i) -> __m256i {
        let mirror = _mm256_set1_epi64x(0x8040_2010_0804_0201_u64 as i64);
        _mm256_gf2p8affine_epi64_epi8::<0>(swap_bytes(x), mirror)
    }

    /// Defines the four-lane hyperbola for one way of mirroring the board and the features it
    /// needs. `rank_lane`: the rank goes through the lanes (it needs a full bit reversal);
    /// otherwise its lane is masked off and the rank comes from the first-rank table.
    macro_rules! four_lines {
        ($name:ident, $features:literal, $mirror:ident, rank_lane: $rank_lane:literal) => {
            /// The rook (file and rank) and bishop (both diagonals) attacks from `square`.
            ///
            /// # Safety
            ///
            #[doc = concat!("The CPU must support ", $features, ".")]
            #[target_feature(enable = $features)]
            #[inline]
            pub(super) unsafe fn $name(square: usize, occupancy: u64) -> RookAndBishop {
                let square = square & 63;
                let [file, rank, diagonal, anti] = LINES[square].map(|line| line as i64);
                let rank = if $rank_lane { rank } else { 0 };
                let lines = _mm256_set_epi64x(anti, diagonal, rank, file);
                let on_lines = _mm256_and_si256(_mm256_set1_epi64x(occupancy as i64), lines);
                // Twice the slider's bit, and twice its mirrored bit (0 when the doubling
                // leaves the board, which is right: nothing lies beyond).
                let mirrored = if $rank_lane { 63 - square } else { square ^ 56 };
                let twice = _mm256_set1_epi64x((1u64 << square).wrapping_shl(1) as i64);
                let twice_mirrored = _mm256_set1_epi64x((1u64 << mirrored).wrapping_shl(1) as i64);
                let upward = _mm256_sub_epi64(on_lines, twice);
                let downward = $mirror(_mm256_sub_epi64($mirror(on_lines), twice_mirrored));
                let attacks = _mm256_and_si256(_mm256_xor_si256(upward, downward), lines);
                let rook = _mm256_castsi256_si128(attacks);
                let bishop = _mm256_extracti128_si256::<1>(attacks);
                let rank = if $rank_lane {
                    _mm_extract_epi64::<1>(rook) as u64
                } else {
                    rank_attacks(square, occupancy)
                };
                RookAndBishop::new(
                    _mm_cvtsi128_si64(rook) as u64 | rank,
                    (_mm_cvtsi128_si64(bishop) | _mm_extract_epi64::<1>(bishop)) as u64,
                )
            }
        };
    }

    four_lines!(attacks_avx2, "avx2", reverse_bits, rank_lane: true);
    four_lines!(attacks_gfni, "avx2,gfni", reverse_bits_gfni, rank_lane: true);
    four_lines!(attacks_dual, "avx2", swap_bytes, rank_lane: false);
}

/// Implements a four-lane hyperbola backend on top of its `x86` function.
macro_rules! four_lane_backend {
    ($backend:ident, $name:literal, $level:ident, $attacks:ident, $table_bytes:expr) => {
        impl $backend {
            /// Rook and bishop attacks from `square` in one pass: a queen's two halves.
            #[inline(always)]
            pub fn rook_and_bishop_attacks(
                self,
                square: Square,
                occupancy: Bitboard,
            ) -> (Bitboard, Bitboard) {
                #[cfg(target_arch = "x86_64")]
                {
                    // SAFETY: a value of this type exists only where its features do.
                    unsafe { x86::$attacks(square.index(), occupancy.0) }.split()
                }
                #[cfg(not(target_arch = "x86_64"))]
                {
                    (
                        Hyperbola.rook_attacks(square, occupancy),
                        Hyperbola.bishop_attacks(square, occupancy),
                    )
                }
            }
        }

        impl Slider for $backend {
            const NAME: &'static str = $name;
            const TABLE_BYTES: usize = $table_bytes;
            type Level = $level;

            #[inline]
            unsafe fn new_unchecked() -> Self {
                $backend(())
            }

            #[inline(always)]
            fn rook_attacks(self, square: Square, occupancy: Bitboard) -> Bitboard {
                self.rook_and_bishop_attacks(square, occupancy).0
            }

            #[inline(always)]
            fn bishop_attacks(self, square: Square, occupancy: Bitboard) -> Bitboard {
                self.rook_and_bishop_attacks(square, occupancy).1
            }

            #[inline(always)]
            fn queen_attacks(self, square: Square, occupancy: Bitboard) -> Bitboard {
                let (rook, bishop) = self.rook_and_bishop_attacks(square, occupancy);
                rook | bishop
            }
        }
    };
}

four_lane_backend!(
    HyperbolaAvx2,
    "hyperbola-avx2",
    V3,
    attacks_avx2,
    size_of_val(&LINES)
);
four_lane_backend!(
    HyperbolaGfni,
    "hyperbola-gfni",
    V3Gfni,
    attacks_gfni,
    size_of_val(&LINES)
);
four_lane_backend!(
    HyperbolaDual,
    "hyperbola-dual",
    V3,
    attacks_dual,
    size_of_val(&LINES) + size_of_val(&FIRST_RANK)
);
