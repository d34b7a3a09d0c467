//! Tests of the hunts.

use super::*;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

const A8: u8 = 56;
const D8: u8 = 59;
const E8: u8 = 60;

/// A whole hunt, its time left out (runs compare equal whatever they took).
fn run(target: Target, range: Range<u128>, threads: usize, keep: usize) -> HuntReport {
    let report = HuntReport::new(target, range);
    let mut report = hunt(
        report,
        threads,
        keep,
        &|_| {},
        &|_| {},
        &AtomicBool::new(false),
    );
    report.elapsed_ms = 0;
    report
}

#[test]
fn osbornes_rook_magic_is_an_11_bit_magic_on_a8_only() {
    // Grant Osborne's published reduced-bit rook magic for a8.
    let magic = 0xEBFF_FFB9_FF9F_C526;
    let a8 = Target::new(SliderKind::Rook, A8, 11, Scheme::Fancy).unwrap();
    let check = check_magic(a8, magic).expect("valid on a8");
    assert_eq!(check.occupancies, 4096);
    assert!(check.highest < 2048);
    assert_eq!(check.constructive, check.occupancies - check.used_slots);
    assert!(check.constructive >= 4096 - 2048);
    for square in [0, 7] {
        let target = Target::new(SliderKind::Rook, square, 11, Scheme::Fancy).unwrap();
        let error = check_magic(target, magic).unwrap_err();
        let VerifyError::Collision { first, second, .. } = error else {
            panic!("{error}");
        };
        assert_eq!(first.square, square);
        assert_ne!(first.occupancy, second.occupancy);
        assert!(error.to_string().contains("collide"));
    }
}

#[test]
fn published_bishop_magics_use_the_published_spans() {
    // Fiekas (2017): the best 5-bit magics for bishop d8 and e8, and their index spans.
    let d8 = Target::new(SliderKind::Bishop, D8, 5, Scheme::Fancy).unwrap();
    let check = check_magic(d8, 0x20_8800).unwrap();
    assert_eq!((check.lowest, check.highest), (0, 31));
    let e8 = Target::new(SliderKind::Bishop, E8, 5, Scheme::Fancy).unwrap();
    let check = check_magic(e8, 0x4F68_BCB9).unwrap();
    assert_eq!((check.lowest, check.highest), (0, 29));
}

#[test]
fn periods_and_bounds_follow_the_lowest_relevant_square() {
    let d8 = Target::new(SliderKind::Bishop, D8, 4, Scheme::Fancy).unwrap();
    assert_eq!(d8.period(), 1 << 26);
    assert_eq!(d8.lower_bound(), 1 << 22);
    let e8 = Target::new(SliderKind::Bishop, E8, 5, Scheme::Fancy).unwrap();
    assert_eq!(e8.period(), 1 << 31);
    let a1 = Target::new(SliderKind::Rook, 0, 11, Scheme::Fancy).unwrap();
    assert_eq!(a1.period(), 1 << 63);
    let black = Target::new(SliderKind::Rook, 0, 12, Scheme::Black).unwrap();
    assert_eq!((black.period(), black.lower_bound()), (1 << 64, 0));
    assert_eq!(
        Target::new(SliderKind::Rook, 64, 12, Scheme::Fancy),
        Err(TargetError::Square(64))
    );
    assert_eq!(
        Target::new(SliderKind::Rook, 0, 21, Scheme::Fancy),
        Err(TargetError::Bits(21))
    );
}

#[test]
fn bishop_d8_has_no_4_bit_magic() {
    // Fiekas (2017): disproven by covering d8's whole space of 2^26 candidates.
    let d8 = Target::new(SliderKind::Bishop, D8, 4, Scheme::Fancy).unwrap();
    let report = run(d8, d8.space(), 2, 4);
    assert!(
        report.proves_none() && report.is_whole_space(),
        "{report:?}"
    );
    assert_eq!(report.covered(), 1 << 26);
    assert_eq!(report.below_bound, 1 << 22);
}

#[test]
fn hunts_find_what_check_accepts_whatever_the_thread_count() {
    let d8 = Target::new(SliderKind::Bishop, D8, 5, Scheme::Fancy).unwrap();
    let range = 0..(1 << 22) + 3 * BLOCK + 17;
    let one = run(d8, range.clone(), 1, 8);
    let two = run(d8, range, 2, 8);
    assert_eq!(one, two);
    assert!(one.complete() && one.found_count > 0);
    for found in &one.found {
        let check = check_magic(d8, found.magic).unwrap();
        assert_eq!((check.lowest, check.highest), (found.lowest, found.highest));
    }
    assert!(one.found.windows(2).all(|w| w[0].magic < w[1].magic));
}

#[test]
fn a_stopped_hunt_says_it_is_incomplete() {
    let d8 = Target::new(SliderKind::Bishop, D8, 4, Scheme::Fancy).unwrap();
    let report = HuntReport::new(d8, d8.space());
    let stopped = hunt(report, 1, 0, &|_| {}, &|_| {}, &AtomicBool::new(true));
    assert!(!stopped.complete() && !stopped.proves_none());
    // The part below the lower bound needs no test: it is covered at once.
    assert_eq!(stopped.done, d8.lower_bound());
}

#[test]
fn a_hunt_stopped_anywhere_and_resumed_gives_the_same_result() {
    let d8 = Target::new(SliderKind::Bishop, D8, 5, Scheme::Fancy).unwrap();
    let range = (1 << 21)..(1 << 21) + 9 * BLOCK + 5;
    let whole = run(d8, range.clone(), 2, 3);
    // Stop after a few checkpoints, then resume from the last one, twice. One thread, so
    // that each block is a checkpoint: with two, a descheduled thread can hold back the
    // first checkpoint until every other block is done.
    let mut state = HuntReport::new(d8, range);
    for stop_after in [2, 3] {
        let stop = AtomicBool::new(false);
        let seen = AtomicU64::new(0);
        let last = Mutex::new(None);
        let checkpoint = |report: &HuntReport| {
            *last.lock().unwrap() = Some(report.clone());
            if seen.fetch_add(1, Ordering::Relaxed) + 1 >= stop_after {
                stop.store(true, Ordering::Relaxed);
            }
        };
        let _ = hunt(state.clone(), 1, 3, &|_| {}, &checkpoint, &stop);
        let saved = last.into_inner().unwrap().expect("a checkpoint");
        assert!(saved.done > state.done && !saved.complete());
        state = saved;
    }
    let earlier_ms = state.elapsed_ms;
    let mut resumed = hunt(state, 2, 3, &|_| {}, &|_| {}, &AtomicBool::new(false));
    // The time of every run is kept: the resumed total includes the runs before.
    assert!(resumed.elapsed_ms >= earlier_ms);
    resumed.elapsed_ms = 0;
    assert_eq!(resumed, whole);
}
