//! Legal move generation into a fixed-capacity [`MoveList`].

mod generate;
mod move_list;

pub(crate) use generate::{MoveCounter, generate_legal};
pub use move_list::{MAX_MOVES, MoveList};
