//! Careless and hostile use: closed pipes, full disks, devices and links where files belong,
//! state files with impossible counts. The tool says why and exits with 1 or 2; it never
//! panics (exit 101), never reads without bound, never replaces what is not a regular file.

use std::process::Stdio;

use super::*;

/// A verifying set file in `dir`, written by the tool itself.
fn a_set(dir: &Path) -> PathBuf {
    let file = dir.join("set.magics");
    let output = magic_search(&["find", "--threads", "1", "--out", path_str(&file)]);
    assert!(output.status.success(), "{}", stderr(&output));
    file
}

#[test]
fn a_closed_pipe_or_a_full_disk_on_standard_output_is_exit_2_not_a_panic() {
    let dir = scratch("hostile_stdout");
    let set = a_set(&dir);
    // The reader is gone before the tool writes (`| head -c0`).
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let output = Command::new(env!("CARGO_BIN_EXE_magic-search"))
        .args(["verify", path_str(&set)])
        .stdout(writer)
        .output()
        .unwrap();
    assert_fails(&output, 2, "cannot write to standard output", "closed pipe");

    // `> /dev/full`: every write fails with "no space left".
    if Path::new("/dev/full").exists() {
        for args in [
            vec!["verify", path_str(&set)],
            vec!["check", "rook", "a8", "0xEBFFFFB9FF9FC526", "--bits", "11"],
            vec!["hunt", "bishop", "d8", "--bits", "4", "--threads", "1"],
            vec!["export", path_str(&set), "--format", "json"],
        ] {
            let output = Command::new(env!("CARGO_BIN_EXE_magic-search"))
                .args(&args)
                .stdout(std::fs::File::create("/dev/full").unwrap())
                .output()
                .unwrap();
            assert_fails(
                &output,
                2,
                "cannot write to standard output",
                &args.join(" "),
            );
        }
    }
}

#[test]
fn devices_and_pipes_are_read_only_up_to_the_limit() {
    let dir = scratch("hostile_devices");
    if !Path::new("/dev/zero").exists() {
        return;
    }
    for args in [
        vec!["verify", "/dev/zero"],
        vec!["merge", "/dev/zero"],
        vec!["reduce", "/dev/zero"],
    ] {
        let output = magic_search(&args);
        assert_fails(&output, 2, "more than the", &args.join(" "));
    }
    // A checkpoint that is a device: read up to the limit, refused, nothing written to it.
    let out = dir.join("never.magics");
    let output = magic_search(&[
        "find",
        "--bits",
        "min",
        "--checkpoint",
        "/dev/zero",
        "--out",
        path_str(&out),
    ]);
    assert_fails(&output, 2, "more than the", "find --checkpoint /dev/zero");
    assert!(!out.exists());
    // Endless text on standard input (`yes | magic-search verify /dev/stdin`).
    let mut child = Command::new(env!("CARGO_BIN_EXE_magic-search"))
        .args(["verify", "/dev/stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        use std::io::Write as _;
        let line = [b'y', b'\n'].repeat(1 << 15);
        while stdin.write_all(&line).is_ok() {}
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_fails(&output, 2, "more than the", "yes | verify /dev/stdin");
}

#[test]
fn only_regular_files_are_replaced_and_outputs_are_checked_before_any_work() {
    let dir = scratch("hostile_outputs");
    let set = a_set(&dir);
    let kept = std::fs::read_to_string(&set).unwrap();

    // A symbolic link to the set: --force does not write through it or replace it.
    let link = dir.join("link.magics");
    std::os::unix::fs::symlink(&set, &link).unwrap();
    let output = magic_search(&["find", "--out", path_str(&link), "--force"]);
    assert_fails(&output, 2, "is not a regular file", "symlink");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_to_string(&set).unwrap(), kept);

    // A FIFO, and standard output by its device name.
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    for target in [path_str(&fifo), "/dev/stdout"] {
        let output = magic_search(&[
            "export",
            path_str(&set),
            "--format",
            "json",
            "--out",
            target,
            "--force",
        ]);
        assert_fails(&output, 2, "is not a regular file", target);
    }
    assert!(
        !std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_file()
    );

    // A directory that does not exist: refused before an annealing, a search or a reduction.
    let nowhere = dir.join("no-such-dir/out.magics");
    for args in [
        vec![
            "pack",
            path_str(&set),
            "--anneal",
            "100000000",
            "--out",
            path_str(&nowhere),
        ],
        vec!["find", "--bits", "min", "--out", path_str(&nowhere)],
        vec!["reduce", path_str(&set), "--out", path_str(&nowhere)],
    ] {
        let started = std::time::Instant::now();
        let output = magic_search(&args);
        assert_fails(&output, 2, "cannot write", &args.join(" "));
        assert!(
            started.elapsed().as_secs() < 20,
            "{}: work before the check",
            args[0]
        );
    }

    // The same file for the search's state and its set.
    let state = dir.join("both.find");
    let output = magic_search(&[
        "find",
        "--checkpoint",
        path_str(&state),
        "--out",
        path_str(&state),
    ]);
    assert_fails(&output, 2, "name the same file", "--out = --checkpoint");
}

#[test]
fn impossible_state_files_are_refused_with_the_reason() {
    let dir = scratch("hostile_states");

    // A set search asking bishop g8 (5 bits) for 8 fewer: the chunk of 128 that holds it.
    let g8 = magic_search::search_order()
        .iter()
        .position(|&square| square == (bitforge_index::SliderKind::Bishop, 62))
        .unwrap();
    let chunk = format!("{g8}/128");
    let file = dir.join("g8.find");
    let output = magic_search(&[
        "find",
        "--bits",
        "-8",
        "--chunk",
        &chunk,
        "--threads",
        "1",
        "--checkpoint",
        path_str(&file),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = std::fs::read_to_string(&file).unwrap();
    let (head, squares) = text.split_once("\nsquare ").unwrap();
    let square = squares.lines().next().unwrap();
    let words: Vec<&str> = square.split_whitespace().collect();
    let forged = format!(
        "{head}\nsquare bishop g8 reduced:8 {}\n",
        words[3..].join(" ")
    );
    std::fs::write(&file, forged).unwrap();
    let resumed = magic_search(&[
        "find",
        "--bits",
        "-8",
        "--chunk",
        &chunk,
        "--checkpoint",
        path_str(&file),
    ]);
    assert_ne!(resumed.status.code(), Some(101), "{}", stderr(&resumed));
    assert_eq!(resumed.status.code(), Some(2), "{}", stderr(&resumed));

    // Hunt parts whose found-counts would wrap when added: refused when read, never a proof.
    let part = |chunk: &str| {
        let path = dir.join(format!("d8-{}.hunt", chunk.replace('/', "-")));
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
            "--threads",
            "1",
            "--checkpoint",
            path_str(&path),
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
        path
    };
    let (first, second) = (part("0/2"), part("1/2"));
    let text = std::fs::read_to_string(&first).unwrap();
    let count = text
        .lines()
        .find_map(|line| line.strip_prefix("found-count "))
        .unwrap()
        .to_owned();
    std::fs::write(
        &first,
        text.replace(
            &format!("found-count {count}"),
            &format!("found-count {}", u64::MAX - 15),
        ),
    )
    .unwrap();
    let merged = magic_search(&["merge", path_str(&first), path_str(&second)]);
    assert_fails(
        &merged,
        2,
        "more than the candidates tested",
        "wrapping found-count",
    );
    assert!(
        !stdout(&merged).contains("no magic in"),
        "{}",
        stdout(&merged)
    );
}

#[test]
fn a_hunt_resumes_only_with_a_keep_its_file_can_serve() {
    let dir = scratch("hostile_keep");
    let file = dir.join("e8.hunt");
    let hunt = |keep: &str| {
        magic_search(&[
            "hunt",
            "bishop",
            "e8",
            "--bits",
            "5",
            "--keep",
            keep,
            "--threads",
            "2",
            "--checkpoint",
            path_str(&file),
        ])
    };
    // Bishop e8's whole period holds several 5-bit magics; the file keeps one of them.
    let first = hunt("1");
    assert!(first.status.success(), "{}", stderr(&first));
    let report = super::hunt_state(&file);
    assert!(report.found_count > 1, "{}", report.found_count);
    let again = hunt("4");
    assert_fails(
        &again,
        2,
        "resume with --keep 1 or less",
        "--keep 4 after --keep 1",
    );
}

#[test]
fn a_set_that_does_not_verify_is_exit_1_everywhere_and_a_broken_file_exit_2() {
    let dir = scratch("hostile_codes");
    let set = a_set(&dir);
    let text = std::fs::read_to_string(&set).unwrap();
    let line = text.lines().find(|l| l.starts_with("rook     a1")).unwrap();
    let magic = line.split_whitespace().nth(2).unwrap();
    let bad = dir.join("bad.magics");
    std::fs::write(
        &bad,
        text.replace(line, &line.replace(magic, "0x0000000000000001")),
    )
    .unwrap();
    for args in [
        vec!["verify", path_str(&bad)],
        vec!["reduce", path_str(&bad)],
        vec!["export", path_str(&bad), "--format", "json"],
    ] {
        let output = magic_search(&args);
        assert_fails(&output, 1, "rook a1", args[0]);
    }

    // Truncated files, text or binary: not sets at all, exit 2 alike.
    let truncated_text = dir.join("truncated.magics");
    std::fs::write(&truncated_text, &text[..text.len() / 2]).unwrap();
    let binary = dir.join("set.bin");
    let output = magic_search(&[
        "export",
        path_str(&set),
        "--format",
        "bin",
        "--out",
        path_str(&binary),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let bytes = std::fs::read(&binary).unwrap();
    let truncated_binary = dir.join("truncated.bin");
    std::fs::write(&truncated_binary, &bytes[..bytes.len() / 2]).unwrap();
    for file in [&truncated_text, &truncated_binary] {
        let output = magic_search(&["verify", path_str(file)]);
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    }
}
