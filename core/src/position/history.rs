//! The plies of a game: each one's board and how it was reached, the current one last, so that
//! undo and repetition detection reach back to the start. With `std` the history grows with the
//! game; without, it has a fixed capacity and a move that would overflow it is refused, never
//! silently forgotten.

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

/// The plies after the root, oldest first: a vector with `std`.
#[cfg(feature = "std")]
type Plies = std::vec::Vec<Ply>;

/// The plies after the root, oldest first: a fixed array without `std`.
#[cfg(not(feature = "std"))]
#[derive(Clone, Debug)]
struct Plies {
    plies: [Ply; HISTORY_CAPACITY],
    len: usize,
}

#[cfg(not(feature = "std"))]
impl Plies {
    fn new() -> Plies {
        const EMPTY: Ply = Ply {
            board: Board::EMPTY,
            info: PlyInfo::ROOT,
        };
        Plies {
            plies: [EMPTY; HISTORY_CAPACITY],
            len: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, ply: Ply) -> bool {
        match self.plies.get_mut(self.len) {
            Some(slot) => {
                *slot = ply;
                self.len += 1;
                true
            }
            None => false,
        }
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<Ply> {
        self.len = self.len.checked_sub(1)?;
        self.plies.get(self.len).copied()
    }

    #[inline(always)]
    fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    fn get(&self, index: usize) -> Option<&Ply> {
        self.plies[..self.len].get(index)
    }

    #[inline(always)]
    fn last(&self) -> Option<&Ply> {
        self.len
            .checked_sub(1)
            .and_then(|index| self.plies.get(index))
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
        self.later.last().unwrap_or(&self.root)
    }

    /// Makes `ply` the current one; `false`, changing nothing, if there is no room (only
    /// without `std`).
    #[inline(always)]
    pub(crate) fn push(&mut self, ply: Ply) -> bool {
        #[cfg(feature = "std")]
        {
            self.later.push(ply);
            true
        }
        #[cfg(not(feature = "std"))]
        {
            self.later.push(ply)
        }
    }

    /// Drops the current ply; `false` at the root.
    #[inline(always)]
    pub(crate) fn pop(&mut self) -> bool {
        self.later.pop().is_some()
    }

    /// The ply `plies` before the current one (0: the current one).
    #[inline(always)]
    pub(crate) fn back(&self, plies: usize) -> Option<&Ply> {
        let later = self.later.len();
        match later.checked_sub(plies)? {
            0 => Some(&self.root),
            index => self.later.get(index - 1),
        }
    }

    /// How many plies can be taken back.
    #[inline(always)]
    pub(crate) fn len(&self) -> usize {
        self.later.len()
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
