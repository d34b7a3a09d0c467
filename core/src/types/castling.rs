use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};
use core::str::FromStr;

use crate::{Color, File, ParseError, Square};

/// Which way a king castles: a selector, not a mask (see [`CastlingRights::new`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Towards the h-file (O-O).
    King,
    /// Towards the a-file (O-O-O).
    Queen,
}

impl CastlingSide {
    /// The side a castling move of the king on `king` with the rook on `rook` goes to: towards
    /// the h-file when the rook stands right of the king (Chess960 included).
    ///
    /// ```
    /// use bitforge::{CastlingSide, Square};
    ///
    /// assert_eq!(CastlingSide::of(Square::E1, Square::H1), CastlingSide::King);
    /// assert_eq!(CastlingSide::of(Square::B8, Square::A8), CastlingSide::Queen);
    /// ```
    #[inline(always)]
    pub const fn of(king: Square, rook: Square) -> CastlingSide {
        if rook as u8 > king as u8 {
            CastlingSide::King
        } else {
            CastlingSide::Queen
        }
    }

    /// The files the king and the rook land on: g and f for the king's side, c and d for the
    /// queen's, in standard chess and Chess960 alike.
    #[inline(always)]
    pub const fn destination_files(self) -> (File, File) {
        match self {
            CastlingSide::King => (File::G, File::F),
            CastlingSide::Queen => (File::C, File::D),
        }
    }
}

/// A set of castling rights: `WHITE_OO = 1, WHITE_OOO = 2, BLACK_OO = 4, BLACK_OOO = 8`,
/// `ANY = 15`; 16 combinations.
///
/// ```
/// use bitforge::{CastlingRights, CastlingSide, Color};
///
/// let rights: CastlingRights = "Kq".parse().unwrap();
/// assert_eq!(rights, CastlingRights::WHITE_OO | CastlingRights::BLACK_OOO);
/// assert!(rights.has(CastlingRights::new(Color::Black, CastlingSide::Queen)));
/// assert_eq!(rights.to_string(), "Kq");
/// assert_eq!(CastlingRights::NONE.to_string(), "-");
/// assert!("KK".parse::<CastlingRights>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights(pub u8);

impl CastlingRights {
    /// No rights.
    pub const NONE: CastlingRights = CastlingRights(0);
    /// White king side.
    pub const WHITE_OO: CastlingRights = CastlingRights(1);
    /// White queen side.
    pub const WHITE_OOO: CastlingRights = CastlingRights(2);
    /// Black king side.
    pub const BLACK_OO: CastlingRights = CastlingRights(4);
    /// Black queen side.
    pub const BLACK_OOO: CastlingRights = CastlingRights(8);
    /// Both king sides.
    pub const KING_SIDE: CastlingRights = CastlingRights(1 | 4);
    /// Both queen sides.
    pub const QUEEN_SIDE: CastlingRights = CastlingRights(2 | 8);
    /// Both of white's.
    pub const WHITE: CastlingRights = CastlingRights(1 | 2);
    /// Both of black's.
    pub const BLACK: CastlingRights = CastlingRights(4 | 8);
    /// All four.
    pub const ANY: CastlingRights = CastlingRights(15);

    /// The one right of `color` on `side`.
    #[inline(always)]
    pub const fn new(color: Color, side: CastlingSide) -> CastlingRights {
        let white = match side {
            CastlingSide::King => 1,
            CastlingSide::Queen => 2,
        };
        CastlingRights(white << (2 * color as u8))
    }

    /// Both rights of `color`.
    #[inline(always)]
    pub const fn of(color: Color) -> CastlingRights {
        CastlingRights(3 << (2 * color as u8))
    }

    /// Whether every right in `rights` is in this set.
    #[inline(always)]
    pub const fn has(self, rights: CastlingRights) -> bool {
        self.0 & rights.0 == rights.0
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The index, `0..16`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        (self.0 & 15) as usize
    }

    /// The same rights for the other side (white's become black's).
    #[inline(always)]
    pub const fn flip(self) -> CastlingRights {
        CastlingRights(((self.0 & 3) << 2) | ((self.0 >> 2) & 3))
    }
}

impl BitOr for CastlingRights {
    type Output = CastlingRights;
    #[inline(always)]
    fn bitor(self, rhs: CastlingRights) -> CastlingRights {
        CastlingRights(self.0 | rhs.0)
    }
}

impl BitAnd for CastlingRights {
    type Output = CastlingRights;
    #[inline(always)]
    fn bitand(self, rhs: CastlingRights) -> CastlingRights {
        CastlingRights(self.0 & rhs.0)
    }
}

impl Not for CastlingRights {
    type Output = CastlingRights;
    #[inline(always)]
    fn not(self) -> CastlingRights {
        CastlingRights(!self.0 & 15)
    }
}

impl BitOrAssign for CastlingRights {
    #[inline(always)]
    fn bitor_assign(&mut self, rhs: CastlingRights) {
        self.0 |= rhs.0;
    }
}

impl BitAndAssign for CastlingRights {
    #[inline(always)]
    fn bitand_assign(&mut self, rhs: CastlingRights) {
        self.0 &= rhs.0;
    }
}

const LETTERS: [(char, CastlingRights); 4] = [
    ('K', CastlingRights::WHITE_OO),
    ('Q', CastlingRights::WHITE_OOO),
    ('k', CastlingRights::BLACK_OO),
    ('q', CastlingRights::BLACK_OOO),
];

impl fmt::Display for CastlingRights {
    /// The FEN castling field: `KQkq` letters in that order, or `-`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for (letter, right) in LETTERS {
            if self.has(right) {
                fmt::Write::write_char(f, letter)?;
            }
        }
        Ok(())
    }
}

impl FromStr for CastlingRights {
    type Err = ParseError;

    /// Reads a standard FEN castling field (`KQkq`, any subset in any order, or `-`).
    /// Chess960 letters need the position and are read with it.
    fn from_str(text: &str) -> Result<CastlingRights, ParseError> {
        if text == "-" {
            return Ok(CastlingRights::NONE);
        }
        if text.is_empty() {
            return Err(ParseError::EmptyCastling);
        }
        let mut rights = CastlingRights::NONE;
        for c in text.chars() {
            match LETTERS.iter().find(|(letter, _)| *letter == c) {
                Some(&(_, right)) if !rights.has(right) => rights |= right,
                _ => return Err(ParseError::InvalidCastling(c)),
            }
        }
        Ok(rights)
    }
}
