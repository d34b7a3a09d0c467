//! The perft suites (standard, ROCE, Chess960) through the perft command, once per backend
//! available here, each compiled as `Backend::run` compiles it: raised to the best level this
//! CPU has. The core's own test (`core/tests/perft.rs`) runs every backend at its own level;
//! this is the other half, on the copy of the generator the command already holds.
//!
//! The default run checks every count of at most 1,000,000 nodes (`BITFORGE_PERFT_MAX_NODES`
//! to change it). The ignored `every_depth` runs every listed depth, 34.7 billion nodes, with
//! the best backend (`BITFORGE_PERFT_BACKEND=NAME`, or `=all` for every available one):
//! `cargo test --release -p bitforge-benches --test perft_suites -- --ignored`.

use std::path::{Path, PathBuf};
use std::process::Command;

use bitforge::slider::Backend;

const SUITES: [&str; 3] = ["standard.epd", "roce.epd", "chess960.epd"];

fn suite(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../core/tests/perft")
        .join(name)
}

/// Runs every suite with `backend`, up to `max_nodes` per count; returns the counts checked.
fn run_suites(backend: Backend, max_nodes: Option<u64>) -> usize {
    let mut checked = 0;
    for name in SUITES {
        let mut command = Command::new(env!("CARGO_BIN_EXE_perft"));
        command
            .arg("--epd")
            .arg(suite(name))
            .args(["--backend", backend.name()]);
        if let Some(max_nodes) = max_nodes {
            command.args(["--max-nodes", &max_nodes.to_string()]);
        }
        let output = command.output().expect("the perft command runs");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "{backend} {name}: {}\n{stdout}",
            String::from_utf8_lossy(&output.stderr)
        );
        checked += stdout
            .lines()
            .filter(|line| line.starts_with("ok "))
            .count();
        assert!(
            stdout
                .lines()
                .any(|line| line.ends_with(" passed, 0 failed")),
            "{backend} {name}: {stdout}"
        );
    }
    checked
}

#[test]
fn every_backend_raised() {
    let max_nodes = std::env::var("BITFORGE_PERFT_MAX_NODES")
        .ok()
        .and_then(|text| text.replace('_', "").parse().ok())
        .unwrap_or(1_000_000);
    for backend in Backend::ALL {
        if !backend.is_available() {
            eprintln!("{backend}: not available on this CPU, skipped");
            continue;
        }
        let checked = run_suites(backend, Some(max_nodes));
        assert!(checked > 100, "{backend}: only {checked} counts checked");
    }
}

#[test]
#[ignore = "34.7 billion nodes per backend: about 45 s in release with pext"]
fn every_depth() {
    let backends: Vec<Backend> = match std::env::var("BITFORGE_PERFT_BACKEND").ok().as_deref() {
        Some("all") => Backend::ALL
            .into_iter()
            .filter(|backend| backend.is_available())
            .collect(),
        name => vec![Backend::choose(name).expect("a backend this CPU runs")],
    };
    for backend in backends {
        let start = std::time::Instant::now();
        let checked = run_suites(backend, None);
        eprintln!(
            "{backend}: every depth matches, {checked} counts ({:.1} s)",
            start.elapsed().as_secs_f64()
        );
    }
}
