//! Setting a position up from its parts, with or without FEN: a [`Setup`] says what FEN says,
//! field by field, and [`Position::from_setup`] checks it is a position a game can reach (as far
//! as move generation relies on it) before building the board.

use super::history::{History, Ply, PlyInfo};
use super::{FenErrorKind, Position};
use crate::board::{Board, CastlingInfo, Placement, Rules};
use crate::slider::Slider;
use crate::{
    Bitboard, CastlingRights, CastlingSide, Color, Direction, File, Piece, PieceType, Rank, Square,
    relative_rank,
};

/// A position's parts, unchecked: what FEN reading fills, and what a program builds a position
/// from without writing FEN.
///
/// ```
/// use bitforge::position::Setup;
/// use bitforge::slider::Hyperbola;
/// use bitforge::{Color, Piece, Position, Square};
///
/// let mut setup = Setup::EMPTY;
/// setup.board[Square::E1.index()] = Piece::WhiteKing;
/// setup.board[Square::H1.index()] = Piece::WhiteRook;
/// setup.board[Square::E8.index()] = Piece::BlackKing;
/// setup.castling_rooks = Square::H1.bitboard();
/// let position = Position::from_setup(&setup, Hyperbola)?;
/// assert_eq!(position.fen().to_string(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
/// assert_eq!(position.side_to_move(), Color::White);
/// # Ok::<(), bitforge::FenErrorKind>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The piece on each square, a1 first (`Piece::None` where empty).
    pub board: [Piece; 64],
    /// The side to move.
    pub side_to_move: Color,
    /// The rooks that may still castle, each on its side's first rank beside its king there.
    pub castling_rooks: Bitboard,
    /// The square a pawn has just passed over; kept only if a capture there is legal.
    pub en_passant: Option<Square>,
    /// Plies since the last capture or pawn move.
    pub rule50: u16,
    /// The full-move number (0 is read as 1; at most 1,000,000,000).
    pub fullmove_number: u32,
    /// Whether castling is read and written in Chess960 terms. Castling rooks or a king off
    /// their standard squares switch it on.
    pub chess960: bool,
}

impl Setup {
    /// An empty board, white to move: put pieces on it.
    pub const EMPTY: Setup = Setup {
        board: [Piece::None; 64],
        side_to_move: Color::White,
        castling_rooks: Bitboard::EMPTY,
        en_passant: None,
        rule50: 0,
        fullmove_number: 1,
        chess960: false,
    };

    /// The pieces as bitboards.
    pub(crate) fn placement(&self) -> Placement {
        let mut pieces = Placement::EMPTY;
        for square in Square::ALL {
            let piece = self.board[square.index()];
            if piece != Piece::None {
                pieces.toggle(piece, square.bitboard());
            }
        }
        pieces
    }
}

impl Default for Setup {
    fn default() -> Setup {
        Setup::EMPTY
    }
}

/// How many of each piece a side starts with, king excluded: promotions must come from the
/// pawns missing from eight.
const START_COUNTS: [(PieceType, u32); 4] = [
    (PieceType::Knight, 2),
    (PieceType::Bishop, 2),
    (PieceType::Rook, 2),
    (PieceType::Queen, 1),
];

/// One king each, no pawn on a back rank, and no more material than a game can have: the
/// move list's capacity and the king lookups rely on it.
pub(crate) fn validate_material(pieces: &Placement) -> Result<(), FenErrorKind> {
    for color in Color::ALL {
        let count = |piece_type| pieces.colored(color, piece_type).count();
        let kings = count(PieceType::King);
        if kings != 1 {
            return Err(FenErrorKind::KingCount(color, kings as u8));
        }
        let pawns = count(PieceType::Pawn);
        let promoted: u32 = START_COUNTS
            .iter()
            .map(|&(kind, start)| count(kind).saturating_sub(start))
            .sum();
        if pieces.pieces_of(color).count() > 16 || pawns > 8 || promoted > 8 - pawns {
            return Err(FenErrorKind::TooMuchMaterial(color));
        }
    }
    if let Some(square) =
        (pieces.pieces(PieceType::Pawn) & (Bitboard::RANK_1 | Bitboard::RANK_8)).first()
    {
        return Err(FenErrorKind::PawnOnBackRank(square));
    }
    Ok(())
}

/// The castling geometry and rights of `setup`'s castling rooks.
fn castling_of(
    setup: &Setup,
    pieces: &Placement,
) -> Result<(CastlingInfo, CastlingRights), FenErrorKind> {
    let mut castling = CastlingInfo::NONE;
    let mut rights = CastlingRights::NONE;
    let mut chess960 = setup.chess960;
    for rook in setup.castling_rooks {
        let piece = setup.board[rook.index()];
        if piece.piece_type() != PieceType::Rook {
            return Err(FenErrorKind::InvalidCastlingRook(rook));
        }
        let color = piece.color();
        let back_rank = relative_rank(color, Rank::R1).bitboard();
        let king = pieces.king_square(color);
        if !back_rank.contains(king) {
            return Err(FenErrorKind::CastlingWithoutKing(color));
        }
        let side = CastlingSide::of(king, rook);
        if !back_rank.contains(rook) || rights.has(CastlingRights::new(color, side)) {
            return Err(FenErrorKind::InvalidCastlingRook(rook));
        }
        let standard_rook = match side {
            CastlingSide::King => File::H,
            CastlingSide::Queen => File::A,
        };
        if king.file() != File::E || rook.file() != standard_rook {
            chess960 = true;
        }
        rights |= castling.add(color, king, rook);
    }
    castling.chess960 = chess960;
    Ok((castling, rights))
}

impl<S: Slider> Position<S> {
    /// The position `setup` describes, checked: one king each and no more material than a
    /// game can produce, no pawn on a back rank, castling rooks where they can castle, the side
    /// not to move not in check, and an en passant square just behind a pawn that has just
    /// pushed two squares (kept only when a capture there is legal, so that equal positions
    /// have equal keys).
    pub fn from_setup(setup: &Setup, slider: S) -> Result<Position<S>, FenErrorKind> {
        let pieces = setup.placement();
        validate_material(&pieces)?;
        let (castling, rights) = castling_of(setup, &pieces)?;
        if setup.fullmove_number > 1_000_000_000 {
            return Err(FenErrorKind::InvalidFullmoveNumber);
        }
        let us = setup.side_to_move;
        let board = Board::new(pieces, us, rights, None, setup.rule50);
        if board.attacked_by(us, board.king_square(!us), board.occupied(), slider) {
            return Err(FenErrorKind::OpponentInCheck);
        }
        let en_passant = match setup.en_passant {
            None => None,
            Some(square) => {
                if square.rank() != relative_rank(us, Rank::R6) {
                    return Err(FenErrorKind::EnPassantWrongRank(square));
                }
                let up = Direction::pawn_push(us);
                let pushed = square.offset(Direction(-up.0));
                let origin = square.offset(up);
                let pawn_there =
                    pushed.is_some_and(|s| board.piece_on(s) == Piece::new(!us, PieceType::Pawn));
                let path_empty = origin.is_some_and(|s| board.piece_on(s) == Piece::None)
                    && board.piece_on(square) == Piece::None;
                if !pawn_there || !path_empty {
                    return Err(FenErrorKind::EnPassantWithoutPawn(square));
                }
                board
                    .has_en_passant_capture(square, slider)
                    .then_some(square)
            }
        };
        let fullmove = setup.fullmove_number.max(1);
        let root = Ply {
            board: Board::new(pieces, us, rights, en_passant, setup.rule50),
            info: PlyInfo::ROOT,
        };
        Ok(Position {
            rules: Rules { slider, castling },
            history: History::new(root),
            game_ply: 2 * (fullmove - 1) + us as u32,
        })
    }
}
