use crate::Bitboard;

/// One bit per square: `SQUARE_BB[s] = 1 << s`.
///
/// ```
/// # use bitforge::{Square, bitboard, tables::SQUARE_BB};
/// assert_eq!(SQUARE_BB[Square::C2.index()], bitboard! {
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . X . . . . .
///     . . . . . . . .
/// });
/// ```
pub const SQUARE_BB: [Bitboard; 64] = bitforge_macros::square_masks!(Bitboard);

/// Every square of a file, by file index (`a = 0`).
///
/// ```
/// # use bitforge::{File, bitboard, tables::FILE_BB};
/// assert_eq!(FILE_BB[File::B.index()], bitboard! {
///     . X . . . . . .
///     . X . . . . . .
///     . X . . . . . .
///     . X . . . . . .
///     . X . . . . . .
///     . X . . . . . .
///     . X . . . . . .
///     . X . . . . . .
/// });
/// ```
pub const FILE_BB: [Bitboard; 8] = bitforge_macros::file_masks!(Bitboard);

/// Every square of a rank, by rank index (first rank = 0).
///
/// ```
/// # use bitforge::{Rank, bitboard, tables::RANK_BB};
/// assert_eq!(RANK_BB[Rank::R7.index()], bitboard! {
///     . . . . . . . .
///     X X X X X X X X
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
/// });
/// ```
pub const RANK_BB: [Bitboard; 8] = bitforge_macros::rank_masks!(Bitboard);
