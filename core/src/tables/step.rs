use crate::{Bitboard, Color, Piece, Square};

/// The attacks of the non-sliders by [`Piece`] code and square: pawn captures (per colour, so
/// white and black pawns differ), knight and king moves. The slider codes and `None` hold empty
/// sets.
///
/// ```
/// # use bitforge::{Piece, Square, bitboard, tables::STEP_ATTACKS};
/// // A black pawn on e5 attacks d4 and f4.
/// assert_eq!(STEP_ATTACKS[Piece::BlackPawn.index()][Square::E5.index()], bitboard! {
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . X . X . .
///     . . . . . . . .
///     . . . . . . . .
///     . . . . . . . .
/// });
/// ```
pub static STEP_ATTACKS: [[Bitboard; 64]; 16] = bitforge_macros::step_attacks!(Bitboard);

/// The attacks of a non-slider `piece` on `square` (empty for sliders and `None`).
#[inline(always)]
pub fn step_attacks(piece: Piece, square: Square) -> Bitboard {
    STEP_ATTACKS[piece.index()][square.index()]
}

/// The squares a pawn of `color` on `square` attacks.
///
/// ```
/// # use bitforge::{Color, Square, tables::pawn_attacks};
/// assert_eq!(pawn_attacks(Color::White, Square::A2), Square::B3.bitboard());
/// ```
#[inline(always)]
pub fn pawn_attacks(color: Color, square: Square) -> Bitboard {
    step_attacks(Piece::new(color, crate::PieceType::Pawn), square)
}

/// Knight moves from `square`.
#[inline(always)]
pub fn knight_attacks(square: Square) -> Bitboard {
    step_attacks(Piece::WhiteKnight, square)
}

/// King moves from `square`.
///
/// ```
/// # use bitforge::{Square, tables::king_attacks};
/// assert_eq!(king_attacks(Square::A1), Square::A2 | Square::B2 | Square::B1);
/// ```
#[inline(always)]
pub fn king_attacks(square: Square) -> Bitboard {
    step_attacks(Piece::WhiteKing, square)
}
