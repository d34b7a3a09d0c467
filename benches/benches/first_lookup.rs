//! Proof that nothing is initialised at run time: the first lookup in a fresh process costs
//! microseconds (the operating system mapping pages, cold caches), not the milliseconds that
//! building a table would take; it does not cost what the millionth does.
//!
//! Each `first/NAME` sample starts this binary anew as a child (`BITFORGE_FIRST_LOOKUP=NAME`),
//! which times its very first rook lookup and, after 999,998 more, the millionth, each alone
//! with `Instant` (so both include the same timer overhead); `millionth/NAME` is the second
//! figure of the same children. A fresh process's first lookup pays the operating system for
//! mapping the table's pages on first touch; `first_mapped/NAME` takes that out (Linux: the
//! child maps every page with `mlockall` before it starts the clock), leaving cold caches and
//! TLB. `runtime_init/fancy` is what a lazily initialised table would add to the first lookup:
//! building the fancy attack table from its magics.

use std::hint::black_box;
use std::process::Command;
use std::time::{Duration, Instant};

use bitforge::slider::{Backend, Slider, SliderJob};
use bitforge::{Bitboard, Square};
use bitforge_benches::split_mix;
use criterion::{Criterion, criterion_group};

/// The variable that turns this binary into one measuring child.
const CHILD: &str = "BITFORGE_FIRST_LOOKUP";

/// Lookups a child makes: the first, the millionth, and the ones between.
const LOOKUPS: u32 = 1_000_000;

/// One child's figures.
#[derive(Clone, Copy)]
struct Timings {
    first: Duration,
    millionth: Duration,
}

/// What a benchmark reports.
#[derive(Clone, Copy)]
enum Figure {
    /// The first lookup of a fresh process.
    First,
    /// The same, with every page mapped before the clock starts.
    FirstMapped,
    /// The millionth lookup.
    Millionth,
}

impl Figure {
    const ALL: [Figure; 3] = [Figure::First, Figure::FirstMapped, Figure::Millionth];

    fn name(self) -> &'static str {
        match self {
            Figure::First => "first",
            Figure::FirstMapped => "first_mapped",
            Figure::Millionth => "millionth",
        }
    }

    fn mapped(self) -> bool {
        matches!(self, Figure::FirstMapped)
    }

    fn pick(self, timings: Timings) -> Duration {
        match self {
            Figure::First | Figure::FirstMapped => timings.first,
            Figure::Millionth => timings.millionth,
        }
    }
}

/// The child's work: a million rook lookups, the first and last timed alone.
struct FirstAndMillionth;

impl SliderJob for FirstAndMillionth {
    type Output = Timings;

    fn run<S: Slider>(self, slider: S) -> Timings {
        let mut state = 0x000F_1257;
        let mut next = || split_mix(&mut state);
        let timed = |square, occupancy| {
            let start = Instant::now();
            black_box(slider.rook_attacks(black_box(square), black_box(occupancy)));
            start.elapsed()
        };
        let first = timed(
            Square::ALL[(next() % 64) as usize],
            Bitboard(next() & next()),
        );
        let mut sum = 0;
        for _ in 2..LOOKUPS {
            let square = Square::ALL[(next() % 64) as usize];
            sum ^= slider.rook_attacks(square, Bitboard(next() & next())).0;
        }
        black_box(sum);
        let millionth = timed(
            Square::ALL[(next() % 64) as usize],
            Bitboard(next() & next()),
        );
        Timings { first, millionth }
    }
}

/// The variable that makes the child map every page before measuring.
const MAP_FIRST: &str = "BITFORGE_FIRST_LOOKUP_MAPPED";

/// Maps every page of the process now (Linux), so that no lookup waits for a page fault.
#[cfg(target_os = "linux")]
fn map_every_page() -> bool {
    // SAFETY: mlockall takes flags only and touches no memory of ours; failure (no privilege,
    // a low RLIMIT_MEMLOCK) is reported by its return value.
    unsafe { libc::mlockall(libc::MCL_CURRENT) == 0 }
}

#[cfg(not(target_os = "linux"))]
fn map_every_page() -> bool {
    false
}

/// Child mode: measure with the backend `name` and print `FIRST_NS MILLIONTH_NS`.
fn child(name: &str) {
    if std::env::var_os(MAP_FIRST).is_some() && !map_every_page() {
        eprintln!("cannot map the pages beforehand (mlockall refused)");
        std::process::exit(3);
    }
    let timings = name
        .parse::<Backend>()
        .ok()
        .and_then(|backend| backend.run(FirstAndMillionth));
    match timings {
        Some(t) => println!("{} {}", t.first.as_nanos(), t.millionth.as_nanos()),
        None => {
            eprintln!("backend {name} cannot run here");
            std::process::exit(2);
        }
    }
}

/// Runs one child for `backend` (with every page mapped first if `mapped`), and reads its
/// figures; `None` if the child could not map the pages.
fn spawn_child(backend: Backend, mapped: bool) -> Option<Timings> {
    let exe = std::env::current_exe().expect("the benchmark knows its own path");
    let mut command = Command::new(exe);
    command.env(CHILD, backend.name());
    if mapped {
        command.env(MAP_FIRST, "1");
    }
    let output = command.output().expect("the benchmark can start itself");
    if output.status.code() == Some(3) {
        return None;
    }
    assert!(output.status.success(), "child for {backend} failed");
    let text = String::from_utf8(output.stdout).expect("the child prints ASCII");
    let mut fields = text
        .split_whitespace()
        .map(|field| Duration::from_nanos(field.parse().expect("the child prints nanoseconds")));
    let (Some(first), Some(millionth)) = (fields.next(), fields.next()) else {
        panic!("child for {backend} printed {text:?}");
    };
    Some(Timings { first, millionth })
}

fn first_lookup(c: &mut Criterion) {
    let mut group = c.benchmark_group("first_lookup");
    group.sample_size(10);
    let can_map = spawn_child(Backend::KoggeStone, true).is_some();
    if !can_map {
        eprintln!("first_mapped: mlockall refused here, skipped");
    }
    for backend in Backend::ALL.into_iter().filter(|b| b.is_available()) {
        for figure in Figure::ALL {
            if figure.mapped() && !can_map {
                continue;
            }
            group.bench_function(format!("{}/{}", figure.name(), backend.name()), |b| {
                b.iter_custom(|iters| {
                    (0..iters)
                        .map(|_| {
                            let timings = spawn_child(backend, figure.mapped());
                            figure.pick(timings.expect("mapping worked before"))
                        })
                        .sum()
                })
            });
        }
    }
    let fancy = bitforge_index::MagicSet::parse(include_str!("../../core/magics/fancy.magics"))
        .expect("the embedded fancy set parses");
    group.bench_function("runtime_init/fancy", |b| {
        b.iter(|| bitforge_index::verify(black_box(&fancy)).expect("the embedded set is valid"))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = first_lookup
}

fn main() {
    if let Ok(name) = std::env::var(CHILD) {
        child(&name);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
