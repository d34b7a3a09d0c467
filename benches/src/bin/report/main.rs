//! Writes `results/README.md` and its SVG charts from the benchmark results saved on this
//! machine: criterion's estimates of the default and the `-C target-cpu=native` build, the
//! iai-callgrind summaries; and `results/magics/README.md` from the kept magic sets. Run from the workspace root after the
//! benchmarks (README.md, "Comparing backends", gives the commands).

mod charts;
mod estimates;
mod iai;
mod page;
mod records;
mod table;
mod walk;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

use estimates::Estimates;

/// Writes results/README.md and its charts from saved benchmark results.
#[derive(Parser)]
#[command(version, about, long_about = None)]
struct Args {
    /// Criterion's results of the default build (`cargo bench`).
    #[arg(long, value_name = "DIR", default_value = "target/criterion")]
    default: PathBuf,
    /// Criterion's results of the native build (`RUSTFLAGS="-C target-cpu=native"
    /// CARGO_TARGET_DIR="$PWD/target/native" cargo bench`: an absolute directory, since the
    /// benchmarks run in the package directory); left out when the directory is missing.
    #[arg(long, value_name = "DIR", default_value = "target/native/criterion")]
    native: PathBuf,
    /// iai-callgrind's saved summaries (`--save-summary=json`); left out when missing.
    #[arg(long, value_name = "DIR", default_value = "target/iai")]
    iai: PathBuf,
    /// The kept magic sets, re-verified and listed in README.md there with the records table.
    #[arg(long, value_name = "DIR", default_value = "results/magics")]
    magics: PathBuf,
    /// Write only the kept sets' page (`--magics`/README.md), which needs no benchmark run.
    #[arg(long)]
    records_only: bool,
    /// Where README.md and the charts go.
    #[arg(long, value_name = "DIR", default_value = "results")]
    out: PathBuf,
}

fn main() -> ExitCode {
    match run(&Args::parse()) {
        Ok(written) => {
            for path in written {
                println!("wrote {}", path.display());
            }
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("report: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<Vec<PathBuf>, String> {
    let records = records::write(&args.magics, &records::load(&args.magics)?)?;
    if args.records_only {
        return Ok(vec![records]);
    }
    let default = Estimates::load(&args.default)?;
    let native = if args.native.is_dir() {
        Some(Estimates::load(&args.native)?)
    } else {
        eprintln!(
            "report: no native results at {}, native columns left out",
            args.native.display()
        );
        None
    };
    let instructions = if args.iai.is_dir() {
        iai::Summaries::load(&args.iai)?
    } else {
        iai::Summaries::default()
    };
    let report = page::Report {
        machine: bitforge_benches::machine::Machine::here(),
        default,
        native,
        instructions,
    };
    std::fs::create_dir_all(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let mut written = report.write(&args.out)?;
    written.push(records);
    Ok(written)
}
