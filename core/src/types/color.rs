use core::ops::Not;

/// A side: `White = 0`, `Black = 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// Moves first; its pawns move towards rank 8.
    White = 0,
    /// Its pawns move towards rank 1.
    Black = 1,
}

impl Color {
    /// Both colours, white first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other side.
    ///
    /// ```
    /// # use bitforge::Color;
    /// assert_eq!(Color::White.flip(), Color::Black);
    /// assert_eq!(!Color::Black, Color::White);
    /// ```
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `0` for white, `1` for black: the index of per-colour tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN letter of the side to move: `w` or `b`.
    pub const fn to_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl Not for Color {
    type Output = Color;

    #[inline(always)]
    fn not(self) -> Color {
        self.flip()
    }
}
