use core::fmt;
use core::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub, SubAssign,
};

use crate::{Color, Direction, Square, tables};

/// A set of squares: bit `i` is square `i` (a1 = bit 0, h1 = bit 7, a8 = bit 56, h8 = bit 63).
///
/// The operators are set operations: `&` intersection, `|` union, `^` symmetric difference, `!`
/// complement and `-` difference; each also takes a [`Square`] on the right.
///
/// ```
/// use bitforge::{Bitboard, Square, bitboard};
///
/// let set = Square::A1 | Square::H8;
/// assert_eq!(set.count(), 2);
/// assert!(set.contains(Square::H8));
/// assert_eq!(set - Square::H8, Square::A1.bitboard());
/// assert_eq!(set.lsb(), Square::A1);
/// assert_eq!(set.msb(), Square::H8);
/// assert_eq!(Bitboard::RANK_1.count(), 8);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const FULL: Bitboard = Bitboard(!0);

    /// The files, `a` first.
    pub const FILES: [Bitboard; 8] = tables::FILE_BB;
    /// The ranks, the first first.
    pub const RANKS: [Bitboard; 8] = tables::RANK_BB;

    /// The a-file.
    pub const FILE_A: Bitboard = Self::FILES[0];
    /// The b-file.
    pub const FILE_B: Bitboard = Self::FILES[1];
    /// The c-file.
    pub const FILE_C: Bitboard = Self::FILES[2];
    /// The d-file.
    pub const FILE_D: Bitboard = Self::FILES[3];
    /// The e-file.
    pub const FILE_E: Bitboard = Self::FILES[4];
    /// The f-file.
    pub const FILE_F: Bitboard = Self::FILES[5];
    /// The g-file.
    pub const FILE_G: Bitboard = Self::FILES[6];
    /// The h-file.
    pub const FILE_H: Bitboard = Self::FILES[7];
    /// The first rank.
    pub const RANK_1: Bitboard = Self::RANKS[0];
    /// The second rank.
    pub const RANK_2: Bitboard = Self::RANKS[1];
    /// The third rank.
    pub const RANK_3: Bitboard = Self::RANKS[2];
    /// The fourth rank.
    pub const RANK_4: Bitboard = Self::RANKS[3];
    /// The fifth rank.
    pub const RANK_5: Bitboard = Self::RANKS[4];
    /// The sixth rank.
    pub const RANK_6: Bitboard = Self::RANKS[5];
    /// The seventh rank.
    pub const RANK_7: Bitboard = Self::RANKS[6];
    /// The eighth rank.
    pub const RANK_8: Bitboard = Self::RANKS[7];
    /// The 32 dark squares (a1 is dark).
    pub const DARK_SQUARES: Bitboard = Bitboard(0xAA55_AA55_AA55_AA55);

    /// The set holding just `square`.
    #[inline(always)]
    pub const fn from_square(square: Square) -> Bitboard {
        tables::SQUARE_BB[square as usize]
    }

    /// Whether no square is in the set.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `square` is in the set.
    #[inline(always)]
    pub const fn contains(self, square: Square) -> bool {
        self.0 & Self::from_square(square).0 != 0
    }

    /// The number of squares (popcount).
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has two or more squares.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square. The set must not be empty: an empty set gives `A1` (and fails a
    /// debug assertion).
    #[inline(always)]
    pub const fn lsb(self) -> Square {
        debug_assert!(!self.is_empty(), "lsb of an empty bitboard");
        Square::from_index_masked(self.0.trailing_zeros() as u8)
    }

    /// The highest square. The set must not be empty: an empty set gives `H8` (and fails a
    /// debug assertion).
    #[inline(always)]
    pub const fn msb(self) -> Square {
        debug_assert!(!self.is_empty(), "msb of an empty bitboard");
        Square::from_index_masked(63 ^ self.0.leading_zeros() as u8)
    }

    /// Removes and returns the lowest square. The set must not be empty (see [`lsb`](Self::lsb)).
    #[inline(always)]
    pub const fn pop_lsb(&mut self) -> Square {
        let square = self.lsb();
        self.0 &= self.0.wrapping_sub(1);
        square
    }

    /// The lowest square, or `None` for an empty set.
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.is_empty() {
            None
        } else {
            Some(self.lsb())
        }
    }

    /// Every square moved one step in `direction` (or two, for the double pushes); squares that
    /// would leave the board or wrap around an edge are dropped.
    ///
    /// ```
    /// # use bitforge::{Bitboard, Direction, Square};
    /// let edge = Square::H4 | Square::D4;
    /// assert_eq!(edge.shift(Direction::EAST), Square::E4.bitboard());
    /// assert_eq!(edge.shift(Direction::NORTH), Square::H5 | Square::D5);
    /// ```
    #[inline(always)]
    pub const fn shift(self, direction: Direction) -> Bitboard {
        let not_a = self.0 & !Self::FILE_A.0;
        let not_h = self.0 & !Self::FILE_H.0;
        Bitboard(match direction.0 {
            8 => self.0 << 8,
            16 => self.0 << 16,
            -8 => self.0 >> 8,
            -16 => self.0 >> 16,
            1 => not_h << 1,
            9 => not_h << 9,
            -7 => not_h >> 7,
            -1 => not_a >> 1,
            7 => not_a << 7,
            -9 => not_a >> 9,
            _ => 0,
        })
    }

    /// The squares attacked by pawns of `color` standing on every square of this set.
    ///
    /// ```
    /// # use bitforge::{Color, Square};
    /// let pawns = Square::A2 | Square::E4;
    /// assert_eq!(pawns.pawn_attacks(Color::White), Square::B3 | Square::D5 | Square::F5);
    /// ```
    #[inline(always)]
    pub const fn pawn_attacks(self, color: Color) -> Bitboard {
        match color {
            Color::White => {
                Bitboard(self.shift(Direction::NORTH_WEST).0 | self.shift(Direction::NORTH_EAST).0)
            }
            Color::Black => {
                Bitboard(self.shift(Direction::SOUTH_WEST).0 | self.shift(Direction::SOUTH_EAST).0)
            }
        }
    }

    /// The set from 64 cells in reading order: rank 8 first, each rank from a to h. This is
    /// what [`bitboard!`](crate::bitboard) expands to.
    pub const fn from_grid(cells: [bool; 64]) -> Bitboard {
        let mut bits = 0;
        let mut cell = 0;
        while cell < 64 {
            if cells[cell] {
                let (row, file) = (cell / 8, cell % 8);
                bits |= 1 << ((7 - row) * 8 + file);
            }
            cell += 1;
        }
        Bitboard(bits)
    }
}

macro_rules! set_operator {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, |$a:ident, $b:ident| $body:expr) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                let ($a, $b) = (self.0, rhs.0);
                Bitboard($body)
            }
        }

        impl $trait<Square> for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $method(self, rhs: Square) -> Bitboard {
                self.$method(Bitboard::from_square(rhs))
            }
        }

        impl $trait<Square> for Square {
            type Output = Bitboard;
            #[inline(always)]
            fn $method(self, rhs: Square) -> Bitboard {
                Bitboard::from_square(self).$method(Bitboard::from_square(rhs))
            }
        }

        impl $trait<Bitboard> for Square {
            type Output = Bitboard;
            #[inline(always)]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard::from_square(self).$method(rhs)
            }
        }

        impl $assign_trait for Bitboard {
            #[inline(always)]
            fn $assign_method(&mut self, rhs: Bitboard) {
                *self = $trait::$method(*self, rhs);
            }
        }

        impl $assign_trait<Square> for Bitboard {
            #[inline(always)]
            fn $assign_method(&mut self, rhs: Square) {
                *self = $trait::$method(*self, rhs);
            }
        }
    };
}

set_operator!(BitAnd, bitand, BitAndAssign, bitand_assign, |a, b| a & b);
set_operator!(BitOr, bitor, BitOrAssign, bitor_assign, |a, b| a | b);
set_operator!(BitXor, bitxor, BitXorAssign, bitxor_assign, |a, b| a ^ b);
set_operator!(Sub, sub, SubAssign, sub_assign, |a, b| a & !b);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(square: Square) -> Bitboard {
        Bitboard::from_square(square)
    }
}

impl fmt::Display for Bitboard {
    /// An 8x8 grid, rank 8 on top: `X` for a square in the set, `.` for one outside: the
    /// syntax [`bitboard!`](crate::bitboard) reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            for file in 0..8 {
                let cell = if self.0 & (1 << (rank * 8 + file)) != 0 {
                    'X'
                } else {
                    '.'
                };
                let separator = if file == 7 { '\n' } else { ' ' };
                write!(f, "{cell}{separator}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Bitboard {
    /// The hex value, then the grid: readable in a failed `assert_eq!`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#018x})\n{self}", self.0)
    }
}
