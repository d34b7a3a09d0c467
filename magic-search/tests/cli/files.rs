//! Set files and arguments: the main job, same seeds, overwriting, bad arguments and files, verify.

use super::*;
use bitforge_index::{MagicSet, SliderKind, verify};

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
