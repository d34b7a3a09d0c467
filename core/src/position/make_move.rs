//! Making and unmaking moves: the child board is made by copy-make and pushed on the history,
//! so undo only drops it.

use super::Position;
use super::history::{Ply, PlyInfo};
use crate::slider::Slider;
use crate::{Move, MoveKind, Piece, PieceType};

impl<S: Slider> Position<S> {
    /// Plays `m`, which must be legal here (from [`legal_moves`](Self::legal_moves), or
    /// accepted by [`is_legal`](Self::is_legal)); [`undo_move`](Self::undo_move) takes it back.
    /// An illegal move corrupts the position (never undefined behaviour): use
    /// [`try_do_move`](Self::try_do_move) for moves from outside.
    ///
    /// Returns `true` when the move was played. It is `false` only without the `std` feature,
    /// when the history holds [`HISTORY_CAPACITY`](super::HISTORY_CAPACITY) plies: the move is
    /// refused and the position stays as it was, so nothing is ever lost from the history.
    #[inline]
    pub fn do_move(&mut self, m: Move) -> bool {
        let current = self.history.current();
        let mut child = Ply {
            board: current.board.play(m, &self.rules),
            info: PlyInfo {
                last_move: m,
                plies_from_null: current.info.plies_from_null.saturating_add(1),
                repetition: 0,
            },
        };
        child.info.repetition = self.repetition_of(&child);
        if !self.history.push(child) {
            return false;
        }
        self.game_ply += 1;
        true
    }

    /// Plays `m` if it is legal here (and, without `std`, the history has room); returns
    /// whether it did.
    ///
    /// ```
    /// use bitforge::{Move, Position, Square};
    /// use bitforge::slider::KoggeStone;
    ///
    /// let mut position = Position::start(KoggeStone);
    /// assert!(!position.try_do_move(Move::new(Square::E2, Square::E5)));
    /// assert!(position.try_do_move(Move::new(Square::E2, Square::E4)));
    /// ```
    pub fn try_do_move(&mut self, m: Move) -> bool {
        self.is_legal(m) && self.do_move(m)
    }

    /// Takes back the last move (or null move) and returns it; `None` at the position's start
    /// (where it was set up).
    #[inline]
    pub fn undo_move(&mut self) -> Option<Move> {
        let m = self.history.current().info.last_move;
        if !self.history.pop() {
            return None;
        }
        self.game_ply -= 1;
        Some(m)
    }

    /// Passes the move to the opponent (for null-move pruning). Not allowed in check, nor (as
    /// [`do_move`](Self::do_move)) with a full fixed-capacity history: returns `false` and
    /// changes nothing there. Undo it with [`undo_move`](Self::undo_move).
    pub fn do_null_move(&mut self) -> bool {
        if self.in_check() {
            return false;
        }
        let child = Ply {
            board: self.board().null_move(),
            info: PlyInfo {
                last_move: Move::NULL,
                plies_from_null: 0,
                repetition: 0,
            },
        };
        if !self.history.push(child) {
            return false;
        }
        self.game_ply += 1;
        true
    }

    /// Looks for the key of `child` (about to be played on top of the current ply) 4, 6, ...
    /// plies back, as far as its fifty-move counter and the last null move allow: Stockfish's
    /// repetition bookkeeping.
    #[inline]
    fn repetition_of(&self, child: &Ply) -> i16 {
        let end = child.board.rule50().min(child.info.plies_from_null) as usize;
        let mut back = 4;
        while back <= end {
            // `back` plies before the child is `back - 1` before the current ply.
            let Some(earlier) = self.history.back(back - 1) else {
                break;
            };
            if earlier.board.key() == child.board.key() {
                let distance = back as i16;
                return if earlier.info.repetition != 0 {
                    -distance
                } else {
                    distance
                };
            }
            back += 2;
        }
        0
    }

    /// The piece the last move captured (`Piece::None` if none, or at the position's start).
    pub fn captured_piece(&self) -> Piece {
        let m = self.history.current().info.last_move;
        let Some(before) = self.history.back(1) else {
            return Piece::None;
        };
        match m.kind() {
            _ if m == Move::NULL => Piece::None,
            MoveKind::Normal | MoveKind::Promotion => before.board.piece_on(m.to()),
            MoveKind::EnPassant => Piece::new(self.side_to_move(), PieceType::Pawn),
            MoveKind::Castling => Piece::None,
        }
    }

    /// Whether this position repeats one since the last irreversible move: a repetition within
    /// the last `ply` plies (the search's own line), or a third occurrence anywhere.
    pub fn is_repetition(&self, ply: i32) -> bool {
        let repetition = i32::from(self.history.current().info.repetition);
        repetition != 0 && repetition < ply
    }

    /// Whether the position is drawn by the fifty-move rule (unless it is mate) or by
    /// repetition (see [`is_repetition`](Self::is_repetition)).
    pub fn is_draw(&self, ply: i32) -> bool {
        if self.rule50() > 99 && (!self.in_check() || !self.legal_moves().is_empty()) {
            return true;
        }
        self.is_repetition(ply)
    }

    /// Whether the position occurred earlier since the last irreversible move.
    pub fn has_repeated(&self) -> bool {
        self.history.current().info.repetition != 0
    }
}
