//! Perft's recursion: every legal move is made by copying the parent [`Board`] with the move
//! applied and recursing on the copy, the side to move a type parameter; the last ply is
//! counted with popcounts, not played (bulk counting).

use core::marker::PhantomData;

use super::attack_map::slider_attack_map;
use super::generate::{
    CountedMoves, Handed, MoveCounter, MoveSink, StepAttacks, generate, generate_given, origin,
    pinned_pieces,
};
use crate::board::side::{Black, Side, White};
use crate::board::{Board, Rules};
use crate::slider::Slider;
use crate::{Bitboard, Color, Direction, PieceType, Square};

/// The number of legal move sequences of `depth` plies from `board`, walked on boards that
/// track nothing but what move generation reads.
pub(crate) fn perft<S: Slider, T>(board: &Board<T>, rules: &Rules<S>, depth: u32) -> u64 {
    let board = &board.keeping(());
    match (depth, board.side_to_move()) {
        (0, _) => 1,
        (_, Color::White) => perft_from::<White, S>(board, rules, depth),
        (_, Color::Black) => perft_from::<Black, S>(board, rules, depth),
    }
}

/// The number of legal moves, with what the parent knows ([`Handed`]): perft at depth 1.
#[cfg_attr(bitforge_unoptimized, inline)]
#[cfg_attr(not(bitforge_unoptimized), inline(always))]
fn count<Us: Side, S: Slider>(board: &Board<()>, rules: &Rules<S>, handed: Handed) -> u64 {
    let mut counter = MoveCounter(0);
    generate_given::<Us, S, _, ()>(board, rules, &mut counter, handed);
    counter.0
}

/// The number of legal moves of a child one ply above the leaves, counted out of line: one
/// copy of the counting generator per parent, called for each child.
#[cfg(not(feature = "perft-inline"))]
#[inline(always)]
fn count_child<Us: Side, S: Slider>(board: &Board<()>, rules: &Rules<S>, handed: Handed) -> u64 {
    // SAFETY: a value of the backend proves the CPU has its level.
    unsafe {
        <S::Level as crate::slider::Level>::apart(
            #[inline(always)]
            || count::<Us, S>(board, rules, handed),
        )
    }
}

/// The number of legal moves of a child one ply above the leaves, counted inline: most visits
/// are to such a child, and a call costs a large function's prologue each time, so perft runs
/// faster, but the counting generator is copied into each of the parent's move sites, which
/// multiplies the code that a crate calling perft compiles (results/analysis.md, issue 6,
/// third part, and issue 36, fourth round).
#[cfg(feature = "perft-inline")]
#[inline(always)]
fn count_child<Us: Side, S: Slider>(board: &Board<()>, rules: &Rules<S>, handed: Handed) -> u64 {
    count::<Us, S>(board, rules, handed)
}

/// Perft for `depth >= 1`. Each ply is a function compiled for the backend's level, so the
/// recursion, not only its leaves, runs with the level's instructions. Never inlined: once its
/// body is a small call to `within`, the compiler would inline the plies into each other, and
/// its memory grew without bound.
#[inline(never)]
fn perft_from<Us: Side, S: Slider>(board: &Board<()>, rules: &Rules<S>, depth: u32) -> u64 {
    rules.slider.within(
        #[inline(always)]
        || match depth {
            // Only a root at depth 1 comes here: counted by the copy the leaves' parents call
            // rather than one more inlined copy of the generator.
            0 | 1 => count_child::<Us, S>(
                board,
                rules,
                Handed::steps(StepAttacks::of(board, Us::Other::COLOR).all()),
            ),
            // Two plies above the leaves is a generator instantiation of its own, each child's
            // moves counted (`count_child`), not recursed into: with no recursion in it the
            // compiler keeps more in registers (results/analysis.md, issue 6, third part).
            2 => play_children::<Us, S, true>(board, rules, 1),
            _ => play_children::<Us, S, false>(board, rules, depth - 1),
        },
    )
}

/// Plays every legal move of `board` and sums the subtrees `depth` plies deep below them;
/// `LAST`: `depth` is 1, each child's legal moves are counted (`count_child`).
#[cfg_attr(bitforge_unoptimized, inline)]
#[cfg_attr(not(bitforge_unoptimized), inline(always))]
fn play_children<Us: Side, S: Slider, const LAST: bool>(
    board: &Board<()>,
    rules: &Rules<S>,
    depth: u32,
) -> u64 {
    // The other side's pinned knights and sliders, whose moves each child generates.
    let their_pinned = if LAST {
        let pieces = &board.pieces;
        pinned_pieces::<Us::Other, ()>(board) - pieces.colored(Us::Other::COLOR, PieceType::Pawn)
    } else {
        Bitboard::EMPTY
    };
    let mut children = Children::<Us, S, LAST> {
        board,
        rules,
        depth,
        // What each child's generator would work out again and most moves leave as it is:
        // our step attacks and slider map, the other side's knight, slider and pawn moves.
        steps: if LAST {
            StepAttacks::of(board, Us::COLOR)
        } else {
            StepAttacks::NONE
        },
        their_moves: if LAST {
            [
                CountedMoves::knights(board, Us::Other::COLOR, their_pinned),
                CountedMoves::sliders(board, Us::Other::COLOR, rules.slider, their_pinned),
                CountedMoves::pawns::<Us::Other, ()>(board),
            ]
        } else {
            [CountedMoves::NONE; 3]
        },
        slider_map: if LAST {
            let pieces = &board.pieces;
            let ours = pieces.pieces_of(Us::COLOR);
            slider_attack_map(
                rules.slider,
                pieces.rook_movers() & ours,
                pieces.bishop_movers() & ours,
                pieces.occupied() ^ pieces.king_square(Us::Other::COLOR),
            )
        } else {
            Bitboard::EMPTY
        },
        their_pinned,
        nodes: 0,
        side: PhantomData,
    };
    generate::<Us, S, _, ()>(board, rules, &mut children);
    children.nodes
}

/// The sink that plays each move and counts the subtree below it; `LAST`: the children are
/// one ply above the leaves.
struct Children<'a, Us, S, const LAST: bool> {
    board: &'a Board<()>,
    rules: &'a Rules<S>,
    /// The depth left below each child.
    depth: u32,
    /// `LAST`: the side to move's step attacks here, handed to each child with the moved
    /// piece's kind updated.
    steps: StepAttacks,
    /// `LAST`: the other side's knight, slider and pawn moves here, each handed to a child
    /// whose move leaves it as it was.
    their_moves: [CountedMoves; 3],
    /// `LAST`: the squares the side to move's sliders attack here, the other king lifted,
    /// handed to each child whose move changed neither them nor the occupancy of a square
    /// they reach.
    slider_map: Bitboard,
    /// `LAST`: the other side's knights and sliders pinned here, left out of `their_moves`.
    their_pinned: Bitboard,
    nodes: u64,
    side: PhantomData<Us>,
}

impl<Us: Side, S: Slider, const LAST: bool> Children<'_, Us, S, LAST> {
    /// Counts or walks `child`, in which a piece of kind `moved` (or none: `None`) changed
    /// the mover's step attacks; `quiet`: the move captured nothing; `occupancy`: the squares
    /// whose occupancy it changed (or more).
    #[inline(always)]
    fn visit(
        &mut self,
        child: Board<()>,
        moved: Option<PieceType>,
        quiet: bool,
        occupancy: Bitboard,
    ) {
        self.nodes += if LAST {
            let mut steps = self.steps;
            match moved {
                Some(PieceType::Pawn) => steps.pawns = StepAttacks::pawns_of(&child, Us::COLOR),
                Some(PieceType::Knight) => {
                    steps.knights = StepAttacks::knights_of(&child, Us::COLOR);
                }
                Some(PieceType::King) => steps.king = StepAttacks::king_of(&child, Us::COLOR),
                Some(_) => {}
                None => steps = StepAttacks::of(&child, Us::COLOR),
            }
            let [knights, sliders, pawns] = self.their_moves;
            let changed = quiet.then_some(occupancy);
            let handed = Handed {
                their_steps: steps.all(),
                knight_moves: knights.after(changed),
                slider_moves: sliders.after(changed),
                pawn_moves: pawns.after(changed),
                their_slider_map: match moved {
                    Some(PieceType::Pawn | PieceType::Knight | PieceType::King)
                        if (occupancy & self.slider_map).is_empty() =>
                    {
                        Some(self.slider_map)
                    }
                    _ => None,
                },
                pinned: self.their_pinned,
            };
            count_child::<Us::Other, S>(&child, self.rules, handed)
        } else {
            perft_from::<Us::Other, S>(&child, self.rules, self.depth)
        };
    }
}

impl<Us: Side, S: Slider, const LAST: bool> MoveSink for Children<'_, Us, S, LAST> {
    #[inline(always)]
    fn targets(&mut self, piece: PieceType, from: Square, targets: Bitboard) {
        // Captures and quiet moves in loops of their own: a quiet move has nothing to clear
        // (results/analysis.md, issue 6, third part).
        let theirs = self.board.pieces.pieces_of(Us::Other::COLOR);
        for to in targets & theirs {
            self.visit(
                self.board
                    .moved::<Us, true>(piece, from, to, &self.rules.castling),
                Some(piece),
                false,
                from | to,
            );
        }
        for to in targets - theirs {
            self.visit(
                self.board
                    .moved::<Us, false>(piece, from, to, &self.rules.castling),
                Some(piece),
                true,
                from | to,
            );
        }
    }

    #[inline(always)]
    fn pawn_moves<const CAPTURE: bool>(&mut self, targets: Bitboard, step: Direction) {
        for to in targets {
            let from = origin(to, step);
            self.visit(
                self.board
                    .moved::<Us, CAPTURE>(PieceType::Pawn, from, to, &self.rules.castling),
                Some(PieceType::Pawn),
                !CAPTURE,
                from | to,
            );
        }
    }

    #[inline(always)]
    fn double_pushes(&mut self, targets: Bitboard, step: Direction) {
        for to in targets {
            let from = origin(to, step);
            self.visit(
                self.board
                    .pushed_twice::<Us, S>(from, to, self.rules.slider),
                Some(PieceType::Pawn),
                true,
                from | to,
            );
        }
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, step: Direction) {
        for to in targets {
            let from = origin(to, step);
            for promoted in [
                PieceType::Queen,
                PieceType::Knight,
                PieceType::Rook,
                PieceType::Bishop,
            ] {
                self.visit(
                    self.board
                        .promoted::<Us>(from, to, promoted, &self.rules.castling),
                    None,
                    false,
                    Bitboard::FULL,
                );
            }
        }
    }

    #[inline(always)]
    fn en_passant(&mut self, from: Square, to: Square) {
        self.visit(
            self.board.captured_en_passant::<Us>(from, to),
            Some(PieceType::Pawn),
            false,
            Bitboard::FULL,
        );
    }

    #[inline(always)]
    fn castling(&mut self, king: Square, rook: Square) {
        self.visit(
            self.board.castled::<Us>(king, rook),
            Some(PieceType::King),
            true,
            // The king's and the rook's squares and destinations, not worked out: every one.
            Bitboard::FULL,
        );
    }
}
