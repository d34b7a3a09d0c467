//! The same kernels as the criterion benchmarks, counted by Callgrind (iai-callgrind):
//! instructions, cache hits and misses, estimated cycles. Deterministic, so a change of a few
//! instructions shows; this is the check for regressions, criterion the measure of speed.
//!
//! Needs valgrind and the runner at the library's exact version:
//! `cargo install iai-callgrind-runner --version 0.16.1`, then
//! `cargo bench -p bitforge-benches --features callgrind --bench instructions` (the feature
//! keeps a plain `cargo bench` from needing valgrind). Default build only: a
//! `-C target-cpu=native` build holds AVX-512 that valgrind cannot run.
//!
//! Valgrind emulates neither AVX-512 nor GFNI, so `kogge-stone-avx512` and `hyperbola-gfni`
//! have no cases here; `best` is whatever `Backend::best()` detects under valgrind.

#![allow(
    missing_docs,
    reason = "iai-callgrind's macros generate undocumented modules"
)]

use std::hint::black_box;

use bitforge::slider::{Backend, Slider, SliderJob};
use bitforge::{Position, Square};
use bitforge_benches::kernels::{Ours, converted, summed};
use bitforge_benches::{COUNTED_LOOKUPS, random_pairs};
use iai_callgrind::{library_benchmark, library_benchmark_group, main};

/// Kiwipete, the suites' richest position in castling, pins and en passant.
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// The perft depth counted (97,862 leaves).
const PERFT_DEPTH: u32 = 3;

/// The criterion `throughput` kernel over `pairs`, rook (`ROOK`) or bishop.
struct SumLookups<'a, const ROOK: bool>(&'a [(Square, u64)]);

impl<const ROOK: bool> SliderJob for SumLookups<'_, ROOK> {
    type Output = u64;

    fn run<S: Slider>(self, slider: S) -> u64 {
        summed(self.0, Ours::<S, ROOK>(slider))
    }
}

/// Perft of Kiwipete.
struct KiwipetePerft;

impl SliderJob for KiwipetePerft {
    type Output = u64;

    fn run<S: Slider>(self, slider: S) -> u64 {
        let position = Position::from_fen(KIWIPETE, slider).expect("Kiwipete's FEN");
        position.perft(black_box(PERFT_DEPTH))
    }
}

/// The backend with its inputs, built outside the counted region.
fn with_pairs(backend: Backend) -> (Backend, Vec<(Square, u64)>) {
    let pairs = random_pairs();
    (backend, converted(&pairs[..COUNTED_LOOKUPS], |s| s))
}

/// What `Backend::best()` picks where the benchmark runs (under valgrind: by its CPUID).
fn detected_backend() -> Backend {
    Backend::best()
}

/// Calls `$then!` with every backend counted here, each as `bench_id: Backend`, written once:
/// the lookups and perft benchmarks below take their cases from it.
macro_rules! counted_backends {
    ($then:ident) => {
        $then! {
            kogge_stone: KoggeStone,
            kogge_stone_avx2: KoggeStoneAvx2,
            hyperbola: Hyperbola,
            hyperbola_avx2: HyperbolaAvx2,
            hyperbola_dual: HyperbolaDual,
            fancy: FancyMagic,
            fancy_combined: FancyCombinedMagic,
            black: BlackMagic,
            pext: Pext,
            pext_pdep: PextPdep,
        }
    };
}

/// The rook and bishop lookups of every counted backend, the oracle and the detected best.
macro_rules! lookup_benchmarks {
    ($($id:ident: $backend:ident,)+) => {
        lookup_benchmarks!(@piece rook_lookups, true, $($id: $backend,)+);
        lookup_benchmarks!(@piece bishop_lookups, false, $($id: $backend,)+);
    };
    (@piece $name:ident, $rook:literal, $($id:ident: $backend:ident,)+) => {
        #[library_benchmark]
        #[bench::reference(args = (Backend::Reference), setup = with_pairs)]
        $(#[bench::$id(args = (Backend::$backend), setup = with_pairs)])+
        #[bench::best(args = (detected_backend()), setup = with_pairs)]
        fn $name(input: (Backend, Vec<(Square, u64)>)) -> Option<u64> {
            let (backend, pairs) = input;
            black_box(backend.run(SumLookups::<$rook>(&pairs)))
        }
    };
}

/// Perft of Kiwipete with every counted backend (not the oracle: too slow) and the best.
macro_rules! perft_benchmarks {
    ($($id:ident: $backend:ident,)+) => {
        #[library_benchmark]
        $(#[bench::$id(Backend::$backend)])+
        #[bench::best(detected_backend())]
        fn perft_kiwipete(backend: Backend) -> Option<u64> {
            black_box(backend.run(KiwipetePerft))
        }
    };
}

counted_backends!(lookup_benchmarks);
counted_backends!(perft_benchmarks);

// A full fancy set, found and verified on one thread: `magic-search`'s main job.
#[library_benchmark]
fn magic_search_fancy() -> usize {
    let config = magic_search::SearchConfig::default();
    let (set, _) = magic_search::find_set(&config, 1, &|_| {});
    black_box(
        bitforge_index::verify(&set)
            .expect("found sets verify")
            .entries(),
    )
}

library_benchmark_group!(name = lookups; benchmarks = rook_lookups, bishop_lookups);
library_benchmark_group!(name = perft; benchmarks = perft_kiwipete);
library_benchmark_group!(name = find_magics; benchmarks = magic_search_fancy);

main!(library_benchmark_groups = lookups, perft, find_magics);
