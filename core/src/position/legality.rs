//! Questions about single moves: is it legal, is it even possible here (for moves from a hash
//! table or a killer slot), does it give check; and reading a UCI move.

use super::Position;
use crate::CastlingSide;
use crate::board::castling_destinations;
use crate::movegen::MoveList;
use crate::slider::Slider;
use crate::tables::{aligned, check_block, line, pawn_attacks};
use crate::{Bitboard, Move, MoveKind, PieceType, Rank, UciMove, relative_rank};

/// A UCI move that could not be played here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UciMoveError {
    /// The text is not a UCI move.
    Syntax(crate::ParseError),
    /// Well-formed, but not a legal move in this position.
    Illegal(UciMove),
}

impl core::fmt::Display for UciMoveError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            UciMoveError::Syntax(error) => error.fmt(f),
            UciMoveError::Illegal(m) => write!(f, "{m} is not a legal move in this position"),
        }
    }
}

impl core::error::Error for UciMoveError {}

impl<S: Slider> Position<S> {
    /// Whether a move that [`pseudo_legal`](Self::pseudo_legal) accepts leaves the mover's king
    /// safe.
    pub fn legal(&self, m: Move) -> bool {
        let us = self.side_to_move();
        let (from, to) = (m.from(), m.to());
        let king = self.king_square(us);
        match m.kind() {
            MoveKind::EnPassant => self.board().en_passant_is_legal(from, to, self.slider()),
            MoveKind::Castling => {
                let path = self
                    .castling_info()
                    .king_path(us, CastlingSide::of(from, to));
                self.board().castling_path_is_safe(path, to, self.slider())
            }
            _ if from == king => !self.attacked_by(!us, to, self.occupied() ^ from),
            // Only a piece on a line with its king can be pinned: the blockers (a loop over the
            // enemy sliders) are looked for only then.
            _ => {
                aligned(from, to, king)
                    || line(king, from).is_empty()
                    || !self.blockers_for_king(us).contains(from)
            }
        }
    }

    /// Whether `m` could be played here, ignoring only whether it leaves the king in check:
    /// a cheap test for moves that come from elsewhere (a hash table, a killer slot).
    pub fn pseudo_legal(&self, m: Move) -> bool {
        if !m.is_ok() {
            return false;
        }
        if m.kind() != MoveKind::Normal {
            return self.legal_moves().contains(&m);
        }
        let us = self.side_to_move();
        let (from, to) = (m.from(), m.to());
        let piece = self.piece_on(from);
        // A normal move carries no promotion bits.
        if m.0 >> 12 != 0 || piece == crate::Piece::None || piece.color() != us {
            return false;
        }
        if self.pieces_of(us).contains(to) {
            return false;
        }
        if piece.piece_type() == PieceType::Pawn {
            // Reaching the last rank is a promotion, never a normal move.
            if relative_rank(us, to.rank()) == Rank::R8 {
                return false;
            }
            let up = crate::Direction::pawn_push(us);
            let empty = !self.occupied();
            let capture = (pawn_attacks(us, from) & self.pieces_of(!us)).contains(to);
            let single = from.offset(up) == Some(to) && empty.contains(to);
            let double = relative_rank(us, from.rank()) == Rank::R2
                && from.offset(up).is_some_and(|middle| empty.contains(middle))
                && from.offset(up).and_then(|middle| middle.offset(up)) == Some(to)
                && empty.contains(to);
            if !(capture || single || double) {
                return false;
            }
        } else if !self
            .attacks_from(piece.piece_type(), from, self.occupied())
            .contains(to)
        {
            return false;
        }
        let checkers = self.checkers();
        if !checkers.is_empty() {
            if piece.piece_type() != PieceType::King {
                return !checkers.more_than_one()
                    && check_block(self.king_square(us), checkers.lsb()).contains(to);
            }
            return !self.attacked_by(!us, to, self.occupied() ^ from);
        }
        true
    }

    /// Whether `m` is a legal move here (any `Move` value is accepted).
    #[inline]
    pub fn is_legal(&self, m: Move) -> bool {
        self.pseudo_legal(m) && self.legal(m)
    }

    /// Whether the legal move `m` checks the opponent.
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side_to_move();
        let (from, to) = (m.from(), m.to());
        let their_king = self.king_square(!us);
        if self
            .check_squares(self.piece_on(from).piece_type())
            .contains(to)
        {
            return true;
        }
        // A discovered check: the mover shielded the king and leaves the line (only a piece on
        // a line with that king can have shielded it).
        if !line(from, their_king).is_empty() && self.blockers_for_king(!us).contains(from) {
            return !line(from, to).contains(their_king) || m.kind() == MoveKind::Castling;
        }
        match m.kind() {
            MoveKind::Normal => false,
            MoveKind::Promotion => self
                .attacks_from(m.promotion_type(), to, self.occupied() ^ from)
                .contains(their_king),
            // The two pawns leave the enemy king's lines as they would leave ours.
            MoveKind::EnPassant => {
                self.board()
                    .en_passant_exposes_king(!us, from, to, self.slider())
            }
            MoveKind::Castling => {
                let (_, rook_to) = castling_destinations(us, CastlingSide::of(from, to));
                self.check_squares(PieceType::Rook).contains(rook_to)
            }
        }
    }

    /// The legal moves here.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        self.board().legal_moves(&self.rules)
    }

    /// The legal moves here, written into `list` (emptied first) rather than returned:
    /// [`Board::legal_moves_into`](crate::Board::legal_moves_into).
    #[inline]
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        self.board().legal_moves_into(&self.rules, list);
    }

    /// The legal move that UCI text names: `e2e4`, `e7e8q`, castling as the king's two-square
    /// move (`e1g1`) or, in Chess960, as king takes rook (`e1h1`).
    ///
    /// ```
    /// use bitforge::{Move, Position, Square};
    /// use bitforge::slider::FancyMagic;
    ///
    /// let position = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", FancyMagic)?;
    /// assert_eq!(position.parse_uci_move("e1g1")?, Move::castling(Square::E1, Square::H1));
    /// assert!(position.parse_uci_move("e1e3").is_err());
    /// assert!(position.parse_uci_move("e1").is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse_uci_move(&self, text: &str) -> Result<Move, UciMoveError> {
        let uci: UciMove = text.parse().map_err(UciMoveError::Syntax)?;
        let chess960 = self.is_chess960();
        self.legal_moves()
            .iter()
            .copied()
            .find(|m| m.to_uci(chess960) == uci)
            .ok_or(UciMoveError::Illegal(uci))
    }

    /// The bitboard of the side to move's pieces pinned to its own king.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.blockers_for_king(self.side_to_move()) & self.pieces_of(self.side_to_move())
    }
}
