//! Set searches interrupted (killed, Ctrl-C) and resumed, and run in chunks.

use super::*;
use bitforge_index::MagicSet;

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

/// `timeout` signals the process and its group: one stop, delivered twice within a moment. It
/// must save the progress, not quit at once as a second Ctrl-C would (the hunt's checkpoint
/// interval is longer than the run, so only the stop can have written its progress).
#[test]
fn a_stop_delivered_twice_at_once_still_saves_the_progress() {
    let dir = scratch("double_term");
    let hunt_file = dir.join("a1.hunt");
    let output = Command::new("timeout")
        .args(["--preserve-status", "1.5"])
        .arg(env!("CARGO_BIN_EXE_magic-search"))
        .args(["hunt", "rook", "a1", "--bits", "11", "--threads", "1"])
        .args([
            "--range",
            "2^52..0x10010000000000",
            "--checkpoint-every",
            "60s",
        ])
        .args(["--checkpoint", path_str(&hunt_file)])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .output()
        .expect("timeout runs");
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("the same command resumes it"),
        "{}",
        stderr(&output)
    );
    let saved = hunt_state(&hunt_file);
    assert!(!saved.complete() && saved.covered() > 0, "{saved:?}");
}

/// A checkpoint that can no longer be written at the end (its directory gone, as a full or
/// lost disk would leave it) does not lose the search: the set is written, then the failure
/// reported with exit 2.
#[test]
fn a_failing_final_checkpoint_still_leaves_the_set_written() {
    let dir = scratch("lost_checkpoint");
    let doomed = dir.join("doomed");
    std::fs::create_dir_all(&doomed).unwrap();
    let (file, set) = (doomed.join("state.find"), dir.join("set.magics"));
    let child = Command::new(env!("CARGO_BIN_EXE_magic-search"))
        .args(minimising_find(&file, &["--out", path_str(&set)]))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while !std::fs::read_to_string(&file)
        .ok()
        .and_then(|text| magic_search::FindState::parse(&text).ok())
        .is_some_and(|state| state.stats().candidates_tried > 0 && !state.is_complete())
    {
        assert!(started.elapsed().as_secs() < 60, "no checkpoint written");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    std::fs::remove_dir_all(&doomed).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_fails(&output, 2, "cannot write", "the final checkpoint");
    let written = MagicSet::parse(&std::fs::read_to_string(&set).unwrap()).unwrap();
    assert!(bitforge_index::verify(&written).is_ok());
}

/// SIGTERM, what Slurm and Kubernetes send on pre-emption, stops a search as Ctrl-C does: the
/// progress saved, exit 130, and the same command resumes it.
#[test]
fn sigterm_saves_a_search_as_ctrl_c_does() {
    let dir = scratch("sigterm");
    let file = dir.join("terminated.find");
    let args = minimising_find(&file, &[]);
    let status = stop_find_part_way(&args, &file, "TERM");
    assert_eq!(status.code(), Some(130));
    let saved = find_state(&file);
    assert!(!saved.is_complete() && saved.stats().candidates_tried > 0);
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
