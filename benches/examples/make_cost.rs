//! One engine-path walk at a time, for Callgrind: what a make costs through each public API,
//! instruction by instruction (`results/analysis.md`, issue 16).
//!
//! ```sh
//! RUSTFLAGS="-C target-feature=+bmi2,+avx2,+popcnt,+lzcnt" cargo build --profile bench \
//!     -p bitforge-benches --features peers --example make_cost
//! valgrind --tool=callgrind target/release/examples/make_cost position   # or board, cozy-chess
//! ```
//!
//! `perft [FEN DEPTH]` is bulk-counting perft, with `pext` raised to x86-64-v3 as
//! `perft-speed` runs it; by default Kiwipete one ply deeper (the same 99,949 boards made, their
//! moves counted, not made): what a counted child costs.
//!
//! `board-stack` is the `board` walk with each child made by `play_into` into the next board
//! of an array, one board per ply.
//!
//! `board-last-ply` walks the same tree as `perft` through `Board`'s public API (the moves
//! listed and played, the last ply counted with `count_legal_moves`), `pext` raised the same
//! way: what a counted child costs an engine's walk.
//!
//! `position-eager` is the `position` walk that also computes, after every move, the check
//! information Stockfish's `StateInfo` keeps (checkers, both kings' blockers and pinners, the
//! check squares of every piece type): what computing it eagerly would cost.
//!
//! Kiwipete to depth 3, every move made (99,949 makes, 97,862 leaves); the backend is `pext`
//! (valgrind has no AVX-512, so the build targets BMI2 and AVX2 only).

use std::process::ExitCode;

use std::hint::black_box;

use bitforge::slider::{Leveled, Pext, Slider, V3};
use bitforge::{Color, PieceType, Position};
use bitforge_benches::engine_path::{Leaves, board_perft, board_stack_perft, position_perft};
use bitforge_benches::peers::{Cozy, Peer};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const DEPTH: u32 = 3;

fn main() -> ExitCode {
    let which = std::env::args().nth(1).unwrap_or_default();
    let Some(pext) = Pext::new() else {
        eprintln!("error: this CPU has no BMI2");
        return ExitCode::from(2);
    };
    let Ok(mut position) = Position::from_fen(KIWIPETE, pext) else {
        return ExitCode::FAILURE;
    };
    let nodes = match which.as_str() {
        "position" => position_perft(&mut position, DEPTH, Leaves::EveryMove),
        "board" => board_perft(position.board(), position.rules(), DEPTH, Leaves::EveryMove),
        "board-stack" => {
            let mut stack = vec![*position.board(); DEPTH as usize + 1];
            board_stack_perft(&mut stack, position.rules(), DEPTH, Leaves::EveryMove)
        }
        "board-last-ply" => match raised_board_last_ply() {
            Some(nodes) => nodes,
            None => return ExitCode::FAILURE,
        },
        "position-eager" => eager(&mut position, DEPTH),
        "perft" => match raised_perft() {
            Some(nodes) => nodes,
            None => return ExitCode::FAILURE,
        },
        "cozy-chess" => Cozy::perft_every_move(&Cozy::board(KIWIPETE), DEPTH),
        _ => {
            eprintln!(
                "usage: make_cost position|position-eager|board|board-stack|board-last-ply|cozy-chess|perft [FEN DEPTH]"
            );
            return ExitCode::from(2);
        }
    };
    println!("nodes {nodes}");
    ExitCode::SUCCESS
}

/// The every-move walk on `Position`, computing the check information after every move.
fn eager<S: Slider>(position: &mut Position<S>, depth: u32) -> u64 {
    let mut check_information = position.checkers();
    for color in Color::ALL {
        check_information ^= position.blockers_for_king(color) ^ position.pinners(color);
    }
    for piece_type in PieceType::LIST {
        check_information ^= position.check_squares(piece_type);
    }
    black_box(check_information);
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    for &m in position.legal_moves().iter() {
        position.do_move(m);
        nodes += eager(position, depth - 1);
        position.undo_move();
    }
    nodes
}

/// The Kiwipete tree of `perft`'s default walked on `Board` through the public API, the last
/// ply counted; `None`, said why, for a CPU without x86-64-v3.
fn raised_board_last_ply() -> Option<u64> {
    let Some(raised) = Leveled::<Pext, V3>::new() else {
        eprintln!("error: this CPU is not x86-64-v3");
        return None;
    };
    let position = Position::from_fen(KIWIPETE, raised).ok()?;
    Some(raised.within(|| {
        board_perft(
            position.board(),
            position.rules(),
            DEPTH + 1,
            Leaves::LastPlyCounted,
        )
    }))
}

/// Bulk-counting perft of the FEN and depth given after `perft` (Kiwipete one ply deeper than
/// the walks by default), `pext` at x86-64-v3; `None`, said why, for a CPU without it or a FEN
/// that does not read.
fn raised_perft() -> Option<u64> {
    let mut args = std::env::args().skip(2);
    let Some(raised) = Leveled::<Pext, V3>::new() else {
        eprintln!("error: this CPU is not x86-64-v3");
        return None;
    };
    let (fen, depth) = match (args.next(), args.next().and_then(|d| d.parse().ok())) {
        (Some(fen), Some(depth)) => (fen, depth),
        _ => (KIWIPETE.to_owned(), DEPTH + 1),
    };
    match Position::from_fen(&fen, raised) {
        Ok(position) => Some(raised.within(|| position.perft(depth))),
        Err(error) => {
            eprintln!("error: {error}");
            None
        }
    }
}
