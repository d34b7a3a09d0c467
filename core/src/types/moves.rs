use core::fmt;
use core::str::FromStr;

use crate::{CastlingSide, ParseError, PieceType, Square};

/// What kind of move a [`Move`] is (bits 14-15).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MoveKind {
    /// A quiet move or a capture.
    Normal = 0,
    /// A pawn reaching the last rank.
    Promotion = 1,
    /// A pawn capturing en passant.
    EnPassant = 2,
    /// Castling, encoded king-takes-own-rook.
    Castling = 3,
}

/// A move in 16 bits: destination in bits 0-5, origin in 6-11, promotion piece minus knight in
/// 12-13, [`MoveKind`] in 14-15.
///
/// Castling is encoded as the king capturing its own rook, which serves Chess960 as well; the
/// UCI text ([`Move::uci`]) converts back to the king's destination for standard chess.
///
/// ```
/// use bitforge::{Move, MoveKind, PieceType, Square};
///
/// let m = Move::promotion(Square::B7, Square::A8, PieceType::Queen);
/// assert_eq!((m.from(), m.to()), (Square::B7, Square::A8));
/// assert_eq!((m.kind(), m.promotion_type()), (MoveKind::Promotion, PieceType::Queen));
/// assert_eq!(m.to_string(), "b7a8q");
///
/// let castle = Move::castling(Square::E1, Square::H1);
/// assert_eq!(castle.uci(false).to_string(), "e1g1");
/// assert_eq!(castle.uci(true).to_string(), "e1h1");
/// assert_eq!(Move::NULL.0, 65);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Move(pub u16);

impl Move {
    /// No move (0).
    pub const NONE: Move = Move(0);
    /// The null move (65: origin and destination both b1).
    pub const NULL: Move = Move(65);

    #[inline(always)]
    const fn make(kind: MoveKind, from: Square, to: Square, promotion_bits: u16) -> Move {
        Move(((kind as u16) << 14) | (promotion_bits << 12) | ((from as u16) << 6) | to as u16)
    }

    /// A normal move (quiet or capture).
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Self::make(MoveKind::Normal, from, to, 0)
    }

    /// A promotion to `piece` (knight, bishop, rook or queen; anything else is read as
    /// `piece & 3` above knight).
    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, piece: PieceType) -> Move {
        let bits = (piece as u16).wrapping_sub(PieceType::Knight as u16) & 3;
        Self::make(MoveKind::Promotion, from, to, bits)
    }

    /// An en passant capture; `to` is the square the capturing pawn moves to.
    #[inline(always)]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Self::make(MoveKind::EnPassant, from, to, 0)
    }

    /// Castling, as the king on `king` taking its own rook on `rook`.
    #[inline(always)]
    pub const fn castling(king: Square, rook: Square) -> Move {
        Self::make(MoveKind::Castling, king, rook, 0)
    }

    /// `from_sq(m)`: the origin.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_masked((self.0 >> 6) as u8)
    }

    /// `to_sq(m)`: the destination (the rook's square for castling).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_masked(self.0 as u8)
    }

    /// Origin and destination together (bits 0-11), for history tables.
    #[inline(always)]
    pub const fn from_to(self) -> u16 {
        self.0 & 0xFFF
    }

    /// `type_of(m)`: the kind of move.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 14 {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castling,
        }
    }

    /// `promotion_type(m)`: knight to queen from bits 12-13 (meaningful for promotions only).
    #[inline(always)]
    pub const fn promotion_type(self) -> PieceType {
        PieceType::from_code(PieceType::Knight as u8 + ((self.0 >> 12) & 3) as u8)
    }

    /// `is_ok(m)`: neither `NONE` nor `NULL` (origin and destination differ).
    #[inline(always)]
    pub const fn is_ok(self) -> bool {
        (self.0 >> 6) & 63 != self.0 & 63
    }

    /// The move as UCI names it: castling as the king's destination (`e1g1`), or as king takes
    /// rook (`e1h1`) when `chess960`; `NONE` and `NULL` as [`UciMove::Null`].
    ///
    /// ```
    /// use bitforge::{Move, PieceType, Square, UciMove};
    ///
    /// let castle = Move::castling(Square::E8, Square::A8);
    /// let king_to_c8 = UciMove::Move { from: Square::E8, to: Square::C8, promotion: None };
    /// assert_eq!(castle.to_uci(false), king_to_c8);
    /// assert_eq!(Move::NULL.to_uci(false), UciMove::Null);
    /// ```
    pub const fn to_uci(self, chess960: bool) -> UciMove {
        if !self.is_ok() {
            return UciMove::Null;
        }
        let mut to = self.to();
        if matches!(self.kind(), MoveKind::Castling) && !chess960 {
            let (file, _) = CastlingSide::of(self.from(), self.to()).destination_files();
            to = Square::new(file, self.from().rank());
        }
        let promotion = match self.kind() {
            MoveKind::Promotion => Some(self.promotion_type()),
            _ => None,
        };
        UciMove::Move {
            from: self.from(),
            to,
            promotion,
        }
    }

    /// The move in UCI notation: `e2e4`, `e7e8q`, `0000` for `NONE` and `NULL`. Castling
    /// prints the king's destination (`e1g1`), or king-takes-rook (`e1h1`) when `chess960`.
    #[inline]
    pub const fn uci(self, chess960: bool) -> UciDisplay {
        UciDisplay { mv: self, chess960 }
    }
}

impl fmt::Display for Move {
    /// Standard UCI notation (see [`Move::uci`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.uci(false).fmt(f)
    }
}

/// A [`Move`] formatted in UCI notation, from [`Move::uci`].
#[derive(Clone, Copy, Debug)]
pub struct UciDisplay {
    mv: Move,
    chess960: bool,
}

impl fmt::Display for UciDisplay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.mv.to_uci(self.chess960).fmt(f)
    }
}

/// A move as UCI text names it, before a position gives it a kind: origin, destination and
/// promotion, or the null move `0000`.
///
/// ```
/// use bitforge::{PieceType, Square, UciMove};
///
/// assert_eq!(
///     "e7e8q".parse(),
///     Ok(UciMove::Move { from: Square::E7, to: Square::E8, promotion: Some(PieceType::Queen) })
/// );
/// assert_eq!("0000".parse(), Ok(UciMove::Null));
/// assert!("e7e8k".parse::<UciMove>().is_err());
/// assert!("e2".parse::<UciMove>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UciMove {
    /// `0000`.
    Null,
    /// A move from one square to another, with the promotion piece if any.
    Move {
        /// Origin.
        from: Square,
        /// Destination as written (for castling: the king's destination, or the rook's square
        /// in Chess960 notation).
        to: Square,
        /// Knight, bishop, rook or queen.
        promotion: Option<PieceType>,
    },
}

impl FromStr for UciMove {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<UciMove, ParseError> {
        if text == "0000" {
            return Ok(UciMove::Null);
        }
        let (squares, promotion) = match text.len() {
            4 => (text, None),
            5 if text.is_char_boundary(4) => (&text[..4], text[4..].chars().next()),
            n => return Err(ParseError::InvalidMoveLength(n)),
        };
        if !squares.is_char_boundary(2) {
            return Err(ParseError::InvalidSquare);
        }
        let from = squares[..2].parse()?;
        let to = squares[2..].parse()?;
        let promotion = match promotion {
            None => None,
            Some(c) => Some(match c {
                'n' => PieceType::Knight,
                'b' => PieceType::Bishop,
                'r' => PieceType::Rook,
                'q' => PieceType::Queen,
                _ => return Err(ParseError::InvalidPromotion(c)),
            }),
        };
        Ok(UciMove::Move {
            from,
            to,
            promotion,
        })
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            UciMove::Null => f.write_str("0000"),
            UciMove::Move {
                from,
                to,
                promotion,
            } => {
                write!(f, "{from}{to}")?;
                match promotion.and_then(PieceType::to_char) {
                    Some(letter) => fmt::Write::write_char(f, letter),
                    None => Ok(()),
                }
            }
        }
    }
}
