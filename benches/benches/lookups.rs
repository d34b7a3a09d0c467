//! Slider lookups per backend and piece (and, with `--features peers`, the same lookups in
//! cozy-chess, shakmaty and the chess crate). Criterion reports time per element: nanoseconds
//! per lookup.
//!
//! - `throughput`: 65,536 random (square, occupancy) pairs at about 25% density, independent
//!   lookups, so the CPU overlaps them: the cost when many are in flight, as in move generation.
//! - `latency`: the same pairs, each occupancy depending on the previous result, so lookups run
//!   one after another: the cost of one lookup on the critical path.
//! - `real`: 65,536 lookups a move generator makes in the perft suites' positions and their
//!   children (from each slider and each king), independent: real occupancies are sparser and
//!   their squares cluster, which changes what the caches hold.
//! - `batch`: the random pairs through `rook_attacks_batch`/`bishop_attacks_batch`, answers
//!   stored: eight per pass for `kogge-stone-avx512`, a loop of single lookups for the others.
//! - `streamed-queen`: Gigantua's Chess_Movegen workload, to compare with its C++ methods:
//!   5,000,000 occupancies `random & random`, twelve random squares each, one queen lookup per
//!   pair XOR-accumulated, inputs made beforehand and streamed (60 million lookups a run).
//!
//! Every timed loop runs inside the backend's [`Slider::within`], compiled for its level, as
//! an engine's search run through `Backend::run` would be; `streamed-queen/plain-job/` runs the
//! streamed loop as a job written plainly (no `within`), through `Backend::run`.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

use bitforge::slider::{Backend, Reference, Slider, SliderJob};
use bitforge::{Bitboard, Square};
use bitforge_benches::kernels::{Attacks, Ours, converted, summed};
use bitforge_benches::{
    LookupPiece, PAIRS, PlainQueens, STREAMED_OCCUPANCIES, StreamedQueen, random_pairs, real_pairs,
    streamed_queen,
};

/// The square that carries the latency chain's dependency.
const D4: u64 = 1 << 27;

/// The inputs of one piece's group.
struct Inputs {
    random: Vec<(Square, Bitboard)>,
    real: Vec<(Square, Bitboard)>,
}

/// Throughput, latency and real-occupancy lookups of one method, named `name`.
fn bench_lookups<A: Attacks>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    random: &[(A::Square, u64)],
    real: &[(A::Square, u64)],
    method: A,
) {
    let summed_within = |pairs| {
        method.within(
            #[inline(always)]
            || summed(pairs, method),
        )
    };
    group
        .bench_function(format!("throughput/{name}"), |b| {
            b.iter(|| summed_within(random))
        })
        .bench_function(format!("latency/{name}"), |b| {
            b.iter(|| {
                method.within(
                    #[inline(always)]
                    || {
                        let mut last = 0u64;
                        for &(square, occupancy) in black_box(random) {
                            // Whether the last answer holds d4 flips d4 in the next occupancy:
                            // a true data dependency that keeps the occupancy random. (A
                            // corner bit would not do: no slider's attacks depend on a corner,
                            // and the compiler proves it for computed backends and drops the
                            // chain.)
                            last = method.attacks(square, occupancy ^ (last & D4));
                        }
                        last
                    },
                )
            })
        })
        .bench_function(format!("real/{name}"), |b| b.iter(|| summed_within(real)));
}

/// One backend's lookups of `method`'s piece, in `group`.
fn bench_ours<A: Attacks<Square = Square>>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    inputs: &Inputs,
    method: A,
) {
    let random = converted(&inputs.random, |s| s);
    let real = converted(&inputs.real, |s| s);
    bench_lookups(group, name, &random, &real, method);
}

struct Lookups<'a, 'g> {
    group: &'a mut BenchmarkGroup<'g, WallTime>,
    inputs: &'a Inputs,
    piece: LookupPiece,
}

impl SliderJob for Lookups<'_, '_> {
    type Output = ();

    fn run<S: Slider>(self, slider: S) {
        let (group, inputs, piece) = (self.group, self.inputs, self.piece);
        match piece {
            LookupPiece::Rook => bench_ours(group, S::NAME, inputs, Ours::<S, true>(slider)),
            LookupPiece::Bishop => bench_ours(group, S::NAME, inputs, Ours::<S, false>(slider)),
        }
        let pairs = &inputs.random;
        group.bench_function(format!("batch/{}", S::NAME), |b| {
            let mut answers = vec![Bitboard::EMPTY; pairs.len()];
            b.iter(|| {
                slider.within(
                    #[inline(always)]
                    || match piece {
                        LookupPiece::Rook => {
                            slider.rook_attacks_batch(black_box(pairs), &mut answers)
                        }
                        LookupPiece::Bishop => {
                            slider.bishop_attacks_batch(black_box(pairs), &mut answers)
                        }
                    },
                );
                black_box(&answers);
            })
        });
    }
}

/// The same lookups in another library, as `peer/NAME`.
#[cfg(feature = "peers")]
fn bench_peer<P: bitforge_benches::peers::Peer>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    inputs: &Inputs,
    piece: LookupPiece,
) {
    match piece {
        LookupPiece::Rook => bench_peer_piece::<P, true>(group, inputs),
        LookupPiece::Bishop => bench_peer_piece::<P, false>(group, inputs),
    }
}

/// A peer's rook (`ROOK`) or bishop lookups, after checking every answer against the ray walk.
#[cfg(feature = "peers")]
fn bench_peer_piece<P: bitforge_benches::peers::Peer, const ROOK: bool>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    inputs: &Inputs,
) {
    use bitforge_benches::peers::Theirs;

    let theirs = Theirs::<P, ROOK>::new();
    let reference = Ours::<_, ROOK>(Reference::new().expect("the ray walk runs everywhere"));
    for &(square, occupancy) in inputs.random.iter().chain(&inputs.real) {
        assert_eq!(
            theirs.attacks(P::square(square), occupancy.0),
            reference.attacks(square, occupancy.0),
            "{} agrees on {square:?}",
            P::NAME
        );
    }
    let random = converted(&inputs.random, P::square);
    let real = converted(&inputs.real, P::square);
    bench_lookups(group, &format!("peer/{}", P::NAME), &random, &real, theirs);
}

fn lookups(c: &mut Criterion) {
    let random = random_pairs();
    for piece in LookupPiece::ALL {
        let inputs = Inputs {
            random: random.clone(),
            real: real_pairs(piece),
        };
        let mut group = c.benchmark_group(format!("lookups/{}", piece.name()));
        group.throughput(Throughput::Elements(PAIRS as u64));
        for backend in Backend::ALL {
            let job = Lookups {
                group: &mut group,
                inputs: &inputs,
                piece,
            };
            if backend.run(job).is_none() {
                eprintln!("{backend}: not available on this CPU, skipped");
            }
        }
        #[cfg(feature = "peers")]
        {
            use bitforge_benches::peers::{ChessCrate, Cozy, Shakmaty};
            bench_peer::<Cozy>(&mut group, &inputs, piece);
            bench_peer::<Shakmaty>(&mut group, &inputs, piece);
            bench_peer::<ChessCrate>(&mut group, &inputs, piece);
        }
        group.finish();
    }
}

/// One backend's pass over the streamed queen workload, checked against the reference's
/// checksum first.
struct StreamedQueenJob<'a, 'g> {
    group: &'a mut BenchmarkGroup<'g, WallTime>,
    workload: &'a StreamedQueen,
    expected: u64,
}

impl SliderJob for StreamedQueenJob<'_, '_> {
    type Output = ();

    fn run<S: Slider>(self, slider: S) {
        let workload = self.workload;
        let pass = || {
            slider.within(
                #[inline(always)]
                || black_box(workload).run(slider),
            )
        };
        assert_eq!(pass(), self.expected, "{} checksum", S::NAME);
        self.group.bench_function(S::NAME, |b| b.iter(pass));
    }
}

/// Gigantua's streamed queen workload with every backend (the reference left out: minutes).
fn streamed_queen_group(c: &mut Criterion) {
    let workload = streamed_queen(STREAMED_OCCUPANCIES);
    let expected = workload.run(Reference);
    let mut group = c.benchmark_group("streamed-queen");
    group.throughput(Throughput::Elements(workload.lookups() as u64));
    group.sample_size(10);
    for backend in Backend::ALL.into_iter().skip(1) {
        let job = StreamedQueenJob {
            group: &mut group,
            workload: &workload,
            expected,
        };
        if backend.run(job).is_none() {
            eprintln!("{backend}: not available on this CPU, skipped");
            continue;
        }
        // The job as an engine author writes it, raised by `Backend::run` each iteration.
        let plain = || backend.run(PlainQueens(black_box(&workload)));
        assert_eq!(plain(), Some(expected), "{backend} plain job checksum");
        group.bench_function(format!("plain-job/{backend}"), |b| b.iter(plain));
    }
    group.finish();
}

criterion_group!(benches, lookups, streamed_queen_group);
criterion_main!(benches);
