//! Tests of the resumable set search.

use super::*;
use crate::engine::{BitsTarget, Budget, Prefer};
use bitforge_index::{Scheme, verify};

fn minimising() -> SearchConfig {
    SearchConfig {
        bits: BitsTarget::Minimise,
        budget: Budget::Attempts(6000),
        ..SearchConfig::default()
    }
}

fn run(state: FindState, threads: usize) -> FindState {
    find(
        state,
        threads,
        Duration::MAX,
        &|_| {},
        &|_| {},
        &AtomicBool::new(false),
    )
}

#[test]
fn chunks_share_out_every_square_once() {
    for count in [1, 2, 7, 128] {
        let mut all: Vec<(SliderKind, u8)> = (0..count)
            .flat_map(|i| Chunk::new(i, count).unwrap().squares())
            .collect();
        assert_eq!(all.len(), 128);
        all.sort_by_key(|&(kind, square)| (kind as u8, square));
        all.dedup();
        assert_eq!(all.len(), 128);
    }
    assert!(Chunk::new(3, 3).is_err() && Chunk::new(0, 129).is_err());
}

#[test]
fn a_search_stopped_anywhere_and_resumed_from_its_file_gives_the_same_set() {
    for config in [
        minimising(),
        SearchConfig {
            scheme: Scheme::Black,
            candidates: 3,
            narrow: true,
            budget: Budget::Attempts(3000),
            ..SearchConfig::default()
        },
    ] {
        let whole = run(FindState::new(config, Chunk::WHOLE), 2);
        let set = whole.to_set().expect("complete");
        verify(&set).unwrap();
        // Stop after a few checkpoints (squares stop mid-stage: they publish every few
        // thousand candidates), resume from the file's text, again and again.
        let mut state = FindState::new(config, Chunk::WHOLE);
        let mut stops = 0;
        while !state.is_complete() {
            let stop = AtomicBool::new(false);
            let seen = AtomicUsize::new(0);
            let last = Mutex::new(None);
            let checkpoint = |state: &FindState| {
                *last.lock().unwrap() = Some(state.to_text(&[]));
                if seen.fetch_add(1, Ordering::Relaxed) >= 40 {
                    stop.store(true, Ordering::Relaxed);
                }
            };
            let _ = find(state, 2, Duration::ZERO, &|_| {}, &checkpoint, &stop);
            let text = last.into_inner().unwrap().expect("a checkpoint");
            state = FindState::parse(&text).unwrap();
            stops += 1;
        }
        assert!(stops > 3, "{stops}");
        assert_eq!(state.to_set(), Some(set));
        assert_eq!(state.stats(), whole.stats());
    }
}

#[test]
fn chunks_merge_into_the_whole_search() {
    let config = minimising();
    let whole = run(FindState::new(config, Chunk::WHOLE), 2);
    let parts: Vec<FindState> = (0..3)
        .map(|i| run(FindState::new(config, Chunk::new(i, 3).unwrap()), 1))
        .collect();
    let merged = FindState::merge(&[parts[2].clone(), parts[0].clone(), parts[1].clone()]);
    assert_eq!(merged.as_ref(), Ok(&whole));

    let merge = |parts: &[&FindState]| {
        FindState::merge(&parts.iter().map(|&p| p.clone()).collect::<Vec<_>>())
    };
    assert_eq!(
        merge(&[&parts[0], &parts[2]]),
        Err(MergeError::MissingChunk { index: 1, count: 3 })
    );
    assert_eq!(
        merge(&[&parts[0], &parts[1], &parts[1], &parts[2]]),
        Err(MergeError::RepeatedChunk { index: 1, count: 3 })
    );
    let other = run(
        FindState::new(
            SearchConfig { seed: 7, ..config },
            Chunk::new(1, 3).unwrap(),
        ),
        1,
    );
    assert_eq!(
        merge(&[&parts[0], &other, &parts[2]]),
        Err(MergeError::OtherTarget { part: 1 })
    );
    let fresh = FindState::new(config, Chunk::new(1, 3).unwrap());
    assert_eq!(
        merge(&[&parts[0], &fresh, &parts[2]]),
        Err(MergeError::Incomplete { part: 1 })
    );
    assert_eq!(merge(&[]), Err(MergeError::Empty));
}

#[test]
fn state_files_round_trip_and_bad_ones_are_named() {
    let config = minimising();
    let mut state = FindState::new(config, Chunk::new(2, 5).unwrap());
    state.squares[0].resume(&config, &mut || false);
    // Paused at the first chance: a stage's first few thousand candidates.
    state.squares[1].resume(&config, &mut || true);
    assert!(state.squares[0].is_done());
    assert!(!state.squares[1].is_done() && state.squares[1].attempts > 0);
    let text = state.to_text(&["a test".to_owned()]);
    assert_eq!(FindState::parse(&text), Ok(state.clone()));

    let line = |i: usize| {
        text.lines()
            .filter(|l| l.starts_with("square "))
            .nth(i)
            .unwrap()
            .to_owned()
    };
    let cases = [
        (
            text.replace("bitforge-find 1", "bitforge-hunt 1"),
            "line 2: expected 'bitforge-find 1'",
        ),
        (text.replace("chunk 2/5", "chunk 5/5"), "chunk 5/5"),
        (text.replace(&line(1), ""), "no 'square' line"),
        (format!("{text}{}\n", line(1)), "two 'square' lines"),
        (text.replace("bits min", "bits mask"), "does not try"),
        (text.replace("scheme fancy", "scheme black"), "only fancy"),
        (
            text.replace(" done ", " full:0 "),
            "before the search has found one",
        ),
        (text.replace(" done ", " full:1 "), "keeps the best of 1"),
        (text.replace("stream 0x", "stream x"), "0x-prefixed"),
        (text.replace("candidates 1", "candidates 0"), "0 candidates"),
        (text.replace("seed ", "seed 0x1\nseed "), "given twice"),
        (String::new(), "not a set search state file"),
    ];
    for (bad, expected) in cases {
        let error = FindState::parse(&bad).unwrap_err().to_string();
        assert!(error.contains(expected), "{expected}: {error}");
    }
}

#[test]
fn narrowing_keeps_spans_no_wider_than_the_candidates_alone() {
    let candidates = SearchConfig {
        scheme: Scheme::Fixed,
        candidates: 2,
        ..SearchConfig::default()
    };
    let narrow = SearchConfig {
        narrow: true,
        budget: Budget::Attempts(4000),
        ..candidates
    };
    let plain = run(FindState::new(candidates, Chunk::new(0, 8).unwrap()), 2);
    let narrowed = run(FindState::new(narrow, Chunk::new(0, 8).unwrap()), 2);
    let span = |s: &SquareProgress| s.best.expect("done").0.span();
    let mut narrower = 0;
    for (a, b) in plain.squares.iter().zip(&narrowed.squares) {
        assert!(span(b) <= span(a), "{a:?} {b:?}");
        narrower += usize::from(span(b) < span(a));
        // Every kept magic is full width and valid with the indices it claims.
        let (found, bits) = b.best.unwrap();
        let target = crate::Target::new(b.kind, b.square, bits, Scheme::Fixed).unwrap();
        let check = crate::check_magic(target, found.magic).unwrap();
        assert_eq!((check.lowest, check.highest), (found.lowest, found.highest));
    }
    assert!(narrower > 0);
    // A narrowing stage is only valid in a search that narrows.
    let mut text = narrowed.to_text(&[]);
    assert!(FindState::parse(&text).is_ok());
    text = text.replace("narrow yes", "narrow no");
    let square = narrowed.squares[0];
    let mut paused = FindState::new(narrow, Chunk::new(0, 8).unwrap());
    paused.squares[0] = SquareProgress {
        stage: crate::Stage::Narrow,
        ..square
    };
    let error = FindState::parse(&paused.to_text(&[]).replace("narrow yes", "narrow no"))
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("does not look for narrower spans"),
        "{error}"
    );
    assert!(FindState::parse(&text).is_ok());
}

/// Preferring fewer used slots: among the same candidates, never more slots used than
/// preferring the span (and fewer somewhere); narrowing by it only lowers the count; the
/// choice goes through the state file, and a file written before it prefers the span.
#[test]
fn preferring_used_slots_keeps_fewer_of_them() {
    let by_span = SearchConfig {
        scheme: Scheme::Black,
        candidates: 4,
        ..SearchConfig::default()
    };
    let by_used = SearchConfig {
        prefer: Prefer::Used,
        ..by_span
    };
    let narrow = SearchConfig {
        narrow: true,
        budget: Budget::Attempts(4000),
        ..by_used
    };
    let chunk = Chunk::new(0, 8).unwrap();
    let [span, used, narrowed] =
        [by_span, by_used, narrow].map(|config| run(FindState::new(config, chunk), 2));
    let slots = |s: &SquareProgress| {
        let (found, bits) = s.best.expect("done");
        let target = crate::Target::new(s.kind, s.square, bits, Scheme::Black).unwrap();
        let check = crate::check_magic(target, found.magic).unwrap();
        assert_eq!((check.lowest, check.highest), (found.lowest, found.highest));
        check.used_slots
    };
    let (mut fewer, mut fewer_narrowed) = (0, 0);
    for ((a, b), c) in span
        .squares
        .iter()
        .zip(&used.squares)
        .zip(&narrowed.squares)
    {
        assert!(slots(b) <= slots(a), "{a:?} {b:?}");
        assert!(slots(c) <= slots(b), "{b:?} {c:?}");
        fewer += usize::from(slots(b) < slots(a));
        fewer_narrowed += usize::from(slots(c) < slots(b));
    }
    assert!(fewer > 0 && fewer_narrowed > 0, "{fewer} {fewer_narrowed}");

    let text = narrowed.to_text(&[]);
    assert!(text.contains("\nprefer used\n"));
    assert_eq!(FindState::parse(&text), Ok(narrowed.clone()));
    let older = span.to_text(&[]).replace("prefer span\n", "");
    assert_eq!(FindState::parse(&older), Ok(span));
    let error = FindState::parse(&text.replace("prefer used", "prefer most"))
        .unwrap_err()
        .to_string();
    assert!(error.contains("span, used or comb"), "{error}");
    assert_eq!("used".parse(), Ok(Prefer::Used));
}

/// A narrowing search started from a set keeps each square's magic until it finds a
/// narrower one: never wider, narrower somewhere; its first checkpoint reads back; a set
/// of another scheme, a search that does not narrow, or a bad magic are refused.
#[test]
fn narrowing_from_a_set_never_widens_it() {
    let first = SearchConfig {
        scheme: Scheme::Black,
        narrow: true,
        budget: Budget::Attempts(4000),
        ..SearchConfig::default()
    };
    let (set, _) = find_set(&first, 2, &|_| {});
    let narrow = SearchConfig { seed: 2, ..first };
    let chunk = Chunk::new(3, 8).unwrap();
    let start = FindState::new(narrow, chunk).starting_from(&set).unwrap();
    assert_eq!(FindState::parse(&start.to_text(&[])), Ok(start.clone()));
    let narrowed = run(start, 2);
    let mut narrower = 0;
    for square in &narrowed.squares {
        let entry = set.entries(square.kind)[usize::from(square.square)];
        let target =
            crate::Target::new(square.kind, square.square, entry.bits, Scheme::Black).unwrap();
        let before = crate::check_magic(target, entry.magic).unwrap();
        let (found, _) = square.best.unwrap();
        assert!(
            found.span() <= before.highest - before.lowest + 1,
            "{square:?}"
        );
        narrower += usize::from(found.span() < before.highest - before.lowest + 1);
    }
    assert!(narrower > 0);

    let error = |config: SearchConfig, set: &MagicSet| {
        FindState::new(config, chunk)
            .starting_from(set)
            .unwrap_err()
    };
    let fixed = SearchConfig {
        scheme: Scheme::Fixed,
        ..narrow
    };
    assert!(error(fixed, &set).contains("scheme is black"));
    let plain = SearchConfig {
        narrow: false,
        ..narrow
    };
    assert!(error(plain, &set).contains("--narrow"));
    let mut bad = set.clone();
    let (kind, square) = chunk.squares()[0];
    bad.entries_mut(kind)[usize::from(square)].magic = 1;
    let message = error(narrow, &bad);
    assert!(message.starts_with(&format!("{kind} ")), "{message}");
}

#[test]
fn bit_targets_read_what_they_write() {
    for bits in [BitsTarget::Mask, BitsTarget::Minimise, BitsTarget::Fewer(3)] {
        assert_eq!(bits.to_string().parse(), Ok(bits));
    }
}

/// A state file asking a square for at least as many bits fewer as it has (bishop g8 has 5:
/// `bits -8`, `reduced:8`) is refused when read; it used to overflow when resumed.
#[test]
fn a_reduced_level_below_one_bit_is_refused() {
    let config = SearchConfig {
        bits: BitsTarget::Fewer(8),
        budget: Budget::Attempts(1000),
        ..SearchConfig::default()
    };
    let g8 = search_order()
        .iter()
        .position(|&square| square == (SliderKind::Bishop, 62))
        .unwrap() as u32;
    let mut state = FindState::new(config, Chunk::new(g8, 128).unwrap());
    state.squares[0].resume(&config, &mut || false);
    // Nothing to lower: the square keeps its full-width magic.
    assert!(state.squares[0].is_done());
    assert_eq!(state.squares[0].best.unwrap().1, 5);
    let text = state.to_text(&[]);
    let forged = text.replace(" done ", " reduced:8 ");
    assert_ne!(forged, text);
    let error = FindState::parse(&forged).unwrap_err().to_string();
    assert!(error.contains("does not try 8 bits fewer"), "{error}");
}

/// A search keeping the best of very many full-width magics (each found within a few
/// candidates) still hears its pause: between magics, once enough candidates went by.
#[test]
fn a_search_of_many_candidates_pauses_when_asked() {
    let config = SearchConfig {
        scheme: Scheme::Fixed,
        candidates: u32::MAX,
        ..SearchConfig::default()
    };
    // Bishop a1 with 9 bits for its 6-bit mask: its magics come every few candidates.
    let a1 = search_order()
        .iter()
        .position(|&square| square == (SliderKind::Bishop, 0))
        .unwrap() as u32;
    let (done, waited) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut state = FindState::new(config, Chunk::new(a1, 128).unwrap());
        let mut asked = 0u32;
        state.squares[0].resume(&config, &mut || {
            asked += 1;
            asked > 3
        });
        let _ = done.send(state.squares[0].tried);
    });
    let tried = waited
        .recv_timeout(Duration::from_secs(60))
        .expect("the search paused when asked");
    assert!(tried > 0 && tried < 1 << 24, "{tried}");
}
