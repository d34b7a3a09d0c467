//! Every position of the perft suites (`tests/perft/`, copied from the project's shared test
//! vectors: standard, ROCE and Chess960) against its published counts, once per backend, each
//! compiled at its own level (as on a CPU that has nothing more).
//!
//! Checks every depth whose count is at most `BITFORGE_PERFT_MAX_NODES` (default 1,000,000; a
//! few hundred under Miri). The same suites with every backend raised to this CPU's best
//! level, as `Backend::run` compiles them, and every listed depth (34.7 billion nodes) run
//! through the perft command in `bitforge-benches` (`benches/tests/perft_suites.rs`): one
//! compiled copy of the generator per backend and level, shared with the command, instead of
//! another here. `perft_default_choice.rs` runs them through `Backend::run_best`.

use bitforge::{Move, Position};

mod common;

use common::{Suites, max_nodes};

/// Every backend at its own level, on every suite line up to the node limit, each in a thread.
#[test]
fn every_backend() {
    common::for_every_backend_unraised(|backend| {
        let suites = Suites {
            max_nodes: max_nodes(),
        };
        match backend.run_unraised(suites) {
            Some(checked) => assert!(checked > 0, "{backend}: no count was small enough to check"),
            None => eprintln!("{backend}: not available on this CPU, skipped"),
        }
    });
}

/// Divide splits perft exactly: the per-move counts add up, and each equals the perft of the
/// position after the move.
#[test]
fn divide_adds_up() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let mut position = Position::from_fen(kiwipete, bitforge::slider::FancyMagic).unwrap();
    let depth = if cfg!(miri) { 1 } else { 3 };
    let mut parts: Vec<(Move, u64)> = Vec::new();
    let total = position.divide(depth, |m, nodes| parts.push((m, nodes)));
    assert_eq!(parts.len(), 48);
    assert_eq!(parts.iter().map(|&(_, n)| n).sum::<u64>(), total);
    for (m, nodes) in parts {
        position.do_move(m);
        assert_eq!(position.perft(depth - 1), nodes, "{m}");
        position.undo_move();
    }
}
