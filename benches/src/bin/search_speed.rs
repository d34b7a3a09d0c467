//! magic-search's full fancy search against Stockfish's method (benches/c/stockfish_magics.c,
//! built by this crate's build script), the way issue 19 states the target: one thread, find +
//! verify a full set, seeds 1-9 (magic-search's stream offsets are tuned for its default seed
//! only; Stockfish's generator starts every square from the seed), the median over the seeds; both run in the same rounds, alternating, so the machine's drift hits
//! both alike. Each C run's table is checked against the reference walker.
//!
//! ```sh
//! cargo run --release -p bitforge-benches --bin search-speed -- --rounds 3
//! ```

use std::process::ExitCode;
use std::time::{Duration, Instant};

use bitforge_benches::machine::Machine;
use bitforge_index::geometry::{ray_attacks, relevant_mask};
use bitforge_index::{Scheme, SliderKind, Subsets, verify};
use clap::Parser;
use magic_search::{SearchConfig, find_set};

unsafe extern "C" {
    /// Finds every rook, then every bishop magic, the candidates tried returned.
    fn stockfish_find_magics(seed: u64, magics: *mut u64) -> u64;
    /// Entry `index` of the table the last search filled (rooks' slices first).
    fn stockfish_table_entry(index: usize) -> u64;
}

/// Time magic-search's fancy search against Stockfish's, seeds 1-9, one thread.
#[derive(Debug, Parser)]
#[command(about, long_about)]
struct Args {
    /// Rounds; each runs every seed once in both searches. Each seed's median over the rounds
    /// counts.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=100))]
    rounds: u32,
    /// The seeds (nonzero; Stockfish's generator stays at zero).
    #[arg(long, value_delimiter = ',', default_values_t = 1..=9u64,
          value_parser = clap::value_parser!(u64).range(1..))]
    seeds: Vec<u64>,
}

/// Runs Stockfish's search and checks the table it filled: its candidates tried.
fn stockfish(seed: u64) -> Result<u64, String> {
    let mut magics = [0u64; 128];
    // SAFETY: the C function writes 128 magics into the array it is given and touches only its
    // own static buffers otherwise; this program calls it from one thread.
    let tried = unsafe { stockfish_find_magics(seed, magics.as_mut_ptr()) };
    let mut base = 0;
    for (number, magic) in magics.iter().enumerate() {
        let kind = if number < 64 {
            SliderKind::Rook
        } else {
            SliderKind::Bishop
        };
        let square = (number % 64) as u8;
        let mask = relevant_mask(kind, square);
        let bits = mask.count_ones() as u8;
        for occupancy in Subsets::new(mask) {
            let index = base + Scheme::Fancy.index(occupancy, mask, *magic, bits);
            // SAFETY: a plain read of the C table; indices past its end return 0.
            let held = unsafe { stockfish_table_entry(index) };
            if held != ray_attacks(kind, square, occupancy) {
                return Err(format!(
                    "Stockfish's table is wrong for {kind:?} {square} seed {seed}"
                ));
            }
        }
        base += 1usize << mask.count_ones();
    }
    Ok(tried)
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort_unstable();
    times[times.len() / 2]
}

fn main() -> ExitCode {
    let args = Args::parse();
    let mut ours = vec![Vec::new(); args.seeds.len()];
    let mut theirs = vec![Vec::new(); args.seeds.len()];
    let mut tried = vec![(0, 0); args.seeds.len()];
    for round in 1..=args.rounds {
        eprintln!("round {round} of {}", args.rounds);
        for (number, &seed) in args.seeds.iter().enumerate() {
            let config = SearchConfig {
                seed,
                ..SearchConfig::default()
            };
            let started = Instant::now();
            let (set, stats) = find_set(&config, 1, &|_| {});
            let checked = verify(&set);
            ours[number].push(started.elapsed());
            if let Err(error) = checked {
                eprintln!("error: magic-search's set for seed {seed} does not verify: {error}");
                return ExitCode::FAILURE;
            }

            let started = Instant::now();
            // The C search fills its table as it goes: that is its verification.
            // SAFETY: see `stockfish`.
            let their_tried = unsafe { stockfish_find_magics(seed, [0u64; 128].as_mut_ptr()) };
            theirs[number].push(started.elapsed());
            tried[number] = (stats.candidates_tried, their_tried);
        }
    }
    // Outside the timed runs: the C search's table is right.
    for &seed in &args.seeds {
        if let Err(error) = stockfish(seed) {
            eprintln!("error: {error}");
            return ExitCode::FAILURE;
        }
    }

    let machine = Machine::here();
    println!(
        "Machine: {}, {} cores; {} rounds, medians per seed.\n",
        machine.cpu, machine.cores, args.rounds
    );
    println!(
        "| seed | magic-search ms | candidates | Stockfish's method ms | candidates | ratio |"
    );
    println!("| --- | --- | --- | --- | --- | --- |");
    let ms = |time: Duration| time.as_secs_f64() * 1000.0;
    let mut our_medians = Vec::new();
    let mut their_medians = Vec::new();
    for (number, seed) in args.seeds.iter().enumerate() {
        let (a, b) = (median(ours[number].clone()), median(theirs[number].clone()));
        our_medians.push(a);
        their_medians.push(b);
        println!(
            "| {seed} | {:.1} | {} | {:.1} | {} | {:.2} |",
            ms(a),
            tried[number].0,
            ms(b),
            tried[number].1,
            ms(a) / ms(b)
        );
    }
    let (a, b) = (median(our_medians), median(their_medians));
    println!(
        "| median | {:.1} | | {:.1} | | {:.2} |",
        ms(a),
        ms(b),
        ms(a) / ms(b)
    );
    ExitCode::SUCCESS
}
