//! Slider lookups per backend and piece, over 65,536 random (square, occupancy) pairs at about
//! 25% density (`random & random`):
//!
//! - `throughput`: independent lookups, so the CPU overlaps them: the cost when many are in
//!   flight, as in move generation.
//! - `latency`: each occupancy depends on the previous result, so lookups run one after
//!   another: the cost of one lookup on the critical path.
//! - `batch`: all pairs through `rook_attacks_batch`/`bishop_attacks_batch`, answers stored:
//!   eight per pass for `kogge-stone-avx512`, a loop of single lookups for the others.
//!
//! Criterion reports time per element: nanoseconds per lookup.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

use bitforge::slider::{Backend, Slider, SliderJob};
use bitforge::{Bitboard, Square};
use bitforge_benches::split_mix;

const PAIRS: usize = 65_536;

/// The square that carries the latency chain's dependency.
const D4: u64 = 1 << 27;

/// A fixed stream of pairs (SplitMix64), the same for every backend.
fn random_pairs() -> Vec<(Square, Bitboard)> {
    let mut state = 0x0B17_F06E;
    let mut next = move || split_mix(&mut state);
    (0..PAIRS)
        .map(|_| {
            (
                Square::ALL[(next() % 64) as usize],
                Bitboard(next() & next()),
            )
        })
        .collect()
}

#[derive(Clone, Copy)]
enum Piece {
    Rook,
    Bishop,
}

struct Lookups<'a, 'g> {
    group: &'a mut BenchmarkGroup<'g, WallTime>,
    pairs: &'a [(Square, Bitboard)],
    piece: Piece,
}

impl SliderJob for Lookups<'_, '_> {
    type Output = ();

    fn run<S: Slider>(self, slider: S) {
        let pairs = self.pairs;
        let attacks = move |square, occupancy| match self.piece {
            Piece::Rook => slider.rook_attacks(square, occupancy),
            Piece::Bishop => slider.bishop_attacks(square, occupancy),
        };
        self.group
            .bench_function(format!("throughput/{}", S::NAME), |b| {
                b.iter(|| {
                    let mut sum = 0u64;
                    for &(square, occupancy) in black_box(pairs) {
                        sum = sum.wrapping_add(attacks(square, occupancy).0);
                    }
                    sum
                })
            })
            .bench_function(format!("latency/{}", S::NAME), |b| {
                b.iter(|| {
                    let mut last = Bitboard::EMPTY;
                    for &(square, occupancy) in black_box(pairs) {
                        // Whether the last answer holds d4 flips d4 in the next occupancy: a
                        // true data dependency that keeps the occupancy random. (A corner bit
                        // would not do: no slider's attacks depend on a corner, and the
                        // compiler proves it for computed backends and drops the chain.)
                        last = attacks(square, occupancy ^ Bitboard(last.0 & D4));
                    }
                    last
                })
            })
            .bench_function(format!("batch/{}", S::NAME), |b| {
                let mut answers = vec![Bitboard::EMPTY; pairs.len()];
                b.iter(|| {
                    match self.piece {
                        Piece::Rook => slider.rook_attacks_batch(black_box(pairs), &mut answers),
                        Piece::Bishop => {
                            slider.bishop_attacks_batch(black_box(pairs), &mut answers)
                        }
                    }
                    black_box(&answers);
                })
            });
    }
}

fn lookups(c: &mut Criterion) {
    let pairs = random_pairs();
    for (piece, name) in [(Piece::Rook, "rook"), (Piece::Bishop, "bishop")] {
        let mut group = c.benchmark_group(format!("lookups/{name}"));
        group.throughput(Throughput::Elements(PAIRS as u64));
        for backend in Backend::ALL {
            let job = Lookups {
                group: &mut group,
                pairs: &pairs,
                piece,
            };
            if backend.run(job).is_none() {
                eprintln!("{backend}: not available on this CPU, skipped");
            }
        }
        group.finish();
    }
}

criterion_group!(benches, lookups);
criterion_main!(benches);
