//! Perft per backend: the five speed positions of `data/perft-speed.epd` (start, Kiwipete,
//! positions 3, 4 and 5), each one ply shallower than the full speed run so that one
//! iteration takes tens of milliseconds. Throughput is in nodes, so criterion reports nodes
//! per second. The full run is the `perft-speed` binary.
//!
//! A second group, `engine-path`, walks the same trees through the public API as an engine's
//! search does (`Position`'s do/undo and the copy-make `Board`, with the best backend here),
//! every move made or the last ply counted, beside the peers' copy-make (with `peers`).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

use bitforge::Position;
use bitforge::position::PerftLine;
use bitforge::slider::{Backend, Slider, SliderJob};
use bitforge_benches::engine_path::{Api, EnginePath, Leaves};

const SPEED_POSITIONS: &str = include_str!("../data/perft-speed.epd");

/// The positions with the depth benchmarked (one less than listed).
fn positions() -> Vec<(&'static str, u32)> {
    SPEED_POSITIONS
        .lines()
        .map(|line| {
            let line = PerftLine::parse(line).expect("speed position");
            let (depth, _) = line.counts().last().expect("a depth");
            (line.fen, depth - 1)
        })
        .collect()
}

/// Perft of every position, as one job per backend.
struct AllPositions<'a>(&'a [(&'static str, u32)]);

impl SliderJob for AllPositions<'_> {
    type Output = u64;

    fn run<S: Slider>(self, slider: S) -> u64 {
        self.0
            .iter()
            .map(|&(fen, depth)| {
                let position = Position::from_fen(fen, slider).expect("speed FEN");
                position.perft(black_box(depth))
            })
            .sum()
    }
}

fn perft(c: &mut Criterion) {
    let positions = positions();
    let nodes = Backend::FancyMagic
        .run(AllPositions(&positions))
        .expect("fancy runs everywhere");
    let mut group = c.benchmark_group("perft");
    group.throughput(Throughput::Elements(nodes));
    group.sample_size(10);
    for backend in Backend::ALL.into_iter().filter(|b| b.is_available()) {
        group.bench_function(backend.name(), |b| {
            b.iter(|| backend.run(AllPositions(black_box(&positions))))
        });
    }
    #[cfg(feature = "peers")]
    {
        use bitforge_benches::peers::{ChessCrate, Cozy, Peer, Shakmaty};
        let id = |name| format!("peer/{name}");
        bench_peer::<Cozy>(&mut group, &positions, nodes, &id(Cozy::NAME), Cozy::perft);
        bench_peer::<Shakmaty>(
            &mut group,
            &positions,
            nodes,
            &id(Shakmaty::NAME),
            Shakmaty::perft,
        );
        bench_peer::<ChessCrate>(
            &mut group,
            &positions,
            nodes,
            &id(ChessCrate::NAME),
            ChessCrate::perft,
        );
    }
    group.finish();
}

/// A peer's `walk` of the same trees, as `id`, after checking it counts the same nodes.
#[cfg(feature = "peers")]
fn bench_peer<P: bitforge_benches::peers::Peer>(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    positions: &[(&'static str, u32)],
    nodes: u64,
    id: &str,
    walk: fn(&P::Board, u32) -> u64,
) {
    let boards: Vec<_> = positions
        .iter()
        .map(|&(fen, depth)| (P::board(fen), depth))
        .collect();
    let count = |boards: &[(P::Board, u32)]| -> u64 {
        boards
            .iter()
            .map(|(board, depth)| walk(board, *depth))
            .sum()
    };
    assert_eq!(count(&boards), nodes, "{} counts the same nodes", P::NAME);
    group.bench_function(id, |b| b.iter(|| count(black_box(&boards))));
}

/// Perft through the public API with the best backend here, and the peers' every-move walk.
fn engine_path(c: &mut Criterion) {
    let positions = positions();
    let Ok(best) = Backend::choose(None) else {
        return;
    };
    let nodes = Backend::FancyMagic
        .run(AllPositions(&positions))
        .expect("fancy runs everywhere");
    let mut group = c.benchmark_group("engine-path");
    group.throughput(Throughput::Elements(nodes));
    group.sample_size(10);
    for leaves in [Leaves::LastPlyCounted, Leaves::EveryMove] {
        for api in Api::ALL {
            let job = || EnginePath {
                positions: black_box(&positions),
                api,
                leaves,
            };
            let counted: u64 = best.run(job()).expect("the best backend runs").iter().sum();
            assert_eq!(counted, nodes, "{} {}", api.name(), leaves.name());
            let id = format!("{}/{}/{}", leaves.name(), api.name(), best.name());
            group.bench_function(id, |b| b.iter(|| best.run(job())));
        }
    }
    #[cfg(feature = "peers")]
    {
        use bitforge_benches::peers::{ChessCrate, Cozy, Peer, Shakmaty};
        // A peer's last-ply walk is its perft in the `perft` group.
        let id = |name| format!("every-move/peer/{name}");
        let (cozy, shakmaty, chess) = (
            Cozy::perft_every_move,
            Shakmaty::perft_every_move,
            ChessCrate::perft_every_move,
        );
        bench_peer::<Cozy>(&mut group, &positions, nodes, &id(Cozy::NAME), cozy);
        bench_peer::<Shakmaty>(&mut group, &positions, nodes, &id(Shakmaty::NAME), shakmaty);
        bench_peer::<ChessCrate>(&mut group, &positions, nodes, &id(ChessCrate::NAME), chess);
    }
    group.finish();
}

criterion_group!(benches, perft, engine_path);
criterion_main!(benches);
