//! Checking one magic, hunting a range, chunks merged, a killed hunt resumed.

use super::*;

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

    // The status of the chunks: whole, and with the middle one missing.
    let status = |files: &[&PathBuf]| {
        let mut args = vec!["status"];
        args.extend(files.iter().map(|f| path_str(f)));
        let output = magic_search(&args);
        assert!(output.status.success(), "{}", stderr(&output));
        stdout(&output)
    };
    let all = status(&files.iter().collect::<Vec<_>>());
    assert!(
        all.contains("bishop d8, 5 bits, fancy: 3 files, 3 complete"),
        "{all}"
    );
    assert!(
        all.contains("the files hold the whole period without a gap"),
        "{all}"
    );
    assert!(
        all.contains("million candidates per second per process"),
        "{all}"
    );
    let merged_count = hunt_state(&merged_file).found_count;
    assert!(
        all.contains(&format!("found: {merged_count} magics")),
        "{all}"
    );
    let two = status(&[&files[0], &files[2]]);
    assert!(two.contains("2 files, 2 complete"), "{two}");
    let gap = &hunt_state(&files[1]).range;
    assert!(
        two.contains(&format!(
            "gaps: in no file: {:#x}..{:#x}",
            gap.start, gap.end
        )),
        "{two}"
    );

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
