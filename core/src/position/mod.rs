//! A chess position with Stockfish's API: a [`Board`] (made by copy-make), the [`Rules`] of
//! its game (slider backend, castling geometry), and the history that `undo_move` and
//! repetition detection need.
//!
//! `do_move` keeps the board it leaves in the history and plays the move on a copy; `undo_move`
//! takes the board back. What a search asks for now and then (checkers, pinned pieces, check
//! squares, whether the position repeats) is computed when asked, from the board and the
//! history.
//!
//! ```
//! use bitforge::Position;
//! use bitforge::position::START_FEN;
//! use bitforge::slider::FancyMagic;
//!
//! let mut position = Position::from_fen(START_FEN, FancyMagic)?;
//! let e4 = position.parse_uci_move("e2e4")?;
//! position.do_move(e4);
//! assert_eq!(position.fen().to_string(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
//! assert_eq!(position.perft(2), 600);
//! assert_eq!(position.undo_move(), Some(e4));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod epd;
mod fen;
mod history;
mod legality;
mod make_move;
mod perft;
mod setup;

use core::fmt;

pub use crate::board::CastlingInfo;
use crate::board::{Board, Rules};
#[doc(hidden)]
pub use epd::{EpdError, PerftLine};
pub use fen::{FenDisplay, FenError, FenErrorKind};
pub use history::HISTORY_CAPACITY;
use history::History;
pub use legality::UciMoveError;
pub use setup::Setup;

use crate::slider::Slider;
use crate::tables::pseudo_attacks;
use crate::{Bitboard, CastlingRights, Color, Piece, PieceType, Square};

/// The FEN of the standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A position: the board (pieces, side to move, castling and en passant state, fifty-move
/// counter, keys), the rules of its game, the game ply and the history needed to undo moves
/// and detect repetitions.
#[derive(Clone)]
pub struct Position<S: Slider> {
    rules: Rules<S>,
    /// Every ply since the position was set up, the current one last.
    history: History,
    /// Plies since the start of the game (0 for white's first move).
    game_ply: u32,
}

impl<S: Slider> Position<S> {
    /// The starting position.
    pub fn start(slider: S) -> Position<S> {
        match Self::from_fen(START_FEN, slider) {
            Ok(position) => position,
            // The constant is a valid FEN (tested); an unreachable arm rather than a panic.
            Err(_) => unreachable!("the start FEN parses"),
        }
    }

    /// The board: everything a move changes, for copy-make search and move generation.
    #[inline(always)]
    pub fn board(&self) -> &Board {
        &self.history.current().board
    }

    /// The rules of this game: the slider backend and the castling geometry.
    #[inline(always)]
    pub fn rules(&self) -> &Rules<S> {
        &self.rules
    }

    /// The backend this position computes sliding attacks with.
    #[inline(always)]
    pub fn slider(&self) -> S {
        self.rules.slider
    }

    /// The same position computing attacks with another backend.
    pub fn with_slider<T: Slider>(&self, slider: T) -> Position<T> {
        Position {
            rules: self.rules.with_slider(slider),
            history: self.history.clone(),
            game_ply: self.game_ply,
        }
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.board().side_to_move()
    }

    /// The piece on `square` (`Piece::None` if empty).
    #[inline(always)]
    pub fn piece_on(&self, square: Square) -> Piece {
        self.board().piece_on(square)
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.board().occupied()
    }

    /// The pieces of `color`.
    #[inline(always)]
    pub fn pieces_of(&self, color: Color) -> Bitboard {
        self.board().pieces_of(color)
    }

    /// The pieces of `piece_type`, both colours ([`PieceType::ALL`]: every piece).
    #[inline(always)]
    pub fn pieces(&self, piece_type: PieceType) -> Bitboard {
        self.board().pieces(piece_type)
    }

    /// The pieces of `piece_type` and `color`.
    #[inline(always)]
    pub fn colored(&self, color: Color, piece_type: PieceType) -> Bitboard {
        self.board().colored(color, piece_type)
    }

    /// How many `piece`s there are.
    #[inline(always)]
    pub fn count(&self, piece: Piece) -> u8 {
        self.board().count(piece)
    }

    /// The square of `color`'s king.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.board().king_square(color)
    }

    /// The castling rights still held.
    #[inline(always)]
    pub fn castling_rights(&self) -> CastlingRights {
        self.board().castling_rights()
    }

    /// Where the castling rooks stand and which squares each castling needs.
    #[inline(always)]
    pub fn castling_info(&self) -> &CastlingInfo {
        &self.rules.castling
    }

    /// Whether castling is read and written in Chess960 terms.
    #[inline(always)]
    pub fn is_chess960(&self) -> bool {
        self.rules.castling.chess960
    }

    /// The en passant square, set only when an en passant capture is legal.
    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.board().en_passant()
    }

    /// Plies since the last capture or pawn move (the fifty-move counter).
    #[inline(always)]
    pub fn rule50(&self) -> u16 {
        self.board().rule50()
    }

    /// Plies since the start of the game.
    #[inline(always)]
    pub fn game_ply(&self) -> u32 {
        self.game_ply
    }

    /// The FEN full-move number: 1 at the start, incremented after black moves.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u32 {
        1 + self.game_ply / 2
    }

    /// The Zobrist key of the position (pieces, side, castling, en passant).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.board().key()
    }

    /// The Zobrist key of the pawns.
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.board().pawn_key()
    }

    /// The Zobrist key of the material: how many of each piece, not where.
    #[inline(always)]
    pub fn material_key(&self) -> u64 {
        self.board().material_key()
    }

    /// How many plies [`undo_move`](Self::undo_move) can take back.
    #[inline(always)]
    pub fn undoable_plies(&self) -> usize {
        self.history.len()
    }

    /// The pieces giving check to the side to move (computed when asked).
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.board().checkers(self.rules.slider)
    }

    /// Whether the side to move is in check (computed when asked).
    #[inline]
    pub fn in_check(&self) -> bool {
        !self.checkers().is_empty()
    }

    /// The pieces (of either colour) that alone shield `color`'s king from an enemy slider:
    /// pinned pieces when they are `color`'s, discovered-check candidates when not.
    #[inline]
    pub fn blockers_for_king(&self, color: Color) -> Bitboard {
        self.board().king_blockers(color).0
    }

    /// `color`'s sliders that pin a piece to the enemy king (or would give discovered check).
    #[inline]
    pub fn pinners(&self, color: Color) -> Bitboard {
        self.board().king_blockers(!color).1
    }

    /// The squares from which a piece of `piece_type` of the side to move would check the
    /// enemy king.
    #[inline]
    pub fn check_squares(&self, piece_type: PieceType) -> Bitboard {
        self.board().check_squares(piece_type, self.rules.slider)
    }

    /// The attacks of a piece of `piece_type` (not a pawn) on `square` through `occupancy`.
    #[inline(always)]
    pub fn attacks_from(
        &self,
        piece_type: PieceType,
        square: Square,
        occupancy: Bitboard,
    ) -> Bitboard {
        let slider = self.rules.slider;
        match piece_type {
            PieceType::Bishop => slider.bishop_attacks(square, occupancy),
            PieceType::Rook => slider.rook_attacks(square, occupancy),
            PieceType::Queen => slider.queen_attacks(square, occupancy),
            _ => pseudo_attacks(piece_type, square),
        }
    }

    /// Every piece, of either colour, that attacks `square` when `occupancy` is occupied.
    #[inline(always)]
    pub fn attackers_to(&self, square: Square, occupancy: Bitboard) -> Bitboard {
        self.board()
            .attackers_to(square, occupancy, self.rules.slider)
    }

    /// Whether any piece of `color` attacks `square` when `occupancy` is occupied (stops at
    /// the first attacker).
    #[inline(always)]
    pub fn attacked_by(&self, color: Color, square: Square, occupancy: Bitboard) -> bool {
        self.board()
            .attacked_by(color, square, occupancy, self.rules.slider)
    }
}

impl<S: Slider> fmt::Display for Position<S> {
    /// The board as 8 lines of FEN letters (`.` for empty), rank 8 first, then the FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            for file in 0..8 {
                let piece = self.piece_on(Square::ALL[rank * 8 + file]);
                let separator = if file == 7 { '\n' } else { ' ' };
                write!(f, "{}{separator}", piece.to_char().unwrap_or('.'))?;
            }
        }
        write!(f, "{}", self.fen())
    }
}

impl<S: Slider> fmt::Debug for Position<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

impl<S: Slider> PartialEq for Position<S> {
    /// Positions are equal when the board (keys included), the castling geometry and the game
    /// ply agree; the history is not compared.
    fn eq(&self, other: &Position<S>) -> bool {
        self.board() == other.board()
            && self.rules.castling == other.rules.castling
            && self.game_ply == other.game_ply
    }
}

impl<S: Slider> Eq for Position<S> {}
