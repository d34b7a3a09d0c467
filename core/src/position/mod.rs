//! A chess position with Stockfish's representation: a board of 64 pieces, bitboards by piece
//! type and by colour, and a stack of per-ply states so that `do_move` and `undo_move` restore
//! everything.
//!
//! A [`Position`] is generic over the [`Slider`] backend it computes attacks with, so move
//! generation and perft are compiled once per backend with every lookup inlined.
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

mod castling;
mod epd;
mod fen;
mod legality;
mod make_move;
mod perft;
mod placement;
mod state;
mod zobrist;

use core::fmt;

pub use castling::CastlingInfo;
pub(crate) use castling::{destinations as castling_destinations, side_of as castling_side};
pub use epd::{EpdError, PerftLine};
pub use fen::{FenDisplay, FenError, FenErrorKind};
pub use legality::UciMoveError;
pub(crate) use placement::Placement;
pub use state::HISTORY_CAPACITY;

use crate::movegen::{Board, Rules};
use crate::slider::Slider;
use crate::tables::{self, between, pseudo_attacks};
use crate::{Bitboard, CastlingRights, Color, Piece, PieceType, Square};
use state::{State, StateStack};

/// The FEN of the standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A position: the board, the side to move, castling and en passant state, the move counters
/// and the history needed to undo moves and detect repetitions.
#[derive(Clone)]
pub struct Position<S: Slider> {
    board: [Piece; 64],
    pieces: Placement,
    piece_count: [u8; 16],
    side_to_move: Color,
    /// Plies since the start of the game (0 for white's first move).
    game_ply: u32,
    castling: CastlingInfo,
    states: StateStack,
    slider: S,
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

    /// The pieces, castling rights and en passant square, for move generation.
    #[inline(always)]
    pub(crate) fn to_board(&self) -> Board {
        Board {
            pieces: self.pieces,
            en_passant: self.en_passant(),
            castling: self.castling_rights(),
        }
    }

    /// The slider backend and castling geometry, for move generation.
    #[inline(always)]
    pub(crate) fn rules(&self) -> Rules<'_, S> {
        Rules {
            slider: self.slider,
            castling: &self.castling,
        }
    }

    /// The backend this position computes sliding attacks with.
    #[inline(always)]
    pub fn slider(&self) -> S {
        self.slider
    }

    /// The same position computing attacks with another backend.
    pub fn with_slider<T: Slider>(&self, slider: T) -> Position<T> {
        Position {
            board: self.board,
            pieces: self.pieces,
            piece_count: self.piece_count,
            side_to_move: self.side_to_move,
            game_ply: self.game_ply,
            castling: self.castling,
            states: self.states.clone(),
            slider,
        }
    }

    #[inline(always)]
    pub(crate) fn state(&self) -> &State {
        self.states.current()
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    /// The piece on `square` (`Piece::None` if empty).
    #[inline(always)]
    pub fn piece_on(&self, square: Square) -> Piece {
        self.board[square.index()]
    }

    /// The board as 64 pieces, a1 first.
    #[inline(always)]
    pub fn board(&self) -> &[Piece; 64] {
        &self.board
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.pieces.occupied()
    }

    /// The pieces of `color`.
    #[inline(always)]
    pub fn pieces_of(&self, color: Color) -> Bitboard {
        self.pieces.pieces_of(color)
    }

    /// The pieces of `piece_type`, both colours ([`PieceType::ALL`]: every piece).
    #[inline(always)]
    pub fn pieces(&self, piece_type: PieceType) -> Bitboard {
        self.pieces.pieces(piece_type)
    }

    /// The pieces of `piece_type` and `color`.
    #[inline(always)]
    pub fn colored(&self, color: Color, piece_type: PieceType) -> Bitboard {
        self.pieces.colored(color, piece_type)
    }

    /// How many `piece`s there are.
    #[inline(always)]
    pub fn count(&self, piece: Piece) -> u8 {
        self.piece_count[piece.index()]
    }

    /// The square of `color`'s king.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces.king_square(color)
    }

    /// The castling rights still held.
    #[inline(always)]
    pub fn castling_rights(&self) -> CastlingRights {
        self.state().castling
    }

    /// Where the castling rooks stand and which squares each castling needs.
    #[inline(always)]
    pub fn castling_info(&self) -> &CastlingInfo {
        &self.castling
    }

    /// Whether castling is read and written in Chess960 terms.
    #[inline(always)]
    pub fn is_chess960(&self) -> bool {
        self.castling.chess960
    }

    /// The en passant square, set only when an en passant capture is legal.
    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.state().en_passant
    }

    /// Plies since the last capture or pawn move (the fifty-move counter).
    #[inline(always)]
    pub fn rule50(&self) -> u16 {
        self.state().rule50
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
        self.state().key
    }

    /// The Zobrist key of the pawns.
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.state().pawn_key
    }

    /// The Zobrist key of the material: how many of each piece, not where.
    #[inline(always)]
    pub fn material_key(&self) -> u64 {
        self.state().material_key
    }

    /// The pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.state().checkers
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        !self.state().checkers.is_empty()
    }

    /// The pieces (of either colour) that alone shield `color`'s king from an enemy slider:
    /// pinned pieces when they are `color`'s, discovered-check candidates when not.
    #[inline(always)]
    pub fn blockers_for_king(&self, color: Color) -> Bitboard {
        self.state().blockers[color.index()]
    }

    /// `color`'s sliders that pin a piece to the enemy king (or would give discovered check).
    #[inline(always)]
    pub fn pinners(&self, color: Color) -> Bitboard {
        self.state().pinners[color.index()]
    }

    /// The squares from which a piece of `piece_type` of the side to move would check the
    /// enemy king.
    #[inline(always)]
    pub fn check_squares(&self, piece_type: PieceType) -> Bitboard {
        self.state().check_squares[piece_type.index()]
    }

    /// The piece the last move captured (`Piece::None` if none).
    #[inline(always)]
    pub fn captured_piece(&self) -> Piece {
        self.state().captured
    }

    /// The attacks of a piece of `piece_type` (not a pawn) on `square` through `occupancy`.
    #[inline(always)]
    pub fn attacks_from(
        &self,
        piece_type: PieceType,
        square: Square,
        occupancy: Bitboard,
    ) -> Bitboard {
        match piece_type {
            PieceType::Bishop => self.slider.bishop_attacks(square, occupancy),
            PieceType::Rook => self.slider.rook_attacks(square, occupancy),
            PieceType::Queen => self.slider.queen_attacks(square, occupancy),
            _ => pseudo_attacks(piece_type, square),
        }
    }

    /// Every piece, of either colour, that attacks `square` when `occupancy` is occupied.
    #[inline(always)]
    pub fn attackers_to(&self, square: Square, occupancy: Bitboard) -> Bitboard {
        self.pieces.attackers_to(square, occupancy, self.slider)
    }

    /// Whether any piece of `color` attacks `square` when `occupancy` is occupied (stops at
    /// the first attacker).
    #[inline(always)]
    pub fn attacked_by(&self, color: Color, square: Square, occupancy: Bitboard) -> bool {
        self.pieces
            .attacked_by(color, square, occupancy, self.slider)
    }

    /// The pieces that alone stand between `square` and a slider of `sliders`, and the
    /// sliders doing the pinning (those whose line holds one piece of `square`'s colour).
    fn slider_blockers(&self, sliders: Bitboard, square: Square) -> (Bitboard, Bitboard) {
        let snipers = ((pseudo_attacks(PieceType::Rook, square) & self.pieces.rook_movers())
            | (pseudo_attacks(PieceType::Bishop, square) & self.pieces.bishop_movers()))
            & sliders;
        let occupancy = self.occupied() ^ snipers;
        let own = self.board[square.index()].color();
        let mut blockers = Bitboard::EMPTY;
        let mut pinners = Bitboard::EMPTY;
        for sniper in snipers {
            let between = between(square, sniper) & occupancy;
            if !between.is_empty() && !between.more_than_one() {
                blockers |= between;
                if !(between & self.pieces_of(own)).is_empty() {
                    pinners |= sniper;
                }
            }
        }
        (blockers, pinners)
    }

    /// Recomputes the check information of the current state: checkers, blockers and pinners
    /// of both kings, and the check squares of the side to move.
    fn update_check_info(&mut self) {
        let us = self.side_to_move;
        let them = !us;
        let our_king = self.king_square(us);
        let their_king = self.king_square(them);
        let checkers = self.attackers_to(our_king, self.occupied()) & self.pieces_of(them);
        let (our_blockers, their_pinners) = self.slider_blockers(self.pieces_of(them), our_king);
        let (their_blockers, our_pinners) = self.slider_blockers(self.pieces_of(us), their_king);
        let occupied = self.occupied();
        let bishop = self.slider.bishop_attacks(their_king, occupied);
        let rook = self.slider.rook_attacks(their_king, occupied);
        let state = self.states.current_mut();
        state.checkers = checkers;
        state.blockers[us.index()] = our_blockers;
        state.blockers[them.index()] = their_blockers;
        state.pinners[them.index()] = their_pinners;
        state.pinners[us.index()] = our_pinners;
        state.check_squares = [
            Bitboard::EMPTY,
            tables::pawn_attacks(them, their_king),
            tables::knight_attacks(their_king),
            bishop,
            rook,
            bishop | rook,
            Bitboard::EMPTY,
            Bitboard::EMPTY,
        ];
    }

    /// Puts `piece` on the empty `square`.
    #[inline(always)]
    fn put_piece(&mut self, piece: Piece, square: Square) {
        self.board[square.index()] = piece;
        self.pieces.toggle(piece, square.bitboard());
        self.piece_count[piece.index()] += 1;
    }

    /// Takes the piece off `square` and returns it.
    #[inline(always)]
    fn remove_piece(&mut self, square: Square) -> Piece {
        let piece = self.board[square.index()];
        self.board[square.index()] = Piece::None;
        self.pieces.toggle(piece, square.bitboard());
        self.piece_count[piece.index()] -= 1;
        piece
    }

    /// Moves the piece on `from` to the empty `to`.
    #[inline(always)]
    fn move_piece(&mut self, from: Square, to: Square) {
        let piece = self.board[from.index()];
        self.board[from.index()] = Piece::None;
        self.board[to.index()] = piece;
        self.pieces.toggle(piece, from | to);
    }

    /// The three Zobrist keys computed from scratch: what the incremental updates must equal.
    pub fn compute_keys(&self) -> (u64, u64, u64) {
        let state = self.state();
        let mut key = zobrist::castling(state.castling);
        let mut pawn_key = zobrist::no_pawns();
        let mut material_key = 0;
        for square in self.occupied() {
            let piece = self.board[square.index()];
            key ^= zobrist::piece_square(piece, square);
            if piece.piece_type() == PieceType::Pawn {
                pawn_key ^= zobrist::piece_square(piece, square);
            }
        }
        for piece in Piece::LIST {
            for count in 0..self.piece_count[piece.index()] {
                material_key ^= zobrist::material(piece, count);
            }
        }
        if let Some(square) = state.en_passant {
            key ^= zobrist::en_passant(square);
        }
        if self.side_to_move == Color::Black {
            key ^= zobrist::side();
        }
        (key, pawn_key, material_key)
    }

    /// Whether the redundant parts of the representation agree: the board array with the
    /// bitboards and counts, the keys with a recomputation, one king each. For tests.
    pub fn is_consistent(&self) -> bool {
        let mut pieces = Placement::EMPTY;
        let mut counts = [0u8; 16];
        for square in Square::ALL {
            let piece = self.board[square.index()];
            if piece != Piece::None {
                pieces.toggle(piece, square.bitboard());
                counts[piece.index()] += 1;
            }
        }
        let state = self.state();
        pieces == self.pieces
            && counts == self.piece_count
            && counts[Piece::WhiteKing.index()] == 1
            && counts[Piece::BlackKing.index()] == 1
            && self.compute_keys() == (state.key, state.pawn_key, state.material_key)
            && state.checkers
                == self.attackers_to(self.king_square(self.side_to_move), self.occupied())
                    & self.pieces_of(!self.side_to_move)
    }
}

impl<S: Slider> fmt::Display for Position<S> {
    /// The board as 8 lines of FEN letters (`.` for empty), rank 8 first, then the FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            for file in 0..8 {
                let piece = self.board[rank * 8 + file];
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
    /// Positions are equal when the board, side, castling, en passant square and counters
    /// agree; the history is not compared.
    fn eq(&self, other: &Position<S>) -> bool {
        self.board == other.board
            && self.side_to_move == other.side_to_move
            && self.castling == other.castling
            && self.game_ply == other.game_ply
            && self.state().castling == other.state().castling
            && self.state().en_passant == other.state().en_passant
            && self.state().rule50 == other.state().rule50
    }
}

impl<S: Slider> Eq for Position<S> {}
