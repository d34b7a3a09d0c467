//! Perft the way an engine's search walks the tree: through bitforge's public API, every move
//! made (the leaves included) or the last ply counted with `count_legal_moves`, on
//! [`Position`] (do/undo) or on the copy-make [`Board`] with either choice of keys, the child
//! passed down the recursion or made into the next board of an array; each node's moves are
//! listed into a list of its own (`legal_moves_into`). The internal `perft` is what the
//! generator can do; these are what a user of the API gets.

use bitforge::board::{KeyChoice, PositionKey};
use bitforge::slider::{Slider, SliderJob};
use bitforge::{Board, MoveList, Position, Rules};

/// How the tree's last ply is handled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaves {
    /// Every move made, the leaves included: what a search does.
    EveryMove,
    /// The moves one ply above the leaves counted, not made (bulk counting).
    LastPlyCounted,
}

/// Which public API walks the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Api {
    /// `Position::legal_moves_into`, `do_move`, `undo_move`, `count_legal_moves`.
    Position,
    /// `Board::legal_moves_into`, `play` (copy-make), `count_legal_moves`, on the default board
    /// (Stockfish's three keys and the fifty-move counter).
    Board,
    /// The same on `Board<PositionKey>` (the position's key and the counter).
    BoardPositionKey,
    /// The default board again, each child made by `play_into` into the next board of an
    /// array, one board per ply, as a search keeps them.
    BoardStack,
}

impl Leaves {
    /// The name in benchmark ids and tables.
    pub const fn name(self) -> &'static str {
        match self {
            Leaves::EveryMove => "every-move",
            Leaves::LastPlyCounted => "last-ply",
        }
    }
}

impl Api {
    /// Every API, in the order of the tables.
    pub const ALL: [Api; 4] = [
        Api::Position,
        Api::Board,
        Api::BoardPositionKey,
        Api::BoardStack,
    ];

    /// The name in benchmark ids and tables.
    pub const fn name(self) -> &'static str {
        match self {
            Api::Position => "position",
            Api::Board => "board",
            Api::BoardPositionKey => "board-position-key",
            Api::BoardStack => "board-stack",
        }
    }
}

/// Leaf nodes `depth` plies below `position`, walked with do/undo.
pub fn position_perft<S: Slider>(position: &mut Position<S>, depth: u32, leaves: Leaves) -> u64 {
    match (depth, leaves) {
        (0, _) => 1,
        (1, Leaves::LastPlyCounted) => position.count_legal_moves(),
        _ => {
            let mut nodes = 0;
            let mut moves = MoveList::new();
            position.legal_moves_into(&mut moves);
            for &m in moves.iter() {
                position.do_move(m);
                nodes += position_perft(position, depth - 1, leaves);
                position.undo_move();
            }
            nodes
        }
    }
}

/// Leaf nodes `depth` plies below `board`, walked by copy-make.
pub fn board_perft<S: Slider, T: KeyChoice>(
    board: &Board<T>,
    rules: &Rules<S>,
    depth: u32,
    leaves: Leaves,
) -> u64 {
    match (depth, leaves) {
        (0, _) => 1,
        (1, Leaves::LastPlyCounted) => board.count_legal_moves(rules),
        _ => {
            let mut moves = MoveList::new();
            board.legal_moves_into(rules, &mut moves);
            moves
                .iter()
                .map(|&m| board_perft(&board.play(m, rules), rules, depth - 1, leaves))
                .sum()
        }
    }
}

/// Leaf nodes `depth` plies below the first board of `stack`, each child made into the next
/// board (`stack` holds at least `depth + 1` boards; with fewer, the walk counts 0 below).
pub fn board_stack_perft<S: Slider, T: KeyChoice>(
    stack: &mut [Board<T>],
    rules: &Rules<S>,
    depth: u32,
    leaves: Leaves,
) -> u64 {
    let Some((board, below)) = stack.split_first_mut() else {
        return 0;
    };
    match (depth, leaves) {
        (0, _) => 1,
        (1, Leaves::LastPlyCounted) => board.count_legal_moves(rules),
        _ => {
            let mut nodes = 0;
            let mut moves = MoveList::new();
            board.legal_moves_into(rules, &mut moves);
            // Played from a copy: read from the stack, the parent could be changed by the
            // recursion for all the compiler knows (`Board::play_into`).
            let parent = *board;
            for &m in moves.iter() {
                let Some(child) = below.first_mut() else {
                    return 0;
                };
                parent.play_into(m, rules, child);
                nodes += board_stack_perft(below, rules, depth - 1, leaves);
            }
            nodes
        }
    }
}

/// One engine path over positions given as FEN and depth, as a job for any backend; one count
/// per position (0 for a FEN that does not read, which fails any count check).
pub struct EnginePath<'a> {
    /// The positions and their depths.
    pub positions: &'a [(&'a str, u32)],
    /// Which API.
    pub api: Api,
    /// How the last ply is handled.
    pub leaves: Leaves,
}

impl SliderJob for EnginePath<'_> {
    type Output = Vec<u64>;

    fn run<S: Slider>(self, slider: S) -> Vec<u64> {
        self.positions
            .iter()
            .map(|&(fen, depth)| match Position::from_fen(fen, slider) {
                Ok(mut position) => match self.api {
                    Api::Position => position_perft(&mut position, depth, self.leaves),
                    Api::Board => {
                        board_perft(position.board(), position.rules(), depth, self.leaves)
                    }
                    Api::BoardPositionKey => {
                        let board: Board<PositionKey> = (*position.board()).into();
                        board_perft(&board, position.rules(), depth, self.leaves)
                    }
                    Api::BoardStack => {
                        let plies = usize::try_from(depth).map_or(0, |depth| depth + 1);
                        let mut stack = vec![*position.board(); plies];
                        board_stack_perft(&mut stack, position.rules(), depth, self.leaves)
                    }
                },
                Err(_) => 0,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bitforge::slider::Hyperbola;

    /// Every API walks Kiwipete's tree to the same, known counts, the last ply counted or made.
    #[test]
    fn every_api_counts_the_same_tree() {
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        for leaves in [Leaves::EveryMove, Leaves::LastPlyCounted] {
            for api in Api::ALL {
                let job = EnginePath {
                    positions: &[(kiwipete, 3)],
                    api,
                    leaves,
                };
                assert_eq!(job.run(Hyperbola), [97_862], "{api:?} {leaves:?}");
            }
        }
    }
}
