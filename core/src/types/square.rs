use core::fmt;
use core::str::FromStr;

use crate::{Bitboard, Color, Direction, ParseError};

/// A square, `A1 = 0 .. H8 = 63`: `file = s & 7`, `rank = s >> 3`.
///
/// Stockfish's `SQ_NONE = 64` is `Option<Square>::None` here (see [`Square::to_raw`]), so a
/// `Square` is always on the board and indexes 64-entry tables without a bounds check.
///
/// ```
/// use bitforge::{File, Rank, Square};
///
/// let e4: Square = "e4".parse().unwrap();
/// assert_eq!(e4, Square::E4);
/// assert_eq!((e4.file(), e4.rank()), (File::E, Rank::R4));
/// assert_eq!(e4.index(), 28);
/// assert_eq!(e4.to_string(), "e4");
/// assert!("e9".parse::<Square>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[rustfmt::skip]
#[allow(missing_docs)]
pub enum Square {
    A1, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
}

impl Square {
    /// Every square, `A1` first.
    #[rustfmt::skip]
    pub const ALL: [Square; 64] = [
        Square::A1, Square::B1, Square::C1, Square::D1, Square::E1, Square::F1, Square::G1, Square::H1,
        Square::A2, Square::B2, Square::C2, Square::D2, Square::E2, Square::F2, Square::G2, Square::H2,
        Square::A3, Square::B3, Square::C3, Square::D3, Square::E3, Square::F3, Square::G3, Square::H3,
        Square::A4, Square::B4, Square::C4, Square::D4, Square::E4, Square::F4, Square::G4, Square::H4,
        Square::A5, Square::B5, Square::C5, Square::D5, Square::E5, Square::F5, Square::G5, Square::H5,
        Square::A6, Square::B6, Square::C6, Square::D6, Square::E6, Square::F6, Square::G6, Square::H6,
        Square::A7, Square::B7, Square::C7, Square::D7, Square::E7, Square::F7, Square::G7, Square::H7,
        Square::A8, Square::B8, Square::C8, Square::D8, Square::E8, Square::F8, Square::G8, Square::H8,
    ];

    /// Stockfish's `SQ_NONE`: the raw value of "no square".
    pub const NONE_RAW: u8 = 64;

    /// The square with index `index & 63`.
    #[inline(always)]
    pub const fn from_index_masked(index: u8) -> Square {
        // SAFETY: `index & 63` is in 0..64, and `Square` is `repr(u8)` with exactly the
        // discriminants 0..64.
        unsafe { core::mem::transmute::<u8, Square>(index & 63) }
    }

    /// The square with this index, if it is below 64.
    #[inline]
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Self::from_index_masked(index))
        } else {
            None
        }
    }

    /// The raw encoding of an optional square: its index, or [`NONE_RAW`](Self::NONE_RAW).
    #[inline]
    pub const fn to_raw(square: Option<Square>) -> u8 {
        match square {
            Some(square) => square as u8,
            None => Self::NONE_RAW,
        }
    }

    /// The inverse of [`to_raw`](Self::to_raw): `None` for 64 (and anything above).
    #[inline]
    pub const fn from_raw(raw: u8) -> Option<Square> {
        Self::from_index(raw)
    }

    /// `make_square`: the square on `file` and `rank`, `(rank << 3) + file`.
    #[inline(always)]
    pub const fn new(file: File, rank: Rank) -> Square {
        Self::from_index_masked(((rank as u8) << 3) + file as u8)
    }

    /// The index, `0..64`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `file_of`: `s & 7`.
    #[inline(always)]
    pub const fn file(self) -> File {
        File::from_index_masked(self as u8)
    }

    /// `rank_of`: `s >> 3`.
    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank::from_index_masked(self as u8 >> 3)
    }

    /// `relative_square`: the square as seen from `color`'s side, `s ^ (color * 56)`.
    ///
    /// ```
    /// # use bitforge::{Color, Square};
    /// assert_eq!(Square::E2.relative(Color::Black), Square::E7);
    /// assert_eq!(Square::E2.relative(Color::White), Square::E2);
    /// ```
    #[inline(always)]
    pub const fn relative(self, color: Color) -> Square {
        Self::from_index_masked(self as u8 ^ (color as u8 * 56))
    }

    /// The same file on the mirrored rank (`s ^ 56`): the colour flip of a square.
    #[inline(always)]
    pub const fn flip_rank(self) -> Square {
        Self::from_index_masked(self as u8 ^ 56)
    }

    /// The mirrored file on the same rank (`s ^ 7`).
    #[inline(always)]
    pub const fn flip_file(self) -> Square {
        Self::from_index_masked(self as u8 ^ 7)
    }

    /// The square one `direction` step away, if it is on the board and the step does not wrap
    /// around an edge.
    ///
    /// ```
    /// # use bitforge::{Direction, Square};
    /// assert_eq!(Square::E4.offset(Direction::NORTH_EAST), Some(Square::F5));
    /// assert_eq!(Square::H4.offset(Direction::EAST), None);
    /// ```
    #[inline]
    pub const fn offset(self, direction: Direction) -> Option<Square> {
        let moved = Bitboard::from_square(self).shift(direction);
        if moved.is_empty() {
            None
        } else {
            Some(moved.lsb())
        }
    }

    /// The one-bit set of this square.
    #[inline(always)]
    pub const fn bitboard(self) -> Bitboard {
        Bitboard::from_square(self)
    }
}

/// `file_of(s)`: the file of a square.
#[inline(always)]
pub const fn file_of(square: Square) -> File {
    square.file()
}

/// `rank_of(s)`: the rank of a square.
#[inline(always)]
pub const fn rank_of(square: Square) -> Rank {
    square.rank()
}

/// `make_square(f, r)`: the square on a file and rank.
#[inline(always)]
pub const fn make_square(file: File, rank: Rank) -> Square {
    Square::new(file, rank)
}

/// `relative_square(c, s)`: `s ^ (c * 56)`.
#[inline(always)]
pub const fn relative_square(color: Color, square: Square) -> Square {
    square.relative(color)
}

/// `relative_rank(c, r)`: the rank as seen from `color`'s side.
#[inline(always)]
pub const fn relative_rank(color: Color, rank: Rank) -> Rank {
    Rank::from_index_masked(rank as u8 ^ (color as u8 * 7))
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), self.rank())
    }
}

impl FromStr for Square {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Square, ParseError> {
        match text.as_bytes() {
            [file, rank] => Ok(Square::new(
                File::from_char(*file as char)?,
                Rank::from_char(*rank as char)?,
            )),
            _ => Err(ParseError::InvalidSquare),
        }
    }
}

/// A file, `A = 0 .. H = 7`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum File {
    A,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

impl File {
    /// Every file, `A` first.
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    /// The file with index `index & 7`.
    #[inline(always)]
    pub const fn from_index_masked(index: u8) -> File {
        Self::ALL[(index & 7) as usize]
    }

    /// The index, `0..8`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Parses `a` to `h`.
    pub const fn from_char(c: char) -> Result<File, ParseError> {
        match c {
            'a'..='h' => Ok(Self::from_index_masked(c as u8 - b'a')),
            _ => Err(ParseError::InvalidFile(c)),
        }
    }

    /// `a` to `h`.
    pub const fn to_char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// Every square of the file.
    #[inline(always)]
    pub const fn bitboard(self) -> Bitboard {
        Bitboard::FILES[self as usize]
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Write::write_char(f, self.to_char())
    }
}

/// A rank, `R1 = 0 .. R8 = 7`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Rank {
    R1,
    R2,
    R3,
    R4,
    R5,
    R6,
    R7,
    R8,
}

impl Rank {
    /// Every rank, the first first.
    pub const ALL: [Rank; 8] = [
        Rank::R1,
        Rank::R2,
        Rank::R3,
        Rank::R4,
        Rank::R5,
        Rank::R6,
        Rank::R7,
        Rank::R8,
    ];

    /// The rank with index `index & 7`.
    #[inline(always)]
    pub const fn from_index_masked(index: u8) -> Rank {
        Self::ALL[(index & 7) as usize]
    }

    /// The index, `0..8`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Parses `1` to `8`.
    pub const fn from_char(c: char) -> Result<Rank, ParseError> {
        match c {
            '1'..='8' => Ok(Self::from_index_masked(c as u8 - b'1')),
            _ => Err(ParseError::InvalidRank(c)),
        }
    }

    /// `1` to `8`.
    pub const fn to_char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// Every square of the rank.
    #[inline(always)]
    pub const fn bitboard(self) -> Bitboard {
        Bitboard::RANKS[self as usize]
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Write::write_char(f, self.to_char())
    }
}
