//! Slider lookups as an engine author writes them: Gigantua's streamed queen workload
//! (Chess_Movegen: 5,000,000 `random & random` occupancies, twelve random squares each, one
//! queen lookup per pair XOR-accumulated, 60 million lookups a pass) as a [`SliderJob`] whose
//! `run` is a plain loop, no attributes, no `within`, run through [`Backend::run`]. Beside it
//! the same loop inside [`Slider::within`], as the criterion `streamed-queen` group runs it,
//! and each backend's speed relative to bitforge's `pext`, against the C++ methods' ratios to
//! their PEXT (issue 37's table). Interleaved rounds, medians, every pass's checksum checked
//! against the reference backend's.
//!
//! ```sh
//! cargo build --release -p bitforge-benches --bin slider-speed
//! RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR=target/native \
//!     cargo build --release -p bitforge-benches --bin slider-speed
//! target/release/slider-speed --rounds 5 --alongside target/native/release/slider-speed
//! ```
//!
//! `--release`, not `--profile bench`: a user's release build splits each crate into 16 code
//! generation units without link-time optimisation, which is where a job's loop can land apart
//! from the function compiled for its level. `--alongside` runs another build of this program
//! (the native one) once per round, between this build's passes, for the default / native
//! column.
//!
//! `--twins-cc COMPILER` compiles the C twins (`benches/c/slider_twins.c`: each method as a
//! plain C loop over the same workload, the magic methods on bitforge's own magic files) with
//! `COMPILER -O3 -march=native` and runs them once per round too, so that each backend meets
//! its method in C within one run rather than against another session's figures.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use bitforge::slider::{Backend, Reference, Slider, SliderJob};
use bitforge_benches::c_twins::CTwins;
use bitforge_benches::machine::{Machine, build_label};
use bitforge_benches::runs::{Rounds, median, times_alongside};
use bitforge_benches::{PlainQueens, STREAMED_OCCUPANCIES, StreamedQueen, streamed_queen};
use clap::Parser;

/// Time Gigantua's streamed queen workload written as a plain job, per backend, in rounds.
#[derive(Debug, Parser)]
#[command(about, long_about)]
struct Args {
    #[command(flatten)]
    rounds: Rounds,
    /// Only these backends (names as `--list-backends` of the perft command prints them);
    /// `pext` is always measured, for the ratios.
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Another build of this program (such as the native one) to run once per round, for the
    /// comparison column.
    #[arg(long, value_name = "PROGRAM")]
    alongside: Option<PathBuf>,
    /// Compile the C twins (benches/c/slider_twins.c) with this C compiler (`clang-16`, `cc`),
    /// `-O3 -march=native`, and run them once per round: the C columns then come from this
    /// run, on this machine.
    #[arg(long, value_name = "COMPILER")]
    twins_cc: Option<String>,
    /// Run the plain job once per backend, checked against this checksum (the reference's,
    /// from the calling build), and print `backend nanoseconds` lines: what `--alongside`
    /// reads.
    #[arg(long, hide = true, value_name = "CHECKSUM")]
    one_round: Option<u64>,
}

/// The same loop inside the backend's `within`, inlined into it by hand.
struct WithinQueens<'a>(&'a StreamedQueen);

impl SliderJob for WithinQueens<'_> {
    type Output = u64;

    fn run<S: Slider>(self, slider: S) -> u64 {
        slider.within(
            #[inline(always)]
            || self.0.run(slider),
        )
    }
}

/// The CPU of issue 37's C++ run, as [`Machine::here`] names it: on this model the C++
/// speeds compare with this program's directly, not only through each side's PEXT.
const CPP_CPU: &str = "AMD EPYC (family 25, model 1)";

/// Million queens a second in issue 37's C++ run (Chess_Movegen, clang 16 `-O3
/// -march=native`, [`CPP_CPU`], a Zen 3): the method's twin here, by backend name.
const CPP_TWINS: [(&str, &str, f64); 6] = [
    ("pext", "PEXT", 287.0),
    ("fancy", "fancy magic", 291.0),
    ("black", "black magic", 320.0),
    ("hyperbola", "hyperbola quintessence", 512.0),
    ("kogge-stone", "Kogge-Stone", 289.0),
    ("kogge-stone-avx2", "AVX2 branchless shift", 168.0),
];

/// One backend's times: the plain job and the `within` one.
#[derive(Clone, Copy)]
struct Pass {
    plain: Duration,
    within: Duration,
}

/// Times one run of `job` with `backend`: an error if this CPU cannot run it or its checksum
/// is not `expected`.
fn timed<J: SliderJob<Output = u64>>(
    backend: Backend,
    job: J,
    expected: u64,
) -> Result<Duration, String> {
    let start = Instant::now();
    let checksum = backend.run(job);
    let elapsed = start.elapsed();
    match checksum {
        Some(sum) if sum == expected => Ok(elapsed),
        Some(sum) => Err(format!(
            "{backend}: checksum {sum:#x}, expected {expected:#x}"
        )),
        None => Err(format!("{backend}: not available on this CPU")),
    }
}

/// Runs both jobs once with `backend`.
fn pass(backend: Backend, workload: &StreamedQueen, expected: u64) -> Result<Pass, String> {
    Ok(Pass {
        plain: timed(backend, PlainQueens(workload), expected)?,
        within: timed(backend, WithinQueens(workload), expected)?,
    })
}

/// The other build's round: its `--one-round` lines, the plain job's time by backend.
fn round_alongside(
    program: &Path,
    names: &[&str],
    expected: u64,
) -> Result<BTreeMap<String, Duration>, String> {
    let args = [
        "--one-round".to_owned(),
        expected.to_string(),
        "--only".to_owned(),
        names.join(","),
    ];
    Ok(times_alongside(program, &args)?.into_iter().collect())
}

fn main() -> ExitCode {
    let args = Args::parse();
    let backends: Vec<Backend> = Backend::ALL
        .into_iter()
        .skip(1)
        .filter(|backend| backend.is_available())
        .filter(|backend| {
            args.only.is_empty()
                || backend.name() == "pext"
                || args.only.iter().any(|name| name == backend.name())
        })
        .collect();
    if let Some(unknown) = args.only.iter().find(|name| {
        !backends
            .iter()
            .any(|backend| backend.name() == name.as_str())
    }) {
        eprintln!("error: {unknown}: no such backend available here");
        return ExitCode::from(2);
    }
    let names: Vec<&str> = backends.iter().map(|backend| backend.name()).collect();
    let workload = streamed_queen(STREAMED_OCCUPANCIES);
    let lookups = workload.lookups() as f64;

    if let Some(expected) = args.one_round {
        for &backend in &backends {
            match timed(backend, PlainQueens(&workload), expected) {
                Ok(time) => println!("{backend} {}", time.as_nanos()),
                Err(message) => {
                    eprintln!("error: {message}");
                    return ExitCode::FAILURE;
                }
            }
        }
        return ExitCode::SUCCESS;
    }

    let twins = match args.twins_cc.as_deref().map(CTwins::compile).transpose() {
        Ok(twins) => twins,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::FAILURE;
        }
    };
    let expected = workload.run(Reference);
    let mut ours: Vec<Vec<Pass>> = vec![Vec::new(); backends.len()];
    let mut theirs: Vec<Vec<Duration>> = vec![Vec::new(); backends.len()];
    let mut twin_times: Vec<Vec<Duration>> = vec![Vec::new(); backends.len()];
    for round in 1..=args.rounds.rounds {
        for (&backend, passes) in backends.iter().zip(&mut ours) {
            match pass(backend, &workload, expected) {
                Ok(pass) => passes.push(pass),
                Err(message) => {
                    eprintln!("error: {message}");
                    return ExitCode::FAILURE;
                }
            }
        }
        if let Some(program) = &args.alongside {
            let round_times = match round_alongside(program, &names, expected) {
                Ok(times) => times,
                Err(message) => {
                    eprintln!("error: {message}");
                    return ExitCode::FAILURE;
                }
            };
            for (name, times) in names.iter().zip(&mut theirs) {
                match round_times.get(*name) {
                    Some(&time) => times.push(time),
                    None => {
                        eprintln!("error: {}: no figure for {name}", program.display());
                        return ExitCode::FAILURE;
                    }
                }
            }
        }
        if let Some(twins) = &twins {
            match twins.round(&names, STREAMED_OCCUPANCIES, expected) {
                Ok(round_times) => {
                    for (name, times) in names.iter().zip(&mut twin_times) {
                        times.extend(round_times.get(*name));
                    }
                }
                Err(message) => {
                    eprintln!("error: {message}");
                    return ExitCode::FAILURE;
                }
            }
        }
        eprintln!("round {round}/{} done", args.rounds.rounds);
    }

    let rate = |time: Duration| lookups / time.as_secs_f64() / 1e6;
    let ours: Vec<(f64, f64)> = ours
        .iter()
        .map(|passes| {
            let mut plain: Vec<Duration> = passes.iter().map(|p| p.plain).collect();
            let mut within: Vec<Duration> = passes.iter().map(|p| p.within).collect();
            (rate(median(&mut plain)), rate(median(&mut within)))
        })
        .collect();
    let medians = |runs: &mut Vec<Vec<Duration>>| -> Vec<Option<f64>> {
        runs.iter_mut()
            .map(|times| (!times.is_empty()).then(|| rate(median(times))))
            .collect()
    };
    let theirs = medians(&mut theirs);
    let twin_rates = medians(&mut twin_times);
    let pext = names
        .iter()
        .position(|&name| name == "pext")
        .map(|index| ours[index].0);
    let cpp_pext = CPP_TWINS[0].2;
    let machine = Machine::here();
    let same_cpu = machine.cpu == CPP_CPU;

    let alongside = args.alongside.is_some();
    let mut header = vec![
        "backend",
        "plain job, M queens/s",
        "in `within`",
        "plain / `within`",
        "plain / `pext`",
        "C++ twin",
        "C++ / C++ PEXT",
    ];
    if same_cpu {
        header.extend(["C++ twin, M queens/s", "plain / C++"]);
    }
    if alongside {
        header.extend(["other build, plain job", "this / other"]);
    }
    if twins.is_some() {
        header.extend(["C twin here, M queens/s", "plain / C twin"]);
    }
    let mut table = format!(
        "| {} |\n|{}\n",
        header.join(" | "),
        " --- |".repeat(header.len())
    );
    // A number over another, or two empty cells where the other is missing.
    let speed_and_ratio = |plain: f64, other: Option<f64>| {
        other.map_or([String::new(), String::new()], |other| {
            [format!("{other:.0}"), format!("{:.2}", plain / other)]
        })
    };
    for (index, name) in names.iter().enumerate() {
        let (plain, within) = ours[index];
        let twin = CPP_TWINS.iter().find(|(backend, _, _)| backend == name);
        let mut cells = vec![
            format!("`{name}`"),
            format!("{plain:.0}"),
            format!("{within:.0}"),
            format!("{:.2}", plain / within),
            pext.map_or(String::new(), |pext| format!("{:.2}", plain / pext)),
            twin.map_or(String::new(), |(_, twin, _)| (*twin).to_owned()),
            twin.map_or(String::new(), |(_, _, speed)| {
                format!("{:.2}", speed / cpp_pext)
            }),
        ];
        if same_cpu {
            cells.extend(speed_and_ratio(plain, twin.map(|(_, _, speed)| *speed)));
        }
        if alongside {
            cells.extend(speed_and_ratio(plain, theirs[index]));
        }
        if twins.is_some() {
            cells.extend(speed_and_ratio(plain, twin_rates[index]));
        }
        table += &format!("| {} |\n", cells.join(" | "));
    }
    print!("{table}");
    if args.rounds.out.is_some() {
        let page = format!(
            "# Slider lookups written the plain way, {build}\n\n\
             Machine: {cpu}, {cores} cores, {kernel}, {rustc}.\n\n\
             Written by `slider-speed` (benches/src/bin/slider_speed.rs) on {date}: Gigantua's \
             streamed queen workload ({lookups} lookups a pass) as a job whose `run` is a plain \
             loop, through `Backend::run`, `--release` profile (16 code generation units, no \
             LTO, as a user's release build); medians of {rounds} interleaved rounds, every \
             pass's checksum checked.{other}{twins} C++ columns: issue 37's run of Chess_Movegen \
             (clang 16 `-O3 -march=native`, {CPP_CPU}), each method's speed over its \
             PEXT's, to compare with plain / `pext` here{same}.\n\n{table}",
            build = build_label(),
            cpu = machine.cpu,
            cores = machine.cores,
            kernel = machine.kernel,
            rustc = machine.rustc,
            date = machine.date,
            rounds = args.rounds.rounds,
            same = if same_cpu {
                "; this is the C++ run's CPU model, so the speeds compare directly too (plain / \
                 C++; another session's machine, so within the noise between sessions)"
            } else {
                ""
            },
            twins = twins.as_ref().map_or(String::new(), |twins| format!(
                " The C twins (benches/c/slider_twins.c, {}, `-O3 -march=native`) ran once per \
                 round after them, on the same workload and, for the magic methods, on the \
                 magic files bitforge embeds.",
                twins.compiler
            )),
            other = args
                .alongside
                .as_ref()
                .map_or(String::new(), |program| format!(
                    " The other build ({}) ran once per round between this build's passes.",
                    program.display()
                )),
        );
        if let Err(message) = args.rounds.write_page(&page) {
            eprintln!("error: {message}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
