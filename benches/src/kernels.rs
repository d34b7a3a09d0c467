//! The timed kernels, shared by the criterion and the Callgrind benchmarks so that both measure
//! the same code: one way of computing attacks, and a loop of independent lookups.

use std::hint::black_box;

use bitforge::slider::Slider;
use bitforge::{Bitboard, Square};

/// One way of computing attacks. A trait rather than a closure so that `#[inline(always)]`
/// puts the lookup into each timed loop: a closure called from several loops can be left out of
/// line, and a call per lookup would measure the call.
pub trait Attacks: Copy {
    /// The square type the method takes.
    type Square: Copy;

    /// The attacks from `square` through `occupancy`.
    fn attacks(self, square: Self::Square, occupancy: u64) -> u64;

    /// Calls `f` compiled for the method's instruction level (bitforge's
    /// [`Slider::within`]); others have none.
    #[inline(always)]
    fn within<R>(self, f: impl FnOnce() -> R) -> R {
        f()
    }
}

/// A bitforge backend's rook (`ROOK`) or bishop attacks.
#[derive(Clone, Copy)]
pub struct Ours<S, const ROOK: bool>(pub S);

impl<S: Slider, const ROOK: bool> Attacks for Ours<S, ROOK> {
    type Square = Square;

    #[inline(always)]
    fn attacks(self, square: Square, occupancy: u64) -> u64 {
        if ROOK {
            self.0.rook_attacks(square, Bitboard(occupancy)).0
        } else {
            self.0.bishop_attacks(square, Bitboard(occupancy)).0
        }
    }

    #[inline(always)]
    fn within<R>(self, f: impl FnOnce() -> R) -> R {
        self.0.within(f)
    }
}

/// Independent lookups, summed: the `throughput` and `real` kernel.
#[inline(always)]
pub fn summed<A: Attacks>(pairs: &[(A::Square, u64)], method: A) -> u64 {
    let mut sum = 0u64;
    for &(square, occupancy) in black_box(pairs) {
        sum = sum.wrapping_add(method.attacks(square, occupancy));
    }
    sum
}

/// The pairs with the square converted by `square` and the occupancy as a plain `u64`.
pub fn converted<Sq>(
    pairs: &[(Square, Bitboard)],
    square: impl Fn(Square) -> Sq,
) -> Vec<(Sq, u64)> {
    pairs.iter().map(|&(s, o)| (square(s), o.0)).collect()
}
