/// A [`Bitboard`](crate::Bitboard) drawn as an 8x8 grid, rank 8 on top: `X` marks a square in
/// the set and `.` one outside (separate the cells with spaces). It is a `const` expression.
///
/// ```
/// use bitforge::{Square, bitboard};
///
/// const LONG_DIAGONAL: bitforge::Bitboard = bitboard! {
///     . . . . . . . X
///     . . . . . . X .
///     . . . . . X . .
///     . . . . X . . .
///     . . . X . . . .
///     . . X . . . . .
///     . X . . . . . .
///     X . . . . . . .
/// };
/// assert!(LONG_DIAGONAL.contains(Square::A1) && LONG_DIAGONAL.contains(Square::H8));
/// assert_eq!(LONG_DIAGONAL.count(), 8);
/// ```
///
/// A grid without exactly 64 cells does not compile.
#[macro_export]
macro_rules! bitboard {
    ($($cell:tt)*) => {
        $crate::Bitboard::from_grid([$($crate::__bitboard_cell!($cell)),*])
    };
}

/// One cell of [`bitboard!`]: `X` is in the set, `.` is not.
#[doc(hidden)]
#[macro_export]
macro_rules! __bitboard_cell {
    (X) => {
        true
    };
    (.) => {
        false
    };
    ($other:tt) => {
        ::core::compile_error!(::core::concat!(
            "bitboard! cells are X or ., not `",
            ::core::stringify!($other),
            "`"
        ))
    };
}
