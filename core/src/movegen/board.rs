//! What move generation reads and perft copies: the pieces, the castling rights and the en
//! passant square (80 bytes). Perft makes a move by copying its parent with the move applied
//! (copy-make): nothing to undo, no keys, no history, no check information carried along.

use super::side::Side;
use crate::position::{CastlingInfo, Placement, castling_destinations, castling_side};
use crate::tables::pawn_attacks;
use crate::{CastlingRights, Piece, PieceType, Square};

/// What stays fixed while moves are generated and made: the slider backend and the game's
/// castling geometry.
pub(crate) struct Rules<'a, S> {
    pub(crate) slider: S,
    pub(crate) castling: &'a CastlingInfo,
}

/// The pieces, castling rights and en passant square of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Board {
    pub(crate) pieces: Placement,
    /// The square a pawn has just passed over, kept only when an enemy pawn attacks it; the
    /// generator decides whether the capture is legal.
    pub(crate) en_passant: Option<Square>,
    pub(crate) castling: CastlingRights,
}

impl Board {
    /// After `Us` moves its `piece` from `from` to `to`: every move but castling, en passant,
    /// double pushes and promotions. With `CAPTURE`, whatever enemy piece stands on `to` is
    /// removed (none is fine: promotions pass `true` for pushes too); without, `to` must be
    /// empty.
    #[inline(always)]
    pub(crate) fn moved<Us: Side, const CAPTURE: bool>(
        &self,
        piece: PieceType,
        from: Square,
        to: Square,
        castling: &CastlingInfo,
    ) -> Board {
        let mut child = *self;
        child.en_passant = None;
        let target = to.bitboard();
        let from_to = from.bitboard() | target;
        let pieces = &mut child.pieces;
        // The captured piece goes without asking what it was: clearing the square in five sets
        // costs less than a branch. A king is never captured. Callers know which targets are
        // captures (perft plays them in a loop of their own), so a quiet move clears nothing.
        if CAPTURE {
            for set in &mut pieces.by_type[PieceType::Pawn.index()..=PieceType::Queen.index()] {
                *set -= target;
            }
            pieces.by_color[Us::Other::COLOR.index()] -= target;
        }
        pieces.by_type[piece.index()] ^= from_to;
        pieces.by_color[Us::COLOR.index()] ^= from_to;
        pieces.by_type[PieceType::ALL.index()] = pieces.by_color[0] | pieces.by_color[1];
        // A right stands only while its king and rook are home, so only they, leaving, or a
        // capture of that rook take one away.
        let may_remove = CAPTURE || matches!(piece, PieceType::King | PieceType::Rook);
        if may_remove && !child.castling.is_empty() {
            child.castling &= !(castling.removed_by(from) | castling.removed_by(to));
        }
        child
    }

    /// After a pawn of `Us` pushes two squares; the en passant square is kept only when an
    /// enemy pawn attacks it.
    #[inline(always)]
    pub(crate) fn pushed_twice<Us: Side>(&self, from: Square, to: Square) -> Board {
        let mut child = *self;
        child
            .pieces
            .toggle(Piece::new(Us::COLOR, PieceType::Pawn), from | to);
        let over = Square::from_index_masked(((from as u8) + (to as u8)) / 2);
        let their_pawns = self.pieces.colored(Us::Other::COLOR, PieceType::Pawn);
        child.en_passant =
            (!(pawn_attacks(Us::COLOR, over) & their_pawns).is_empty()).then_some(over);
        child
    }

    /// After a pawn of `Us` moves from `from` to the last rank on `to` (capturing or not) and
    /// becomes a `promoted`.
    #[inline(always)]
    pub(crate) fn promoted<Us: Side>(
        &self,
        from: Square,
        to: Square,
        promoted: PieceType,
        castling: &CastlingInfo,
    ) -> Board {
        let mut child = self.moved::<Us, true>(PieceType::Pawn, from, to, castling);
        child.pieces.by_type[PieceType::Pawn.index()] ^= to;
        child.pieces.by_type[promoted.index()] ^= to;
        child
    }

    /// After a pawn of `Us` on `from` captures en passant onto `to`.
    #[inline(always)]
    pub(crate) fn captured_en_passant<Us: Side>(&self, from: Square, to: Square) -> Board {
        let mut child = *self;
        child.en_passant = None;
        let captured = Square::new(to.file(), from.rank());
        child
            .pieces
            .toggle(Piece::new(Us::COLOR, PieceType::Pawn), from | to);
        child.pieces.toggle(
            Piece::new(Us::Other::COLOR, PieceType::Pawn),
            captured.bitboard(),
        );
        child
    }

    /// After `Us` castles, the king on `king` taking its own rook on `rook` (king and rook may
    /// share squares with each other's destinations in Chess960: off first, then on).
    #[inline(always)]
    pub(crate) fn castled<Us: Side>(&self, king: Square, rook: Square) -> Board {
        let (king_to, rook_to) = castling_destinations(Us::COLOR, castling_side(king, rook));
        let mut child = *self;
        child.en_passant = None;
        child.castling &= !CastlingRights::of(Us::COLOR);
        let our_king = Piece::new(Us::COLOR, PieceType::King);
        let our_rook = Piece::new(Us::COLOR, PieceType::Rook);
        child.pieces.toggle(our_king, king.bitboard());
        child.pieces.toggle(our_rook, rook.bitboard());
        child.pieces.toggle(our_king, king_to.bitboard());
        child.pieces.toggle(our_rook, rook_to.bitboard());
        child
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::side::{Black, White};
    use crate::position::Position;
    use crate::slider::Hyperbola;
    use crate::{Color, Move, MoveKind};

    /// The board after `m` by copy-make, whatever kind of move it is.
    fn child_of<Us: Side>(position: &Position<Hyperbola>, m: Move) -> Board {
        let board = position.to_board();
        let castling = position.castling_info();
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            MoveKind::Castling => board.castled::<Us>(from, to),
            MoveKind::EnPassant => board.captured_en_passant::<Us>(from, to),
            MoveKind::Promotion => board.promoted::<Us>(from, to, m.promotion_type(), castling),
            MoveKind::Normal => {
                let piece = position.piece_on(from).piece_type();
                if piece == PieceType::Pawn && from.index().abs_diff(to.index()) == 16 {
                    board.pushed_twice::<Us>(from, to)
                } else if position.piece_on(to).piece_type() != PieceType::None {
                    board.moved::<Us, true>(piece, from, to, castling)
                } else {
                    board.moved::<Us, false>(piece, from, to, castling)
                }
            }
        }
    }

    #[test]
    fn a_board_is_80_bytes() {
        // What perft copies per move (README and the module doc quote it).
        assert_eq!(core::mem::size_of::<Board>(), 80);
    }

    /// Random games from positions rich in castling, en passant and promotions: after every
    /// move, the copy-made board equals the one `do_move` leaves.
    #[test]
    fn copy_make_agrees_with_do_move() {
        let starts = [
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                false,
            ),
            (
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                false,
            ),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false),
            (
                "1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9",
                true,
            ),
        ];
        let games = if cfg!(miri) { 1 } else { 100 };
        let mut random = 0x9E37_79B9_7F4A_7C15_u64;
        for (fen, chess960) in starts {
            for _ in 0..games {
                let mut position = if chess960 {
                    Position::from_fen_chess960(fen, Hyperbola)
                } else {
                    Position::from_fen(fen, Hyperbola)
                }
                .expect("a valid FEN");
                for _ in 0..60 {
                    let moves = position.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    // xorshift64: any spread of moves will do.
                    random ^= random << 13;
                    random ^= random >> 7;
                    random ^= random << 17;
                    let m = moves[(random % moves.len() as u64) as usize];
                    let child = match position.side_to_move() {
                        Color::White => child_of::<White>(&position, m),
                        Color::Black => child_of::<Black>(&position, m),
                    };
                    let before = position.clone();
                    position.do_move(m);
                    let expected = position.to_board();
                    assert_eq!(child.pieces, expected.pieces, "{}, {m}", before.fen());
                    assert_eq!(child.castling, expected.castling, "{}, {m}", before.fen());
                    // The position keeps an en passant square only when the capture is legal;
                    // the board whenever an enemy pawn attacks it.
                    if let Some(square) = expected.en_passant {
                        assert_eq!(child.en_passant, Some(square), "{}, {m}", before.fen());
                    }
                }
            }
        }
    }
}
