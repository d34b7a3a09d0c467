//! Making and unmaking moves: the child board is made by copy-make straight into the history's
//! next slot, so undo only drops it.

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
        let rules = &self.rules;
        let made = self.history.push_with(|current, slot| {
            let info = PlyInfo {
                last_move: m,
                plies_from_null: current.info.plies_from_null.saturating_add(1),
            };
            current
                .board
                .play_then(m, rules, |board| *slot = Ply { board, info });
        });
        if !made {
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
        let made = self.history.push_with(|current, slot| {
            *slot = Ply {
                board: current.board.null_move(),
                info: PlyInfo {
                    last_move: Move::NULL,
                    plies_from_null: 0,
                },
            };
        });
        if !made {
            return false;
        }
        self.game_ply += 1;
        true
    }

    /// Stockfish's repetition bookkeeping for the current ply, computed when asked rather than
    /// on every move: 0 if its key did not occur before (see
    /// [`occurred_before`](Self::occurred_before)), `d` if it did `d` plies before, `-d` if that
    /// earlier position had itself occurred before (a third occurrence).
    fn repetition(&self) -> i32 {
        let Some(distance) = self.occurred_before(0) else {
            return 0;
        };
        // At most the fifty-move counter, a u16.
        let signed = i32::try_from(distance).unwrap_or(i32::MAX);
        if self.occurred_before(distance).is_some() {
            -signed
        } else {
            signed
        }
    }

    /// How many plies before the ply `plies` back (0: the current one) its key last occurred,
    /// looking 4, 6, ... plies back, as far as its fifty-move counter and the last null move
    /// allow.
    fn occurred_before(&self, plies: usize) -> Option<usize> {
        let ply = self.history.back(plies)?;
        let end = usize::from(ply.board.rule50().min(ply.info.plies_from_null));
        (4..=end)
            .step_by(2)
            .map_while(|back| self.history.back(plies + back))
            .position(|earlier| earlier.board.key() == ply.board.key())
            .map(|index| 4 + 2 * index)
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
        let repetition = self.repetition();
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
        self.occurred_before(0).is_some()
    }
}
