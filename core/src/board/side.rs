//! The side to move as a type. Move generation and perft are compiled once per colour, so
//! pawn directions and relative ranks are constants (fewer instructions per node than a
//! run-time colour: results/analysis.md, issue 6), and a child position's side is `Us::Other`, which a `const bool`
//! parameter cannot express on stable Rust.

use crate::{Bitboard, Color, Direction, Rank, relative_rank};

/// A side to move, known at compile time.
pub(crate) trait Side {
    /// The colour.
    const COLOR: Color;
    /// Towards the promotion rank.
    const UP: Direction;
    /// A capture towards the a-file's side of `UP` for white, the h-file's for black.
    const UP_LEFT: Direction;
    /// The other capture direction.
    const UP_RIGHT: Direction;
    /// The rank a single push from the starting rank reaches (where a double push passes).
    const THIRD_RANK: Bitboard = relative_rank(Self::COLOR, Rank::R3).bitboard();
    /// The rank where pawns promote.
    const LAST_RANK: Bitboard = relative_rank(Self::COLOR, Rank::R8).bitboard();
    /// The rank a pawn promotes from.
    const SEVENTH_RANK: Bitboard = relative_rank(Self::COLOR, Rank::R7).bitboard();
    /// The opponent.
    type Other: Side;
}

/// White to move.
pub(crate) struct White;

/// Black to move.
pub(crate) struct Black;

impl Side for White {
    const COLOR: Color = Color::White;
    const UP: Direction = Direction::NORTH;
    const UP_LEFT: Direction = Direction::NORTH_WEST;
    const UP_RIGHT: Direction = Direction::NORTH_EAST;
    type Other = Black;
}

impl Side for Black {
    const COLOR: Color = Color::Black;
    const UP: Direction = Direction::SOUTH;
    const UP_LEFT: Direction = Direction::SOUTH_EAST;
    const UP_RIGHT: Direction = Direction::SOUTH_WEST;
    type Other = White;
}
