//! The command line, run as a user would: good runs, bad arguments, bad files, exports.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use bitforge_index::{MagicSet, SliderKind, verify};
use magic_search::{SearchConfig, find_set};

fn magic_search(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_magic-search"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A fresh directory under the target directory, removed and recreated per test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Asserts that a run failed with `code` and said `expected` on standard error.
fn assert_fails(output: &Output, code: i32, expected: &str, context: &str) {
    let message = stderr(output);
    assert_eq!(output.status.code(), Some(code), "{context}: {message}");
    assert!(message.contains(expected), "{context}: {message}");
}

fn path_str(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn no_arguments_finds_verifies_and_summarises() {
    let output = magic_search(&[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let summary = stderr(&output);
    assert!(summary.contains("scheme: fancy"), "{summary}");
    assert!(summary.contains("table entries: 107648"), "{summary}");
    assert!(summary.contains("squares: 128"), "{summary}");
    assert!(stdout(&output).is_empty());
}

#[test]
fn the_same_seed_gives_the_same_file_and_verify_accepts_it() {
    let dir = scratch("same_seed");
    let [first, second, other_threads] =
        ["a", "b", "c"].map(|name| dir.join(format!("{name}.magics")));
    for (path, threads) in [(&first, "2"), (&second, "2"), (&other_threads, "1")] {
        let output = magic_search(&[
            "find",
            "--seed",
            "42",
            "--threads",
            threads,
            "--out",
            path_str(path),
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
    }
    let read = |path: &Path| std::fs::read_to_string(path).unwrap();
    let strip_command = |text: String| {
        text.lines()
            .filter(|l| !l.starts_with("# command:"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip_command(read(&first)), strip_command(read(&second)));
    assert_eq!(
        strip_command(read(&first)),
        strip_command(read(&other_threads))
    );

    let verified = magic_search(&["verify", path_str(&first)]);
    assert!(verified.status.success(), "{}", stderr(&verified));
    let report = stdout(&verified);
    assert!(report.contains("scheme: fancy\n"), "{report}");
    assert!(report.contains("table entries: 107648\n"), "{report}");
    assert!(report.contains("largest index: 107647\n"), "{report}");
}

#[test]
fn nothing_is_overwritten_without_force() {
    let dir = scratch("no_overwrite");
    let target = dir.join("keep.magics");
    std::fs::write(&target, "precious").unwrap();
    for args in [
        vec!["find", "--out", path_str(&target)],
        vec!["pack", "missing.magics", "--out", path_str(&target)],
        vec![
            "export",
            "missing.magics",
            "--format",
            "c",
            "--out",
            path_str(&target),
        ],
    ] {
        let output = magic_search(&args);
        let expected = "already exists (use --force to overwrite it)";
        assert_fails(&output, 2, expected, &format!("{args:?}"));
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious");
    }
    let forced = magic_search(&[
        "find",
        "--scheme",
        "black",
        "--out",
        path_str(&target),
        "--force",
    ]);
    assert!(forced.status.success(), "{}", stderr(&forced));
    assert!(
        std::fs::read_to_string(&target)
            .unwrap()
            .contains("scheme black")
    );
}

#[test]
fn bad_arguments_are_named() {
    for (args, expected) in [
        (vec!["find", "--scheme", "white"], "unknown scheme 'white'"),
        (vec!["find", "--bits", "3"], "is not mask, min or -N"),
        (vec!["find", "--threads", "0"], "--threads"),
        (vec!["find", "--time-budget", "2h"], "unknown unit 'h'"),
        (
            vec!["find", "--scheme", "fixed", "--bits=-1"],
            "--bits applies to the fancy scheme only",
        ),
        (
            vec!["export", "x.magics", "--format", "pascal"],
            "unknown format 'pascal'",
        ),
        (
            vec!["pack", "x.magics", "--temperature", "0"],
            "'0' is not a positive number of table entries",
        ),
        (
            vec!["pack", "x.magics", "--chains", "0"],
            "0 is not in 1..=1024",
        ),
        (vec!["verify"], "<FILE>"),
        (vec!["frobnicate"], "unrecognized subcommand"),
    ] {
        let output = magic_search(&args);
        assert_fails(&output, 2, expected, &format!("{args:?}"));
    }
}

#[test]
fn every_subcommand_has_help() {
    for command in ["find", "verify", "pack", "export", "reduce"] {
        let output = magic_search(&[command, "--help"]);
        assert!(output.status.success());
        assert!(stdout(&output).contains("Usage: magic-search"), "{command}");
    }
}

fn good_set_text() -> String {
    let (set, _) = find_set(&SearchConfig::default(), 2, &|_| {});
    set.to_text(&[])
}

#[test]
fn bad_files_are_named_by_line_and_square() {
    let dir = scratch("bad_files");
    let good = good_set_text();
    let bad_magic = {
        let set = MagicSet::parse(&good).unwrap();
        let line = good
            .lines()
            .find(|l| l.starts_with("bishop   c3 "))
            .unwrap();
        let magic = format!("{:#018x}", set.bishop[18].magic);
        good.replace(line, &line.replace(&magic, "0x0000000000000003"))
    };
    // The fuzz finding: an offset of 2^32 made verify try to allocate 34 GB and abort.
    let huge_offset = {
        let line = good
            .lines()
            .find(|l| l.starts_with("rook     a1 "))
            .unwrap();
        let (head, _) = line.rsplit_once(' ').unwrap();
        good.replace(line, &format!("{head} 4294967296"))
    };
    for (name, text, code, expected) in [
        ("missing.magics", None, 2, "cannot read"),
        (
            "garbage.magics",
            Some("hello\n".to_owned()),
            2,
            "line 1: expected the header 'bitforge-magics 1'",
        ),
        (
            "short.magics",
            Some(good.replace("rook     h8 ", "# rook h8 ")),
            2,
            "rook h8: no entry",
        ),
        (
            "bits.magics",
            Some(good.replace("bishop   a1      ", "bishop a1 0x1 7 0 #")),
            2,
            "line 68: bishop a1: 7 bits is more than the mask's 6",
        ),
        (
            "huge-offset.magics",
            Some(huge_offset),
            1,
            "rook a1: its slice would end at table slot 4294971392, past the limit of 2097152 entries",
        ),
        (
            "collide.magics",
            Some(bad_magic),
            1,
            "bishop c3: occupancies",
        ),
    ] {
        let path = dir.join(name);
        if let Some(text) = text {
            std::fs::write(&path, text).unwrap();
        }
        let output = magic_search(&["verify", path_str(&path)]);
        assert_fails(&output, code, expected, name);
    }
}

#[test]
fn verify_names_the_corrupted_square() {
    let good = MagicSet::parse(&good_set_text()).unwrap();
    for (kind, square) in [
        (SliderKind::Rook, 0u8),
        (SliderKind::Rook, 36),
        (SliderKind::Bishop, 63),
        (SliderKind::Bishop, 27),
    ] {
        let mut bad = good.clone();
        bad.entries_mut(kind)[square as usize].magic ^= 0x0010_0000_0000_0000;
        bad.entries_mut(kind)[square as usize].magic >>= 1;
        let error = verify(&bad).expect_err("a corrupted magic collides");
        let culprit = error.culprit();
        assert_eq!((culprit.kind, culprit.square), (kind, square), "{error}");
    }
}

#[test]
fn pack_shrinks_a_fixed_set_that_still_verifies() {
    let dir = scratch("pack");
    let fixed = dir.join("fixed.magics");
    let packed = dir.join("packed.magics");
    assert!(
        magic_search(&["find", "--scheme", "fixed", "--out", path_str(&fixed)])
            .status
            .success()
    );
    let output = magic_search(&[
        "pack",
        path_str(&fixed),
        "--tries",
        "2",
        "--anneal",
        "3",
        "--chains",
        "2",
        "--out",
        path_str(&packed),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let verified = magic_search(&["verify", path_str(&packed)]);
    assert!(verified.status.success(), "{}", stderr(&verified));
    let entries = |text: &str| -> usize {
        let line = text
            .lines()
            .find(|l| l.starts_with("table entries: "))
            .unwrap();
        line["table entries: ".len()..]
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let before = entries(&stdout(&magic_search(&["verify", path_str(&fixed)])));
    assert!(entries(&stdout(&verified)) < before);
}

#[test]
fn narrowing_starts_from_a_set_of_its_own_scheme_only() {
    let dir = scratch("from");
    let black = dir.join("black.magics");
    let narrowed = dir.join("narrowed.magics");
    let narrow = ["--narrow", "--attempts", "500"];
    let first = [
        &["find", "--scheme", "black", "--out", path_str(&black)][..],
        &narrow,
    ]
    .concat();
    assert!(magic_search(&first).status.success());
    let from = ["find", "--seed", "2", "--from", path_str(&black)];
    let output = magic_search(
        &[
            &from[..],
            &["--scheme", "black", "--out", path_str(&narrowed)],
            &narrow,
        ]
        .concat(),
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let verified = magic_search(&["verify", path_str(&narrowed)]);
    assert!(verified.status.success(), "{}", stderr(&verified));
    assert_fails(
        &magic_search(&[&from[..], &["--scheme", "fixed"], &narrow].concat()),
        2,
        "the set's scheme is black, the search's fixed",
        "another scheme",
    );
    assert_fails(
        &magic_search(&[&from[..], &["--scheme", "black"]].concat()),
        2,
        "--narrow",
        "without --narrow",
    );
    assert_fails(
        &magic_search(
            &[
                &from[..],
                &["--scheme", "black", "--candidates", "4"],
                &narrow,
            ]
            .concat(),
        ),
        2,
        "--candidates",
        "with --candidates",
    );
}

/// Every export describes the same table as the library's verified one.
mod export {
    use super::*;

    /// A set found with `scheme` (packed into a combined, post-masked table if `post_mask`),
    /// its verified table, and its export in `format`.
    fn exported(scheme: &str, format: &str, post_mask: bool) -> (MagicSet, Vec<u64>, String) {
        let dir = scratch(&format!("export_{scheme}_{format}_{post_mask}"));
        let set_path = dir.join("set.magics");
        assert!(
            magic_search(&["find", "--scheme", scheme, "--out", path_str(&set_path)])
                .status
                .success()
        );
        if post_mask {
            let found = dir.join("found.magics");
            std::fs::rename(&set_path, &found).unwrap();
            let packed = magic_search(&[
                "pack",
                path_str(&found),
                "--post-mask",
                "--tries",
                "0",
                "--out",
                path_str(&set_path),
            ]);
            assert!(packed.status.success(), "{}", stderr(&packed));
            assert!(stderr(&packed).contains("post-masked (one combined table)"));
        }
        let output = magic_search(&["export", path_str(&set_path), "--format", format]);
        assert!(output.status.success(), "{}", stderr(&output));
        let set = MagicSet::parse(&std::fs::read_to_string(&set_path).unwrap()).unwrap();
        let table = verify(&set).unwrap().attacks;
        (set, table, stdout(&output))
    }

    #[test]
    fn json_round_trips() {
        let (set, table, text) = exported("black", "json", true);
        let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(json["scheme"], "black");
        assert_eq!(json["post_masked"], true);
        let hex = |value: &serde_json::Value| {
            u64::from_str_radix(&value.as_str().unwrap()[2..], 16).unwrap()
        };
        let attacks: Vec<u64> = json["attacks"]
            .as_array()
            .unwrap()
            .iter()
            .map(hex)
            .collect();
        assert_eq!(attacks, table);
        for (square, entry) in json["rook"].as_array().unwrap().iter().enumerate() {
            assert_eq!(hex(&entry["magic"]), set.rook[square].magic);
            assert_eq!(entry["offset"].as_i64(), Some(set.rook[square].offset));
            assert_eq!(
                hex(&entry["post_mask"]),
                set.post_mask(SliderKind::Rook, square as u8)
            );
        }
    }

    /// Sums attacks over a fixed pseudo-random walk of squares and occupancies; the programs
    /// built from the exports walk the same way (`CHECKSUM_LOOP`).
    fn reference_checksum() -> u64 {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut sum = 0u64;
        for _ in 0..100_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let kind = SliderKind::ALL[(state & 1) as usize];
            let square = ((state >> 1) & 63) as u8;
            let attacks = bitforge_index::geometry::ray_attacks(kind, square, state);
            sum = sum.wrapping_mul(31).wrapping_add(attacks);
        }
        sum
    }

    const CHECKSUM_LOOP: &str = "state ^= state << 13; state ^= state >> 7; state ^= state << 17;";

    /// Writes the export and a program using it into a scratch directory, compiles the program
    /// with `compiler` and `flags` (which must not tolerate warnings), runs it and compares its
    /// output with the reference checksum.
    fn build_and_check(
        name: &str,
        export: (&str, String),
        program: (&str, String),
        compiler: &str,
        flags: &[&str],
    ) {
        let dir = scratch(name);
        std::fs::write(dir.join(export.0), export.1).unwrap();
        let source = dir.join(program.0);
        std::fs::write(&source, program.1).unwrap();
        let binary = dir.join("check");
        let compiled = Command::new(compiler)
            .args(flags)
            .args(["-o", path_str(&binary), path_str(&source)])
            .output()
            .unwrap_or_else(|error| panic!("{compiler} runs: {error}"));
        assert!(compiled.status.success(), "{}", stderr(&compiled));
        let run = Command::new(&binary).output().unwrap();
        assert_eq!(stdout(&run).trim(), reference_checksum().to_string());
    }

    #[test]
    fn c_header_compiles_with_warnings_as_errors_and_matches() {
        for (scheme, post_mask) in [("fancy", false), ("black", true)] {
            c_header_matches(scheme, post_mask);
        }
    }

    fn c_header_matches(scheme: &str, post_mask: bool) {
        let (_, _, header) = exported(scheme, "c", post_mask);
        assert_eq!(header.contains("post_mask"), post_mask);
        let program = format!(
            "#include <stdio.h>\n#include \"magics.h\"\nint main(void) {{\n  uint64_t state = 0x9E3779B97F4A7C15ULL, sum = 0;\n  for (int i = 0; i < 100000; i++) {{\n    {CHECKSUM_LOOP}\n    unsigned kind = state & 1, square = (state >> 1) & 63;\n    uint64_t attacks = kind ? bitforge_bishop_attacks(square, state) : bitforge_rook_attacks(square, state);\n    sum = sum * 31 + attacks;\n  }}\n  printf(\"%llu\\n\", (unsigned long long)sum);\n  return 0;\n}}\n"
        );
        let flags = ["-std=c99", "-O1", "-Wall", "-Werror"];
        build_and_check(
            &format!("export_c_build_{scheme}_{post_mask}"),
            ("magics.h", header),
            ("main.c", program),
            "gcc",
            &flags,
        );
    }

    #[test]
    fn rust_module_compiles_and_matches() {
        for post_mask in [false, true] {
            rust_module_matches(post_mask);
        }
    }

    fn rust_module_matches(post_mask: bool) {
        let (_, _, module) = exported("black", "rust", post_mask);
        assert_eq!(module.contains("post_mask"), post_mask);
        let program = format!(
            "mod magics;\nfn main() {{\n  let mut state = 0x9E37_79B9_7F4A_7C15u64;\n  let mut sum = 0u64;\n  for _ in 0..100_000 {{\n    {CHECKSUM_LOOP}\n    let square = ((state >> 1) & 63) as usize;\n    let attacks = if state & 1 == 1 {{ magics::bishop_attacks(square, state) }} else {{ magics::rook_attacks(square, state) }};\n    sum = sum.wrapping_mul(31).wrapping_add(attacks);\n  }}\n  println!(\"{{sum}}\");\n}}\n"
        );
        let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
        let flags = ["--edition", "2024", "-D", "warnings", "-A", "dead_code"];
        build_and_check(
            &format!("export_rust_build_{post_mask}"),
            ("magics.rs", module),
            ("main.rs", program),
            &rustc,
            &flags,
        );
    }
}

#[test]
fn check_accepts_osbornes_a8_magic_and_names_the_collision_on_a1() {
    let valid = magic_search(&["check", "rook", "a8", "0xEBFFFFB9FF9FC526", "--bits", "11"]);
    assert!(valid.status.success(), "{}", stderr(&valid));
    let text = stdout(&valid);
    assert!(text.contains("rook a8, 11 bits, fancy"), "{text}");
    assert!(text.contains("index span: "), "{text}");
    assert!(text.contains("constructive collisions"), "{text}");

    let invalid = magic_search(&["check", "rook", "a1", "0xEBFFFFB9FF9FC526", "--bits", "11"]);
    assert_fails(
        &invalid,
        1,
        "rook a1: 0xebffffb9ff9fc526 is not a 11-bit fancy magic",
        "a1",
    );
    assert!(
        stderr(&invalid).contains("occupancies 0x"),
        "{}",
        stderr(&invalid)
    );

    // The published 5-bit magic for bishop e8 uses indices 0 to 29.
    let e8 = magic_search(&["check", "bishop", "e8", "0x4f68bcb9"]);
    assert!(
        stdout(&e8).contains("index span: 0 to 29 (30 slots)"),
        "{}",
        stdout(&e8)
    );
}

#[test]
fn hunt_proves_that_bishop_d8_has_no_4_bit_magic() {
    let output = magic_search(&["hunt", "bishop", "d8", "--bits", "4", "--threads", "2"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains(
            "result: no 4-bit fancy magic exists for bishop d8 (the range is the whole period)"
        ),
        "{text}"
    );
    assert!(text.contains("period: 0x4000000 (2^26)"), "{text}");
}

#[test]
fn hunt_chunks_cover_the_range_and_find_the_published_magic() {
    // Two chunks of bishop d8's 5-bit range: the second holds Fiekas's 0x208800.
    let run = |chunk: &str| {
        let output = magic_search(&[
            "hunt",
            "bishop",
            "d8",
            "--bits",
            "5",
            "--range",
            "0x200000..0x210000",
            "--chunk",
            chunk,
            "--keep",
            "100000",
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
        stdout(&output)
    };
    let (first, second) = (run("0/2"), run("1/2"));
    assert!(first.contains("chunk 0/2: 0x200000..0x208000"), "{first}");
    assert!(second.contains("chunk 1/2: 0x208000..0x210000"), "{second}");
    assert!(
        second.contains("0x0000000000208800  indices 0 to 31"),
        "{second}"
    );
}

#[test]
fn check_and_hunt_refuse_bad_input_clearly() {
    let cases: [(&[&str], &str); 7] = [
        (&["check", "rook", "i9", "1"], "'i9' is not a square"),
        (&["check", "queen", "a1", "1"], "invalid value 'queen'"),
        (&["check", "rook", "a1", "0xZZ"], "is not a number"),
        (
            &["check", "rook", "a1", "1", "--bits", "0"],
            "0 index bits: expected 1 to 20",
        ),
        (&["hunt", "rook", "a1", "--bits", "30"], "30 index bits"),
        (
            &["hunt", "bishop", "d8", "--bits", "4", "--range", "9..3"],
            "is empty",
        ),
        (
            &["hunt", "bishop", "d8", "--bits", "4", "--chunk", "2/2"],
            "is not a chunk",
        ),
    ];
    for (args, expected) in cases {
        let output = magic_search(args);
        assert_fails(&output, 2, expected, &args.join(" "));
    }
    // A checkpoint that cannot be written stops the hunt before it starts.
    let nowhere = magic_search(&[
        "hunt",
        "bishop",
        "d8",
        "--bits",
        "4",
        "--checkpoint",
        "/nonexistent/dir/d8.hunt",
    ]);
    assert_fails(
        &nowhere,
        2,
        "cannot write /nonexistent/dir/d8.hunt",
        "unwritable checkpoint",
    );
    assert!(
        !stdout(&nowhere).contains("result:"),
        "{}",
        stdout(&nowhere)
    );
    let past = magic_search(&[
        "hunt",
        "bishop",
        "d8",
        "--bits",
        "4",
        "--range",
        "2^26..2^27",
    ]);
    assert_fails(&past, 2, "past the period", "range past the period");
}

/// The hunt state in `path`, comments left out.
fn hunt_state(path: &Path) -> magic_search::HuntReport {
    let text = std::fs::read_to_string(path).unwrap();
    magic_search::HuntReport::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn a_killed_hunt_resumes_from_its_checkpoint_and_ends_with_the_same_result() {
    let dir = scratch("hunt_resume");
    let (resumed, whole) = (dir.join("resumed.hunt"), dir.join("whole.hunt"));
    let args = |file: &Path| {
        [
            "hunt",
            "bishop",
            "e8",
            "--bits",
            "4",
            "--range",
            "0x8000000..0x30000000",
            "--threads",
            "1",
            "--checkpoint-every",
            "0s",
            "--checkpoint",
        ]
        .into_iter()
        .map(str::to_owned)
        .chain([path_str(file).to_owned()])
        .collect::<Vec<_>>()
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_magic-search"))
        .args(args(&resumed))
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once a checkpoint shows progress (and before it ends).
    let started = std::time::Instant::now();
    let saved = loop {
        if let Ok(text) = std::fs::read_to_string(&resumed)
            && let Ok(state) = magic_search::HuntReport::parse(&text)
            && state.covered() > 0
        {
            break state;
        }
        assert!(started.elapsed().as_secs() < 60, "no checkpoint written");
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    child.kill().unwrap();
    child.wait().unwrap();
    let at_kill = hunt_state(&resumed);
    assert!(!at_kill.complete(), "the hunt ended before it was killed");
    assert!(at_kill.done >= saved.done);

    let again = magic_search(
        &args(&resumed)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(stdout(&again).contains("resumed: "), "{}", stdout(&again));
    assert!(stdout(&again).contains("result: no magic in 0x8000000..0x30000000"));
    let uninterrupted = magic_search(&args(&whole).iter().map(String::as_str).collect::<Vec<_>>());
    assert!(uninterrupted.status.success(), "{}", stderr(&uninterrupted));
    assert_eq!(hunt_state(&resumed), hunt_state(&whole));
}

/// Runs chunks 0 to `count - 1` of the command `args` as separate processes at once, each with
/// `--chunk I/N --checkpoint DIR/partI.EXT`, and returns their state files once all succeeded.
fn run_chunks(dir: &Path, ext: &str, count: usize, args: &[&str]) -> Vec<PathBuf> {
    let files: Vec<PathBuf> = (0..count)
        .map(|i| dir.join(format!("part{i}.{ext}")))
        .collect();
    let children: Vec<_> = files
        .iter()
        .enumerate()
        .map(|(i, file)| {
            Command::new(env!("CARGO_BIN_EXE_magic-search"))
                .args(args)
                .args(["--chunk", &format!("{i}/{count}")])
                .args(["--checkpoint", path_str(file)])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    files
}

#[test]
fn chunks_hunted_by_separate_processes_merge_into_the_whole_result() {
    let dir = scratch("hunt_merge");
    let hunt = ["hunt", "bishop", "d8", "--bits", "5", "--keep", "1000"];
    let files = run_chunks(&dir, "hunt", 3, &hunt);
    let merged_file = dir.join("merged.hunt");
    let mut merge: Vec<&str> = vec!["merge", "--keep", "1000", "--out", path_str(&merged_file)];
    merge.extend(files.iter().rev().map(|f| path_str(f)));
    let output = magic_search(&merge);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("found: "), "{}", stdout(&output));

    let whole_file = dir.join("whole.hunt");
    let mut single = hunt.to_vec();
    single.extend(["--checkpoint", path_str(&whole_file)]);
    let whole = magic_search(&single);
    assert!(whole.status.success(), "{}", stderr(&whole));
    assert_eq!(hunt_state(&merged_file), hunt_state(&whole_file));

    // A missing chunk, and a tampered magic, are refused.
    let gap = magic_search(&["merge", path_str(&files[0]), path_str(&files[2])]);
    assert_fails(&gap, 2, "a chunk is missing", "merge with a gap");
    let text = std::fs::read_to_string(&files[1]).unwrap();
    let best = text.lines().find(|l| l.starts_with("best ")).unwrap();
    let magic = best.split_whitespace().nth(1).unwrap();
    let tampered = text.replace(&format!("best {magic} "), "best 0x1 ");
    std::fs::write(&files[1], tampered).unwrap();
    let bad = magic_search(&[
        "merge",
        path_str(&files[0]),
        path_str(&files[1]),
        path_str(&files[2]),
    ]);
    assert!(!bad.status.success(), "{}", stdout(&bad));
}

/// The set search state in `path`.
fn find_state(path: &Path) -> magic_search::FindState {
    let text = std::fs::read_to_string(path).unwrap();
    magic_search::FindState::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A `find --bits min` long enough to be stopped part way (a few seconds), with its state in
/// `file`.
fn minimising_find(file: &Path, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "find",
        "--bits",
        "min",
        "--attempts",
        "400000",
        "--threads",
        "2",
        "--checkpoint-every",
        "20ms",
        "--checkpoint",
        path_str(file),
    ]
    .map(str::to_owned)
    .to_vec();
    args.extend(extra.iter().map(|&a| a.to_owned()));
    args
}

/// Starts `args`, waits until its state file shows candidates tried on an unfinished search,
/// then stops it with `signal` (`KILL` or `INT`); returns the process's exit status.
fn stop_find_part_way(args: &[String], file: &Path, signal: &str) -> std::process::ExitStatus {
    let child = Command::new(env!("CARGO_BIN_EXE_magic-search"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    loop {
        if let Ok(text) = std::fs::read_to_string(file)
            && let Ok(state) = magic_search::FindState::parse(&text)
            && state.stats().candidates_tried > 0
        {
            assert!(
                !state.is_complete(),
                "the search ended before it was stopped"
            );
            break;
        }
        assert!(started.elapsed().as_secs() < 60, "no checkpoint written");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    stop(child, signal).status
}

/// Sends `signal` (`INT`, `KILL`) to `child` and waits for it to end.
fn stop(child: std::process::Child, signal: &str) -> std::process::Output {
    let kill = Command::new("kill")
        .args([format!("-{signal}"), child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    child.wait_with_output().unwrap()
}

#[test]
fn a_killed_set_search_resumes_from_its_checkpoint_and_ends_with_the_same_set() {
    let dir = scratch("find_resume");
    let (resumed, whole) = (dir.join("resumed.find"), dir.join("whole.find"));
    let (resumed_set, whole_set) = (dir.join("resumed.magics"), dir.join("whole.magics"));
    let args = minimising_find(&resumed, &["--out", path_str(&resumed_set)]);
    stop_find_part_way(&args, &resumed, "KILL");
    let at_kill = find_state(&resumed);
    assert!(!at_kill.is_complete());

    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let again = magic_search(&args);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(stderr(&again).contains("resumed: "), "{}", stderr(&again));
    let uninterrupted = magic_search(
        &minimising_find(&whole, &["--out", path_str(&whole_set)])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert!(uninterrupted.status.success(), "{}", stderr(&uninterrupted));
    let set = |path: &Path| {
        bitforge_index::MagicSet::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    assert_eq!(set(&resumed_set), set(&whole_set));
    assert_eq!(find_state(&resumed), find_state(&whole));
}

#[test]
fn ctrl_c_saves_a_search_and_exits_130_and_a_hunt_too() {
    let dir = scratch("interrupt");
    let file = dir.join("stopped.find");
    let status = stop_find_part_way(&minimising_find(&file, &[]), &file, "INT");
    assert_eq!(status.code(), Some(130));
    let saved = find_state(&file);
    assert!(!saved.is_complete() && saved.stats().candidates_tried > 0);

    let hunt_file = dir.join("stopped.hunt");
    let child = Command::new(env!("CARGO_BIN_EXE_magic-search"))
        .args(["hunt", "rook", "a1", "--bits", "11", "--threads", "1"])
        .args([
            "--checkpoint-every",
            "0s",
            "--checkpoint",
            path_str(&hunt_file),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while !hunt_file.exists() || hunt_state(&hunt_file).covered() == 0 {
        assert!(started.elapsed().as_secs() < 60, "no checkpoint written");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let output = stop(child, "INT");
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    assert!(stderr(&output).contains("the same command resumes it"));
    let saved = hunt_state(&hunt_file);
    assert!(!saved.complete() && saved.covered() > 0);
}

#[test]
fn ctrl_c_ends_an_annealing_pack_with_the_best_set_so_far_written() {
    let dir = scratch("interrupt_pack");
    let packed = dir.join("packed.magics");
    let input = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../core/magics/black-packed.magics"
    );
    let child = Command::new(env!("CARGO_BIN_EXE_magic-search"))
        .args([
            "pack",
            input,
            "--tries",
            "0",
            "--anneal",
            "100000000",
            "--chains",
            "2",
        ])
        .args(["--out", path_str(&packed)])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Reading and verifying the set takes milliseconds; the handler is in place by then.
    std::thread::sleep(std::time::Duration::from_secs(2));
    let output = stop(child, "INT");
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    assert!(stderr(&output).contains("the best arrangement found until then was written"));
    let text = std::fs::read_to_string(&packed).unwrap();
    assert!(text.contains("(stopped by Ctrl-C"), "{text}");
    let verified = magic_search(&["verify", path_str(&packed)]);
    assert!(verified.status.success(), "{}", stderr(&verified));
}

#[test]
fn set_search_chunks_run_by_separate_processes_merge_into_the_whole_set() {
    let dir = scratch("find_merge");
    let common = [
        "find",
        "--scheme",
        "black",
        "--candidates",
        "2",
        "--threads",
        "1",
    ];
    let files = run_chunks(&dir, "find", 3, &common);
    let merged = dir.join("merged.magics");
    let mut merge: Vec<&str> = vec!["merge", "--out", path_str(&merged)];
    merge.extend(files.iter().rev().map(|f| path_str(f)));
    let output = magic_search(&merge);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("all verified"),
        "{}",
        stderr(&output)
    );

    let whole = dir.join("whole.magics");
    let mut single = common.to_vec();
    single.extend(["--out", path_str(&whole)]);
    let output = magic_search(&single);
    assert!(output.status.success(), "{}", stderr(&output));
    let set = |path: &Path| {
        bitforge_index::MagicSet::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
    };
    assert_eq!(set(&merged), set(&whole));

    // A chunk without a state file, a missing or repeated chunk, another search's file, a
    // hunt's file and a tampered magic are refused, naming the fault.
    let fancy_narrow = magic_search(&["find", "--narrow"]);
    assert_fails(
        &fancy_narrow,
        2,
        "--narrow applies to",
        "--narrow with fancy",
    );
    let no_file = magic_search(&["find", "--chunk", "1/3"]);
    assert_fails(
        &no_file,
        2,
        "give --checkpoint",
        "a chunk without --checkpoint",
    );
    let gap = magic_search(&["merge", path_str(&files[0]), path_str(&files[2])]);
    assert_fails(
        &gap,
        2,
        "chunk 1/3 is missing",
        "merge with a missing chunk",
    );
    let twice = magic_search(&[
        "merge",
        path_str(&files[0]),
        path_str(&files[1]),
        path_str(&files[1]),
        path_str(&files[2]),
    ]);
    assert_fails(
        &twice,
        2,
        "chunk 1/3 is given twice",
        "merge with a repeated chunk",
    );
    let other = magic_search(&[
        "find",
        "--scheme",
        "fixed",
        "--chunk",
        "0/3",
        "--checkpoint",
        path_str(&files[0]),
    ]);
    assert_fails(
        &other,
        2,
        "another search",
        "resuming another search's file",
    );
    let hunt_file = dir.join("d8.hunt");
    let hunt = magic_search(&[
        "hunt",
        "bishop",
        "d8",
        "--bits",
        "5",
        "--range",
        "0..2^10",
        "--checkpoint",
        path_str(&hunt_file),
    ]);
    assert!(hunt.status.success(), "{}", stderr(&hunt));
    let mut resume_with_hunt = common.to_vec();
    resume_with_hunt.extend(["--checkpoint", path_str(&hunt_file)]);
    let wrong_kind = magic_search(&resume_with_hunt);
    assert_fails(
        &wrong_kind,
        2,
        "expected 'bitforge-find 1'",
        "a hunt file given to find",
    );
    let text = std::fs::read_to_string(&files[1]).unwrap();
    let best = text
        .lines()
        .find(|l| l.starts_with("square "))
        .unwrap()
        .split(" best ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_owned();
    std::fs::write(
        &files[1],
        text.replacen(&format!("best {best} "), "best 0x1 ", 1),
    )
    .unwrap();
    let tampered = magic_search(&[
        "merge",
        path_str(&files[0]),
        path_str(&files[1]),
        path_str(&files[2]),
    ]);
    assert_fails(&tampered, 1, "0x1 is not a magic", "a tampered magic");
}

#[test]
fn verify_reports_the_index_spans_a_narrowing_search_left() {
    // The kept set's spans, as the session that narrowed it measured them.
    let narrowed = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../results/magics/black-narrow-3.magics"
    );
    let output = magic_search(&["verify", narrowed]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("index spans: rook 107821, bishop 5226\n"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn pack_stacks_and_chooses_among_other_sets_of_its_scheme() {
    let dir = scratch("choose");
    let [first, combs, fixed, alternative, packed] =
        ["first", "combs", "fixed", "alternative", "packed"]
            .map(|name| dir.join(format!("{name}.magics")));
    let find = |args: &[&str]| {
        let output = magic_search(&[&["find", "--threads", "2"][..], args].concat());
        assert!(output.status.success(), "{}", stderr(&output));
    };
    find(&["--scheme", "black", "--out", path_str(&first)]);
    find(&["--scheme", "fixed", "--out", path_str(&fixed)]);
    // Narrowing by the comb cost.
    find(&[
        "--scheme",
        "black",
        "--narrow",
        "--prefer",
        "comb",
        "--attempts",
        "2000",
        "--from",
        path_str(&first),
        "--seed",
        "3",
        "--out",
        path_str(&combs),
    ]);
    let verified = magic_search(&["verify", path_str(&combs)]);
    assert!(verified.status.success(), "{}", stderr(&verified));

    // A kept black set (narrow slices, rank 8 without combs), and the same with comb magics
    // on rook b8 and g8 (slices laid end to end) to choose from.
    let embedded = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../results/magics/black-narrow-14-annealed.magics"
    );
    let kept = MagicSet::parse(&std::fs::read_to_string(embedded).unwrap()).unwrap();
    let pairs = |kind| kept.entries(kind).map(|entry| (entry.magic, entry.bits));
    let mut rook = pairs(SliderKind::Rook);
    (rook[57].0, rook[62].0) = (0x0000_8002_0104_400a, 0x8a00_0028_0200_7004);
    let set = MagicSet::with_dense_offsets(kept.scheme, rook, pairs(SliderKind::Bishop));
    std::fs::write(&alternative, set.to_text(&[])).unwrap();
    let output = magic_search(&[
        "pack",
        embedded,
        "--stack",
        "--tries",
        "0",
        "--choose-from",
        path_str(&alternative),
        "--out",
        path_str(&packed),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("magics chosen from the other sets: "),
        "{}",
        stderr(&output)
    );
    let text = std::fs::read_to_string(&packed).unwrap();
    assert!(
        text.contains("# magics chosen from the other sets: "),
        "{text}"
    );
    // A comb is taken where it packs smaller with the others.
    let chosen = MagicSet::parse(&text).unwrap();
    assert!(
        [57, 62]
            .iter()
            .any(|&s| chosen.rook[s].magic == set.rook[s].magic)
    );
    let verified = magic_search(&["verify", path_str(&packed)]);
    assert!(verified.status.success(), "{}", stderr(&verified));

    assert_fails(
        &magic_search(&["pack", path_str(&first), "--choose-from", path_str(&fixed)]),
        2,
        &format!(
            "{}: alternative 1: its scheme is fixed, the set's black",
            fixed.display()
        ),
        "another scheme",
    );
    let broken = dir.join("broken.magics");
    let mut bad = set.clone();
    bad.rook[0].magic = 1;
    std::fs::write(&broken, bad.to_text(&[])).unwrap();
    assert_fails(
        &magic_search(&["pack", path_str(&first), "--choose-from", path_str(&broken)]),
        1,
        &format!("{}: alternative 1: ", broken.display()),
        "an alternative that does not verify",
    );
    assert_fails(
        &magic_search(&["find", "--prefer", "most"]),
        2,
        "span, used or comb",
        "an unknown preference",
    );

    // Filling: a short annealing per attempt, the result verified and reported.
    let filled = dir.join("filled.magics");
    let output = magic_search(&[
        "pack",
        path_str(&first),
        "--stack",
        "--fill",
        "20",
        "--tries",
        "0",
        "--out",
        path_str(&filled),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("magics searched to fit another stack's holes: "),
        "{}",
        stderr(&output)
    );
    let verified = magic_search(&["verify", path_str(&filled)]);
    assert!(verified.status.success(), "{}", stderr(&verified));
    assert_fails(
        &magic_search(&["pack", path_str(&first), "--fill", "20"]),
        2,
        "--stack",
        "--fill without --stack",
    );
}

/// `reduce` writes a smaller fancy set that verifies, says so in the file and the summary,
/// refuses a set of another scheme and both budgets at once, and never overwrites.
#[test]
fn reduce_lowers_bits_and_verifies() {
    let dir = scratch("reduce");
    let (fancy, black) = (dir.join("fancy.magics"), dir.join("black.magics"));
    std::fs::write(&fancy, good_set_text()).unwrap();
    let black_set = find_set(
        &SearchConfig {
            scheme: bitforge_index::Scheme::Black,
            ..SearchConfig::default()
        },
        2,
        &|_| {},
    )
    .0;
    std::fs::write(&black, black_set.to_text(&[])).unwrap();
    let reduced = dir.join("reduced.magics");
    let run = magic_search(&[
        "reduce",
        path_str(&fancy),
        "--attempts",
        "200000",
        "--rounds",
        "1",
        "--out",
        path_str(&reduced),
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(
        stderr(&run).contains("bits lost in 1 rounds"),
        "{}",
        stderr(&run)
    );
    let text = std::fs::read_to_string(&reduced).unwrap();
    assert!(text.contains("reduced by magic-search"), "{text}");
    let set = MagicSet::parse(&text).unwrap();
    assert!(verify(&set).unwrap().entries() < 107_648);
    assert!(
        magic_search(&["verify", path_str(&reduced)])
            .status
            .success()
    );

    assert_fails(
        &magic_search(&["reduce", path_str(&black), "--attempts", "10"]),
        2,
        "only fancy sets",
        "reduce a black set",
    );
    assert_fails(
        &magic_search(&[
            "reduce",
            path_str(&fancy),
            "--attempts",
            "10",
            "--time-budget",
            "1s",
        ]),
        2,
        "cannot be used with",
        "two budgets",
    );
    assert_fails(
        &magic_search(&["reduce", path_str(&fancy), "--out", path_str(&reduced)]),
        2,
        "already exists",
        "no overwrite",
    );
}
