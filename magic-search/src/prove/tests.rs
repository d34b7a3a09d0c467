//! Tests of the prover: what it finds against the exhaustive hunt, its certificate's re-check,
//! chunks, resumption and the state file.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use bitforge_index::{Scheme, SliderKind};

use super::estimate::estimate_drawing_roots_past;
use super::*;
use crate::hunt::{HuntReport, hunt};

const E4: u8 = 28;
const C8: u8 = 58;
const D8: u8 = 59;
const E8: u8 = 60;

fn bishop(square: u8, bits: u8) -> Target {
    Target::new(SliderKind::Bishop, square, bits, Scheme::Fancy).unwrap()
}

/// A whole proof of `roots`, its time left out (runs compare equal whatever they took).
fn run(target: Target, roots: Range<u64>, threads: usize, keep: usize) -> ProofReport {
    let report = ProofReport::new(target, roots).unwrap();
    let mut report = prove(
        report,
        threads,
        keep,
        &|_| {},
        &|_| {},
        &AtomicBool::new(false),
    )
    .unwrap();
    report.elapsed_ms = 0;
    report
}

fn whole(target: Target) -> Range<u64> {
    0..ProofReport::root_count(target).unwrap()
}

#[test]
fn the_prover_finds_every_magic_the_exhaustive_hunt_finds() {
    for bits in [5, 6] {
        let target = bishop(D8, bits);
        let keep = 300;
        let proof = run(target, whole(target), 2, keep);
        let exhaustive = hunt(
            HuntReport::new(target, target.space()),
            2,
            keep,
            &|_| {},
            &|_| {},
            &AtomicBool::new(false),
        );
        assert!(proof.complete() && proof.is_whole_space());
        assert!(proof.tally.found_count > 0);
        assert_eq!(
            proof.tally.found_count, exhaustive.found_count,
            "{bits} bits"
        );
        assert_eq!(proof.tally.found, exhaustive.found, "{bits} bits");
        assert_eq!(proof.tally.best, exhaustive.best, "{bits} bits");
        assert_eq!(proof.candidates_covered(), target.period());
    }
}

#[test]
fn the_published_bishop_proofs_are_reproduced_and_recheck() {
    // Fiekas (2017): no 4-bit magic for bishop c8, d8 or e8.
    for square in [C8, D8, E8] {
        let proof = run(bishop(square, 4), whole(bishop(square, 4)), 2, 16);
        assert!(proof.proves_none() && proof.is_whole_space(), "{square}");
        // Far fewer nodes than candidates: the point of pruning.
        let nodes: u64 = proof.tally.levels.iter().map(|l| l.tested).sum();
        assert!(
            u128::from(nodes) * 20 < proof.candidates_covered(),
            "{square}: {nodes}"
        );
        assert_eq!(proof.recheck(2), Ok(()), "{square}");
    }
}

#[test]
fn a_level_that_crosses_the_bishops_square_in_a_wide_table_is_sieved_and_rechecks() {
    // Bishop e4 at 7 bits: level 5 (the squares past e4) gives each node 2^14 children against
    // 128 slots, which the prover sieves by runs and the replay screens, both with slot sets
    // of more than a word.
    let target = bishop(E4, 7);
    let tree = tree::Tree::new(target).unwrap();
    assert_eq!(tree.children(4).0, 1 << 14);
    assert_eq!(tree::sieve_for(14, 1 << 7), Some(tree::SieveKind::Arcs));
    let proof = run(target, 0x100..0x102, 2, 16);
    let crossing = proof.tally.levels[5];
    assert!(
        crossing.tested > 1_000_000 && crossing.passed > 100_000,
        "{crossing:?}"
    );
    assert_eq!(proof.recheck(2), Ok(()));
}

#[test]
fn a_certificate_that_differs_anywhere_fails_its_recheck() {
    // A few roots of a square with magics: every field of the certificate is exercised.
    let target = bishop(D8, 5);
    let proof = run(target, 0x400..0x480, 1, 8);
    assert!(proof.tally.found_count > 8);
    // Threads take roots as they go: any number of them replays the same walk.
    for threads in [1, 2, 5] {
        assert_eq!(proof.recheck(threads), Ok(()), "{threads} threads");
    }
    for level in 0..proof.tally.levels.len() {
        let mut forged = proof.clone();
        forged.tally.levels[level].digest ^= 1;
        assert!(
            matches!(forged.recheck(2), Err(RecheckError::Level { level: l, .. }) if l == level),
            "level {level}"
        );
    }
    let mut forged = proof.clone();
    forged.tally.found.remove(0);
    assert!(matches!(
        forged.recheck(2),
        Err(RecheckError::Magics { .. })
    ));
    // A proof that claims fewer roots than it walked: the replay stops where it says.
    let mut forged = proof;
    forged.done -= 1;
    assert!(forged.recheck(2).is_err());
}

#[test]
fn chunks_threads_and_resumption_give_the_single_runs_certificate() {
    let target = bishop(D8, 5);
    let roots = whole(target);
    let single = run(target, roots.clone(), 1, 16);
    assert_eq!(run(target, roots.clone(), 2, 16), single);

    let cut = roots.end / 3;
    let parts = [
        run(target, cut..2 * cut, 2, 16),
        run(target, 0..cut, 1, 16),
        run(target, 2 * cut..roots.end, 2, 16),
    ];
    assert_eq!(ProofReport::merge(&parts, 16), Ok(single.clone()));
    assert!(ProofReport::merge(&parts[..2], 16).is_ok());
    assert!(ProofReport::merge(&[parts[1].clone(), parts[2].clone()], 16).is_err());

    // Stopped after some roots, saved, read back and resumed.
    let stop = AtomicBool::new(false);
    let seen = AtomicU64::new(0);
    let stopped = prove(
        ProofReport::new(target, roots).unwrap(),
        2,
        16,
        &|n| {
            if seen.fetch_add(n, Ordering::Relaxed) + n >= 100 {
                stop.store(true, Ordering::Relaxed);
            }
        },
        &|_| {},
        &stop,
    )
    .unwrap();
    assert!(!stopped.complete() && stopped.covered() >= 100);
    let saved = ProofReport::parse(&stopped.to_text(&[])).unwrap();
    assert_eq!(saved, stopped);
    let mut resumed = prove(saved, 2, 16, &|_| {}, &|_| {}, &AtomicBool::new(false)).unwrap();
    resumed.elapsed_ms = 0;
    assert_eq!(resumed, single);
}

#[test]
fn roots_walked_in_blocks_give_the_root_by_root_certificate() {
    assert_eq!(roots_per_block(1 << 12, 2), 1);
    assert_eq!(roots_per_block(1 << 18, 2), 8);
    assert_eq!(roots_per_block(1 << 31, 2), MOST_ROOTS_A_BLOCK);
    assert_eq!(roots_per_block(1 << 31, 0), MOST_ROOTS_A_BLOCK);

    let target = bishop(D8, 5);
    let roots = 0x101..0x3f3;
    let single = run(target, roots.clone(), 1, 16);
    let tree = Tree::new(target).unwrap();
    let walk = |walker: &mut Walker<'_>, root, tally: &mut Tally| walker.walk_root(root, 16, tally);
    // Blocks of one root, of a few (the range no multiple of them), of more than the range;
    // each stopped after some roots and resumed with another block size.
    for (per_block, resumed_per_block, threads) in [(1, 7, 2), (7, 64, 2), (1000, 1, 1)] {
        let stop = AtomicBool::new(false);
        let seen = AtomicU64::new(0);
        let stop_at_100 = |n| {
            if seen.fetch_add(n, Ordering::Relaxed) + n >= 100 {
                stop.store(true, Ordering::Relaxed);
            }
        };
        let walked = RootWalk {
            threads,
            keep: 16,
            progress: &stop_at_100,
            checkpoint: &|_| {},
            stop: &stop,
        };
        let start = ProofReport::new(target, roots.clone()).unwrap();
        let stopped = walked.run_in_blocks(start, per_block, || Walker::new(&tree, &stop), walk);
        let covered = run(target, roots.start..stopped.done, 1, 16);
        assert_eq!(stopped.tally, covered.tally, "blocks of {per_block}");
        assert_eq!(
            stopped.complete(),
            per_block == 1000,
            "blocks of {per_block}"
        );

        let never = AtomicBool::new(false);
        let resumed = RootWalk {
            stop: &never,
            progress: &|_| {},
            ..walked
        };
        let mut whole = resumed.run_in_blocks(
            stopped,
            resumed_per_block,
            || Walker::new(&tree, &never),
            walk,
        );
        whole.elapsed_ms = 0;
        assert_eq!(
            whole, single,
            "blocks of {per_block}, then {resumed_per_block}"
        );
    }
}

#[test]
fn black_magics_have_no_tree() {
    let target = Target::new(SliderKind::Rook, 0, 12, Scheme::Black).unwrap();
    let error = ProofReport::new(target, 0..1).unwrap_err();
    assert_eq!(error, ProveError::Black);
    assert!(error.to_string().contains("hunt"));
}

#[test]
fn bad_proof_files_name_the_fault() {
    let target = bishop(D8, 5);
    let good = run(target, whole(target), 1, 4).to_text(&[]);
    assert_eq!(
        ProofReport::parse(&good).map(|p| p.tally.found.len()),
        Ok(4)
    );
    let level1 = good.lines().find(|l| l.starts_with("level 1 ")).unwrap();
    let cases = [
        (
            good.replace("bitforge-proof 1", "bitforge-proof 2"),
            "line 1",
        ),
        (good.replace("roots 0x0", "roots 0x1"), "level 0"),
        (good.replace("done 0x", "done 0x1"), "outside the roots"),
        (good.replace(level1, ""), "expected level 1"),
        (good.replace("found-count ", "found-count 1"), "disagrees"),
        (
            good.replace("target bishop d8 5", "target bishop d8 4"),
            "does not fit",
        ),
        (
            good.replace("roots 0x0 0x1000", "roots 0x0 0x2000"),
            "not inside",
        ),
        (
            good.replace("target bishop d8 5 fancy", "target rook a1 12 black"),
            "black key",
        ),
        (
            good.replace(level1, &level1.replace("level 1 ", "level 1 99999999999 ")),
            "malformed",
        ),
    ];
    for (text, expected) in cases {
        let error = ProofReport::parse(&text).unwrap_err().to_string();
        assert!(error.contains(expected), "{expected}: {error}");
    }
}

#[test]
fn the_tree_estimate_is_close_to_the_walked_tree() {
    // The band leaves room for the estimator's own error (results/analysis.md); a weight left
    // out would be off by far more.
    for target in [bishop(D8, 5), bishop(C8, 4), bishop(E8, 5)] {
        let exact = run(target, whole(target), 2, 1);
        let walked: u64 = exact.tally.levels.iter().map(|l| l.tested).sum();
        // Level 0 tested whole, and drawn by each probe as a larger one is.
        for exact_level_0 in [u64::MAX, 0] {
            // Time enough to walk as many roots as the tree has, which ends the timed walk.
            let walk_for = Duration::from_secs(600);
            let estimate =
                estimate_drawing_roots_past(target, 20_000, 1, walk_for, exact_level_0, &|_| {})
                    .unwrap();
            assert_eq!(estimate.tested[0], exact.tally.levels[0].tested as f64);
            let ratio = estimate.nodes() / walked as f64;
            assert!(
                (0.9..1.1).contains(&ratio),
                "{target}, {exact_level_0}: {ratio}"
            );
            let roots = ProofReport::root_count(target).unwrap();
            assert_eq!(estimate.walk.roots, roots, "{target}");
            assert!(estimate.walk.nodes >= roots && estimate.core_seconds() > 0.0);
        }
    }
}

#[test]
fn a_tree_with_a_huge_first_level_is_estimated_in_bounded_memory() {
    // Bishop d1 at 4 bits: level 0 fixes 34 bits (g4 is the highest square). Listing its
    // passing residues took 2^34 words.
    let target = bishop(3, 4);
    // Its walk would take hours: the timed walk stops inside it.
    let estimate = estimate_tree(target, 256, 1, Duration::from_millis(100), &|_| {}).unwrap();
    assert_eq!(estimate.tested[0], (1u64 << 34) as f64);
    assert!(estimate.nodes() > estimate.tested[0]);
    assert!(estimate.walk.nodes > 0);
}

#[test]
fn a_stop_inside_a_root_abandons_it_and_the_resumed_walk_is_whole() {
    // Rook f8's roots hold millions of nodes each (results/analysis.md): a stop lands inside one.
    let target = Target::new(SliderKind::Rook, 61, 10, Scheme::Fancy).unwrap();
    let roots = 0x400..0x404;
    let stop = AtomicBool::new(false);
    let stopped = std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(100));
            stop.store(true, Ordering::Relaxed);
        });
        let start = ProofReport::new(target, roots.clone()).unwrap();
        prove(start, 2, 4, &|_| {}, &|_| {}, &stop).unwrap()
    });
    assert!(!stopped.complete(), "the walk ended before the stop");
    // Only whole roots are counted: the state is that of a walk of the roots covered. Its
    // file reads back (roots past the ancestors' own: levels 0-4 count nothing here).
    let covered = run(target, roots.start..stopped.done, 1, 4);
    assert_eq!(stopped.tally, covered.tally);
    assert_eq!(
        ProofReport::parse(&stopped.to_text(&[])).as_ref(),
        Ok(&stopped)
    );
    let whole = run(target, roots.clone(), 2, 4);
    assert_eq!(ProofReport::parse(&whole.to_text(&[])), Ok(whole));
    let mut resumed = prove(stopped, 2, 4, &|_| {}, &|_| {}, &AtomicBool::new(false)).unwrap();
    resumed.elapsed_ms = 0;
    assert_eq!(resumed, run(target, roots, 2, 4));
}

#[test]
fn a_stopped_recheck_resumes_from_its_record_and_ends_as_one_run() {
    // Rook f8's roots hold millions of nodes each: a stop lands inside one.
    let target = Target::new(SliderKind::Rook, 61, 10, Scheme::Fancy).unwrap();
    let proof = run(target, 0x400..0x404, 2, 4);
    let saved = std::sync::Mutex::new(Vec::new());
    let stop = AtomicBool::new(false);
    let stopped = std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(100));
            stop.store(true, Ordering::Relaxed);
        });
        let keep = |record: &ProofReport| saved.lock().unwrap().push(record.clone());
        proof.recheck_from(proof.recheck_start(), 2, &|_| {}, &keep, &stop)
    });
    let stopped = stopped.expect("an unfinished record is not compared");
    assert!(!stopped.complete(), "the replay ended before the stop");
    // Every record handed out, and the one returned, is the walk of the roots before its
    // `done`: whole roots only.
    for record in saved.lock().unwrap().iter().chain([&stopped]) {
        let walked = run(target, record.roots.start..record.done, 1, 4);
        assert_eq!(record.tally, walked.tally, "up to {:#x}", record.done);
    }
    let never = AtomicBool::new(false);
    let resumed = proof
        .recheck_from(stopped, 2, &|_| {}, &|_| {}, &never)
        .unwrap();
    assert!(resumed.complete());
    assert_eq!(resumed.tally, proof.tally);

    // A record of other roots is refused, and a forged certificate fails after resuming too.
    let other = run(target, 0x400..0x402, 1, 4);
    assert_eq!(
        proof.recheck_from(other.recheck_start(), 1, &|_| {}, &|_| {}, &never),
        Err(RecheckError::OtherRecord)
    );
    let mut forged = proof.clone();
    forged.tally.levels[3].passed += 1;
    // The replay's record of the first two roots is the prover's tally of them.
    let record = ProofReport {
        roots: 0x400..0x404,
        ..other
    };
    assert!(matches!(
        forged.recheck_from(record, 2, &|_| {}, &|_| {}, &never),
        Err(RecheckError::Level { level: 3, .. })
    ));
}
