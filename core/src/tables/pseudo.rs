use crate::{Bitboard, PieceType, Square};

/// Empty-board attacks by [`PieceType`] and square: knight, bishop, rook, queen and king. Pawn
/// and `None` hold empty sets (pawn attacks depend on colour: see
/// [`STEP_ATTACKS`](super::STEP_ATTACKS)).
///
/// ```
/// # use bitforge::{PieceType, Square, bitboard, tables::PSEUDO_ATTACKS};
/// assert_eq!(PSEUDO_ATTACKS[PieceType::Bishop.index()][Square::B2.index()], bitboard! {
///     . . . . . . . X
///     . . . . . . X .
///     . . . . . X . .
///     . . . . X . . .
///     . . . X . . . .
///     X . X . . . . .
///     . . . . . . . .
///     X . X . . . . .
/// });
/// ```
pub static PSEUDO_ATTACKS: [[Bitboard; 64]; 8] = bitforge_macros::pseudo_attacks!(Bitboard);

/// Empty-board attacks of `piece_type` on `square`.
#[inline(always)]
pub fn pseudo_attacks(piece_type: PieceType, square: Square) -> Bitboard {
    PSEUDO_ATTACKS[piece_type.index()][square.index()]
}
