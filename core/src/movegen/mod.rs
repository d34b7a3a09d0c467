//! Legal move generation into a fixed-capacity [`MoveList`], and perft's copy-make recursion.

mod attack_map;
mod board;
mod generate;
mod move_list;
mod perft;
mod side;

pub(crate) use board::{Board, Rules};
pub(crate) use generate::{MoveCounter, generate_legal};
pub use move_list::{MAX_MOVES, MoveList};
pub(crate) use perft::perft;
