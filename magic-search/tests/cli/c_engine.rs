//! A C engine on the C exports, as an engine author would build it: `tests/c/perft.c` takes
//! its slider attacks from two magic sets with their own prefixes and from the PEXT export in
//! one program, with the tables defined once in `tests/c/tables.c`; built with warnings as
//! errors (the tables file also as C++), with and without link-time optimization, and run on
//! the standard and ROCE perft suites.

use super::*;
use bitforge::position::PerftLine;

/// Positions are searched to the deepest depth whose count is at most this (the software
/// PEXT build is the slowest: a few seconds in all).
const NODE_LIMIT: u64 = 250_000;

/// The sources of the C engine and its three headers, exported from the core's sets.
fn sources(name: &str) -> PathBuf {
    let dir = scratch(name);
    let c = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c");
    for file in ["perft.c", "tables.c"] {
        std::fs::copy(c.join(file), dir.join(file)).unwrap();
    }
    let magics = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/magics");
    let (black, combined) = (
        magics.join("black-packed.magics"),
        magics.join("fancy-combined.magics"),
    );
    let exports: [(&[&str], &str, &str); 3] = [
        (&[path_str(&black)], "blk", "black.h"),
        (&[path_str(&combined)], "cmb", "combined.h"),
        (&["--pext"], "px", "pext.h"),
    ];
    for (what, prefix, header) in exports {
        let out = dir.join(header);
        let args = [
            &["export"],
            what,
            &["--format", "c", "--prefix", prefix, "-o", path_str(&out)],
        ];
        let output = magic_search(&args.concat());
        assert!(output.status.success(), "{}", stderr(&output));
    }
    dir
}

/// "DEPTH FEN" lines of the standard and ROCE suites, each with its expected count.
fn positions() -> Vec<(String, u64)> {
    let suites = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/perft");
    let mut positions = Vec::new();
    for suite in ["standard.epd", "roce.epd"] {
        let text = std::fs::read_to_string(suites.join(suite)).unwrap();
        for line in text.lines().filter(|line| !line.trim().is_empty()) {
            let line = PerftLine::parse(line).expect("the suites hold perft lines");
            let deepest = line
                .counts()
                .filter(|&(_, count)| count <= NODE_LIMIT)
                .max_by_key(|&(depth, _)| depth);
            if let Some((depth, count)) = deepest {
                positions.push((format!("{depth} {}", line.fen), count));
            }
        }
    }
    assert!(positions.len() > 100, "the suites were read");
    positions
}

/// Runs `step` in `dir`, failing with its output unless it succeeds.
fn run(dir: &Path, program: &str, args: &[&str]) {
    let output = Command::new(program)
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap_or_else(|error| panic!("{program} runs: {error}"));
    assert!(
        output.status.success(),
        "{program} {}: {}{}",
        args.join(" "),
        stdout(&output),
        stderr(&output)
    );
}

/// Feeds the suites to `binary`: every attack source must give every expected count.
fn check_counts(binary: &Path, positions: &[(String, u64)]) {
    use std::io::Write;
    let mut child = Command::new(binary)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let input: String = positions
        .iter()
        .map(|(line, _)| format!("{line}\n"))
        .collect();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), positions.len());
    for ((position, expected), line) in positions.iter().zip(lines) {
        let counts: Vec<u64> = line
            .split(' ')
            .map(|count| count.parse().unwrap())
            .collect();
        assert_eq!(counts, [*expected; 4], "{position} (blk, cmb, px, px+pdep)");
    }
}

/// The table symbols defined in `binary`: each exactly once, whatever the build.
fn assert_one_copy_each(binary: &Path) {
    let output = Command::new("nm").arg(binary).output().expect("nm runs");
    let symbols = stdout(&output);
    for table in [
        "blk_slider_attacks",
        "blk_rook_magics",
        "cmb_slider_attacks",
        "cmb_bishop_magics",
        "px_slider_attacks",
        "px_compressed_attacks",
        "px_rook_entries",
    ] {
        let definitions: Vec<&str> = symbols
            .lines()
            .filter(|line| line.split_whitespace().last() == Some(table))
            .collect();
        assert_eq!(
            definitions.len(),
            1,
            "{table} in {}: {definitions:?}",
            binary.display()
        );
        let address = u64::from_str_radix(definitions[0].split(' ').next().unwrap(), 16).unwrap();
        assert_eq!(address % 64, 0, "{table} is aligned to a cache line");
    }
}

#[test]
fn a_c_perft_on_two_sets_and_the_pext_tables_counts_right() {
    let dir = sources("c_engine");
    let positions = positions();
    let strict = ["-O2", "-Wall", "-Wextra", "-Werror", "-pedantic"];
    let c99 = [&["-std=c99"], &strict[..]].concat();
    let x86 = cfg!(target_arch = "x86_64");
    // PEXT as the instruction where the CPU has it, and the header's portable fallback.
    let mut builds: Vec<(&str, Vec<&str>)> = vec![("perft_portable", vec![])];
    if x86 {
        builds[0].1.push("-mno-bmi2");
        if std::arch::is_x86_feature_detected!("bmi2") {
            builds.push(("perft_bmi2", vec!["-mbmi2"]));
        }
    }
    for (binary, extra) in &builds {
        let args = [&c99[..], extra, &["perft.c", "tables.c", "-o", binary]].concat();
        run(&dir, "gcc", &args);
        check_counts(&dir.join(binary), &positions);
        assert_one_copy_each(&dir.join(binary));
    }
    // The tables defined by a C++ file (C++ casts only, C linkage), the engine in C, with
    // link-time optimization: still one copy of each table. CI installs g++; a machine
    // without it skips this build and says so.
    if Command::new("g++").arg("--version").output().is_err() {
        eprintln!("g++ not found: the C++ build of the tables is left out");
        return;
    }
    let cxx = [
        &["-std=c++11", "-Wold-style-cast", "-x", "c++"],
        &strict[..],
    ]
    .concat();
    run(
        &dir,
        "g++",
        &[&cxx[..], &["-flto", "-c", "tables.c", "-o", "tables.o"]].concat(),
    );
    run(
        &dir,
        "gcc",
        &[&c99[..], &["-flto", "-c", "perft.c", "-o", "perft.o"]].concat(),
    );
    run(
        &dir,
        "gcc",
        &["-O2", "-flto", "perft.o", "tables.o", "-o", "perft_lto"],
    );
    check_counts(&dir.join("perft_lto"), &positions);
    assert_one_copy_each(&dir.join("perft_lto"));
}
