//! The squares a side's sliders attack: the bulk of the enemy attack map that every node of
//! move generation builds.

use crate::Bitboard;
use crate::slider::Slider;

/// Every square that `rooks` (rooks and queens) attack along files and ranks or `bishops`
/// (bishops and queens) attack along diagonals, through `occupancy`.
///
/// Where the backend's level has AVX2 (an AVX2 backend, any backend raised to x86-64-v3 by
/// [`Backend::run`](crate::slider::Backend::run), or a build for such a CPU) one Kogge-Stone
/// pass floods them all, the eight directions in SIMD lanes
/// ([`KoggeStoneAvx2::attacks_of_sets`](crate::slider::KoggeStoneAvx2::attacks_of_sets)): no
/// loop over the pieces, so no loop exit to mispredict. Elsewhere each piece is looked up with
/// the backend, since the scalar fill in general-purpose registers made perft slower. Both
/// were decided by interleaved perft runs (results/analysis.md, issue 6, fourth part).
#[cfg_attr(bitforge_unoptimized, inline)]
#[cfg_attr(not(bitforge_unoptimized), inline(always))]
pub(crate) fn slider_attack_map<S: Slider>(
    slider: S,
    rooks: Bitboard,
    bishops: Bitboard,
    occupancy: Bitboard,
) -> Bitboard {
    #[cfg(target_arch = "x86_64")]
    if <S::Level as crate::slider::Level>::AVX2 {
        // SAFETY: the slider proves the CPU has its level, and the level has AVX2.
        let simd = unsafe { crate::slider::KoggeStoneAvx2::new_unchecked() };
        let (rook, bishop) = simd.attacks_of_sets(rooks, bishops, occupancy);
        return rook | bishop;
    }
    let mut attacked = Bitboard::EMPTY;
    for square in rooks {
        attacked |= slider.rook_attacks(square, occupancy);
    }
    for square in bishops {
        attacked |= slider.bishop_attacks(square, occupancy);
    }
    attacked
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slider::{Leveled, Reference, V3, kogge_stone_bishops, kogge_stone_rooks};

    /// Random sets of rooks and bishops (sparse, as on a board) through random occupancies:
    /// both ways of mapping them (lookups with the reference ray walk at the build's level, the
    /// AVX2 fill at x86-64-v3 where the CPU has it) equal the scalar Kogge-Stone fills.
    #[test]
    fn the_map_equals_the_scalar_fills() {
        let cases = if cfg!(miri) { 50 } else { 20_000 };
        let mut random = 0x2545_F491_4F6C_DD1D_u64;
        let mut next = move || {
            // xorshift64: any spread of bits will do.
            random ^= random << 13;
            random ^= random >> 7;
            random ^= random << 17;
            random
        };
        for _ in 0..cases {
            let rooks = Bitboard(next() & next() & next());
            let bishops = Bitboard(next() & next() & next());
            let occupancy = Bitboard(next() & next()) | rooks | bishops;
            let expected =
                kogge_stone_rooks(rooks, occupancy) | kogge_stone_bishops(bishops, occupancy);
            assert_eq!(
                slider_attack_map(Reference, rooks, bishops, occupancy),
                expected,
                "rooks {rooks:?}, bishops {bishops:?}, occupancy {occupancy:?}"
            );
            if let Some(raised) = Leveled::<Reference, V3>::new() {
                assert_eq!(
                    raised.within(|| slider_attack_map(raised, rooks, bishops, occupancy)),
                    expected,
                    "AVX2: rooks {rooks:?}, bishops {bishops:?}, occupancy {occupancy:?}"
                );
            }
        }
    }
}
