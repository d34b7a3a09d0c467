//! Chess bitboards with compile-time attack tables.
//!
//! `bitforge` holds the board types with Stockfish's encodings ([`Square`], [`Piece`], [`Move`],
//! [`Score`], ...), the [`Bitboard`] set type and its operations, and lookup tables that
//! `bitforge-macros` computes at build time and embeds as literal statics: no run-time
//! initialisation, nothing lazy.
//!
//! ```
//! use bitforge::{Bitboard, Square, bitboard, tables};
//!
//! let knight = tables::knight_attacks(Square::B1);
//! assert_eq!(knight, bitboard! {
//!     . . . . . . . .
//!     . . . . . . . .
//!     . . . . . . . .
//!     . . . . . . . .
//!     . . . . . . . .
//!     X . X . . . . .
//!     . . . X . . . .
//!     . . . . . . . .
//! });
//! assert_eq!(tables::between(Square::A1, Square::D4), Square::B2 | Square::C3);
//! ```
//!
//! The crate is `no_std`; the `std` feature (on by default) adds what needs the standard
//! library, such as run-time CPU detection.

#![no_std]
#![deny(missing_docs)]

#[cfg(feature = "std")]
extern crate std;

mod bitboard;
mod bitboard_iter;
mod bitboard_macro;
pub mod board;
pub mod movegen;
pub mod position;
pub mod slider;
pub mod tables;
mod types;

pub use bitboard::Bitboard;
pub use bitboard_iter::{Squares, Subsets};
pub use board::{Board, Rules};
pub use movegen::{MAX_MOVES, MoveList};
pub use position::{FenError, FenErrorKind, Position, Setup, UciMoveError};
pub use types::castling::{CastlingRights, CastlingSide};
pub use types::color::Color;
pub use types::direction::Direction;
pub use types::error::ParseError;
pub use types::moves::{Move, MoveKind, UciMove};
pub use types::piece::{Piece, PieceType, color_of, make_piece, type_of};
pub use types::score::{Score, eg_value, make_score, mg_value};
pub use types::square::{
    File, Rank, Square, file_of, make_square, rank_of, relative_rank, relative_square,
};
