//! Forsyth-Edwards Notation in and out, standard and Chess960 (Shredder-FEN letters such as
//! `HAha`, and X-FEN's `KQkq` for the outermost rooks). Every malformed FEN is a [`FenError`]
//! saying what is wrong and at which column; nothing here panics.

use core::fmt;

use super::setup::validate_material;
use super::{Position, Setup};
use crate::slider::Slider;
use crate::{
    Bitboard, CastlingRights, CastlingSide, Color, File, Piece, PieceType, Rank, Square,
    relative_rank,
};

/// What is wrong with a FEN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FenErrorKind {
    /// The text is empty or only white space.
    Empty,
    /// The side-to-move field is missing (the placement and the side are required; castling,
    /// en passant and the counters default to `-`, `-`, `0` and `1`).
    MissingSideToMove,
    /// More than six fields.
    TooManyFields,
    /// A character that is neither a piece letter, a digit 1-8 nor `/`.
    InvalidPlacementCharacter(char),
    /// A rank describes more than eight squares.
    RankTooLong(Rank),
    /// A rank describes fewer than eight squares.
    RankTooShort(Rank),
    /// More than eight ranks.
    TooManyRanks,
    /// Fewer than eight ranks.
    TooFewRanks,
    /// The side to move is not `w` or `b`.
    InvalidSideToMove,
    /// A character that is not a castling letter (`KQkq`, `A`-`H`, `a`-`h`, or `-` alone).
    InvalidCastlingLetter(char),
    /// Two letters grant the same right.
    DuplicateCastlingRight(char),
    /// A castling right for a side whose king is not on its first rank.
    CastlingWithoutKing(Color),
    /// A castling letter with no rook of that colour on the square it names.
    CastlingWithoutRook(char),
    /// The en passant field is neither `-` nor a square.
    InvalidEnPassant,
    /// An en passant square on a rank where no pawn could have just passed (it must be rank 6
    /// with white to move, rank 3 with black to move).
    EnPassantWrongRank(Square),
    /// An en passant square with no pawn that could have just moved through it.
    EnPassantWithoutPawn(Square),
    /// The half-move clock is not a number from 0 to 65535.
    InvalidHalfmoveClock,
    /// The full-move number is not a number from 0 (read as 1) to 1,000,000,000.
    InvalidFullmoveNumber,
    /// A side does not have exactly one king.
    KingCount(Color, u8),
    /// A pawn on the first or last rank.
    PawnOnBackRank(Square),
    /// More material than a game can produce: more than 16 pieces or 8 pawns for a side, or
    /// more promoted pieces than missing pawns.
    TooMuchMaterial(Color),
    /// The side not to move is in check, so the side to move could capture the king.
    OpponentInCheck,
    /// A castling rook (of a [`Setup`](super::Setup)) that is not a rook on its side's first
    /// rank, or a second one for the same side of the king.
    InvalidCastlingRook(Square),
}

/// A FEN that could not be read: what is wrong, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FenError {
    /// What is wrong.
    pub kind: FenErrorKind,
    /// The byte offset in the text (0-based) of the field or character at fault.
    pub column: usize,
}

impl FenError {
    fn at(kind: FenErrorKind, column: usize) -> FenError {
        FenError { kind, column }
    }
}

impl fmt::Display for FenErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FenErrorKind as K;
        match *self {
            K::Empty => f.write_str("the FEN is empty"),
            K::MissingSideToMove => f.write_str("the side to move (w or b) is missing"),
            K::TooManyFields => f.write_str("more than six fields"),
            K::InvalidPlacementCharacter(c) => write!(
                f,
                "'{}' is not a piece letter (PNBRQKpnbrqk), a digit 1-8 or '/'",
                c.escape_debug()
            ),
            K::RankTooLong(rank) => write!(f, "rank {rank} has more than eight squares"),
            K::RankTooShort(rank) => write!(f, "rank {rank} has fewer than eight squares"),
            K::TooManyRanks => f.write_str("more than eight ranks"),
            K::TooFewRanks => f.write_str("fewer than eight ranks"),
            K::InvalidSideToMove => f.write_str("the side to move must be w or b"),
            K::InvalidCastlingLetter(c) => write!(
                f,
                "'{}' is not a castling letter (KQkq, A-H, a-h, or - alone)",
                c.escape_debug()
            ),
            K::DuplicateCastlingRight(c) => {
                write!(f, "castling letter '{c}' repeats a right already given")
            }
            K::CastlingWithoutKing(color) => {
                write!(
                    f,
                    "castling right for {color:?}, whose king is not on its first rank"
                )
            }
            K::CastlingWithoutRook(c) => {
                write!(f, "castling letter '{c}' names no rook on the first rank")
            }
            K::InvalidEnPassant => f.write_str("the en passant field must be - or a square"),
            K::EnPassantWrongRank(square) => write!(
                f,
                "en passant square {square} is on the wrong rank for the side to move"
            ),
            K::EnPassantWithoutPawn(square) => write!(
                f,
                "en passant square {square}: no pawn can have just moved two squares past it"
            ),
            K::InvalidHalfmoveClock => f.write_str("the half-move clock must be 0 to 65535"),
            K::InvalidFullmoveNumber => f.write_str("the full-move number must be 0 to 1000000000"),
            K::KingCount(color, count) => {
                write!(f, "{color:?} has {count} kings (exactly one is needed)")
            }
            K::PawnOnBackRank(square) => write!(f, "a pawn on {square}, a first or last rank"),
            K::TooMuchMaterial(color) => write!(
                f,
                "{color:?} has more material than a game allows (16 pieces, 8 pawns, promotions \
                 only for missing pawns)"
            ),
            K::OpponentInCheck => f.write_str("the side not to move is in check"),
            K::InvalidCastlingRook(square) => {
                write!(f, "{square} holds no rook that can castle")
            }
        }
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid FEN at column {}: {}",
            self.column + 1,
            self.kind
        )
    }
}

impl core::error::Error for FenError {}

impl core::error::Error for FenErrorKind {}

/// The fields of a FEN with their byte offsets.
struct Fields<'a> {
    text: &'a str,
    rest: &'a str,
}

impl<'a> Fields<'a> {
    /// The next field and its offset, or the offset where it would start.
    fn next(&mut self) -> Result<(&'a str, usize), usize> {
        let trimmed = self.rest.trim_start();
        let start = self.text.len() - trimmed.len();
        if trimmed.is_empty() {
            return Err(start);
        }
        let end = trimmed.find(char::is_whitespace).unwrap_or(trimmed.len());
        self.rest = &trimmed[end..];
        Ok((&trimmed[..end], start))
    }
}

impl<S: Slider> Position<S> {
    /// Reads a FEN. Castling in `KQkq` means the outermost rooks; Shredder-FEN file letters
    /// (`HAha`), or kings and rooks off their standard squares, switch to Chess960 rules.
    /// The half-move clock and full-move number may be left out (EPD style).
    ///
    /// ```
    /// use bitforge::{FenErrorKind, Position};
    /// use bitforge::slider::Hyperbola;
    ///
    /// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    /// let position = Position::from_fen(kiwipete, Hyperbola).unwrap();
    /// assert_eq!(position.fen().to_string(), kiwipete);
    ///
    /// let error = Position::from_fen("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w", Hyperbola)
    ///     .unwrap_err();
    /// assert_eq!(error.kind, FenErrorKind::InvalidPlacementCharacter('9'));
    /// assert_eq!(error.column, 18);
    /// ```
    pub fn from_fen(fen: &str, slider: S) -> Result<Position<S>, FenError> {
        Self::parse_fen(fen, false, slider)
    }

    /// Reads a FEN as a Chess960 position: castling moves are printed king-takes-rook and the
    /// FEN is written back with Shredder-FEN letters.
    pub fn from_fen_chess960(fen: &str, slider: S) -> Result<Position<S>, FenError> {
        Self::parse_fen(fen, true, slider)
    }

    fn parse_fen(fen: &str, chess960: bool, slider: S) -> Result<Position<S>, FenError> {
        let read = read_fen(fen, chess960)?;
        Position::from_setup(&read.setup, slider).map_err(|kind| {
            let at = match kind {
                FenErrorKind::EnPassantWrongRank(_) | FenErrorKind::EnPassantWithoutPawn(_) => {
                    read.en_passant_at
                }
                _ => read.placement_at,
            };
            FenError::at(kind, at)
        })
    }

    /// Writes the FEN of this position (see [`FenDisplay`]).
    ///
    /// ```
    /// use bitforge::Position;
    /// use bitforge::slider::FancyMagic;
    ///
    /// let start = Position::start(FancyMagic);
    /// assert_eq!(start.fen().to_string(), bitforge::position::START_FEN);
    /// ```
    pub fn fen(&self) -> FenDisplay<'_, S> {
        FenDisplay { position: self }
    }
}

/// A FEN's fields read into a [`Setup`], with the offsets that errors found while checking it
/// point at.
struct ReadFen {
    setup: Setup,
    placement_at: usize,
    en_passant_at: usize,
}

/// Reads the fields of a FEN. Not generic over the slider, so compiled once, in the core.
fn read_fen(fen: &str, chess960: bool) -> Result<ReadFen, FenError> {
    let mut fields = Fields {
        text: fen,
        rest: fen,
    };
    let (placement, placement_at) = fields
        .next()
        .map_err(|at| FenError::at(FenErrorKind::Empty, at))?;
    let mut setup = Setup {
        chess960,
        ..Setup::EMPTY
    };
    read_placement(&mut setup, placement, placement_at)?;

    let (side, side_at) = fields
        .next()
        .map_err(|at| FenError::at(FenErrorKind::MissingSideToMove, at))?;
    setup.side_to_move = match side {
        "w" => Color::White,
        "b" => Color::Black,
        _ => return Err(FenError::at(FenErrorKind::InvalidSideToMove, side_at)),
    };
    // Castling letters are read against the kings: first make sure there is one each.
    validate_material(&setup.placement()).map_err(|kind| FenError::at(kind, placement_at))?;

    let castling = fields.next().ok();
    let en_passant = fields.next().ok();
    let halfmove = fields.next().ok();
    let fullmove = fields.next().ok();
    if let Ok((_, at)) = fields.next() {
        return Err(FenError::at(FenErrorKind::TooManyFields, at));
    }

    if let Some((text, at)) = castling {
        read_castling(&mut setup, text, at)?;
    }
    let mut en_passant_at = placement_at;
    if let Some((text, at)) = en_passant {
        en_passant_at = at;
        setup.en_passant = match text {
            "-" => None,
            _ => Some(
                text.parse()
                    .map_err(|_| FenError::at(FenErrorKind::InvalidEnPassant, at))?,
            ),
        };
    }
    if let Some((text, at)) = halfmove {
        setup.rule50 = text
            .parse::<u16>()
            .map_err(|_| FenError::at(FenErrorKind::InvalidHalfmoveClock, at))?;
    }
    if let Some((text, at)) = fullmove {
        setup.fullmove_number = match text.parse::<u32>() {
            Ok(n) if n <= 1_000_000_000 => n,
            _ => return Err(FenError::at(FenErrorKind::InvalidFullmoveNumber, at)),
        };
    }
    Ok(ReadFen {
        setup,
        placement_at,
        en_passant_at,
    })
}

/// The first field: ranks 8 to 1, `/`-separated.
fn read_placement(setup: &mut Setup, placement: &str, start: usize) -> Result<(), FenError> {
    let mut rank = 7usize;
    let mut file = 0usize;
    for (offset, c) in placement.char_indices() {
        let at = start + offset;
        let this_rank = Rank::from_index_masked(rank as u8);
        match c {
            '/' => {
                if file < 8 {
                    return Err(FenError::at(FenErrorKind::RankTooShort(this_rank), at));
                }
                if rank == 0 {
                    return Err(FenError::at(FenErrorKind::TooManyRanks, at));
                }
                rank -= 1;
                file = 0;
            }
            '1'..='8' => {
                file += usize::from(c as u8 - b'0');
                if file > 8 {
                    return Err(FenError::at(FenErrorKind::RankTooLong(this_rank), at));
                }
            }
            _ => {
                let piece = Piece::from_char(c)
                    .map_err(|_| FenError::at(FenErrorKind::InvalidPlacementCharacter(c), at))?;
                if file >= 8 {
                    return Err(FenError::at(FenErrorKind::RankTooLong(this_rank), at));
                }
                setup.board[rank * 8 + file] = piece;
                file += 1;
            }
        }
    }
    let end = start + placement.len();
    if rank > 0 {
        return Err(FenError::at(FenErrorKind::TooFewRanks, end));
    }
    if file < 8 {
        return Err(FenError::at(FenErrorKind::RankTooShort(Rank::R1), end));
    }
    Ok(())
}

/// The castling field: `-`, or letters `KQkq` (outermost rook) and `A`-`H`/`a`-`h` (the rook
/// on that file), read into the setup's castling rooks. File letters switch to Chess960.
fn read_castling(setup: &mut Setup, text: &str, start: usize) -> Result<(), FenError> {
    if text == "-" {
        return Ok(());
    }
    let pieces = setup.placement();
    let mut rights = CastlingRights::NONE;
    for (offset, c) in text.char_indices() {
        let at = start + offset;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let back_rank = relative_rank(color, Rank::R1).bitboard();
        let king = pieces.king_square(color);
        if !back_rank.contains(king) {
            if matches!(c.to_ascii_lowercase(), 'k' | 'q' | 'a'..='h') {
                return Err(FenError::at(FenErrorKind::CastlingWithoutKing(color), at));
            }
            return Err(FenError::at(FenErrorKind::InvalidCastlingLetter(c), at));
        }
        let rooks = pieces.colored(color, PieceType::Rook) & back_rank;
        let rook = match c.to_ascii_lowercase() {
            // The outermost rook on each side of the king (X-FEN).
            'k' => {
                let right_of_king = rooks & Bitboard((!0u64 << king.index()) << 1);
                (!right_of_king.is_empty()).then(|| right_of_king.msb())
            }
            'q' => (rooks & Bitboard((1u64 << king.index()) - 1)).first(),
            'a'..='h' => {
                setup.chess960 = true;
                let file = File::from_index_masked(c.to_ascii_lowercase() as u8 - b'a');
                let square = Square::new(file, king.rank());
                (rooks.contains(square) && square != king).then_some(square)
            }
            _ => return Err(FenError::at(FenErrorKind::InvalidCastlingLetter(c), at)),
        };
        let Some(rook) = rook else {
            return Err(FenError::at(FenErrorKind::CastlingWithoutRook(c), at));
        };
        let right = CastlingRights::new(color, CastlingSide::of(king, rook));
        if rights.has(right) {
            return Err(FenError::at(FenErrorKind::DuplicateCastlingRight(c), at));
        }
        rights |= right;
        setup.castling_rooks |= rook;
    }
    Ok(())
}

/// A position's FEN, from [`Position::fen`]; written without allocating. Chess960 positions
/// write castling with Shredder-FEN file letters.
pub struct FenDisplay<'a, S: Slider> {
    position: &'a Position<S>,
}

impl<S: Slider> fmt::Display for FenDisplay<'_, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let position = self.position;
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match position.piece_on(Square::ALL[rank * 8 + file]).to_char() {
                    None => empty += 1,
                    Some(letter) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        fmt::Write::write_char(f, letter)?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        write!(f, " {} ", position.side_to_move().to_char())?;
        let rights = position.castling_rights();
        if rights.is_empty() {
            f.write_str("-")?;
        }
        for color in Color::ALL {
            for side in [CastlingSide::King, CastlingSide::Queen] {
                if !rights.has(CastlingRights::new(color, side)) {
                    continue;
                }
                let letter = match position.castling_info().rook_square(color, side) {
                    Some(rook) if position.is_chess960() => rook.file().to_char(),
                    _ if side == CastlingSide::King => 'k',
                    _ => 'q',
                };
                let letter = if color == Color::White {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                };
                fmt::Write::write_char(f, letter)?;
            }
        }
        match position.en_passant() {
            Some(square) => write!(f, " {square}")?,
            None => f.write_str(" -")?,
        }
        write!(f, " {} {}", position.rule50(), position.fullmove_number())
    }
}
