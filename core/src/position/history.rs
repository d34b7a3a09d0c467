//! The plies of a game: each one's board and how it was reached, the current one last, so that
//! undo and repetition detection reach back to the start. With `std` the history grows with the
//! game; without, it has a fixed capacity and a move that would overflow it is refused, never
//! silently forgotten.

use core::fmt;

use crate::Move;
use crate::board::Board;

/// How many plies a position can keep to undo: unlimited (but for memory) with the `std`
/// feature; without it, a fixed array of this many plies, and
/// [`do_move`](super::Position::do_move) refuses (returns `false`) when it is full.
#[cfg(feature = "std")]
pub const HISTORY_CAPACITY: usize = usize::MAX;
/// How many plies a position can keep to undo: unlimited (but for memory) with the `std`
/// feature; without it, a fixed array of this many plies, and
/// [`do_move`](super::Position::do_move) refuses (returns `false`) when it is full.
#[cfg(not(feature = "std"))]
pub const HISTORY_CAPACITY: usize = 512;

/// How the current ply was reached: what the board alone does not say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PlyInfo {
    /// The move that led here (`Move::NONE` at the root).
    pub(crate) last_move: Move,
    /// Plies since the last null move (a repetition cannot span one).
    pub(crate) plies_from_null: u16,
}

impl PlyInfo {
    pub(crate) const ROOT: PlyInfo = PlyInfo {
        last_move: Move::NONE,
        plies_from_null: 0,
    };
}

/// One ply of the game: its board and how it was reached.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ply {
    pub(crate) board: Board,
    pub(crate) info: PlyInfo,
}

/// The plies of the game so far, the current one last: `do_move` writes the child once, on top,
/// and `undo_move` only drops it. The root (where the position was set up) is kept apart, so
/// there is always a current ply without any invariant to trust.
#[derive(Clone, Debug)]
pub(crate) struct History {
    root: Ply,
    later: Plies,
}

/// The plies after the root, oldest first: the first `len` of `slots`. The slots past `len`
/// stay allocated (with `std` they grow as the game does; without, a fixed array), so that a
/// move writes its child into the next slot while it reads the parent from the one before:
/// the child is stored once, where it stays, never made elsewhere and copied (a copy that
/// waits for the stores that made it: results/analysis.md, issue 37).
struct Plies {
    slots: Slots,
    len: usize,
}

#[cfg(feature = "std")]
type Slots = std::vec::Vec<Ply>;

#[cfg(not(feature = "std"))]
type Slots = [Ply; HISTORY_CAPACITY];

/// A slot not yet played into.
const EMPTY: Ply = Ply {
    board: Board::EMPTY,
    info: PlyInfo::ROOT,
};

impl Plies {
    fn new() -> Plies {
        Plies {
            #[cfg(feature = "std")]
            slots: Slots::new(),
            #[cfg(not(feature = "std"))]
            slots: [EMPTY; HISTORY_CAPACITY],
            len: 0,
        }
    }

    #[inline(always)]
    fn played(&self) -> &[Ply] {
        &self.slots[..self.len]
    }
}

impl Clone for Plies {
    /// The plies played; with `std`, not the slots past them.
    fn clone(&self) -> Plies {
        Plies {
            #[cfg(feature = "std")]
            slots: self.played().to_vec(),
            #[cfg(not(feature = "std"))]
            slots: self.slots,
            len: self.len,
        }
    }
}

impl fmt::Debug for Plies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.played()).finish()
    }
}

impl History {
    pub(crate) fn new(root: Ply) -> History {
        History {
            root,
            later: Plies::new(),
        }
    }

    /// The current ply.
    #[inline(always)]
    pub(crate) fn current(&self) -> &Ply {
        self.later.played().last().unwrap_or(&self.root)
    }

    /// Makes the next ply the current one, written by `make` from the current one into its
    /// slot; `false`, changing nothing, if there is no room (only without `std`).
    #[inline(always)]
    pub(crate) fn push_with(&mut self, make: impl FnOnce(&Ply, &mut Ply)) -> bool {
        let len = self.later.len;
        #[cfg(feature = "std")]
        if self.later.slots.len() == len {
            self.later.slots.push(EMPTY);
        }
        let (played, free) = self.later.slots.split_at_mut(len);
        let Some(slot) = free.first_mut() else {
            return false;
        };
        make(played.last().unwrap_or(&self.root), slot);
        self.later.len = len + 1;
        true
    }

    /// Drops the current ply; `false` at the root.
    #[inline(always)]
    pub(crate) fn pop(&mut self) -> bool {
        match self.later.len.checked_sub(1) {
            Some(len) => {
                self.later.len = len;
                true
            }
            None => false,
        }
    }

    /// The ply `plies` before the current one (0: the current one).
    #[inline(always)]
    pub(crate) fn back(&self, plies: usize) -> Option<&Ply> {
        match self.later.len.checked_sub(plies)? {
            0 => Some(&self.root),
            index => self.later.played().get(index - 1),
        }
    }

    /// How many plies can be taken back.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.later.len
    }
}

#[cfg(all(test, not(feature = "std")))]
mod tests {
    use crate::Position;
    use crate::slider::Hyperbola;

    /// Without `std`, a game as long as the history's capacity is kept whole; the next move
    /// and null move are refused visibly, changing nothing, and every ply still undoes.
    #[test]
    fn a_full_history_refuses_the_move() {
        let start = Position::start(Hyperbola);
        let mut position = start.clone();
        let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        for text in shuffle.iter().cycle().take(super::HISTORY_CAPACITY) {
            let m = position.parse_uci_move(text).expect("a legal move");
            assert!(position.do_move(m));
        }
        let full = position.clone();
        let next = position.legal_moves()[0];
        assert!(!position.do_move(next));
        assert!(!position.try_do_move(next));
        assert!(!position.do_null_move());
        assert!(position == full && position.undoable_plies() == super::HISTORY_CAPACITY);
        for _ in 0..super::HISTORY_CAPACITY {
            assert!(position.undo_move().is_some());
        }
        assert_eq!(position.undo_move(), None);
        assert!(position == start && position.key() == start.key());
    }
}

#[cfg(all(test, feature = "std"))]
mod slot_tests {
    use std::format;
    use std::vec::Vec;

    use crate::Position;
    use crate::slider::Hyperbola;

    fn play(position: &mut Position<Hyperbola>, line: &[&str]) {
        for text in line {
            let m = position.parse_uci_move(text).expect("a legal move");
            assert!(position.do_move(m));
        }
    }

    /// A line played over slots an undone line left behind is the line played afresh: every
    /// ply rewritten whole (its board and how it was reached), in a clone too, and undone
    /// through the same keys.
    #[test]
    fn slots_left_by_undone_moves_are_rewritten() {
        let mut reused = Position::start(Hyperbola);
        play(&mut reused, &["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]);
        for _ in 0..4 {
            assert!(reused.undo_move().is_some());
        }
        play(&mut reused, &["d7d5", "e4d5", "d8d5"]);
        let mut fresh = Position::start(Hyperbola);
        play(&mut fresh, &["e2e4", "d7d5", "e4d5", "d8d5"]);
        let cloned = reused.clone();
        assert_eq!(
            format!("{:?}", cloned.history),
            format!("{:?}", fresh.history)
        );
        for mut position in [reused, cloned] {
            assert_eq!(position.undoable_plies(), 4);
            assert_eq!(position.captured_piece(), crate::Piece::WhitePawn);
            let mut keys = Vec::new();
            while position.undo_move().is_some() {
                keys.push(position.key());
            }
            let mut expected = Vec::new();
            let mut replay = fresh.clone();
            while replay.undo_move().is_some() {
                expected.push(replay.key());
            }
            assert_eq!(keys, expected);
        }
    }
}
