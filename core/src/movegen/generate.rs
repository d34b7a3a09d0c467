//! Legal move generation: every move it produces is legal, with no make-and-test. Pins restrict
//! a piece to the line through its king (`LINE`), check evasions to the squares that block or
//! capture (`CHECK_BLOCK`), and king moves are tested with the king lifted off the board.

use crate::position::Position;
use crate::slider::Slider;
use crate::tables::{check_block, king_attacks, knight_attacks, line};
use crate::{
    Bitboard, CastlingRights, CastlingSide, Color, Direction, Move, PieceType, Rank, relative_rank,
};

/// Where generated moves go: a list ([`MoveList`](super::MoveList)) or a counter (perft's
/// last ply). Moves arrive grouped, so a counter adds popcounts instead of moves.
pub(crate) trait MoveSink {
    /// Normal moves from `from` to every square of `targets`.
    fn targets(&mut self, from: crate::Square, targets: Bitboard);
    /// Pawn moves to every square of `targets`, each from `step` squares behind it.
    fn pawn_moves(&mut self, targets: Bitboard, step: i8);
    /// Promotions (four each) to every square of `targets`, each from `step` squares behind.
    fn promotions(&mut self, targets: Bitboard, step: i8);
    /// One castling or en passant move.
    fn special(&mut self, m: Move);
}

/// Counts moves without listing them.
pub(crate) struct MoveCounter(pub(crate) u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn targets(&mut self, _from: crate::Square, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, _step: i8) {
        self.0 += u64::from(targets.count());
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, _step: i8) {
        self.0 += 4 * u64::from(targets.count());
    }

    #[inline(always)]
    fn special(&mut self, _m: Move) {
        self.0 += 1;
    }
}

/// Generates every legal move of `position` into `sink`.
#[inline(always)]
pub(crate) fn generate_legal<S: Slider, K: MoveSink>(position: &Position<S>, sink: &mut K) {
    // The side to move as a constant: pawn directions and relative ranks fold at compile time
    // (measured: fewer instructions per node than a run-time colour).
    match position.side_to_move() {
        Color::White => generate_for::<true, S, K>(position, sink),
        Color::Black => generate_for::<false, S, K>(position, sink),
    }
}

/// The side to move from a const parameter.
#[inline(always)]
const fn side(white: bool) -> Color {
    if white { Color::White } else { Color::Black }
}

#[inline(always)]
fn generate_for<const WHITE: bool, S: Slider, K: MoveSink>(position: &Position<S>, sink: &mut K) {
    let slider = position.slider();
    let us = side(WHITE);
    let them = !us;
    let occupied = position.occupied();
    let ours = position.pieces_of(us);
    let king = position.king_square(us);
    let checkers = position.checkers();

    // The king: any attacked square is out, judged with the king lifted so that it cannot hide
    // behind itself from a slider.
    let without_king = occupied ^ king;
    let mut king_targets = Bitboard::EMPTY;
    for to in king_attacks(king) - ours {
        if !position.attacked_by(them, to, without_king) {
            king_targets |= to;
        }
    }
    sink.targets(king, king_targets);
    if checkers.more_than_one() {
        return;
    }

    // Other pieces must capture or block a single checker.
    let target = match checkers.first() {
        Some(checker) => check_block(king, checker) - ours,
        None => !ours,
    };
    let pinned = position.blockers_for_king(us) & ours;

    // A pinned knight can never move.
    for from in position.colored(us, PieceType::Knight) - pinned {
        sink.targets(from, knight_attacks(from) & target);
    }
    let queens = position.colored(us, PieceType::Queen);
    for from in position.colored(us, PieceType::Bishop) | queens {
        let mut targets = slider.bishop_attacks(from, occupied) & target;
        if pinned.contains(from) {
            targets &= line(king, from);
        }
        sink.targets(from, targets);
    }
    for from in position.colored(us, PieceType::Rook) | queens {
        let mut targets = slider.rook_attacks(from, occupied) & target;
        if pinned.contains(from) {
            targets &= line(king, from);
        }
        sink.targets(from, targets);
    }

    generate_pawn_moves::<WHITE, S, K>(position, sink, target, pinned);

    if checkers.is_empty() {
        generate_castling::<WHITE, S, K>(position, sink);
    }
}

/// Pawn pushes, captures, promotions and en passant. Unpinned pawns are handled set-wise;
/// pinned ones one at a time, limited to their pin line.
#[inline(always)]
fn generate_pawn_moves<const WHITE: bool, S: Slider, K: MoveSink>(
    position: &Position<S>,
    sink: &mut K,
    target: Bitboard,
    pinned: Bitboard,
) {
    let us = side(WHITE);
    let king = position.king_square(us);
    let empty = !position.occupied();
    let enemies = position.pieces_of(!us);
    let (up, up_left, up_right) = match us {
        Color::White => (
            Direction::NORTH,
            Direction::NORTH_WEST,
            Direction::NORTH_EAST,
        ),
        Color::Black => (
            Direction::SOUTH,
            Direction::SOUTH_EAST,
            Direction::SOUTH_WEST,
        ),
    };
    let seventh = relative_rank(us, Rank::R7).bitboard();
    let third = relative_rank(us, Rank::R3).bitboard();
    let pawns = position.colored(us, PieceType::Pawn);

    let emit = |pawns: Bitboard, allowed: Bitboard, sink: &mut K| {
        let single = pawns.shift(up) & empty;
        let double = (single & third).shift(up) & empty & target & allowed;
        let single = single & target & allowed;
        let left = pawns.shift(up_left) & enemies & target & allowed;
        let right = pawns.shift(up_right) & enemies & target & allowed;
        let last = !seventh.shift(up);
        sink.pawn_moves(single & last, up.0);
        sink.pawn_moves(double, 2 * up.0);
        sink.pawn_moves(left & last, up_left.0);
        sink.pawn_moves(right & last, up_right.0);
        let promoting = !last;
        sink.promotions(single & promoting, up.0);
        sink.promotions(left & promoting, up_left.0);
        sink.promotions(right & promoting, up_right.0);
    };
    emit(pawns - pinned, Bitboard::FULL, sink);
    for from in pawns & pinned {
        emit(from.bitboard(), line(king, from), sink);
    }

    if let Some(square) = position.en_passant() {
        for from in crate::tables::pawn_attacks(!us, square) & pawns {
            if position.en_passant_capture_is_safe(from, square) {
                sink.special(Move::en_passant(from, square));
            }
        }
    }
}

/// Castling, king takes own rook: the rights, an empty path, and no attacked square on the
/// king's way (the destination tested without the rook, which may be shielding it).
#[inline(always)]
fn generate_castling<const WHITE: bool, S: Slider, K: MoveSink>(
    position: &Position<S>,
    sink: &mut K,
) {
    let us = side(WHITE);
    let rights = position.castling_rights();
    if (rights & CastlingRights::of(us)).is_empty() {
        return;
    }
    let info = position.castling_info();
    let king = position.king_square(us);
    for side in [CastlingSide::King, CastlingSide::Queen] {
        if !rights.has(CastlingRights::new(us, side)) {
            continue;
        }
        let Some(rook) = info.rook_square(us, side) else {
            continue;
        };
        if !(position.occupied() & info.path(us, side)).is_empty() {
            continue;
        }
        let occupancy = position.occupied() ^ rook;
        if info
            .king_path(us, side)
            .into_iter()
            .all(|square| !position.attacked_by(!us, square, occupancy))
        {
            sink.special(Move::castling(king, rook));
        }
    }
}
