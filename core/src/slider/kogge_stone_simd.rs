//! Kogge-Stone fills with the directions in SIMD lanes: four per AVX2 register, all eight in
//! one AVX-512 register.
//!
//! Each lane floods one direction from its own generator set, the rook directions from the
//! rooks and the bishop directions from the bishops, so one pass gives the attacks of every
//! slider of a side as well as of one piece. AVX2 shifts left in one register and right in the
//! other; AVX-512 rotates (`vprolvq`) all eight in one, masking off the bits that wrap round
//! the way the scalar fill masks those that would cross an edge. Off x86-64, and for a value
//! that cannot exist there, the scalar fill answers.

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use crate::{Bitboard, Square};

#[cfg(not(target_arch = "x86_64"))]
use super::kogge_stone::{kogge_stone_bishops, kogge_stone_rooks};
use super::{Slider, SliderJob, cpu};

/// Kogge-Stone with the eight directions in the lanes of one AVX-512 register.
#[derive(Clone, Copy, Debug)]
pub struct KoggeStoneAvx512(());

/// Kogge-Stone with four directions in each of two AVX2 registers.
#[derive(Clone, Copy, Debug)]
pub struct KoggeStoneAvx2(());

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::*;

    const FILE_A: i64 = Bitboard::FILE_A.0 as i64;
    const FILE_H: i64 = Bitboard::FILE_H.0 as i64;
    const RANK_1: i64 = Bitboard::RANK_1.0 as i64;
    const RANK_8: i64 = Bitboard::RANK_8.0 as i64;

    /// The union of the rook-direction floods of `rooks` and of the bishop-direction floods of
    /// `bishops`, through the empty squares of `occupancy`.
    ///
    /// Lanes, low to high: north, north-east, east, south-east, south, south-west, west,
    /// north-west (even lanes rook, odd lanes bishop); a step of `d` squares is a left rotation
    /// by `d mod 64`, and a step may land neither across a file edge nor where wrapped bits
    /// arrive.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX-512F.
    #[target_feature(enable = "avx512f")]
    #[inline]
    pub(super) unsafe fn fill_avx512(rooks: u64, bishops: u64, occupancy: u64) -> (u64, u64) {
        let lanes = |v: [i64; 8]| _mm512_set_epi64(v[7], v[6], v[5], v[4], v[3], v[2], v[1], v[0]);
        let rotate = [8, 9, 1, 57, 56, 55, 63, 7];
        let step = lanes(rotate);
        let step2 = lanes(rotate.map(|r| 2 * r % 64));
        let step4 = lanes(rotate.map(|r| 4 * r % 64));
        let lands = lanes([
            !RANK_1,
            !(RANK_1 | FILE_A),
            !FILE_A,
            !(RANK_8 | FILE_A),
            !RANK_8,
            !(RANK_8 | FILE_H),
            !FILE_H,
            !(RANK_1 | FILE_H),
        ]);
        let (r, b) = (rooks as i64, bishops as i64);
        let mut flood = _mm512_set_epi64(b, r, b, r, b, r, b, r);
        let mut open = _mm512_and_si512(_mm512_set1_epi64(!occupancy as i64), lands);
        for step in [step, step2] {
            flood = _mm512_or_si512(
                flood,
                _mm512_and_si512(open, _mm512_rolv_epi64(flood, step)),
            );
            open = _mm512_and_si512(open, _mm512_rolv_epi64(open, step));
        }
        flood = _mm512_or_si512(
            flood,
            _mm512_and_si512(open, _mm512_rolv_epi64(flood, step4)),
        );
        let attacks = _mm512_and_si512(_mm512_rolv_epi64(flood, step), lands);
        (
            _mm512_mask_reduce_or_epi64(0b0101_0101, attacks) as u64,
            _mm512_mask_reduce_or_epi64(0b1010_1010, attacks) as u64,
        )
    }

    /// As [`fill_avx512`] with AVX2: lanes `[north, north-east, east, north-west]` shift left
    /// and `[south, south-west, west, south-east]` shift right, by `[8, 9, 1, 7]` both (even
    /// lanes rook, odd lanes bishop).
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn fill_avx2(rooks: u64, bishops: u64, occupancy: u64) -> (u64, u64) {
        let steps = [
            _mm256_set_epi64x(7, 1, 9, 8),
            _mm256_set_epi64x(14, 2, 18, 16),
        ];
        let step4 = _mm256_set_epi64x(28, 4, 36, 32);
        let up_lands = _mm256_set_epi64x(!FILE_H, !FILE_A, !FILE_A, -1);
        let down_lands = _mm256_set_epi64x(!FILE_A, !FILE_H, !FILE_H, -1);
        let (r, b) = (rooks as i64, bishops as i64);
        let generators = _mm256_set_epi64x(b, r, b, r);
        let empty = _mm256_set1_epi64x(!occupancy as i64);

        let (mut up, mut down) = (generators, generators);
        let mut up_open = _mm256_and_si256(empty, up_lands);
        let mut down_open = _mm256_and_si256(empty, down_lands);
        for step in steps {
            up = _mm256_or_si256(up, _mm256_and_si256(up_open, _mm256_sllv_epi64(up, step)));
            up_open = _mm256_and_si256(up_open, _mm256_sllv_epi64(up_open, step));
            let shifted = _mm256_srlv_epi64(down, step);
            down = _mm256_or_si256(down, _mm256_and_si256(down_open, shifted));
            down_open = _mm256_and_si256(down_open, _mm256_srlv_epi64(down_open, step));
        }
        up = _mm256_or_si256(up, _mm256_and_si256(up_open, _mm256_sllv_epi64(up, step4)));
        down = _mm256_or_si256(
            down,
            _mm256_and_si256(down_open, _mm256_srlv_epi64(down, step4)),
        );
        let attacks = _mm256_or_si256(
            _mm256_and_si256(_mm256_sllv_epi64(up, steps[0]), up_lands),
            _mm256_and_si256(_mm256_srlv_epi64(down, steps[0]), down_lands),
        );
        // Lanes 0 and 2 are rook, 1 and 3 bishop: fold the high half onto the low one.
        let folded = _mm_or_si128(
            _mm256_castsi256_si128(attacks),
            _mm256_extracti128_si256::<1>(attacks),
        );
        (
            _mm_cvtsi128_si64(folded) as u64,
            _mm_extract_epi64::<1>(folded) as u64,
        )
    }

    /// Runs `job` inside a function compiled for AVX-512F, so that its lookups inline.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX-512F.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn run_avx512<J: SliderJob, S: Slider>(job: J, slider: S) -> J::Output {
        job.run(slider)
    }

    /// Runs `job` inside a function compiled for AVX2.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn run_avx2<J: SliderJob, S: Slider>(job: J, slider: S) -> J::Output {
        job.run(slider)
    }
}

/// Implements the backend on top of its two-set fill.
macro_rules! simd_kogge_stone {
    ($backend:ident, $name:literal, $available:path, $fill:ident, $run:ident) => {
        impl $backend {
            /// The squares attacked by all of `rooks` along files and ranks, and by all of
            /// `bishops` along diagonals, in one pass: pass the queens in both.
            ///
            /// ```
            /// use bitforge::slider::*;
            /// use bitforge::{Bitboard, Square};
            ///
            #[doc = concat!("if let Some(simd) = ", stringify!($backend), "::new() {")]
            ///     let occupancy = Square::D4 | Square::E5;
            ///     let (rooks, bishops) = simd.attacks_of_sets(Square::A1.bitboard(), Square::D4.bitboard(), occupancy);
            ///     assert_eq!(rooks, KoggeStone.rook_attacks(Square::A1, occupancy));
            ///     assert_eq!(bishops, KoggeStone.bishop_attacks(Square::D4, occupancy));
            /// }
            /// ```
            #[inline(always)]
            pub fn attacks_of_sets(
                self,
                rooks: Bitboard,
                bishops: Bitboard,
                occupancy: Bitboard,
            ) -> (Bitboard, Bitboard) {
                #[cfg(target_arch = "x86_64")]
                {
                    // SAFETY: a value of this type exists only where its instructions do.
                    let (rook, bishop) = unsafe { x86::$fill(rooks.0, bishops.0, occupancy.0) };
                    (Bitboard(rook), Bitboard(bishop))
                }
                #[cfg(not(target_arch = "x86_64"))]
                {
                    (
                        kogge_stone_rooks(rooks, occupancy),
                        kogge_stone_bishops(bishops, occupancy),
                    )
                }
            }
        }

        impl Slider for $backend {
            const NAME: &'static str = $name;
            const TABLE_BYTES: usize = 0;

            #[inline]
            fn is_available() -> bool {
                $available()
            }

            #[inline]
            unsafe fn new_unchecked() -> Self {
                $backend(())
            }

            #[inline(always)]
            fn rook_attacks(self, square: Square, occupancy: Bitboard) -> Bitboard {
                self.attacks_of_sets(square.bitboard(), Bitboard::EMPTY, occupancy)
                    .0
            }

            #[inline(always)]
            fn bishop_attacks(self, square: Square, occupancy: Bitboard) -> Bitboard {
                self.attacks_of_sets(Bitboard::EMPTY, square.bitboard(), occupancy)
                    .1
            }

            #[inline(always)]
            fn queen_attacks(self, square: Square, occupancy: Bitboard) -> Bitboard {
                let (rook, bishop) =
                    self.attacks_of_sets(square.bitboard(), square.bitboard(), occupancy);
                rook | bishop
            }

            #[inline]
            fn run<J: SliderJob>(self, job: J) -> J::Output {
                #[cfg(target_arch = "x86_64")]
                {
                    // SAFETY: a value of this type exists only where its instructions do.
                    unsafe { x86::$run(job, self) }
                }
                #[cfg(not(target_arch = "x86_64"))]
                {
                    job.run(self)
                }
            }
        }
    };
}

simd_kogge_stone!(
    KoggeStoneAvx512,
    "kogge-stone-avx512",
    cpu::has_avx512f,
    fill_avx512,
    run_avx512
);
simd_kogge_stone!(
    KoggeStoneAvx2,
    "kogge-stone-avx2",
    cpu::has_avx2,
    fill_avx2,
    run_avx2
);
