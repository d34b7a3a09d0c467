//! The board's value types, each in its own file, with the encodings of Stockfish.

pub(crate) mod castling;
pub(crate) mod color;
pub(crate) mod direction;
pub(crate) mod error;
pub(crate) mod moves;
pub(crate) mod piece;
pub(crate) mod score;
pub(crate) mod square;
