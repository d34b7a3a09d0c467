//! Legal move generation on a [`Board`] into a sink (a [`MoveList`], a
//! counter, perft's recursion), generic over the slider backend. It depends on the board layer,
//! the backends and the tables, never on [`Position`](crate::Position).
//!
//! The generator's stages are forced inline into one another in optimized builds (one loop per
//! backend and level, no calls); at `opt-level = 0` they are only `#[inline]`
//! (`cfg(bitforge_unoptimized)`, set by the build script), which keeps a debug build of a crate
//! calling them fast to compile.

mod attack_map;
mod generate;
mod move_list;
mod perft;

pub use move_list::{MAX_MOVES, MoveList};

use crate::board::{Board, KeyChoice, Rules};
use crate::slider::Slider;
use generate::{MoveCounter, generate_legal};

impl<T: KeyChoice> Board<T> {
    /// Every legal move, with the game's `rules`.
    #[inline]
    pub fn legal_moves<S: Slider>(&self, rules: &Rules<S>) -> MoveList {
        rules.slider.within(
            #[inline(always)]
            || {
                let mut list = MoveList::new();
                generate_legal(self, rules, &mut list);
                list
            },
        )
    }

    /// Every legal move, with the game's `rules`, written into `list` (emptied first): what
    /// [`legal_moves`](Self::legal_moves) returns, without copying the list out to its
    /// caller. An engine keeps a list per ply and refills it.
    ///
    /// ```
    /// use bitforge::{MoveList, Position};
    /// use bitforge::slider::FancyMagic;
    ///
    /// let start = Position::start(FancyMagic);
    /// let mut list = MoveList::new();
    /// start.board().legal_moves_into(start.rules(), &mut list);
    /// assert_eq!(list.len(), 20);
    /// ```
    #[inline]
    pub fn legal_moves_into<S: Slider>(&self, rules: &Rules<S>, list: &mut MoveList) {
        list.clear();
        rules.slider.within(
            #[inline(always)]
            || generate_legal(self, rules, list),
        );
    }

    /// The number of legal moves, counted without listing them.
    #[inline]
    pub fn count_legal_moves<S: Slider>(&self, rules: &Rules<S>) -> u64 {
        rules.slider.within(
            #[inline(always)]
            || {
                let mut counter = MoveCounter(0);
                generate_legal(self, rules, &mut counter);
                counter.0
            },
        )
    }

    /// The number of legal move sequences of `depth` plies from here: the tree walked by
    /// copy-make, the last ply counted rather than played, the side to move fixed at compile
    /// time at every ply.
    pub fn perft<S: Slider>(&self, rules: &Rules<S>, depth: u32) -> u64 {
        perft::perft(self, rules, depth)
    }
}
