use core::iter::FusedIterator;

use crate::{Bitboard, Square};

/// The squares of a [`Bitboard`], lowest first.
///
/// ```
/// use bitforge::Square;
///
/// let squares: Vec<Square> = (Square::C3 | Square::A1).into_iter().collect();
/// assert_eq!(squares, [Square::A1, Square::C3]);
/// ```
#[derive(Clone, Debug)]
pub struct Squares(Bitboard);

impl Iterator for Squares {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0.is_empty() {
            None
        } else {
            Some(self.0.pop_lsb())
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let count = self.0.count() as usize;
        (count, Some(count))
    }
}

impl ExactSizeIterator for Squares {}

impl FusedIterator for Squares {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;

    #[inline(always)]
    fn into_iter(self) -> Squares {
        Squares(self)
    }
}

/// Every subset of a [`Bitboard`] (the "carry-rippler"), the empty set first and the whole set
/// last: `2^count` sets.
///
/// ```
/// use bitforge::Square;
///
/// let all: Vec<_> = (Square::A1 | Square::B1).subsets().collect();
/// assert_eq!(all, [0b00, 0b01, 0b10, 0b11].map(bitforge::Bitboard));
/// ```
#[derive(Clone, Debug)]
pub struct Subsets(bitforge_index::Subsets);

impl Iterator for Subsets {
    type Item = Bitboard;

    #[inline]
    fn next(&mut self) -> Option<Bitboard> {
        self.0.next().map(Bitboard)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl FusedIterator for Subsets {}

impl Bitboard {
    /// Every subset of this set (see [`Subsets`]).
    #[inline]
    pub const fn subsets(self) -> Subsets {
        Subsets(bitforge_index::Subsets::new(self.0))
    }
}
