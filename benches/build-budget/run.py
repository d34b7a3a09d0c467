#!/usr/bin/env python3
"""The build budget: what an engine author pays to compile bitforge, beside cozy-chess.

Two hello-world engine crates are written outside the workspace, each one perft call with the
library's default choice of slider: one on `bitforge` (a path dependency on this checkout's
`core/`), one on cozy-chess. Each is built clean, debug and release, in interleaved rounds (the
order alternating every round, since the machine is shared and noisy), with `cargo build
--timings`; the median of each and the ratio to cozy-chess are reported, with the slowest
compilation units of the last bitforge build. Then the incremental rebuilds: a release build of
the user's own crate after an edit of it (what each change of an engine costs), and after
touching one file of the core, in the hello crate (core and hello recompiled and linked) and in
the workspace (`cargo build -p bitforge`). Downloads happen before any timing (`cargo fetch`).

    python3 benches/build-budget/run.py --rounds 3 --out results/build-budget.md

Needs cargo and network access to crates.io for the first fetch (or a filled cargo cache).
"""

import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
COZY = "cozy-chess"
DEFAULT = "bitforge, default backend"
INLINED = "bitforge, default backend, `perft-inline`"
CORE = REPO / "core"
TOUCHED = CORE / "src" / "lib.rs"

# The engine's perft as a job for any backend; each hello runs it one way.
BITFORGE_JOB = """\
use bitforge::Position;
use bitforge::slider::{Backend, Slider, SliderJob};

struct Perft(u32);

impl SliderJob for Perft {
    type Output = u64;
    fn run<S: Slider>(self, slider: S) -> u64 {
        Position::start(slider).perft(self.0)
    }
}
"""

# The default backend: the best this CPU runs, detected once, the job compiled for the
# backends `best` can choose (README's "let it choose").
BITFORGE_DEFAULT = BITFORGE_JOB + """
fn main() {
    let nodes = Backend::run_best(Perft(5));
    assert_eq!(nodes, 4_865_609);
    println!("{nodes}");
}
"""

# One backend named by its type: one copy of the generator.
BITFORGE_NAMED = """\
use bitforge::Position;
use bitforge::slider::FancyMagic;

fn main() {
    let nodes = Position::start(FancyMagic).perft(5);
    assert_eq!(nodes, 4_865_609);
    println!("{nodes}");
}
"""

# Any backend by name at run time: the job compiled for every backend and level.
BITFORGE_ANY = BITFORGE_JOB + """
fn main() {
    let backend = Backend::choose(std::env::args().nth(1).as_deref()).expect("a backend");
    let nodes = backend.run(Perft(5)).expect("available");
    assert_eq!(nodes, 4_865_609);
    println!("{nodes}");
}
"""

COZY_MAIN = """\
use cozy_chess::Board;

fn perft(board: &Board, depth: u8) -> u64 {
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
    } else {
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += perft(&child, depth - 1);
            }
            false
        });
    }
    nodes
}

fn main() {
    let nodes = perft(&Board::default(), 5);
    assert_eq!(nodes, 4_865_609);
    println!("{nodes}");
}
"""


def manifest(name, dependency):
    # `[workspace]` makes each crate its own workspace: nothing of this repository's settings
    # (profiles, build-override) reaches it, as for a user's crate.
    return f"""[package]
name = "{name}"
version = "0.1.0"
edition = "2024"
publish = false

[dependencies]
{dependency}

[workspace]
"""


def write_crate(root, name, dependency, main):
    crate = root / name
    (crate / "src").mkdir(parents=True)
    (crate / "Cargo.toml").write_text(manifest(name, dependency))
    (crate / "src" / "main.rs").write_text(main)
    return crate


def cozy_version():
    lock = (REPO / "Cargo.lock").read_text()
    match = re.search(r'name = "cozy-chess"\nversion = "([^"]+)"', lock)
    return match.group(1) if match else "0.3"


def run(command, cwd, env=None):
    started = time.monotonic()
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.monotonic() - started
    if result.returncode != 0:
        sys.stderr.write(result.stdout + result.stderr)
        raise SystemExit(f"error: {' '.join(command)} failed in {cwd}")
    return elapsed


def timing_units(crate):
    """The units of the newest `cargo --timings` report: (name, target, seconds), slowest first."""
    reports = sorted((crate / "target" / "cargo-timings").glob("cargo-timing-*.html"))
    if not reports:
        return []
    html = reports[-1].read_text()
    match = re.search(r"const UNIT_DATA = (\[.*?\]);\n", html, re.S)
    if not match:
        return []
    units = json.loads(match.group(1))
    rows = [
        (f"{u['name']} {u['version']}", (u.get("target") or "").strip() or "lib", u["duration"])
        for u in units
    ]
    return sorted(rows, key=lambda row: -row[2])


def clean_build(crate, release):
    shutil.rmtree(crate / "target", ignore_errors=True)
    command = ["cargo", "build", "--quiet", "--timings"] + (["--release"] if release else [])
    return run(command, crate)


def cpu_name():
    fields = {}
    try:
        for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
            key, _, value = line.partition(":")
            fields[key.strip()] = value.strip()
    except OSError:
        return "unknown CPU"
    return (
        f"{fields.get('Model name', '?')}, family {fields.get('CPU family', '?')} "
        f"model {fields.get('Model', '?')}, {fields.get('CPU(s)', '?')} cores"
    )


def seconds(values):
    return f"{statistics.median(values):.1f} s"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--out", type=Path, help="write the Markdown report here (else stdout)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch crates")
    parser.add_argument(
        "--before",
        type=Path,
        metavar="CHECKOUT",
        help="another checkout of bitforge (an earlier commit) whose core a fourth hello crate, "
        "one backend named, depends on: before and after in one run",
    )
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")

    scratch = Path(tempfile.mkdtemp(prefix="bitforge-build-budget-"))
    bitforge = f'bitforge = {{ path = "{CORE}" }}'
    inlined = f'bitforge = {{ path = "{CORE}", features = ["perft-inline"] }}'
    crates = {
        DEFAULT: write_crate(scratch, "hello-bitforge", bitforge, BITFORGE_DEFAULT),
        INLINED: write_crate(scratch, "hello-bitforge-inline", inlined, BITFORGE_DEFAULT),
        "bitforge, one backend named": write_crate(
            scratch, "hello-bitforge-named", bitforge, BITFORGE_NAMED
        ),
        "bitforge, any backend by name": write_crate(
            scratch, "hello-bitforge-any", bitforge, BITFORGE_ANY
        ),
        COZY: write_crate(scratch, "hello-cozy", f'cozy-chess = "={cozy_version()}"', COZY_MAIN),
    }
    if args.before:
        before = args.before.resolve() / "core"
        if not (before / "Cargo.toml").is_file():
            parser.error(f"--before: {before} holds no Cargo.toml")
        crates[f"before ({args.before.name}), one backend named"] = write_crate(
            scratch, "hello-before-named", f'bitforge = {{ path = "{before}" }}', BITFORGE_NAMED
        )
    try:
        for crate in crates.values():
            run(["cargo", "fetch", "--quiet"], crate)
        times = {(name, profile): [] for name in crates for profile in ("debug", "release")}
        units = {}
        for round_number in range(args.rounds):
            order = list(crates) if round_number % 2 == 0 else list(reversed(crates))
            for profile in ("debug", "release"):
                for name in order:
                    elapsed = clean_build(crates[name], profile == "release")
                    times[(name, profile)].append(elapsed)
                    units[(name, profile)] = timing_units(crates[name])
                    print(
                        f"round {round_number + 1}: {name} {profile} {elapsed:.1f} s",
                        file=sys.stderr,
                    )

        # The user's own crate edited: the last round left each crate's release build.
        incremental_own = {name: [] for name in (DEFAULT, INLINED, COZY)}
        for _ in range(args.rounds):
            for name, values in incremental_own.items():
                os.utime(crates[name] / "src" / "main.rs")
                values.append(run(["cargo", "build", "--quiet", "--release"], crates[name]))

        # Incremental: the debug build is in place after a clean one; touch a core file.
        hello = crates[DEFAULT]
        clean_build(hello, release=False)
        incremental_hello, incremental_core = [], []
        run(["cargo", "build", "--quiet", "-p", "bitforge"], REPO)
        for _ in range(args.rounds):
            os.utime(TOUCHED)
            incremental_hello.append(run(["cargo", "build", "--quiet"], hello))
            os.utime(TOUCHED)
            incremental_core.append(run(["cargo", "build", "--quiet", "-p", "bitforge"], REPO))

        report = render(
            args.rounds,
            times,
            units,
            incremental_own,
            incremental_hello,
            incremental_core,
            args.before,
        )
    finally:
        if args.keep:
            print(f"scratch crates kept in {scratch}", file=sys.stderr)
        else:
            shutil.rmtree(scratch, ignore_errors=True)

    if args.out:
        args.out.write_text(report)
        print(f"wrote {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(report)


def commit_of(checkout):
    """The short commit id a checkout is at, with `+` if it has uncommitted changes."""
    def git(*arguments):
        return subprocess.run(
            ["git", "-C", str(checkout), *arguments], capture_output=True, text=True
        ).stdout.strip()

    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    return commit + ("+" if git("status", "--porcelain", "--untracked-files=no") else "")


def render(rounds, times, units, incremental_own, incremental_hello, incremental_core, before=None):
    rustc = subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.strip()
    today = datetime.date.today().isoformat()
    commits = f"bitforge at {commit_of(REPO)}"
    if before:
        commits += f", `{before.name}` at {commit_of(before)}"
    lines = [
        "# Build budget: a hello-world engine on bitforge beside one on cozy-chess",
        "",
        f"Written by `python3 benches/build-budget/run.py {' '.join(sys.argv[1:])}` on {today}: "
        f"{cpu_name()}; {rustc}; {commits}. Each crate is built clean (its `target/` removed; the "
        "registry already fetched) in interleaved rounds; medians of "
        f"{rounds} round{'s' if rounds > 1 else ''}. Each crate runs one `perft(5)` from the "
        "start position: bitforge's with the default backend (`Backend::run_best`; once more "
        "with the `perft-inline` feature), with one "
        "backend named (`Position::start(FancyMagic)`), and with any backend chosen by name "
        "at run time (`Backend::run`), and cozy-chess's own perft "
        "(`benches/build-budget/run.py` holds their source). Each is its own workspace, so "
        "none of this repository's profile settings reach it.",
        "",
        "| hello crate | clean `cargo build` | ratio to cozy-chess | clean `cargo build --release` | ratio |",
        "| --- | --- | --- | --- | --- |",
    ]
    names = sorted({name for name, _ in times}, key=lambda name: name == COZY)
    for name in names:
        cells = []
        for profile in ("debug", "release"):
            ours = statistics.median(times[(name, profile)])
            theirs = statistics.median(times[(COZY, profile)])
            cells += [f"{ours:.1f} s", f"{ours / theirs:.2f}"]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "Every round (seconds):",
        "",
        "| hello crate, build | " + " | ".join(f"round {i + 1}" for i in range(rounds)) + " |",
        "| --- | " + " | ".join("---" for _ in range(rounds)) + " |",
    ]
    for (name, profile), values in times.items():
        lines.append(f"| {name} {profile} | " + " | ".join(f"{v:.1f}" for v in values) + " |")
    own = ", ".join(f"{name} {seconds(values)}" for name, values in incremental_own.items())
    lines += [
        "",
        f"The user's crate rebuilt after an edit of its own (`cargo build --release`), median: {own}.",
        "",
        "Incremental rebuild after touching `core/src/lib.rs` (debug), median: "
        f"the hello crate (core and hello compiled, linked) {seconds(incremental_hello)}, "
        f"the workspace's `cargo build -p bitforge` {seconds(incremental_core)}.",
        "",
    ]
    for profile in ("debug", "release"):
        for name in (DEFAULT, COZY):
            rows = units.get((name, profile), [])
            if not rows:
                continue
            lines += [
                f"Compilation units of the last {name} {profile} build (`cargo --timings`; "
                "units run two at a time on two cores, so they add up to more than the "
                "wall time):",
                "",
                "| unit | target | seconds |",
                "| --- | --- | --- |",
            ]
            lines += [f"| {unit} | {target} | {duration:.2f} |" for unit, target, duration in rows[:10]]
            lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
