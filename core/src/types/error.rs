use core::fmt;

/// Text that is not a square, piece, castling field or move. Parsing never panics: every bad
/// input is one of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParseError {
    /// Not two characters, a file and a rank.
    InvalidSquare,
    /// Not a file letter `a` to `h`.
    InvalidFile(char),
    /// Not a rank digit `1` to `8`.
    InvalidRank(char),
    /// Not a FEN piece letter (`PNBRQK` for white, `pnbrqk` for black).
    InvalidPiece(char),
    /// Not a promotion letter (`n`, `b`, `r` or `q`).
    InvalidPromotion(char),
    /// Not a castling letter (`KQkq`, or `-` alone), or a letter given twice.
    InvalidCastling(char),
    /// The castling field is empty.
    EmptyCastling,
    /// A UCI move is 4 characters (5 with a promotion), or `0000`.
    InvalidMoveLength(usize),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::InvalidSquare => f.write_str("expected a square such as e4"),
            ParseError::InvalidFile(c) => write!(f, "'{c}' is not a file (a to h)"),
            ParseError::InvalidRank(c) => write!(f, "'{c}' is not a rank (1 to 8)"),
            ParseError::InvalidPiece(c) => {
                write!(f, "'{c}' is not a piece letter (PNBRQK or pnbrqk)")
            }
            ParseError::InvalidPromotion(c) => write!(f, "'{c}' is not a promotion (n, b, r or q)"),
            ParseError::InvalidCastling(c) => {
                write!(
                    f,
                    "'{c}' is not allowed in the castling field (KQkq at most once each, or -)"
                )
            }
            ParseError::EmptyCastling => {
                f.write_str("the castling field is empty (use - for none)")
            }
            ParseError::InvalidMoveLength(n) => {
                write!(
                    f,
                    "a UCI move has 4 or 5 characters (such as e2e4 or e7e8q), not {n}"
                )
            }
        }
    }
}

impl core::error::Error for ParseError {}
