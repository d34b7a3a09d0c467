//! Perft per backend: the five speed positions of `data/perft-speed.epd` (start, Kiwipete,
//! positions 3, 4 and 5), each one ply shallower than the full speed run so that one
//! iteration takes tens of milliseconds. Throughput is in nodes, so criterion reports nodes
//! per second. The full run is the perft example:
//! `cargo run --release -p bitforge --example perft -- --epd benches/data/perft-speed.epd`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

use bitforge::Position;
use bitforge::position::PerftLine;
use bitforge::slider::{Backend, Slider, SliderJob};

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
                let mut position = Position::from_fen(fen, slider).expect("speed FEN");
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
        let boards: Vec<_> = positions
            .iter()
            .map(|&(fen, depth)| (cozy_chess::Board::from_fen(fen, false).expect("FEN"), depth))
            .collect();
        let total: u64 = boards
            .iter()
            .map(|(board, depth)| cozy::perft(board, *depth))
            .sum();
        assert_eq!(total, nodes, "cozy-chess counts the same nodes");
        group.bench_function("peer/cozy-chess", |b| {
            b.iter(|| {
                black_box(&boards)
                    .iter()
                    .map(|(board, depth)| cozy::perft(board, *depth))
                    .sum::<u64>()
            })
        });
    }
    group.finish();
}

/// Perft with cozy-chess: copy-make, bulk counting at the last ply, as ours.
#[cfg(feature = "peers")]
mod cozy {
    use cozy_chess::Board;

    pub(super) fn perft(board: &Board, depth: u32) -> u64 {
        let mut nodes = 0;
        if depth <= 1 {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
            return if depth == 0 { 1 } else { nodes };
        }
        board.generate_moves(|moves| {
            for m in moves {
                let mut child = board.clone();
                child.play_unchecked(m);
                nodes += perft(&child, depth - 1);
            }
            false
        });
        nodes
    }
}

criterion_group!(benches, perft);
criterion_main!(benches);
