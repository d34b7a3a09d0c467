use crate::{Color, ParseError};

/// A kind of piece: `NONE = 0, PAWN = 1, KNIGHT, BISHOP, ROOK, QUEEN, KING = 6`; 8 slots.
///
/// Slot 0 doubles as "all pieces" ([`PieceType::ALL`]) in tables indexed by type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum PieceType {
    None = 0,
    Pawn = 1,
    Knight = 2,
    Bishop = 3,
    Rook = 4,
    Queen = 5,
    King = 6,
}

impl PieceType {
    /// The all-pieces slot of per-type tables (the same code as `None`).
    pub const ALL: PieceType = PieceType::None;

    /// The six real piece types, pawn first.
    pub const LIST: [PieceType; 6] = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
        PieceType::King,
    ];

    /// The index, `0..8`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The type with code `code & 7` (codes 0 and 7 give `None`).
    #[inline(always)]
    pub const fn from_code(code: u8) -> PieceType {
        // Arithmetic, not a `match`: the compiler turned the match into a jump through a table
        // of code paths, one per type, where a move is made, and that jump mispredicts
        // (results/analysis.md, issue 37).
        let code = code & 7;
        let code = code * (code != 7) as u8;
        // SAFETY: `code` is in 0..=6, each a discriminant of `PieceType` (`repr(u8)`).
        unsafe { core::mem::transmute::<u8, PieceType>(code) }
    }

    /// The lower-case letter (`p n b r q k`), or `None` for no type.
    pub const fn to_char(self) -> Option<char> {
        match self {
            PieceType::None => None,
            PieceType::Pawn => Some('p'),
            PieceType::Knight => Some('n'),
            PieceType::Bishop => Some('b'),
            PieceType::Rook => Some('r'),
            PieceType::Queen => Some('q'),
            PieceType::King => Some('k'),
        }
    }
}

/// A coloured piece, `(color << 3) | type`: `W_PAWN = 1 .. W_KING = 6`, `B_PAWN = 9 ..
/// B_KING = 14`; 16 slots.
///
/// ```
/// use bitforge::{Color, Piece, PieceType};
///
/// let knight = Piece::new(Color::Black, PieceType::Knight);
/// assert_eq!(knight as u8, 10);
/// assert_eq!((knight.color(), knight.piece_type()), (Color::Black, PieceType::Knight));
/// assert_eq!(knight.flip(), Piece::WhiteKnight);
/// assert_eq!(Piece::from_char('n'), Ok(knight));
/// assert_eq!(knight.to_char(), Some('n'));
/// assert!(Piece::from_char('x').is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Piece {
    None = 0,
    WhitePawn = 1,
    WhiteKnight = 2,
    WhiteBishop = 3,
    WhiteRook = 4,
    WhiteQueen = 5,
    WhiteKing = 6,
    BlackPawn = 9,
    BlackKnight = 10,
    BlackBishop = 11,
    BlackRook = 12,
    BlackQueen = 13,
    BlackKing = 14,
}

impl Piece {
    /// The twelve real pieces, white first.
    pub const LIST: [Piece; 12] = [
        Piece::WhitePawn,
        Piece::WhiteKnight,
        Piece::WhiteBishop,
        Piece::WhiteRook,
        Piece::WhiteQueen,
        Piece::WhiteKing,
        Piece::BlackPawn,
        Piece::BlackKnight,
        Piece::BlackBishop,
        Piece::BlackRook,
        Piece::BlackQueen,
        Piece::BlackKing,
    ];

    /// `make_piece(c, pt)`: `(c << 3) | pt`. A `None` type gives `Piece::None`.
    #[inline(always)]
    pub const fn new(color: Color, piece_type: PieceType) -> Piece {
        // A table lookup: making moves asks this several times per move.
        Self::BY_CODE[(((color as u8) << 3) | piece_type as u8) as usize & 15]
    }

    /// Every 4-bit code's piece (`None` for the unused codes 7, 8 and 15).
    const BY_CODE: [Piece; 16] = {
        let mut table = [Piece::None; 16];
        let mut code = 0;
        while code < 16 {
            if let Some(piece) = Self::from_code(code as u8) {
                table[code] = piece;
            }
            code += 1;
        }
        table
    };

    /// The piece with this code, if it is one of the 13 valid codes (0, 1-6, 9-14).
    #[inline]
    pub const fn from_code(code: u8) -> Option<Piece> {
        match code {
            0 => Some(Piece::None),
            1..=6 | 9..=14 => {
                // SAFETY: `Piece` is `repr(u8)` and has exactly the discriminants 0, 1-6, 9-14.
                Some(unsafe { core::mem::transmute::<u8, Piece>(code) })
            }
            _ => None,
        }
    }

    /// The index, `0..16`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `type_of(pc)`: `pc & 7`.
    #[inline(always)]
    pub const fn piece_type(self) -> PieceType {
        PieceType::from_code(self as u8)
    }

    /// `color_of(pc)`: `pc >> 3` (white for `None`).
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self as u8 >> 3 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The same type in the other colour (`pc ^ 8`); `None` stays `None`.
    #[inline(always)]
    pub const fn flip(self) -> Piece {
        match Self::from_code(self as u8 ^ 8) {
            Some(piece) => piece,
            None => Piece::None,
        }
    }

    /// Parses a FEN piece letter: `PNBRQK` for white, `pnbrqk` for black.
    pub const fn from_char(c: char) -> Result<Piece, ParseError> {
        let piece_type = match c.to_ascii_lowercase() {
            'p' => PieceType::Pawn,
            'n' => PieceType::Knight,
            'b' => PieceType::Bishop,
            'r' => PieceType::Rook,
            'q' => PieceType::Queen,
            'k' => PieceType::King,
            _ => return Err(ParseError::InvalidPiece(c)),
        };
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Ok(Piece::new(color, piece_type))
    }

    /// The FEN letter, upper-case for white; `None` for no piece.
    pub const fn to_char(self) -> Option<char> {
        match self.piece_type().to_char() {
            Some(c) if (self as u8) < 8 => Some(c.to_ascii_uppercase()),
            other => other,
        }
    }
}

/// `make_piece(c, pt)`.
#[inline(always)]
pub const fn make_piece(color: Color, piece_type: PieceType) -> Piece {
    Piece::new(color, piece_type)
}

/// `type_of(pc)`.
#[inline(always)]
pub const fn type_of(piece: Piece) -> PieceType {
    piece.piece_type()
}

/// `color_of(pc)`.
#[inline(always)]
pub const fn color_of(piece: Piece) -> Color {
    piece.color()
}
