//! Proving by pruning: the published bishop proofs with a certificate that rechecks, chunks
//! merged into the single run's certificate, bad input and forged certificates refused.

use super::*;

/// The proof state in `path`, the time it took left out.
fn proof_state(path: &Path) -> magic_search::ProofReport {
    let text = std::fs::read_to_string(path).unwrap();
    let mut report = magic_search::ProofReport::parse(&text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    report.elapsed_ms = 0;
    report
}

#[test]
fn prove_settles_the_published_bishop_proofs_with_a_certificate_that_rechecks() {
    let c8 = magic_search(&["prove", "bishop", "c8", "--bits", "4"]);
    assert!(c8.status.success(), "{}", stderr(&c8));
    let text = stdout(&c8);
    assert!(
        text.contains("result: no 4-bit fancy magic exists for bishop c8 (every root of the tree)"),
        "{text}"
    );
    assert!(text.contains("the 17179869184 candidates"), "{text}");

    let dir = scratch("prove_d8");
    let file = dir.join("d8.proof");
    let output = magic_search(&[
        "prove",
        "bishop",
        "d8",
        "--bits",
        "4",
        "--checkpoint",
        path_str(&file),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let recheck = magic_search(&["merge", "--recheck", path_str(&file)]);
    assert!(recheck.status.success(), "{}", stderr(&recheck));
    assert!(
        stderr(&recheck).contains("rechecked: "),
        "{}",
        stderr(&recheck)
    );
    assert!(
        stdout(&recheck).contains("no 4-bit fancy magic exists for bishop d8"),
        "{}",
        stdout(&recheck)
    );

    // A certificate whose level 3 claims another set of passing nodes fails the recheck (and
    // only the recheck: its counts are consistent).
    let saved = std::fs::read_to_string(&file).unwrap();
    let level = saved.lines().find(|l| l.starts_with("level 3 ")).unwrap();
    let digest = level.split_whitespace().last().unwrap();
    let forged = saved.replace(level, &level.replace(digest, "0x1234"));
    std::fs::write(&file, forged).unwrap();
    assert!(magic_search(&["merge", path_str(&file)]).status.success());
    let refused = magic_search(&["merge", "--recheck", path_str(&file)]);
    assert_fails(&refused, 1, "does not recheck: level 3", "a forged digest");
}

#[test]
fn proof_chunks_merge_into_the_single_runs_certificate_and_the_hunts_magics() {
    let dir = scratch("prove_merge");
    let prove = ["prove", "bishop", "d8", "--bits", "5", "--keep", "50"];
    let files = run_chunks(&dir, "proof", 3, &prove);
    let merged_file = dir.join("merged.proof");
    let mut merge = vec![
        "merge",
        "--recheck",
        "--keep",
        "50",
        "--out",
        path_str(&merged_file),
    ];
    merge.extend(files.iter().rev().map(|f| path_str(f)));
    let output = magic_search(&merge);
    assert!(output.status.success(), "{}", stderr(&output));

    let whole_file = dir.join("whole.proof");
    let mut single = prove.to_vec();
    single.extend(["--checkpoint", path_str(&whole_file), "--threads", "1"]);
    assert!(magic_search(&single).status.success());
    let merged = proof_state(&merged_file);
    assert_eq!(merged, proof_state(&whole_file));

    // The exhaustive hunt of the same period finds the same magics.
    let hunt_file = dir.join("whole.hunt");
    let hunt = magic_search(&[
        "hunt",
        "bishop",
        "d8",
        "--bits",
        "5",
        "--keep",
        "50",
        "--checkpoint",
        path_str(&hunt_file),
    ]);
    assert!(hunt.status.success(), "{}", stderr(&hunt));
    let hunted = hunt_state(&hunt_file);
    assert_eq!(merged.tally.found_count, hunted.found_count);
    assert_eq!(merged.tally.found, hunted.found);
    assert_eq!(merged.tally.best, hunted.best);

    let gap = magic_search(&["merge", path_str(&files[0]), path_str(&files[2])]);
    assert_fails(&gap, 2, "a chunk is missing", "merge with a gap");

    // The status of the chunks, beside a hunt file: summed apart, in roots.
    let status = magic_search(&[
        "status",
        path_str(&files[0]),
        path_str(&files[2]),
        path_str(&hunt_file),
    ]);
    assert!(status.status.success(), "{}", stderr(&status));
    let text = stdout(&status);
    assert!(
        text.contains("proof of bishop d8, 5 bits, fancy: 2 files, 2 complete"),
        "{text}"
    );
    assert!(
        text.contains("hunt of bishop d8, 5 bits, fancy: 1 files, 1 complete"),
        "{text}"
    );
    let middle = proof_state(&files[1]).roots;
    assert!(
        text.contains(&format!(
            "gaps: in no file: {:#x}..{:#x}",
            middle.start, middle.end
        )),
        "{text}"
    );
    assert!(text.contains("roots per second per process"), "{text}");
}

#[test]
fn prove_refuses_bad_input_clearly() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["prove", "rook", "a1", "--bits", "12", "--scheme", "black"],
            "black key has bit 0 set",
        ),
        (
            &[
                "prove",
                "bishop",
                "d8",
                "--bits",
                "4",
                "--roots",
                "0x10000..0x20000",
            ],
            "past the last root",
        ),
        (&["prove", "bishop", "d8", "--bits", "0"], "0 index bits"),
        (
            &["prove", "bishop", "d8", "--bits", "4", "--roots", "5..5"],
            "is empty",
        ),
    ];
    for (args, expected) in cases {
        assert_fails(&magic_search(args), 2, expected, &args.join(" "));
    }
    let dir = scratch("prove_bad");
    let hunt_file = dir.join("d8.hunt");
    let hunt = magic_search(&[
        "hunt",
        "bishop",
        "d8",
        "--bits",
        "4",
        "--checkpoint",
        path_str(&hunt_file),
    ]);
    assert!(hunt.status.success());
    let recheck = magic_search(&["merge", "--recheck", path_str(&hunt_file)]);
    assert_fails(
        &recheck,
        2,
        "--recheck is for proof files",
        "a hunt rechecked",
    );
}

#[test]
fn ctrl_c_stops_a_proof_inside_a_root_at_once_and_saves_what_is_whole() {
    // Rook a1's roots are enormous (its estimate: results/analysis.md): none ends before the
    // signal.
    let dir = scratch("prove_stop");
    let file = dir.join("a1.proof");
    let child = Command::new(env!("CARGO_BIN_EXE_magic-search"))
        .args([
            "prove",
            "rook",
            "a1",
            "--bits",
            "11",
            "--roots",
            "0x8000..0x8010",
        ])
        .args(["--checkpoint", path_str(&file)])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let signalled = std::time::Instant::now();
    let output = stop(child, "INT");
    assert!(
        signalled.elapsed().as_secs() < 5,
        "took {:?} to stop",
        signalled.elapsed()
    );
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    assert!(stderr(&output).contains("the same command resumes it"));
    let saved = proof_state(&file);
    assert_eq!((saved.done, saved.tally.levels[0].tested), (0x8000, 0));
}

#[test]
fn reduce_takes_what_proofs_show() {
    let dir = scratch("prove_floor");
    let (set, d8_4, d8_5, d8_part, b1) = (
        dir.join("set.magics"),
        dir.join("d8-4.proof"),
        dir.join("d8-5.proof"),
        dir.join("d8-part.proof"),
        dir.join("b1.hunt"),
    );
    std::fs::write(&set, good_set_text()).unwrap();
    for (bits, file, roots) in [
        ("4", &d8_4, None),
        ("5", &d8_5, None),
        ("4", &d8_part, Some("0..1")),
    ] {
        let mut args = vec!["prove", "bishop", "d8", "--bits", bits];
        args.extend(["--checkpoint", path_str(file)]);
        args.extend(roots.iter().flat_map(|roots| ["--roots", roots]));
        let proof = magic_search(&args);
        assert!(proof.status.success(), "{}", stderr(&proof));
    }
    // A range holding one reduced magic of the kept set (bishop b1 at 4 bits, 5 in the mask),
    // as a residue of its period.
    let b1_magic = 0xefc4b01ceadffb3d_u64 & ((1 << 54) - 1);
    let range = format!("{b1_magic:#x}..{:#x}", b1_magic + 1);
    let hunt = magic_search(&[
        "hunt",
        "bishop",
        "b1",
        "--bits",
        "4",
        "--range",
        &range,
        "--checkpoint",
        path_str(&b1),
    ]);
    assert!(hunt.status.success(), "{}", stderr(&hunt));
    let out = dir.join("reduced.magics");
    let reduce = |proofs: &[&Path]| {
        let mut args = vec![
            "reduce",
            path_str(&set),
            "--kind",
            "bishop",
            "--attempts",
            "1000",
            "--rounds",
            "1",
            "--out",
            path_str(&out),
            "--force",
        ];
        if !proofs.is_empty() {
            args.push("--proofs");
            args.extend(proofs.iter().map(|f| path_str(f)));
        }
        magic_search(&args)
    };
    let at_floor = |output: &Output| {
        assert!(output.status.success(), "{}", stderr(output));
        let text = stderr(output);
        let count = text
            .split("candidates; ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .unwrap_or_else(|| panic!("{text}"));
        count.parse::<u32>().unwrap()
    };
    let without = at_floor(&reduce(&[]));
    assert_eq!(at_floor(&reduce(&[&d8_4])), without + 1);
    // A proof whose magics have the set's bits changes nothing and proves no floor.
    assert_eq!(at_floor(&reduce(&[&d8_5])), without);
    // A found magic with fewer bits replaces the square's, whatever the search does.
    let taken = reduce(&[&b1, &d8_4]);
    assert_eq!(at_floor(&taken), without + 1);
    assert!(
        stderr(&taken).contains("bishop b1: 4 bits"),
        "{}",
        stderr(&taken)
    );
    let written = std::fs::read_to_string(&out).unwrap();
    let reduced = bitforge_index::MagicSet::parse(&written).unwrap();
    let b1_entry = reduced.bishop[1];
    assert_eq!((b1_entry.magic, b1_entry.bits), (b1_magic, 4));
    assert!(written.contains("proved: bishop b1"), "{written}");
    // Part of a tree with no magic is neither.
    assert_fails(
        &reduce(&[&d8_part]),
        2,
        "neither a magic nor a floor",
        "a partial proof",
    );
}

#[test]
fn the_estimate_times_the_proofs_own_walk() {
    let estimate = |walk_for: &str| {
        magic_search(&[
            "prove",
            "bishop",
            "d8",
            "--bits",
            "4",
            "--estimate",
            "1000",
            "--estimate-walk",
            walk_for,
        ])
    };
    // Bishop d8's 4,096 roots take milliseconds: the timed walk ends when it has walked as
    // many roots as the tree has, not when its time is up.
    let output = estimate("1m");
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("walk: 4096 random roots, "), "{text}");
    assert!(text.contains("a proof would take about "), "{text}");
    assert_fails(
        &estimate("3 hours"),
        2,
        "unknown unit",
        "a bad --estimate-walk",
    );
}

#[test]
fn ctrl_c_stops_a_recheck_that_resumes_from_its_progress() {
    // Rook f8's roots hold millions of nodes each: the recheck of sixteen takes seconds.
    let dir = scratch("recheck_stop");
    let (file, records) = (dir.join("f8.proof"), dir.join("records"));
    std::fs::create_dir_all(&records).unwrap();
    let proved = magic_search(&[
        "prove",
        "rook",
        "f8",
        "--bits",
        "10",
        "--roots",
        "0x400..0x410",
        "--checkpoint",
        path_str(&file),
    ]);
    assert!(proved.status.success(), "{}", stderr(&proved));
    let recheck = || {
        let mut command = Command::new(env!("CARGO_BIN_EXE_magic-search"));
        command
            .args(["merge", "--recheck", path_str(&file)])
            .args(["--recheck-progress", path_str(&records)])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        command
    };
    let child = recheck().spawn().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1000));
    let output = stop(child, "INT");
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    assert!(stderr(&output).contains("the same command resumes it"));
    let record = proof_state(&records.join("f8.proof.recheck"));
    assert!(record.done < 0x410, "the recheck ended before the stop");

    let resumed = recheck().output().unwrap();
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    let told = stderr(&resumed);
    let before = format!("{} of 16 roots rechecked before", record.covered());
    assert!(
        told.contains(&before) && told.contains("rechecked: "),
        "{told}"
    );
    assert_eq!(
        proof_state(&records.join("f8.proof.recheck")).tally,
        proof_state(&file).tally
    );

    // Progress of another certificate is refused, not resumed.
    let other = dir.join("other.proof");
    std::fs::copy(records.join("f8.proof.recheck"), &other).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        text.replace("roots 0x400 0x410", "roots 0x400 0x40f")
            .replace("done 0x410", "done 0x40f"),
    )
    .unwrap();
    let refused = recheck().output().unwrap();
    assert_fails(&refused, 2, "move it away", "the progress of other roots");
    let missing = magic_search(&[
        "merge",
        "--recheck-progress",
        path_str(&records),
        path_str(&other),
    ]);
    assert_fails(
        &missing,
        2,
        "--recheck",
        "--recheck-progress without --recheck",
    );
}
