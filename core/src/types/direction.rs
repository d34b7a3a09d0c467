/// A step on the board as a square-index offset: `NORTH = 8`, `EAST = 1`, `SOUTH = -8`,
/// `WEST = -1`, and their sums.
///
/// Moving a whole [`Bitboard`](crate::Bitboard) by a direction is
/// [`Bitboard::shift`](crate::Bitboard::shift), which never wraps around the board's edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Direction(pub i8);

impl Direction {
    /// Towards rank 8.
    pub const NORTH: Direction = Direction(8);
    /// Towards the h-file.
    pub const EAST: Direction = Direction(1);
    /// Towards rank 1.
    pub const SOUTH: Direction = Direction(-8);
    /// Towards the a-file.
    pub const WEST: Direction = Direction(-1);
    /// `NORTH + EAST`.
    pub const NORTH_EAST: Direction = Direction(Self::NORTH.0 + Self::EAST.0);
    /// `SOUTH + EAST`.
    pub const SOUTH_EAST: Direction = Direction(Self::SOUTH.0 + Self::EAST.0);
    /// `SOUTH + WEST`.
    pub const SOUTH_WEST: Direction = Direction(Self::SOUTH.0 + Self::WEST.0);
    /// `NORTH + WEST`.
    pub const NORTH_WEST: Direction = Direction(Self::NORTH.0 + Self::WEST.0);
    /// Two squares north: a white pawn's double push.
    pub const NORTH_NORTH: Direction = Direction(2 * Self::NORTH.0);
    /// Two squares south: a black pawn's double push.
    pub const SOUTH_SOUTH: Direction = Direction(2 * Self::SOUTH.0);

    /// The eight single steps, clockwise from north.
    pub const ALL: [Direction; 8] = [
        Self::NORTH,
        Self::NORTH_EAST,
        Self::EAST,
        Self::SOUTH_EAST,
        Self::SOUTH,
        Self::SOUTH_WEST,
        Self::WEST,
        Self::NORTH_WEST,
    ];

    /// The direction a pawn of `color` pushes.
    #[inline(always)]
    pub const fn pawn_push(color: crate::Color) -> Direction {
        match color {
            crate::Color::White => Self::NORTH,
            crate::Color::Black => Self::SOUTH,
        }
    }
}
