//! What several test files share.

// Each test file uses a part of it.
#![allow(dead_code)]

use bitforge::Position;
use bitforge::position::PerftLine;
use bitforge::slider::{Slider, SliderJob};

/// SplitMix64: a fixed, dependency-free stream of test inputs.
pub(crate) struct SplitMix(pub(crate) u64);

impl SplitMix {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Text of up to `max_chars` arbitrary characters, control characters among them. Made of
/// `char`s rather than by a regex strategy (`any::<String>()` is one), slow to build under Miri.
pub(crate) fn any_text(max_chars: usize) -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    prop::collection::vec(any::<char>(), 0..=max_chars).prop_map(String::from_iter)
}

/// Asserts that `position`'s incremental board (pieces, rights, en passant square, fifty-move
/// counter and all three keys) equals the one built from scratch from its own FEN.
pub(crate) fn assert_rebuilds<S: bitforge::slider::Slider>(position: &bitforge::Position<S>) {
    let text = position.fen().to_string();
    let rebuilt = if position.is_chess960() {
        bitforge::Position::from_fen_chess960(&text, position.slider())
    } else {
        bitforge::Position::from_fen(&text, position.slider())
    }
    .unwrap_or_else(|error| panic!("{text}: {error}"));
    assert_eq!(rebuilt.board(), position.board(), "{text}");
}

/// How a backend's job is compiled: raised to the best level this CPU has, as
/// [`Backend::run`](bitforge::slider::Backend::run) does, or at the backend's own level only,
/// as on a CPU without x86-64-v3.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Compiled {
    Raised,
    Unraised,
}

/// Runs `check` for every backend in the list, both compiled ways, each in a thread of its own
/// (the checks are independent and long); a failure names the backend and the way. Under Miri,
/// the backends that need more than the baseline are left out (SIMD intrinsics and inline
/// assembly), the checks run one after another, and only unraised: Miri's CPU detection reports
/// no feature beyond the baseline, so a raised run would repeat the unraised one.
pub(crate) fn for_every_backend(check: impl Fn(bitforge::slider::Backend, Compiled) + Sync) {
    let ways: &[Compiled] = if cfg!(miri) {
        &[Compiled::Unraised]
    } else {
        &[Compiled::Raised, Compiled::Unraised]
    };
    let runs = testable_backends().flat_map(|backend| ways.iter().map(move |&way| (backend, way)));
    in_threads(runs, |&(backend, compiled)| check(backend, compiled));
}

/// [`for_every_backend`] with each backend at its own level only.
pub(crate) fn for_every_backend_unraised(check: impl Fn(bitforge::slider::Backend) + Sync) {
    in_threads(testable_backends(), |&backend| check(backend));
}

/// Every backend, or under Miri those that need nothing beyond the baseline.
fn testable_backends() -> impl Iterator<Item = bitforge::slider::Backend> {
    use bitforge::slider::{Backend, Baseline, Level};
    Backend::ALL
        .into_iter()
        .filter(|backend| !cfg!(miri) || backend.own_level_name() == Baseline::NAME)
}

/// Runs `check` on every run, each in a named thread (one after another under Miri), and
/// fails naming every run that failed.
fn in_threads<R: core::fmt::Debug + Send + Sync>(
    runs: impl Iterator<Item = R>,
    check: impl Fn(&R) + Sync,
) {
    if cfg!(miri) {
        runs.for_each(|run| check(&run));
        return;
    }
    std::thread::scope(|scope| {
        let threads: Vec<_> = runs
            .map(|run| {
                let name = format!("{run:?}");
                let check = &check;
                let thread = std::thread::Builder::new()
                    .name(name.clone())
                    .spawn_scoped(scope, move || check(&run))
                    .expect("a thread");
                (name, thread)
            })
            .collect();
        let failed: Vec<String> = threads
            .into_iter()
            .filter_map(|(name, thread)| thread.join().is_err().then_some(name))
            .collect();
        assert!(failed.is_empty(), "failed: {}", failed.join(", "));
    });
}

/// The perft suites (`tests/perft/`, copied from the project's shared test vectors: standard,
/// ROCE and Chess960), each line a FEN and its published counts.
pub(crate) const SUITES: [(&str, &str); 3] = [
    ("standard.epd", include_str!("../perft/standard.epd")),
    ("roce.epd", include_str!("../perft/roce.epd")),
    ("chess960.epd", include_str!("../perft/chess960.epd")),
];

/// Every line of the perft suites, in order.
pub(crate) fn suite_lines() -> impl Iterator<Item = &'static str> {
    SUITES.into_iter().flat_map(|(_, text)| text.lines())
}

/// The FEN of every `stride`-th suite line (only those lines are parsed: slow under Miri).
pub(crate) fn suite_fens_every(stride: usize) -> impl Iterator<Item = &'static str> {
    suite_lines()
        .step_by(stride)
        .map(|line| PerftLine::parse(line).expect("suite line").fen)
}

pub(crate) fn max_nodes() -> u64 {
    if cfg!(miri) {
        return 400;
    }
    std::env::var("BITFORGE_PERFT_MAX_NODES")
        .ok()
        .and_then(|text| text.replace('_', "").parse().ok())
        .unwrap_or(1_000_000)
}

/// Runs every suite line up to `max_nodes` with one backend; returns how many counts matched.
pub(crate) struct Suites {
    pub(crate) max_nodes: u64,
}

impl SliderJob for Suites {
    type Output = usize;

    fn run<S: Slider>(self, slider: S) -> usize {
        let mut checked = 0;
        for (file, text) in SUITES {
            // Under Miri, a few lines per suite (each costs seconds there).
            let lines = if cfg!(miri) { 3 } else { usize::MAX };
            for (number, line) in text.lines().enumerate().take(lines) {
                let line = PerftLine::parse(line)
                    .unwrap_or_else(|error| panic!("{file}:{}: {error}", number + 1));
                let position = Position::from_fen(line.fen, slider)
                    .unwrap_or_else(|error| panic!("{file}:{}: {error}", number + 1));
                for (depth, expected) in line.counts().filter(|&(_, n)| n <= self.max_nodes) {
                    assert_eq!(
                        position.perft(depth),
                        expected,
                        "{} {file}:{} depth {depth}: {}",
                        S::NAME,
                        number + 1,
                        line.fen
                    );
                    checked += 1;
                }
            }
        }
        checked
    }
}
