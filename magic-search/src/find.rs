//! A full set's search as resumable work: the 128 squares split into chunks, a chunk's state
//! kept in a file and continued after an interruption, the chunks' states merged into one set.

use core::fmt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::hunt::{Found, Target, check_magic};
use crate::search::{SearchConfig, SearchStats, SquareProgress, SquareResult, Stage};
use crate::state_file::MergeError;
use bitforge_index::MagicSet;
use bitforge_index::SliderKind;
use bitforge_index::geometry::{relevant_mask, square_name};

/// The most chunks a set's search splits into: one square each.
pub const MAX_CHUNKS: u32 = 128;

/// Part `index` (from 0) of a set's search split into `count` parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunk {
    index: u32,
    count: u32,
}

impl Chunk {
    /// The whole search, as one chunk.
    pub const WHOLE: Chunk = Chunk { index: 0, count: 1 };

    /// Part `index` of `count` (`index < count <= MAX_CHUNKS`).
    pub fn new(index: u32, count: u32) -> Result<Self, String> {
        if count == 0 || count > MAX_CHUNKS || index >= count {
            return Err(format!(
                "chunk {index}/{count}: expected I/N with N from 1 to {MAX_CHUNKS} and I from 0 \
                 to N-1"
            ));
        }
        Ok(Chunk { index, count })
    }

    /// The part's number, from 0.
    pub fn index(&self) -> u32 {
        self.index
    }

    /// How many parts there are.
    pub fn count(&self) -> u32 {
        self.count
    }

    /// The chunk's squares: every `count`-th of [`search_order`], from the `index`-th, so that
    /// every chunk gets hard and easy squares alike.
    pub fn squares(&self) -> Vec<(SliderKind, u8)> {
        search_order()
            .into_iter()
            .skip(self.index as usize)
            .step_by(self.count as usize)
            .collect()
    }
}

impl fmt::Display for Chunk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The 128 squares in the order they are searched: most mask bits first, so that threads
/// finish together.
pub fn search_order() -> Vec<(SliderKind, u8)> {
    let mut squares: Vec<(SliderKind, u8)> = SliderKind::ALL
        .into_iter()
        .flat_map(|kind| (0..64).map(move |square| (kind, square)))
        .collect();
    squares.sort_by_key(|&(kind, square)| {
        core::cmp::Reverse(relevant_mask(kind, square).count_ones())
    });
    squares
}

/// A chunk's search: the configuration, and where each of its squares stands. A fresh search,
/// a checkpoint, a chunk's result and the merge of all chunks are all one of these
/// ([`to_text`](Self::to_text) and [`parse`](Self::parse) write and read it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FindState {
    /// What is searched for.
    pub config: SearchConfig,
    /// Which part of the set.
    pub chunk: Chunk,
    /// The chunk's squares, in [`Chunk::squares`] order.
    pub squares: Vec<SquareProgress>,
}

impl FindState {
    /// `chunk` of the search for `config`, before its first candidate.
    pub fn new(config: SearchConfig, chunk: Chunk) -> Self {
        let squares = chunk
            .squares()
            .into_iter()
            .map(|(kind, square)| SquareProgress::new(kind, square, &config))
            .collect();
        FindState {
            config,
            chunk,
            squares,
        }
    }

    /// The same search, narrowing from `set`'s magics: each square of the chunk starts with
    /// its magic from `set` kept and looks only for better ones (by the config's `prefer`), so
    /// the result is never worse than `set` on any square. For narrowing fixed and black
    /// searches (whose widths are fixed), with the set's own scheme.
    pub fn starting_from(mut self, set: &MagicSet) -> Result<FindState, String> {
        let scheme = self.config.scheme;
        if !self.config.narrow {
            return Err("only a narrowing search (--narrow) starts from a set".to_owned());
        }
        if set.scheme != scheme {
            return Err(format!(
                "the set's scheme is {}, the search's {scheme}",
                set.scheme
            ));
        }
        for progress in &mut self.squares {
            let (kind, square) = (progress.kind, progress.square);
            let name = format!("{kind} {}", square_name(square));
            let Some(bits) = scheme.fixed_bits(kind) else {
                return Err(format!("a {scheme} search does not narrow"));
            };
            let entry = set.entries(kind)[usize::from(square)];
            if entry.bits != bits {
                return Err(format!(
                    "{name}: {} index bits, where the {scheme} scheme has {bits}",
                    entry.bits
                ));
            }
            let target = Target::new(kind, square, bits, scheme).map_err(|e| e.to_string())?;
            let check = check_magic(target, entry.magic).map_err(|e| format!("{name}: {e}"))?;
            progress.stage = Stage::Narrow;
            progress.best = Some((
                Found {
                    magic: entry.magic,
                    lowest: check.lowest,
                    highest: check.highest,
                },
                bits,
            ));
        }
        Ok(self)
    }

    /// Squares finished.
    pub fn done(&self) -> usize {
        self.squares.iter().filter(|s| s.is_done()).count()
    }

    /// Whether every square of the chunk is finished.
    pub fn is_complete(&self) -> bool {
        self.squares.iter().all(SquareProgress::is_done)
    }

    /// Candidates tried (finished squares and unfinished ones) and squares finished.
    pub fn stats(&self) -> SearchStats {
        SearchStats {
            candidates_tried: self.squares.iter().map(|s| s.tried).sum(),
            squares: self.done(),
        }
    }

    /// The set, once the whole search (not just a chunk) is complete.
    pub fn to_set(&self) -> Option<MagicSet> {
        if self.chunk != Chunk::WHOLE || !self.is_complete() {
            return None;
        }
        let mut pairs = [[(0u64, 0u8); 64]; 2];
        for result in self.squares.iter().filter_map(SquareProgress::result) {
            pairs[result.kind as usize][usize::from(result.square)] = (result.magic, result.bits);
        }
        Some(MagicSet::with_dense_offsets(
            self.config.scheme,
            pairs[0],
            pairs[1],
        ))
    }

    /// Combines the complete states of every chunk of one search (in any order) into the whole
    /// search's state.
    pub fn merge(parts: &[FindState]) -> Result<FindState, MergeError> {
        let first = parts.first().ok_or(MergeError::Empty)?;
        if let Some(part) = parts
            .iter()
            .position(|p| p.config != first.config || p.chunk.count != first.chunk.count)
        {
            return Err(MergeError::OtherTarget { part });
        }
        if let Some(part) = parts.iter().position(|p| !p.is_complete()) {
            return Err(MergeError::Incomplete { part });
        }
        let count = first.chunk.count;
        let mut by_chunk: Vec<Option<&FindState>> = vec![None; count as usize];
        for part in parts {
            let slot = &mut by_chunk[part.chunk.index as usize];
            if slot.is_some() {
                return Err(MergeError::RepeatedChunk {
                    index: part.chunk.index,
                    count,
                });
            }
            *slot = Some(part);
        }
        if let Some(index) = by_chunk.iter().position(Option::is_none) {
            return Err(MergeError::MissingChunk {
                index: index as u32,
                count,
            });
        }
        let done: Vec<&SquareProgress> = parts.iter().flat_map(|p| &p.squares).collect();
        let squares = search_order()
            .into_iter()
            .map(|(kind, square)| {
                **done
                    .iter()
                    .find(|s| (s.kind, s.square) == (kind, square))
                    .expect("every chunk present: every square present")
            })
            .collect();
        Ok(FindState {
            config: first.config,
            chunk: Chunk::WHOLE,
            squares,
        })
    }
}

/// Continues `state`'s search on `threads` threads (at least one) until every square of its
/// chunk is done or `stop` is set. A square being searched hands its progress to the state
/// every `publish_every` and when it finishes; `checkpoint` is then called with the state
/// (from the thread that changed it: keep it short, or throttle it), and `on_square` with
/// each square finished. Setting `stop` pauses every square within a few thousand candidates.
///
/// The result depends only on the configuration (a time budget excepted), never on the thread
/// count nor on where the search was stopped and resumed.
pub fn find(
    state: FindState,
    threads: usize,
    publish_every: Duration,
    on_square: &(dyn Fn(&SquareResult) + Sync),
    checkpoint: &(dyn Fn(&FindState) + Sync),
    stop: &AtomicBool,
) -> FindState {
    let config = state.config;
    let pending: Vec<usize> = (0..state.squares.len())
        .filter(|&i| !state.squares[i].is_done())
        .collect();
    let shared = Mutex::new(state);
    let lock = || {
        shared
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    };
    let next = AtomicUsize::new(0);
    let worker = || {
        while !stop.load(Ordering::Relaxed) {
            let Some(&i) = pending.get(next.fetch_add(1, Ordering::Relaxed)) else {
                break;
            };
            let mut progress = lock().squares[i];
            loop {
                let published = Instant::now();
                progress.resume(&config, &mut || {
                    stop.load(Ordering::Relaxed) || published.elapsed() >= publish_every
                });
                {
                    let mut state = lock();
                    state.squares[i] = progress;
                    checkpoint(&state);
                }
                if let Some(result) = progress.result() {
                    on_square(&result);
                    break;
                }
                if stop.load(Ordering::Relaxed) {
                    break;
                }
            }
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads.max(1) {
            scope.spawn(worker);
        }
        worker();
    });
    shared
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Finds a full set, rook and bishop on all 64 squares, on `threads` threads (at least one).
/// `on_square` is called once per finished square, from the thread that found it.
///
/// The result depends only on `config`, never on the thread count (each square has its own
/// random stream), except with a time budget.
pub fn find_set(
    config: &SearchConfig,
    threads: usize,
    on_square: &(dyn Fn(&SquareResult) + Sync),
) -> (MagicSet, SearchStats) {
    let state = find(
        FindState::new(*config, Chunk::WHOLE),
        threads,
        Duration::MAX,
        on_square,
        &|_| {},
        &AtomicBool::new(false),
    );
    let set = state
        .to_set()
        .expect("a search that is never stopped completes");
    (set, state.stats())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{BitsTarget, Budget, Prefer};
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
}
