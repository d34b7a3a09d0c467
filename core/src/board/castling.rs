//! Castling geometry of one game: where each castling rook starts, which squares must be empty
//! and which the king crosses, and which rights a move from or to each square removes. Fixed
//! when the position is set up; Chess960 starting squares are handled the same way.

use crate::tables::between;
use crate::{Bitboard, CastlingRights, CastlingSide, Color, Rank, Square};

/// Castling geometry, fixed for the game (Stockfish's `castlingRookSquare`, `castlingPath`
/// and `castlingRightsMask`). Indexed by right: white O-O, white O-O-O, black O-O, black
/// O-O-O.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastlingInfo {
    pub(crate) chess960: bool,
    rook: [Option<Square>; 4],
    /// The squares that must be empty: between king and its destination and between rook and
    /// its destination, both destinations, less the king and rook themselves.
    path: [Bitboard; 4],
    /// The squares the king crosses, its destination included: none may be attacked.
    king_path: [Bitboard; 4],
    /// The rights lost when a piece moves from or to each square (the king's and rooks').
    removes: [CastlingRights; 64],
}

/// The index of a single right in the per-right arrays.
#[inline(always)]
const fn right_index(color: Color, side: CastlingSide) -> usize {
    2 * color as usize
        + match side {
            CastlingSide::King => 0,
            CastlingSide::Queen => 1,
        }
}

/// Where the king and the rook end up after castling to `side`: g1 and f1, or c1 and d1.
#[inline(always)]
pub(crate) const fn destinations(color: Color, side: CastlingSide) -> (Square, Square) {
    let (king, rook) = side.destination_files();
    (
        Square::new(king, Rank::R1).relative(color),
        Square::new(rook, Rank::R1).relative(color),
    )
}

impl CastlingInfo {
    pub(crate) const NONE: CastlingInfo = CastlingInfo {
        chess960: false,
        rook: [None; 4],
        path: [Bitboard::EMPTY; 4],
        king_path: [Bitboard::EMPTY; 4],
        removes: [CastlingRights::NONE; 64],
    };

    /// Records the right of the king on `king` to castle with the rook on `rook`.
    pub(crate) fn add(&mut self, color: Color, king: Square, rook: Square) -> CastlingRights {
        let side = CastlingSide::of(king, rook);
        let right = CastlingRights::new(color, side);
        let index = right_index(color, side);
        let (king_to, rook_to) = destinations(color, side);
        self.rook[index] = Some(rook);
        self.path[index] =
            (between(rook, rook_to) | between(king, king_to) | rook_to | king_to) - (king | rook);
        self.king_path[index] = between(king, king_to) | king_to;
        self.removes[king.index()] |= right;
        self.removes[rook.index()] |= right;
        right
    }

    /// The starting square of the rook that castles with `color`'s king to `side`, if that
    /// right was ever granted.
    #[inline(always)]
    pub fn rook_square(&self, color: Color, side: CastlingSide) -> Option<Square> {
        self.rook[right_index(color, side)]
    }

    /// The squares that must be empty to castle.
    #[inline(always)]
    pub fn path(&self, color: Color, side: CastlingSide) -> Bitboard {
        self.path[right_index(color, side)]
    }

    /// The squares the king crosses, destination included: none may be attacked.
    #[inline(always)]
    pub fn king_path(&self, color: Color, side: CastlingSide) -> Bitboard {
        self.king_path[right_index(color, side)]
    }

    /// The rights a move from or to `square` removes.
    #[inline(always)]
    pub fn removed_by(&self, square: Square) -> CastlingRights {
        self.removes[square.index()]
    }

    /// Whether castling is read and written in Chess960 terms (king takes rook, Shredder-FEN).
    #[inline(always)]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }
}
