use crate::Square;

/// Chebyshev (king-move) distance between two squares.
///
/// ```
/// # use bitforge::{Square, tables::DISTANCE};
/// assert_eq!(DISTANCE[Square::A1.index()][Square::H8.index()], 7);
/// assert_eq!(DISTANCE[Square::E4.index()][Square::F6.index()], 2);
/// ```
pub static DISTANCE: [[u8; 64]; 64] = bitforge_macros::distance_table!();

/// [`DISTANCE`]`[a][b]`.
#[inline(always)]
pub fn distance(a: Square, b: Square) -> u8 {
    DISTANCE[a.index()][b.index()]
}

/// How many files apart two squares are (arithmetic: no table needed).
#[inline(always)]
pub const fn file_distance(a: Square, b: Square) -> u8 {
    (a.file() as u8).abs_diff(b.file() as u8)
}

/// How many ranks apart two squares are.
#[inline(always)]
pub const fn rank_distance(a: Square, b: Square) -> u8 {
    (a.rank() as u8).abs_diff(b.rank() as u8)
}
