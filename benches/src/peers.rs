//! Other move generators, behind one interface so that the benchmarks run the same work on
//! them as on bitforge: cozy-chess 0.3 (black magics by default), shakmaty 0.30 (fixed-shift
//! magics) and the chess crate 3.2 (fancy magics).

use std::marker::PhantomData;
use std::str::FromStr;

use bitforge::Square;

use crate::kernels::Attacks;

/// What a benchmark needs from a move generator.
pub trait Peer {
    /// The name in benchmark ids and results, after `peer/`.
    const NAME: &'static str;
    /// The peer's square type.
    type Square: Copy;
    /// The peer's position type.
    type Board;

    /// Our square as the peer's (converted once, outside the timed loop).
    fn square(square: Square) -> Self::Square;
    /// Rook attacks from `square` through `occupancy`.
    fn rook_attacks(square: Self::Square, occupancy: u64) -> u64;
    /// Bishop attacks from `square` through `occupancy`.
    fn bishop_attacks(square: Self::Square, occupancy: u64) -> u64;
    /// The position of a standard FEN.
    fn board(fen: &str) -> Self::Board;
    /// Legal leaf nodes at `depth` (at least 1), counting the last ply in bulk.
    fn perft(board: &Self::Board, depth: u32) -> u64;
    /// Legal leaf nodes at `depth`, every move made as an engine's search makes it (copy-make
    /// through the peer's public API), the leaves included.
    fn perft_every_move(board: &Self::Board, depth: u32) -> u64;
}

/// A peer's rook (`ROOK`) or bishop attacks, as a timed method.
pub struct Theirs<P, const ROOK: bool>(PhantomData<P>);

impl<P, const ROOK: bool> Theirs<P, ROOK> {
    /// The method.
    pub const fn new() -> Self {
        Theirs(PhantomData)
    }
}

impl<P, const ROOK: bool> Default for Theirs<P, ROOK> {
    fn default() -> Self {
        Self::new()
    }
}

// By hand: a derive would ask `P: Copy` of the marker type.
impl<P, const ROOK: bool> Clone for Theirs<P, ROOK> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P, const ROOK: bool> Copy for Theirs<P, ROOK> {}

impl<P: Peer, const ROOK: bool> Attacks for Theirs<P, ROOK> {
    type Square = P::Square;

    #[inline(always)]
    fn attacks(self, square: P::Square, occupancy: u64) -> u64 {
        if ROOK {
            P::rook_attacks(square, occupancy)
        } else {
            P::bishop_attacks(square, occupancy)
        }
    }
}

/// cozy-chess 0.3.
pub struct Cozy;

impl Peer for Cozy {
    const NAME: &'static str = "cozy-chess";
    type Square = cozy_chess::Square;
    type Board = cozy_chess::Board;

    fn square(square: Square) -> cozy_chess::Square {
        cozy_chess::Square::index(square.index())
    }

    #[inline]
    fn rook_attacks(square: cozy_chess::Square, occupancy: u64) -> u64 {
        cozy_chess::get_rook_moves(square, cozy_chess::BitBoard(occupancy)).0
    }

    #[inline]
    fn bishop_attacks(square: cozy_chess::Square, occupancy: u64) -> u64 {
        cozy_chess::get_bishop_moves(square, cozy_chess::BitBoard(occupancy)).0
    }

    fn board(fen: &str) -> cozy_chess::Board {
        cozy_chess::Board::from_fen(fen, false).expect("a valid FEN")
    }

    // cozy-chess has no perft of its own: copy-make with bulk counting, as ours.
    fn perft(board: &cozy_chess::Board, depth: u32) -> u64 {
        let mut nodes = 0;
        if depth <= 1 {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
            return nodes;
        }
        board.generate_moves(|moves| {
            for m in moves {
                let mut child = board.clone();
                child.play_unchecked(m);
                nodes += Cozy::perft(&child, depth - 1);
            }
            false
        });
        nodes
    }

    fn perft_every_move(board: &cozy_chess::Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut nodes = 0;
        board.generate_moves(|moves| {
            for m in moves {
                let mut child = board.clone();
                child.play_unchecked(m);
                nodes += Cozy::perft_every_move(&child, depth - 1);
            }
            false
        });
        nodes
    }
}

/// shakmaty 0.30.
pub struct Shakmaty;

impl Peer for Shakmaty {
    const NAME: &'static str = "shakmaty";
    type Square = shakmaty::Square;
    type Board = shakmaty::Chess;

    fn square(square: Square) -> shakmaty::Square {
        shakmaty::Square::new(square.index() as u32)
    }

    #[inline]
    fn rook_attacks(square: shakmaty::Square, occupancy: u64) -> u64 {
        shakmaty::attacks::rook_attacks(square, shakmaty::Bitboard(occupancy)).0
    }

    #[inline]
    fn bishop_attacks(square: shakmaty::Square, occupancy: u64) -> u64 {
        shakmaty::attacks::bishop_attacks(square, shakmaty::Bitboard(occupancy)).0
    }

    fn board(fen: &str) -> shakmaty::Chess {
        shakmaty::fen::Fen::from_str(fen)
            .expect("a valid FEN")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("a legal position")
    }

    // shakmaty's own perft: copy-make, bulk counting.
    fn perft(board: &shakmaty::Chess, depth: u32) -> u64 {
        shakmaty::perft(board, depth)
    }

    fn perft_every_move(board: &shakmaty::Chess, depth: u32) -> u64 {
        use shakmaty::Position;
        if depth == 0 {
            return 1;
        }
        board
            .legal_moves()
            .into_iter()
            .map(|m| {
                let mut child = board.clone();
                child.play_unchecked(m);
                Shakmaty::perft_every_move(&child, depth - 1)
            })
            .sum()
    }
}

/// The chess crate 3.2.
pub struct ChessCrate;

impl Peer for ChessCrate {
    const NAME: &'static str = "chess";
    type Square = chess::Square;
    type Board = chess::Board;

    fn square(square: Square) -> chess::Square {
        chess::ALL_SQUARES[square.index()]
    }

    #[inline]
    fn rook_attacks(square: chess::Square, occupancy: u64) -> u64 {
        chess::get_rook_moves(square, chess::BitBoard(occupancy)).0
    }

    #[inline]
    fn bishop_attacks(square: chess::Square, occupancy: u64) -> u64 {
        chess::get_bishop_moves(square, chess::BitBoard(occupancy)).0
    }

    fn board(fen: &str) -> chess::Board {
        chess::Board::from_str(fen).expect("a valid FEN")
    }

    // The chess crate's own fastest perft: copy-make, bulk counting.
    fn perft(board: &chess::Board, depth: u32) -> u64 {
        chess::MoveGen::movegen_perft_test(board, depth as usize) as u64
    }

    fn perft_every_move(board: &chess::Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        chess::MoveGen::new_legal(board)
            .map(|m| ChessCrate::perft_every_move(&board.make_move_new(m), depth - 1))
            .sum()
    }
}
