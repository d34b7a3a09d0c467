//! The squares a side's sliders attack: the bulk of the enemy attack map that every node of
//! move generation builds.

use crate::Bitboard;
use crate::slider::Slider;

/// Every square that `rooks` (rooks and queens) attack along files and ranks or `bishops`
/// (bishops and queens) attack along diagonals, through `occupancy`.
///
/// Code compiled for AVX2 (`-C target-cpu=native` on an AVX2 CPU, or `x86-64-v3`) floods them
/// all in one Kogge-Stone pass, the eight directions in SIMD lanes
/// ([`KoggeStoneAvx2::attacks_of_sets`](crate::slider::KoggeStoneAvx2::attacks_of_sets)): no
/// loop over the pieces, so no loop exit to mispredict. Other builds look each piece up with
/// the backend, since the scalar fill in general-purpose registers made perft slower. Both
/// were decided by interleaved perft runs (results/analysis.md, issue 6, fourth part).
#[inline(always)]
pub(crate) fn slider_attack_map<S: Slider>(
    slider: S,
    rooks: Bitboard,
    bishops: Bitboard,
    occupancy: Bitboard,
) -> Bitboard {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        let _ = slider;
        // SAFETY: the build targets AVX2, so every CPU that runs it has AVX2.
        let simd = unsafe { crate::slider::KoggeStoneAvx2::new_unchecked() };
        let (rook, bishop) = simd.attacks_of_sets(rooks, bishops, occupancy);
        rook | bishop
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        let mut attacked = Bitboard::EMPTY;
        for square in rooks {
            attacked |= slider.rook_attacks(square, occupancy);
        }
        for square in bishops {
            attacked |= slider.bishop_attacks(square, occupancy);
        }
        attacked
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slider::{Reference, kogge_stone_bishops, kogge_stone_rooks};

    /// Random sets of rooks and bishops (sparse, as on a board) through random occupancies:
    /// whichever way this build maps them (lookups with the reference ray walk here, the AVX2
    /// fill when built for AVX2, as `.ci/run` also does), the map equals the scalar
    /// Kogge-Stone fills'.
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
            assert_eq!(
                slider_attack_map(Reference, rooks, bishops, occupancy),
                kogge_stone_rooks(rooks, occupancy) | kogge_stone_bishops(bishops, occupancy),
                "rooks {rooks:?}, bishops {bishops:?}, occupancy {occupancy:?}"
            );
        }
    }
}
