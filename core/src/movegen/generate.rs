//! Legal move generation: every move it produces is legal, with no make-and-test.
//!
//! Each node first maps every square the enemy attacks, its sliders seeing through our lifted
//! king so that the king cannot hide behind itself: the king's moves and castling read it,
//! and the king is in check exactly when its own square is on it (the checkers themselves
//! are looked for only then). Pins are found from the king outwards and split by direction
//! (`pin_orthogonal`, `pin_diagonal`: the rays from the king to each pinner, pinner
//! included). A piece pinned on one kind of ray can only move along it, so its targets are its
//! attacks masked by that union of rays (two rays of one kind through the king never meet
//! elsewhere); check evasions are masked by `CHECK_BLOCK`.

use super::attack_map::slider_attack_map;
use crate::board::side::{Black, Side, White};
use crate::board::{Board, Rules, single_blocker_lines};
use crate::slider::Slider;
use crate::tables::{check_block, king_attacks, knight_attacks, pawn_attacks, pseudo_attacks};
use crate::{Bitboard, CastlingRights, CastlingSide, Color, Direction, PieceType, Square};

/// Where generated moves go: a list ([`MoveList`](super::MoveList)), a counter (perft's last
/// ply) or perft's recursion. Moves arrive grouped, so a counter adds popcounts.
pub(crate) trait MoveSink {
    /// Moves of the `piece` on `from` to every square of `targets`.
    fn targets(&mut self, piece: PieceType, from: Square, targets: Bitboard);
    /// Pawn single pushes (`CAPTURE` false) or captures (not promoting) to every square of
    /// `targets`, each from `step` squares behind it.
    fn pawn_moves<const CAPTURE: bool>(&mut self, targets: Bitboard, step: Direction);
    /// Pawn double pushes to every square of `targets`, each from `step` squares behind it.
    fn double_pushes(&mut self, targets: Bitboard, step: Direction);
    /// Promotions (four each) to every square of `targets`, each from `step` squares behind.
    fn promotions(&mut self, targets: Bitboard, step: Direction);
    /// Capturing en passant from `from` onto `to`.
    fn en_passant(&mut self, from: Square, to: Square);
    /// Castling, the king on `king` taking its own rook on `rook`.
    fn castling(&mut self, king: Square, rook: Square);
    /// Whether the sink only counts: then [`counted`](Self::counted) may stand for moves
    /// that a parent counted for the generator ([`Handed`]).
    const COUNTS_ONLY: bool = false;
    /// `moves` more moves, counted without their squares; called only when `COUNTS_ONLY`.
    #[inline(always)]
    fn counted(&mut self, _moves: u64) {}
}

/// Counts moves without listing them.
pub(crate) struct MoveCounter(pub(crate) u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn targets(&mut self, _piece: PieceType, _from: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }

    #[inline(always)]
    fn pawn_moves<const CAPTURE: bool>(&mut self, targets: Bitboard, _step: Direction) {
        self.0 += u64::from(targets.count());
    }

    #[inline(always)]
    fn double_pushes(&mut self, targets: Bitboard, _step: Direction) {
        self.0 += u64::from(targets.count());
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, _step: Direction) {
        self.0 += 4 * u64::from(targets.count());
    }

    #[inline(always)]
    fn en_passant(&mut self, _from: Square, _to: Square) {
        self.0 += 1;
    }

    #[inline(always)]
    fn castling(&mut self, _king: Square, _rook: Square) {
        self.0 += 1;
    }

    const COUNTS_ONLY: bool = true;

    #[inline(always)]
    fn counted(&mut self, moves: u64) {
        self.0 += moves;
    }
}

/// The square `step` squares behind `to`: where a pawn move to `to` came from.
#[inline(always)]
pub(crate) fn origin(to: Square, step: Direction) -> Square {
    Square::from_index_masked((to as i8 - step.0) as u8)
}

/// The pins on the side to move's king.
struct Pins {
    /// Rays along ranks and files from the king to each pinner (pinner included).
    orthogonal: Bitboard,
    /// Rays along diagonals from the king to each pinner (pinner included).
    diagonal: Bitboard,
}

/// The rays from the king on `king` to each enemy slider on its lines (`snipers`) with exactly
/// one piece between, ours, pinner included.
#[inline(always)]
fn pin_rays(king: Square, snipers: Bitboard, occupied: Bitboard, ours: Bitboard) -> Bitboard {
    let mut pins = Bitboard::EMPTY;
    for (sniper, line, blocker) in single_blocker_lines(king, snipers, occupied) {
        if !(blocker & ours).is_empty() {
            pins |= line | sniper;
        }
    }
    pins
}

/// The pins on the king on `king`.
#[cfg_attr(bitforge_unoptimized, inline)]
#[cfg_attr(not(bitforge_unoptimized), inline(always))]
fn pins<Us: Side, T>(board: &Board<T>, king: Square) -> Pins {
    let pieces = &board.pieces;
    let occupied = pieces.occupied();
    let ours = pieces.pieces_of(Us::COLOR);
    let theirs = pieces.pieces_of(Us::Other::COLOR);
    Pins {
        orthogonal: pin_rays(
            king,
            pseudo_attacks(PieceType::Rook, king) & pieces.rook_movers() & theirs,
            occupied,
            ours,
        ),
        diagonal: pin_rays(
            king,
            pseudo_attacks(PieceType::Bishop, king) & pieces.bishop_movers() & theirs,
            occupied,
            ours,
        ),
    }
}

/// `Us`'s pieces pinned on its king.
#[inline(always)]
pub(crate) fn pinned_pieces<Us: Side, T>(board: &Board<T>) -> Bitboard {
    let Pins {
        orthogonal,
        diagonal,
    } = pins::<Us, T>(board, board.pieces.king_square(Us::COLOR));
    (orthogonal | diagonal) & board.pieces.pieces_of(Us::COLOR)
}

/// Generates every legal move of `board` into `sink`.
#[cfg_attr(bitforge_unoptimized, inline)]
#[cfg_attr(not(bitforge_unoptimized), inline(always))]
pub(crate) fn generate_legal<S: Slider, K: MoveSink, T>(
    board: &Board<T>,
    rules: &Rules<S>,
    sink: &mut K,
) {
    match board.side_to_move() {
        Color::White => generate::<White, S, K, T>(board, rules, sink),
        Color::Black => generate::<Black, S, K, T>(board, rules, sink),
    }
}

/// The squares one side's pawns, knights and king attack, apart: the part of the other
/// side's banned squares that no slider lookup makes, and that a move changes only in the
/// moved piece's own kind.
#[derive(Clone, Copy)]
pub(crate) struct StepAttacks {
    pub(crate) pawns: Bitboard,
    pub(crate) knights: Bitboard,
    pub(crate) king: Bitboard,
}

impl StepAttacks {
    /// No square.
    pub(crate) const NONE: StepAttacks = StepAttacks {
        pawns: Bitboard::EMPTY,
        knights: Bitboard::EMPTY,
        king: Bitboard::EMPTY,
    };

    /// `color`'s step attacks on `board`.
    #[inline(always)]
    pub(crate) fn of<T>(board: &Board<T>, color: Color) -> StepAttacks {
        StepAttacks {
            pawns: Self::pawns_of(board, color),
            knights: Self::knights_of(board, color),
            king: Self::king_of(board, color),
        }
    }

    #[inline(always)]
    pub(crate) fn pawns_of<T>(board: &Board<T>, color: Color) -> Bitboard {
        board
            .pieces
            .colored(color, PieceType::Pawn)
            .pawn_attacks(color)
    }

    #[inline(always)]
    pub(crate) fn knights_of<T>(board: &Board<T>, color: Color) -> Bitboard {
        let mut attacked = Bitboard::EMPTY;
        for knight in board.pieces.colored(color, PieceType::Knight) {
            attacked |= knight_attacks(knight);
        }
        attacked
    }

    #[inline(always)]
    pub(crate) fn king_of<T>(board: &Board<T>, color: Color) -> Bitboard {
        king_attacks(board.pieces.king_square(color))
    }

    /// Every square of the three.
    #[inline(always)]
    pub(crate) fn all(self) -> Bitboard {
        self.pawns | self.knights | self.king
    }
}

/// What a parent knows of a child's position and hands its generator ([`generate_given`]).
#[derive(Clone, Copy)]
pub(crate) struct Handed {
    /// The enemy's step attacks ([`StepAttacks::all`]).
    pub(crate) their_steps: Bitboard,
    /// The side to move's knight, slider and pawn moves (en passant aside), each counted by
    /// the parent where its move left them as they were ([`CountedMoves`]), but those of the
    /// pieces in `pinned`: they hold unless this side is in check or its pinned pieces of that
    /// kind are others, and only a counting sink reads them.
    pub(crate) knight_moves: Option<u64>,
    pub(crate) slider_moves: Option<u64>,
    pub(crate) pawn_moves: Option<u64>,
    /// The squares the enemy's bishops, rooks and queens attack, this side's king lifted,
    /// mapped by the parent where its move left them as they were.
    pub(crate) their_slider_map: Option<Bitboard>,
    /// The knights and sliders pinned in the parent, whose moves the counts leave out.
    pub(crate) pinned: Bitboard,
}

impl Handed {
    /// Nothing known but the enemy's step attacks.
    #[inline(always)]
    pub(crate) fn steps(their_steps: Bitboard) -> Handed {
        Handed {
            their_steps,
            knight_moves: None,
            slider_moves: None,
            pawn_moves: None,
            their_slider_map: None,
            pinned: Bitboard::EMPTY,
        }
    }
}

/// Some of a side's moves, counted as if it were not in check and had no piece pinned, and the
/// squares whose occupancy they read: a move of the other side that captures nothing and
/// changes the occupancy of none of those squares leaves the count as it was.
#[derive(Clone, Copy)]
pub(crate) struct CountedMoves {
    pub(crate) moves: u64,
    pub(crate) reach: Bitboard,
}

impl CountedMoves {
    /// No move.
    pub(crate) const NONE: CountedMoves = CountedMoves {
        moves: 0,
        reach: Bitboard::EMPTY,
    };

    /// The count, if a move that captured nothing and changed the occupancy of `changed`
    /// (`None`: a capture) leaves it as it was.
    #[inline(always)]
    pub(crate) fn after(self, changed: Option<Bitboard>) -> Option<u64> {
        changed
            .filter(|squares| (*squares & self.reach).is_empty())
            .map(|_| self.moves)
    }

    /// `color`'s knight moves but those of the knights in `pinned`: they read only its own
    /// pieces, no square's occupancy.
    #[inline(always)]
    pub(crate) fn knights<T>(board: &Board<T>, color: Color, pinned: Bitboard) -> CountedMoves {
        let own = board.pieces.pieces_of(color);
        let mut counted = CountedMoves::NONE;
        for knight in board.pieces.colored(color, PieceType::Knight) - pinned {
            counted.moves += u64::from((knight_attacks(knight) - own).count());
        }
        counted
    }

    /// `color`'s bishop, rook and queen moves but those of the pieces in `pinned`, which read
    /// the squares they reach (the moves' targets: a blocker of the other side is one, and
    /// one's own stays).
    #[inline(always)]
    pub(crate) fn sliders<S: Slider, T>(
        board: &Board<T>,
        color: Color,
        slider: S,
        pinned: Bitboard,
    ) -> CountedMoves {
        let pieces = &board.pieces;
        let occupied = pieces.occupied();
        let own = pieces.pieces_of(color);
        let mut counted = CountedMoves::NONE;
        let mut add = |attacks: Bitboard| {
            let targets = attacks - own;
            counted.reach |= targets;
            counted.moves += u64::from(targets.count());
        };
        for from in pieces.colored(color, PieceType::Bishop) - pinned {
            add(slider.bishop_attacks(from, occupied));
        }
        for from in pieces.colored(color, PieceType::Rook) - pinned {
            add(slider.rook_attacks(from, occupied));
        }
        for from in pieces.colored(color, PieceType::Queen) - pinned {
            add(slider.queen_attacks(from, occupied));
        }
        counted
    }

    /// `Us`'s pawn moves but en passant, which read the squares one and two steps ahead of
    /// each pawn and the two it attacks.
    #[inline(always)]
    pub(crate) fn pawns<Us: Side, T>(board: &Board<T>) -> CountedMoves {
        let pawns = board.pieces.colored(Us::COLOR, PieceType::Pawn);
        let mut counter = MoveCounter(0);
        let allowed = !board.pieces.pieces_of(Us::COLOR);
        pawn_steps::<Us, _, T>(
            board,
            &mut counter,
            allowed,
            Bitboard::EMPTY,
            Bitboard::EMPTY,
        );
        let ahead = pawns.shift(Us::UP);
        CountedMoves {
            moves: counter.0,
            reach: ahead
                | (ahead & Us::THIRD_RANK).shift(Us::UP)
                | pawns.shift(Us::UP_LEFT)
                | pawns.shift(Us::UP_RIGHT),
        }
    }
}

/// Generates every legal move of `board`, `Us` to move, into `sink`.
#[cfg_attr(bitforge_unoptimized, inline)]
#[cfg_attr(not(bitforge_unoptimized), inline(always))]
pub(crate) fn generate<Us: Side, S: Slider, K: MoveSink, T>(
    board: &Board<T>,
    rules: &Rules<S>,
    sink: &mut K,
) {
    let handed = Handed::steps(StepAttacks::of(board, Us::Other::COLOR).all());
    generate_given::<Us, S, K, T>(board, rules, sink, handed);
}

/// [`generate`] with what a parent knows of the position handed over ([`Handed`]).
#[cfg_attr(bitforge_unoptimized, inline)]
#[cfg_attr(not(bitforge_unoptimized), inline(always))]
pub(crate) fn generate_given<Us: Side, S: Slider, K: MoveSink, T>(
    board: &Board<T>,
    rules: &Rules<S>,
    sink: &mut K,
    handed: Handed,
) {
    let slider = rules.slider;
    let pieces = &board.pieces;
    let them = Us::Other::COLOR;
    let occupied = pieces.occupied();
    let ours = pieces.pieces_of(Us::COLOR);
    let theirs = pieces.pieces_of(them);
    let king = pieces.king_square(Us::COLOR);
    let their_rooks = pieces.rook_movers() & theirs;
    let their_bishops = pieces.bishop_movers() & theirs;

    // The king: every square the enemy attacks is out, the sliders' attacks taken with the
    // king lifted so that it cannot hide behind itself. Castling reads the same map.
    let without_king = occupied ^ king;
    let their_slider_map = match handed.their_slider_map {
        Some(map) => map,
        None => slider_attack_map(slider, their_rooks, their_bishops, without_king),
    };
    let banned = handed.their_steps | their_slider_map;
    sink.targets(PieceType::King, king, king_attacks(king) - ours - banned);
    // The king is in check exactly when its own square is attacked: the map answers that, so
    // the checkers themselves are looked for only then.
    let in_check = banned.contains(king);
    if !in_check && !(board.castling_rights() & CastlingRights::of(Us::COLOR)).is_empty() {
        generate_castling::<Us, S, K, T>(board, rules, sink, king, banned);
    }

    let Pins {
        orthogonal: pin_orthogonal,
        diagonal: pin_diagonal,
    } = pins::<Us, T>(board, king);
    // Other pieces must capture or block a single checker.
    let allowed = if in_check {
        let checkers = pieces.checkers_of(them, king, occupied, slider);
        if checkers.more_than_one() {
            return;
        }
        match checkers.first() {
            Some(checker) => check_block(king, checker) - ours,
            None => return,
        }
    } else {
        !ours
    };
    let pinned = pin_orthogonal | pin_diagonal;

    // A pinned knight can never move; other pinned pieces (rare) get loops of their own so
    // that the common case tests no pin per piece.
    // What the parent counted holds out of check and with the pieces it left out pinned, no
    // other (their moves along the pins are generated below).
    let handed_holds =
        |pieces: Bitboard| K::COUNTS_ONLY && !in_check && pieces & pinned == pieces & handed.pinned;
    let knights = pieces.colored(Us::COLOR, PieceType::Knight);
    match handed.knight_moves {
        Some(moves) if handed_holds(knights) => sink.counted(moves),
        _ => {
            for from in knights - pinned {
                sink.targets(PieceType::Knight, from, knight_attacks(from) & allowed);
            }
        }
    }
    let bishops = pieces.colored(Us::COLOR, PieceType::Bishop);
    let rooks = pieces.colored(Us::COLOR, PieceType::Rook);
    let queens = pieces.colored(Us::COLOR, PieceType::Queen);
    match handed.slider_moves {
        Some(moves) if handed_holds(bishops | rooks | queens) => sink.counted(moves),
        _ => {
            for from in bishops - pinned {
                let targets = slider.bishop_attacks(from, occupied) & allowed;
                sink.targets(PieceType::Bishop, from, targets);
            }
            for from in rooks - pinned {
                let targets = slider.rook_attacks(from, occupied) & allowed;
                sink.targets(PieceType::Rook, from, targets);
            }
            for from in queens - pinned {
                let targets = slider.queen_attacks(from, occupied) & allowed;
                sink.targets(PieceType::Queen, from, targets);
            }
        }
    }
    if !(pinned & (bishops | rooks | queens)).is_empty() {
        let diagonal = |from| slider.bishop_attacks(from, occupied);
        let straight = |from| slider.rook_attacks(from, occupied);
        let sliders = bishops | queens;
        along_pins(
            sink,
            sliders,
            queens,
            PieceType::Bishop,
            pin_diagonal,
            allowed,
            diagonal,
        );
        let sliders = rooks | queens;
        along_pins(
            sink,
            sliders,
            queens,
            PieceType::Rook,
            pin_orthogonal,
            allowed,
            straight,
        );
    }

    let pawns = pieces.colored(Us::COLOR, PieceType::Pawn);
    match handed.pawn_moves {
        Some(moves) if handed_holds(pawns) => sink.counted(moves),
        _ => pawn_steps::<Us, K, T>(board, sink, allowed, pin_orthogonal, pin_diagonal),
    }
    generate_en_passant::<Us, S, K, T>(board, rules, sink, allowed);
}

/// Moves of the `sliders` pinned on `pins` (rays of the kind they move along): they stay on
/// those rays, within `allowed`; a queen among them moves as one.
#[cfg_attr(bitforge_unoptimized, inline)]
#[cfg_attr(not(bitforge_unoptimized), inline(always))]
fn along_pins<K: MoveSink>(
    sink: &mut K,
    sliders: Bitboard,
    queens: Bitboard,
    piece: PieceType,
    pins: Bitboard,
    allowed: Bitboard,
    attacks: impl Fn(Square) -> Bitboard,
) {
    for from in sliders & pins {
        let piece = if queens.contains(from) {
            PieceType::Queen
        } else {
            piece
        };
        sink.targets(piece, from, attacks(from) & pins & allowed);
    }
}

/// Pawn pushes, captures and promotions, set-wise: a pawn pinned along a file may only push,
/// one pinned along a diagonal may only capture, each staying on its pin's rays.
#[cfg_attr(bitforge_unoptimized, inline)]
#[cfg_attr(not(bitforge_unoptimized), inline(always))]
fn pawn_steps<Us: Side, K: MoveSink, T>(
    board: &Board<T>,
    sink: &mut K,
    allowed: Bitboard,
    pin_orthogonal: Bitboard,
    pin_diagonal: Bitboard,
) {
    let pieces = &board.pieces;
    let them = Us::Other::COLOR;
    let empty = !pieces.occupied();
    let theirs = pieces.pieces_of(them);
    let pawns = pieces.colored(Us::COLOR, PieceType::Pawn);

    // Pinned pawns are rare: one test spares most nodes the pin masks.
    let (single, left, right) = if (pawns & (pin_orthogonal | pin_diagonal)).is_empty() {
        (
            pawns.shift(Us::UP) & empty,
            pawns.shift(Us::UP_LEFT) & theirs & allowed,
            pawns.shift(Us::UP_RIGHT) & theirs & allowed,
        )
    } else {
        let pushers = pawns - pin_diagonal;
        let capturers = pawns - pin_orthogonal;
        let free = capturers - pin_diagonal;
        let pinned = capturers & pin_diagonal;
        let capture = |direction: Direction| {
            (free.shift(direction) | (pinned.shift(direction) & pin_diagonal)) & theirs & allowed
        };
        (
            ((pushers - pin_orthogonal).shift(Us::UP)
                | ((pushers & pin_orthogonal).shift(Us::UP) & pin_orthogonal))
                & empty,
            capture(Us::UP_LEFT),
            capture(Us::UP_RIGHT),
        )
    };
    let double = (single & Us::THIRD_RANK).shift(Us::UP) & empty & allowed;
    let single = single & allowed;

    sink.pawn_moves::<false>(single - Us::LAST_RANK, Us::UP);
    sink.double_pushes(double, Direction(2 * Us::UP.0));
    sink.pawn_moves::<true>(left - Us::LAST_RANK, Us::UP_LEFT);
    sink.pawn_moves::<true>(right - Us::LAST_RANK, Us::UP_RIGHT);
    // Most positions have no pawn a step from promoting: one test skips the three sets.
    if !(pawns & Us::SEVENTH_RANK).is_empty() {
        sink.promotions(single & Us::LAST_RANK, Us::UP);
        sink.promotions(left & Us::LAST_RANK, Us::UP_LEFT);
        sink.promotions(right & Us::LAST_RANK, Us::UP_RIGHT);
    }
}

/// Capturing en passant.
#[cfg_attr(bitforge_unoptimized, inline)]
#[cfg_attr(not(bitforge_unoptimized), inline(always))]
fn generate_en_passant<Us: Side, S: Slider, K: MoveSink, T>(
    board: &Board<T>,
    rules: &Rules<S>,
    sink: &mut K,
    allowed: Bitboard,
) {
    let pawns = board.pieces.colored(Us::COLOR, PieceType::Pawn);
    if let Some(square) = board.en_passant() {
        let captured = origin(square, Us::UP);
        // Capturing must end a check (the checker is the pushed pawn, or the move blocks).
        if (allowed & (square | captured)).is_empty() {
            return;
        }
        for from in pawn_attacks(Us::Other::COLOR, square) & pawns {
            // Two pawns leave their squares at once, which no pin mask captures.
            if !board.en_passant_exposes_king(Us::COLOR, from, square, rules.slider) {
                sink.en_passant(from, square);
            }
        }
    }
}

/// Castling, king takes own rook: the right, an empty path, and no attacked square on the
/// king's way (tested without the rook, which may be shielding the destination in Chess960).
/// `banned`: the squares the enemy attacks, sliders seen through the lifted king.
#[cfg_attr(bitforge_unoptimized, inline)]
#[cfg_attr(not(bitforge_unoptimized), inline(always))]
fn generate_castling<Us: Side, S: Slider, K: MoveSink, T>(
    board: &Board<T>,
    rules: &Rules<S>,
    sink: &mut K,
    king: Square,
    banned: Bitboard,
) {
    castle::<Us, S, K, T>(board, rules, sink, king, banned, CastlingSide::King);
    castle::<Us, S, K, T>(board, rules, sink, king, banned, CastlingSide::Queen);
}

#[cfg_attr(bitforge_unoptimized, inline)]
#[cfg_attr(not(bitforge_unoptimized), inline(always))]
fn castle<Us: Side, S: Slider, K: MoveSink, T>(
    board: &Board<T>,
    rules: &Rules<S>,
    sink: &mut K,
    king: Square,
    banned: Bitboard,
    side: CastlingSide,
) {
    let occupied = board.pieces.occupied();
    let king_path = rules.castling.king_path(Us::COLOR, side);
    if !board
        .castling_rights()
        .has(CastlingRights::new(Us::COLOR, side))
        || !(occupied & rules.castling.path(Us::COLOR, side)).is_empty()
        || !(king_path & banned).is_empty()
    {
        return;
    }
    let Some(rook) = rules.castling.rook_square(Us::COLOR, side) else {
        return;
    };
    // A rook in its corner shields no square of the king's path, so `banned` (computed with
    // the king lifted, which changes nothing here since the king is not in check) is exact.
    if (Bitboard::FILE_A | Bitboard::FILE_H).contains(rook) {
        sink.castling(king, rook);
        return;
    }
    // A Chess960 rook off its corner may shield a square of the king's path from a slider:
    // look again without it (the map already holds every other attack).
    if board.castling_path_is_unswept(Us::COLOR, king_path, rook, rules.slider) {
        sink.castling(king, rook);
    }
}
