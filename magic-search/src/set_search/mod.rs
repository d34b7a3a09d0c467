//! A full set's search as resumable work: the 128 squares split into chunks, a chunk's state
//! kept in a file and continued after an interruption, the chunks' states merged into one set.

mod state_file;

use core::fmt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::engine::{Found, SearchConfig, SearchStats, SquareProgress, SquareResult, Stage};
use crate::hunt::{Target, check_magic};
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

    /// Narrows the squares of `kind` only: the other kind's squares keep the magics the search
    /// started from (`starting_from`) and are finished at once. For spending a step's time where
    /// it pays (a narrowing step's gains by kind: `results/analysis.md`, issue 38).
    pub fn only(mut self, kind: SliderKind) -> Result<FindState, String> {
        for progress in self.squares.iter_mut().filter(|p| p.kind != kind) {
            if progress.best.is_none() {
                return Err(
                    "only a search that starts from a set (--from) narrows one kind".into(),
                );
            }
            progress.stage = Stage::Done;
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
mod tests;
