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
use super::{Slider, V3, V4};

/// Kogge-Stone with the eight directions in the lanes of one AVX-512 register.
#[derive(Clone, Copy, Debug)]
pub struct KoggeStoneAvx512(());

/// Kogge-Stone with four directions in each of two AVX2 registers.
#[derive(Clone, Copy, Debug)]
pub struct KoggeStoneAvx2(());

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::*;
    use crate::slider::RookAndBishop;

    const FILE_A: i64 = Bitboard::FILE_A.0 as i64;
    const FILE_H: i64 = Bitboard::FILE_H.0 as i64;
    const RANK_1: i64 = Bitboard::RANK_1.0 as i64;
    const RANK_8: i64 = Bitboard::RANK_8.0 as i64;

    /// Per direction, in lane order (north, north-east, east, south-east, south, south-west,
    /// west, north-west: even rook, odd bishop): the left rotation of one step, and the squares
    /// a step may land on (not across a file edge, not where wrapped bits arrive).
    const ROTATE: [i64; 8] = [8, 9, 1, 57, 56, 55, 63, 7];
    const LANDS: [i64; 8] = [
        !RANK_1,
        !(RANK_1 | FILE_A),
        !FILE_A,
        !(RANK_8 | FILE_A),
        !RANK_8,
        !(RANK_8 | FILE_H),
        !FILE_H,
        !(RANK_1 | FILE_H),
    ];

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
    pub(super) unsafe fn fill_avx512(rooks: u64, bishops: u64, occupancy: u64) -> RookAndBishop {
        let lanes = |v: [i64; 8]| _mm512_set_epi64(v[7], v[6], v[5], v[4], v[3], v[2], v[1], v[0]);
        let step = lanes(ROTATE);
        let step2 = lanes(ROTATE.map(|r| 2 * r % 64));
        let step4 = lanes(ROTATE.map(|r| 4 * r % 64));
        let lands = lanes(LANDS);
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
        RookAndBishop::new(
            _mm512_mask_reduce_or_epi64(0b0101_0101, attacks) as u64,
            _mm512_mask_reduce_or_epi64(0b1010_1010, attacks) as u64,
        )
    }

    /// The attacks of eight pieces at once, one per lane (`pieces[i]` one bit, or none), each
    /// through its own occupancy, along the rook (`first = 0`) or bishop (`first = 1`)
    /// directions of [`ROTATE`], one direction after another.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX-512F.
    #[target_feature(enable = "avx512f")]
    #[inline]
    pub(super) unsafe fn batch_avx512(
        pieces: [u64; 8],
        occupancies: [u64; 8],
        first: usize,
    ) -> [u64; 8] {
        let lanes = |v: [u64; 8]| {
            let v = v.map(|x| x as i64);
            _mm512_set_epi64(v[7], v[6], v[5], v[4], v[3], v[2], v[1], v[0])
        };
        let generators = lanes(pieces);
        let empty = _mm512_xor_si512(lanes(occupancies), _mm512_set1_epi64(-1));
        let mut attacks = _mm512_setzero_si512();
        for direction in (first..8).step_by(2) {
            let rotate = ROTATE[direction];
            let lands = _mm512_set1_epi64(LANDS[direction]);
            let mut flood = generators;
            let mut open = _mm512_and_si512(empty, lands);
            for step in [rotate, 2 * rotate % 64] {
                let step = _mm512_set1_epi64(step);
                flood = _mm512_or_si512(
                    flood,
                    _mm512_and_si512(open, _mm512_rolv_epi64(flood, step)),
                );
                open = _mm512_and_si512(open, _mm512_rolv_epi64(open, step));
            }
            let step4 = _mm512_set1_epi64(4 * rotate % 64);
            flood = _mm512_or_si512(
                flood,
                _mm512_and_si512(open, _mm512_rolv_epi64(flood, step4)),
            );
            let step = _mm512_set1_epi64(rotate);
            attacks = _mm512_or_si512(
                attacks,
                _mm512_and_si512(_mm512_rolv_epi64(flood, step), lands),
            );
        }
        // SAFETY: `__m512i` and `[u64; 8]` are both 64 bytes of plain integers.
        unsafe { core::mem::transmute::<__m512i, [u64; 8]>(attacks) }
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
    pub(super) unsafe fn fill_avx2(rooks: u64, bishops: u64, occupancy: u64) -> RookAndBishop {
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
        RookAndBishop::new(
            _mm_cvtsi128_si64(folded) as u64,
            _mm_extract_epi64::<1>(folded) as u64,
        )
    }
}

impl KoggeStoneAvx512 {
    /// Answers `queries` eight per pass (see [`Slider::rook_attacks_batch`]): rook
    /// directions for `first = 0`, bishop for `first = 1`.
    #[inline]
    fn batch(self, queries: &[(Square, Bitboard)], attacks: &mut [Bitboard], first: usize) {
        let len = queries.len().min(attacks.len());
        for (queries, attacks) in queries[..len].chunks(8).zip(attacks[..len].chunks_mut(8)) {
            let (mut pieces, mut occupancies) = ([0u64; 8], [0u64; 8]);
            for (lane, &(square, occupancy)) in queries.iter().enumerate() {
                pieces[lane] = square.bitboard().0;
                occupancies[lane] = occupancy.0;
            }
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a value of this type exists only where AVX-512F does.
            let answers = unsafe { x86::batch_avx512(pieces, occupancies, first) };
            #[cfg(not(target_arch = "x86_64"))]
            let answers = core::array::from_fn::<u64, 8, _>(|lane| {
                let (piece, occupancy) = (Bitboard(pieces[lane]), Bitboard(occupancies[lane]));
                if first == 0 {
                    kogge_stone_rooks(piece, occupancy).0
                } else {
                    kogge_stone_bishops(piece, occupancy).0
                }
            });
            for (attack, answer) in attacks.iter_mut().zip(answers) {
                *attack = Bitboard(answer);
            }
        }
    }
}

/// Implements the backend on top of its two-set fill (and, where given, its batch).
macro_rules! simd_kogge_stone {
    ($backend:ident, $name:literal, $level:ident, $fill:ident $(, $batch:ident)?) => {
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
                    unsafe { x86::$fill(rooks.0, bishops.0, occupancy.0) }.split()
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
            type Level = $level;

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

            $(
                #[inline]
                fn rook_attacks_batch(self, queries: &[(Square, Bitboard)], attacks: &mut [Bitboard]) {
                    self.$batch(queries, attacks, 0);
                }

                #[inline]
                fn bishop_attacks_batch(self, queries: &[(Square, Bitboard)], attacks: &mut [Bitboard]) {
                    self.$batch(queries, attacks, 1);
                }
            )?
        }
    };
}

simd_kogge_stone!(
    KoggeStoneAvx512,
    "kogge-stone-avx512",
    V4,
    fill_avx512,
    batch
);
simd_kogge_stone!(KoggeStoneAvx2, "kogge-stone-avx2", V3, fill_avx2);
