//! Making and unmaking moves: the board, the incremental keys and the per-ply state.

use super::castling::{destinations, side_of};
use super::{Position, zobrist};
use crate::slider::Slider;
use crate::{Move, MoveKind, Piece, PieceType, Square};

impl<S: Slider> Position<S> {
    /// Plays `m`, which must be legal here (from [`legal_moves`](Self::legal_moves), or
    /// accepted by [`is_legal`](Self::is_legal)); [`undo_move`](Self::undo_move) takes it back.
    /// An illegal move corrupts the position (a debug build may panic on a counter; it is
    /// never undefined behaviour): use [`try_do_move`](Self::try_do_move) for moves from
    /// outside.
    pub fn do_move(&mut self, m: Move) {
        let us = self.side_to_move;
        let them = !us;
        let from = m.from();
        let to = m.to();
        let piece = self.board[from.index()];
        let previous = *self.state();

        let mut key = previous.key ^ zobrist::side();
        let mut pawn_key = previous.pawn_key;
        let mut material_key = previous.material_key;
        let mut rule50 = previous.rule50.saturating_add(1);
        let mut castling = previous.castling;
        let mut captured = Piece::None;
        let mut double_push_over = None;
        if let Some(square) = previous.en_passant {
            key ^= zobrist::en_passant(square);
        }

        if m.kind() == MoveKind::Castling {
            let side = side_of(from, to);
            let (king_to, rook_to) = destinations(us, side);
            let rook = self.remove_piece(to);
            self.remove_piece(from);
            self.put_piece(piece, king_to);
            self.put_piece(rook, rook_to);
            key ^= zobrist::piece_square(piece, from)
                ^ zobrist::piece_square(piece, king_to)
                ^ zobrist::piece_square(rook, to)
                ^ zobrist::piece_square(rook, rook_to);
        } else {
            let capture_square = if m.kind() == MoveKind::EnPassant {
                Square::new(to.file(), from.rank())
            } else {
                to
            };
            captured = self.board[capture_square.index()];
            if captured != Piece::None {
                self.remove_piece(capture_square);
                key ^= zobrist::piece_square(captured, capture_square);
                if captured.piece_type() == PieceType::Pawn {
                    pawn_key ^= zobrist::piece_square(captured, capture_square);
                }
                material_key ^= zobrist::material(captured, self.piece_count[captured.index()]);
                rule50 = 0;
            }
            self.move_piece(from, to);
            key ^= zobrist::piece_square(piece, from) ^ zobrist::piece_square(piece, to);
            if piece.piece_type() == PieceType::Pawn {
                rule50 = 0;
                pawn_key ^= zobrist::piece_square(piece, from);
                if m.kind() == MoveKind::Promotion {
                    let promoted = Piece::new(us, m.promotion_type());
                    self.remove_piece(to);
                    self.put_piece(promoted, to);
                    key ^= zobrist::piece_square(piece, to) ^ zobrist::piece_square(promoted, to);
                    material_key ^= zobrist::material(piece, self.piece_count[piece.index()])
                        ^ zobrist::material(promoted, self.piece_count[promoted.index()] - 1);
                } else {
                    pawn_key ^= zobrist::piece_square(piece, to);
                    if (from.index() ^ to.index()) == 16 {
                        double_push_over =
                            Square::from_index((from.index() as u8 + to.index() as u8) / 2);
                    }
                }
            }
        }

        let removed = self.castling.removed_by(from) | self.castling.removed_by(to);
        if !(castling & removed).is_empty() {
            key ^= zobrist::castling(castling);
            castling &= !removed;
            key ^= zobrist::castling(castling);
        }

        self.side_to_move = them;
        self.game_ply += 1;
        let state = self.states.push();
        state.key = key;
        state.pawn_key = pawn_key;
        state.material_key = material_key;
        state.castling = castling;
        state.en_passant = None;
        state.rule50 = rule50;
        state.plies_from_null = previous.plies_from_null.saturating_add(1);
        state.last_move = m;
        state.captured = captured;
        self.update_check_info();

        // Record the en passant square only if the opponent can really capture there.
        if let Some(square) = double_push_over
            && self.en_passant_is_legal(square)
        {
            let state = self.states.current_mut();
            state.en_passant = Some(square);
            state.key ^= zobrist::en_passant(square);
        }
        self.update_repetition();
    }

    /// Plays `m` if it is legal here; returns whether it did.
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
        let legal = self.is_legal(m);
        if legal {
            self.do_move(m);
        }
        legal
    }

    /// Takes back the last move (or null move) and returns it; `None` when there is none to
    /// take back (at the position's start, or beyond [`HISTORY_CAPACITY`](super::HISTORY_CAPACITY)
    /// plies).
    pub fn undo_move(&mut self) -> Option<Move> {
        if self.states.undoable() == 0 {
            return None;
        }
        let state = *self.state();
        let m = state.last_move;
        self.states.pop();
        self.side_to_move = !self.side_to_move;
        self.game_ply -= 1;
        if m == Move::NULL {
            return Some(m);
        }
        let us = self.side_to_move;
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            MoveKind::Castling => {
                let side = side_of(from, to);
                let (king_to, rook_to) = destinations(us, side);
                let king = self.remove_piece(king_to);
                let rook = self.remove_piece(rook_to);
                self.put_piece(king, from);
                self.put_piece(rook, to);
            }
            kind => {
                if kind == MoveKind::Promotion {
                    self.remove_piece(to);
                    self.put_piece(Piece::new(us, PieceType::Pawn), to);
                }
                self.move_piece(to, from);
                if state.captured != Piece::None {
                    let capture_square = if kind == MoveKind::EnPassant {
                        Square::new(to.file(), from.rank())
                    } else {
                        to
                    };
                    self.put_piece(state.captured, capture_square);
                }
            }
        }
        Some(m)
    }

    /// Passes the move to the opponent (for null-move pruning). Not allowed in check: returns
    /// `false` and changes nothing there. Undo it with [`undo_move`](Self::undo_move).
    pub fn do_null_move(&mut self) -> bool {
        if self.in_check() {
            return false;
        }
        let previous = *self.state();
        let mut key = previous.key ^ zobrist::side();
        if let Some(square) = previous.en_passant {
            key ^= zobrist::en_passant(square);
        }
        self.side_to_move = !self.side_to_move;
        self.game_ply += 1;
        let state = self.states.push();
        *state = previous;
        state.key = key;
        state.en_passant = None;
        state.rule50 = previous.rule50.saturating_add(1);
        state.plies_from_null = 0;
        state.repetition = 0;
        state.last_move = Move::NULL;
        state.captured = Piece::None;
        self.update_check_info();
        true
    }

    /// Looks for the current key 4, 6, ... plies back, as far as the fifty-move counter and the
    /// last null move allow: Stockfish's repetition bookkeeping.
    fn update_repetition(&mut self) {
        let state = *self.state();
        let end = state.rule50.min(state.plies_from_null) as usize;
        let mut repetition = 0;
        let mut back = 4;
        while back <= end {
            let Some(earlier) = self.states.back(back) else {
                break;
            };
            if earlier.key == state.key {
                let distance = back as i16;
                repetition = if earlier.repetition != 0 {
                    -distance
                } else {
                    distance
                };
                break;
            }
            back += 2;
        }
        self.states.current_mut().repetition = repetition;
    }

    /// Whether this position repeats one since the last irreversible move: a repetition within
    /// the last `ply` plies (the search's own line), or a third occurrence anywhere.
    pub fn is_repetition(&self, ply: i32) -> bool {
        let repetition = i32::from(self.state().repetition);
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
        self.state().repetition != 0
    }
}
