//! What a move changes and `undo_move` must restore, kept per ply (Stockfish's `StateInfo`), and
//! the fixed-capacity stack that holds it.

use crate::{Bitboard, CastlingRights, Move, Piece, Square};

/// The state of one ply: what cannot be recomputed cheaply from the board.
#[derive(Clone, Copy, Debug)]
pub(crate) struct State {
    /// Zobrist key of the whole position.
    pub(crate) key: u64,
    /// Zobrist key of the pawns alone.
    pub(crate) pawn_key: u64,
    /// Zobrist key of the material (how many of each piece).
    pub(crate) material_key: u64,
    pub(crate) castling: CastlingRights,
    /// Set only when an en passant capture is legal.
    pub(crate) en_passant: Option<Square>,
    /// Plies since the last capture or pawn move.
    pub(crate) rule50: u16,
    /// Plies since the last null move (repetitions cannot span one).
    pub(crate) plies_from_null: u16,
    /// 0: no repetition; `d`: the position occurred `d` plies ago; `-d`: it had already
    /// repeated then (a third occurrence).
    pub(crate) repetition: i16,
    /// The move that led here (`Move::NONE` at the root).
    pub(crate) last_move: Move,
    /// The piece that move captured.
    pub(crate) captured: Piece,
    /// Pieces giving check to the side to move.
    pub(crate) checkers: Bitboard,
    /// Per colour: the pieces (of either colour) that alone stand between that colour's king
    /// and an enemy slider.
    pub(crate) blockers: [Bitboard; 2],
    /// Per colour: that colour's sliders that pin or x-ray an enemy piece to the enemy king.
    pub(crate) pinners: [Bitboard; 2],
    /// Per piece type: the squares from which a piece of the side to move would check the
    /// enemy king.
    pub(crate) check_squares: [Bitboard; 8],
}

impl State {
    pub(crate) const EMPTY: State = State {
        key: 0,
        pawn_key: 0,
        material_key: 0,
        castling: CastlingRights::NONE,
        en_passant: None,
        rule50: 0,
        plies_from_null: 0,
        repetition: 0,
        last_move: Move::NONE,
        captured: Piece::None,
        checkers: Bitboard::EMPTY,
        blockers: [Bitboard::EMPTY; 2],
        pinners: [Bitboard::EMPTY; 2],
        check_squares: [Bitboard::EMPTY; 8],
    };
}

/// How many plies of history a position keeps: older states are overwritten, so `undo_move`
/// reaches back at most this far (less one) and repetitions are looked for within it. A
/// search never goes this deep, and the fifty-move rule ends a game within 100 plies.
pub const HISTORY_CAPACITY: usize = 256;

/// A ring of states: the newest is the current one. Indexing is masked, so no push can
/// overflow and no lookup can go out of bounds.
#[derive(Clone)]
pub(crate) struct StateStack {
    states: [State; HISTORY_CAPACITY],
    /// Index of the current state, counted since the root (masked when used).
    top: usize,
    /// How many earlier states can still be returned to.
    undoable: usize,
}

impl StateStack {
    pub(crate) fn new(root: State) -> StateStack {
        let mut states = [State::EMPTY; HISTORY_CAPACITY];
        states[0] = root;
        StateStack {
            states,
            top: 0,
            undoable: 0,
        }
    }

    #[inline(always)]
    pub(crate) fn current(&self) -> &State {
        &self.states[self.top % HISTORY_CAPACITY]
    }

    #[inline(always)]
    pub(crate) fn current_mut(&mut self) -> &mut State {
        &mut self.states[self.top % HISTORY_CAPACITY]
    }

    /// The state `plies` before the current one, if it is still kept.
    #[inline(always)]
    pub(crate) fn back(&self, plies: usize) -> Option<&State> {
        (plies <= self.undoable).then(|| &self.states[(self.top - plies) % HISTORY_CAPACITY])
    }

    /// Makes room for a new current state and returns it (holding stale values: the caller
    /// sets every field).
    #[inline(always)]
    pub(crate) fn push(&mut self) -> &mut State {
        self.top += 1;
        self.undoable = (self.undoable + 1).min(HISTORY_CAPACITY - 1);
        &mut self.states[self.top % HISTORY_CAPACITY]
    }

    /// Drops the current state; `false` when there is nothing to return to.
    #[inline(always)]
    pub(crate) fn pop(&mut self) -> bool {
        if self.undoable == 0 {
            return false;
        }
        self.top -= 1;
        self.undoable -= 1;
        true
    }

    /// How many plies `undo_move` can still take back.
    #[inline(always)]
    pub(crate) fn undoable(&self) -> usize {
        self.undoable
    }
}
