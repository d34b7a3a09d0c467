use crate::{Bitboard, Square};

/// The whole edge-to-edge line through two squares that share a rank, file or diagonal, both
/// included; empty when they are not aligned or are the same square. Pins and discovered checks
/// use it: a piece is pinned only along the line through its king and the pinner.
///
/// ```
/// # use bitforge::{Square, bitboard, tables::LINE};
/// assert_eq!(LINE[Square::C2.index()][Square::E4.index()], bitboard! {
///     . . . . . . . .
///     . . . . . . . X
///     . . . . . . X .
///     . . . . . X . .
///     . . . . X . . .
///     . . . X . . . .
///     . . X . . . . .
///     . X . . . . . .
/// });
/// ```
pub static LINE: [[Bitboard; 64]; 64] = bitforge_macros::line_table!(Bitboard);

/// The squares strictly between two aligned squares; empty when they are not aligned.
///
/// ```
/// # use bitforge::{Square, bitboard, tables::BETWEEN};
/// assert_eq!(BETWEEN[Square::B7.index()][Square::F7.index()], bitboard! {
///     . . . . . . . .
///     . . X X X . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
/// });
/// ```
pub static BETWEEN: [[Bitboard; 64]; 64] = bitforge_macros::between_table!(Bitboard);

/// Stockfish's `BetweenBB`: for a king on the first square checked from the second, the squares
/// where a piece ends the check by blocking or capturing: between, plus the checker's square.
/// When they are not aligned (a knight's or pawn's check) only the checker's square, since such
/// a check can only be captured. Evasion generation intersects targets with it directly.
///
/// ```
/// # use bitforge::{Square, bitboard, tables::CHECK_BLOCK};
/// assert_eq!(CHECK_BLOCK[Square::E1.index()][Square::E4.index()], bitboard! {
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . X . . .
///     . . . . X . . .
///     . . . . X . . .
///     . . . . . . . .
/// });
/// // A knight on f3 checking e1: only capturing it helps.
/// assert_eq!(CHECK_BLOCK[Square::E1.index()][Square::F3.index()], Square::F3.bitboard());
/// ```
pub static CHECK_BLOCK: [[Bitboard; 64]; 64] = bitforge_macros::check_block_table!(Bitboard);

/// [`LINE`]`[a][b]`.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINE[a.index()][b.index()]
}

/// [`BETWEEN`]`[a][b]`.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a.index()][b.index()]
}

/// [`CHECK_BLOCK`]`[king][checker]`.
#[inline(always)]
pub fn check_block(king: Square, checker: Square) -> Bitboard {
    CHECK_BLOCK[king.index()][checker.index()]
}

/// Whether `c` lies on the line through `a` and `b` (which must be aligned).
///
/// ```
/// # use bitforge::{Square, tables::aligned};
/// assert!(aligned(Square::A1, Square::C3, Square::H8));
/// assert!(!aligned(Square::A1, Square::C3, Square::H1));
/// ```
#[inline(always)]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}
