//! The board: everything a move changes, made by copy-make, and every rule check written once.
//!
//! A [`Board`] holds the pieces by type and by colour, the side to move, the castling rights,
//! the en passant square, the fifty-move counter and three Zobrist keys (position, pawns,
//! material), all kept up to date by [`Board::play`]. It is `Copy`: playing a move returns the
//! child and leaves the parent as it was, so an engine that searches by copy-make keeps one
//! board per ply and needs no undo. [`Position`](crate::Position) is this board plus a history
//! (undo, repetitions), FEN and Stockfish's API.
//!
//! What stays fixed for a whole game lives beside the board in [`Rules`]: the slider backend
//! and the castling geometry (where the castling rooks start, which squares must be empty).
//!
//! ```
//! use bitforge::Position;
//! use bitforge::slider::FancyMagic;
//!
//! let position = Position::start(FancyMagic);
//! let (board, rules) = (*position.board(), position.rules());
//! let moves = board.legal_moves(rules);
//! assert_eq!(moves.len(), 20);
//! let child = board.play(moves[0], rules);          // copy-make: `board` is unchanged
//! assert_eq!(child.count_legal_moves(rules), 20);
//! assert_ne!(child.key(), board.key());
//! assert_eq!(board.perft(rules, 3), 8_902);
//! ```

mod castling;
mod checks;
mod make;
mod placement;
pub(crate) mod side;
mod state;
pub(crate) mod zobrist;

pub use castling::CastlingInfo;
pub(crate) use castling::destinations as castling_destinations;
pub(crate) use checks::single_blocker_lines;
pub(crate) use placement::Placement;
use state::State;

use crate::slider::Slider;
use crate::{Bitboard, CastlingRights, Color, File, Piece, PieceType, Rank, Square};

/// A position without its history: pieces, side to move, castling rights, en passant square,
/// and what `T` tracks ([`KeyChoice`]): by default ([`Keys`]) the three Zobrist keys and the
/// fifty-move counter, or ([`PositionKey`]) the position's key and the counter. Copy it to keep
/// it; [`play`](Board::play) a move on it to get the child.
///
/// (Perft walks its tree on boards that track nothing, `T = ()`: the same moves made by the
/// same code, a smaller copy per node. Such a board never leaves perft.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board<T = Keys> {
    pub(crate) pieces: Placement,
    /// The side to move, the castling rights, the en passant square and the fifty-move
    /// counter. The en passant square is set, with [`Keys`], only when an en passant capture is
    /// legal, so that equal positions have equal keys; on perft's boards, whenever an enemy
    /// pawn attacks it (the generator decides). The counter is counted by a board that tracks
    /// keys (perft's boards leave it as set up).
    pub(crate) state: State,
    pub(crate) tracked: T,
}

/// What a [`Board`] keeps up to date beside the pieces by default: Stockfish's three Zobrist
/// keys (position, pawns, material), and with them the fifty-move counter (which the board
/// holds). [`Position`](crate::Position) plays on this board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Keys {
    /// The position's key.
    pub(crate) position: PositionKey,
    /// Zobrist key of the pawns alone.
    pub(crate) pawn_key: u64,
    /// Zobrist key of the material: how many of each piece, not where.
    pub(crate) material_key: u64,
}

/// What a `Board<PositionKey>` keeps up to date beside the pieces: the position's Zobrist key
/// (the same as [`Keys`]' key), and with it the fifty-move counter (which the board holds).
/// Less to update and to copy per move, for an engine that keeps no pawn or material hash
/// table.
///
/// ```
/// use bitforge::board::{Board, PositionKey};
/// use bitforge::Position;
/// use bitforge::slider::FancyMagic;
///
/// let position = Position::start(FancyMagic);
/// let (board, rules) = (*position.board(), position.rules());
/// let lean: Board<PositionKey> = board.into();
/// let m = lean.legal_moves(rules)[0];
/// assert_eq!(lean.play(m, rules).key(), board.play(m, rules).key());
/// assert_eq!(lean.perft(rules, 3), 8_902);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PositionKey {
    /// Zobrist key of the whole position.
    pub(crate) key: u64,
}

/// Which keys a [`Board`] an engine plays on keeps, chosen through its type: [`Keys`] (the
/// default: Stockfish's three and the fifty-move counter) or [`PositionKey`] (the position's
/// key and the counter). Implemented by these two only.
#[allow(private_bounds)]
pub trait KeyChoice: make::Tracking {
    /// The Zobrist key of the position (pieces, side, castling, en passant).
    fn key(&self) -> u64;
}

impl KeyChoice for PositionKey {
    #[inline(always)]
    fn key(&self) -> u64 {
        self.key
    }
}

impl KeyChoice for Keys {
    #[inline(always)]
    fn key(&self) -> u64 {
        self.position.key
    }
}

impl From<Board<Keys>> for Board<PositionKey> {
    /// The same board keeping the position's key and the fifty-move counter only.
    fn from(board: Board<Keys>) -> Board<PositionKey> {
        board.keeping(board.tracked.position)
    }
}

/// What stays fixed while a game is played: the slider backend that computes sliding attacks,
/// and the castling geometry (where each castling rook starts, which squares each castling
/// needs). A [`Board`] is played and searched with the `Rules` of its game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules<S> {
    pub(crate) slider: S,
    pub(crate) castling: CastlingInfo,
}

impl<S: Slider> Rules<S> {
    /// Standard chess: kings on e1 and e8, castling rooks in the corners.
    ///
    /// ```
    /// use bitforge::board::Rules;
    /// use bitforge::slider::Hyperbola;
    /// use bitforge::Position;
    ///
    /// let position = Position::start(Hyperbola);
    /// assert_eq!(position.rules().castling(), Rules::standard(Hyperbola).castling());
    /// ```
    pub fn standard(slider: S) -> Rules<S> {
        let mut castling = CastlingInfo::NONE;
        for color in Color::ALL {
            let square = |file| Square::new(file, Rank::R1).relative(color);
            castling.add(color, square(File::E), square(File::H));
            castling.add(color, square(File::E), square(File::A));
        }
        Rules { slider, castling }
    }

    /// The slider backend.
    #[inline(always)]
    pub fn slider(&self) -> S {
        self.slider
    }

    /// The castling geometry.
    #[inline(always)]
    pub fn castling(&self) -> &CastlingInfo {
        &self.castling
    }

    /// The same rules computing sliding attacks with another backend.
    pub fn with_slider<T: Slider>(&self, slider: T) -> Rules<T> {
        Rules {
            slider,
            castling: self.castling,
        }
    }
}

impl Board {
    /// No pieces at all: a placeholder for a history's slots not yet played into.
    pub(crate) const EMPTY: Board = Board {
        pieces: Placement::EMPTY,
        state: State::new(Color::White, CastlingRights::NONE, None, 0),
        tracked: Keys {
            position: PositionKey { key: 0 },
            pawn_key: 0,
            material_key: 0,
        },
    };

    /// A board of `pieces` with its keys computed from scratch. The caller has validated the
    /// setup (one king each, en passant square only when the capture is legal).
    pub(crate) fn new(
        pieces: Placement,
        side_to_move: Color,
        castling: CastlingRights,
        en_passant: Option<Square>,
        rule50: u16,
    ) -> Board {
        let mut board = Board {
            pieces,
            state: State::new(side_to_move, castling, en_passant, rule50),
            tracked: Keys {
                position: PositionKey { key: 0 },
                pawn_key: 0,
                material_key: 0,
            },
        };
        let keys = board.compute_keys();
        (
            board.tracked.position.key,
            board.tracked.pawn_key,
            board.tracked.material_key,
        ) = keys;
        board
    }

    /// The three Zobrist keys computed from scratch: what the incremental updates must equal.
    pub(crate) fn compute_keys(&self) -> (u64, u64, u64) {
        let mut key = zobrist::castling(self.castling_rights());
        let mut pawn_key = zobrist::no_pawns();
        let mut material_key = 0;
        for piece in Piece::LIST {
            let (color, piece_type) = (piece.color(), piece.piece_type());
            let squares = self.pieces.colored(color, piece_type);
            for square in squares {
                key ^= zobrist::piece_square(color, piece_type, square);
                if piece_type == PieceType::Pawn {
                    pawn_key ^= zobrist::piece_square(color, piece_type, square);
                }
            }
            for count in 0..squares.count() {
                material_key ^= zobrist::material(color, piece_type, count as u8);
            }
        }
        if let Some(square) = self.en_passant() {
            key ^= zobrist::en_passant(square);
        }
        if self.side_to_move() == Color::Black {
            key ^= zobrist::side();
        }
        (key, pawn_key, material_key)
    }

    /// The Zobrist key of the pawns.
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.tracked.pawn_key
    }

    /// The Zobrist key of the material: how many of each piece, not where.
    #[inline(always)]
    pub fn material_key(&self) -> u64 {
        self.tracked.material_key
    }
}

impl<T: KeyChoice> Board<T> {
    /// Plies since the last capture or pawn move (the fifty-move counter).
    #[inline(always)]
    pub fn rule50(&self) -> u16 {
        self.state.rule50()
    }

    /// The Zobrist key of the position (pieces, side, castling, en passant).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.tracked.key()
    }
}

impl<T> Board<T> {
    /// The same board keeping `tracked` instead: what perft walks its tree on (`()`), or a
    /// lighter choice of keys.
    #[inline(always)]
    pub(crate) fn keeping<U>(&self, tracked: U) -> Board<U> {
        Board {
            pieces: self.pieces,
            state: self.state,
            tracked,
        }
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.state.side_to_move()
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
        self.count_of(piece.color(), piece.piece_type())
    }

    /// How many `piece_type`s of `color` there are.
    #[inline(always)]
    pub(crate) fn count_of(&self, color: Color, piece_type: PieceType) -> u8 {
        self.colored(color, piece_type).count() as u8
    }

    /// The square of `color`'s king.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces.king_square(color)
    }

    /// The type of the piece on `square` (`PieceType::None` if empty).
    #[inline(always)]
    pub fn piece_type_on(&self, square: Square) -> PieceType {
        self.pieces.piece_type_on(square)
    }

    /// The piece on `square` (`Piece::None` if empty).
    #[inline(always)]
    pub fn piece_on(&self, square: Square) -> Piece {
        match self.piece_type_on(square) {
            PieceType::None => Piece::None,
            piece_type => {
                let color = if self.pieces_of(Color::White).contains(square) {
                    Color::White
                } else {
                    Color::Black
                };
                Piece::new(color, piece_type)
            }
        }
    }

    /// The castling rights still held.
    #[inline(always)]
    pub fn castling_rights(&self) -> CastlingRights {
        self.state.castling()
    }

    /// The en passant square, set only when an en passant capture is legal.
    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.state.en_passant()
    }
}
