//! A fixed-capacity list of moves: no allocation, filled by the generator.

use core::ops::Deref;

use arrayvec::ArrayVec;

use super::generate::{MoveSink, origin};
use crate::{Bitboard, Direction, Move, PieceType, Square};

/// The most moves a list holds. No legal position has more than 218; FEN reading rejects
/// material a game cannot produce, which keeps every position this crate accepts well within.
pub const MAX_MOVES: usize = 256;

/// The legal moves of a position, in a fixed-capacity array that nothing fills before the
/// generator does: making an empty list costs nothing, and an engine can keep one list per ply
/// and refill it ([`Board::legal_moves_into`](crate::Board::legal_moves_into)).
///
/// ```
/// use bitforge::Position;
/// use bitforge::slider::FancyMagic;
///
/// let start = Position::start(FancyMagic);
/// let moves = start.legal_moves();
/// assert_eq!(moves.len(), 20);
/// assert!(moves.iter().any(|m| m.to_string() == "g1f3"));
/// ```
#[derive(Clone)]
pub struct MoveList {
    moves: ArrayVec<Move, MAX_MOVES>,
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub const fn new() -> MoveList {
        MoveList {
            moves: ArrayVec::new_const(),
        }
    }

    /// Adds a move. A full list ignores it (which the capacity makes unreachable for the
    /// positions this crate accepts) rather than panic.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        // A full list is the only error.
        let _ = self.moves.try_push(m);
    }

    /// Empties the list, keeping its storage.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.moves.clear();
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];

    #[inline(always)]
    fn deref(&self) -> &[Move] {
        &self.moves
    }
}

impl core::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list()
            .entries(self.iter().map(|m| m.uci(false)))
            .finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn targets(&mut self, _piece: PieceType, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::new(from, to));
        }
    }

    #[inline(always)]
    fn pawn_moves<const CAPTURE: bool>(&mut self, targets: Bitboard, step: Direction) {
        for to in targets {
            self.push(Move::new(origin(to, step), to));
        }
    }

    #[inline(always)]
    fn double_pushes(&mut self, targets: Bitboard, step: Direction) {
        self.pawn_moves::<false>(targets, step);
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, step: Direction) {
        for to in targets {
            let from = origin(to, step);
            for piece in [
                PieceType::Queen,
                PieceType::Knight,
                PieceType::Rook,
                PieceType::Bishop,
            ] {
                self.push(Move::promotion(from, to, piece));
            }
        }
    }

    #[inline(always)]
    fn en_passant(&mut self, from: Square, to: Square) {
        self.push(Move::en_passant(from, to));
    }

    #[inline(always)]
    fn castling(&mut self, king: Square, rook: Square) {
        self.push(Move::castling(king, rook));
    }
}
