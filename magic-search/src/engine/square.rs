//! One square's search: its stages, its random stream and the candidate loop.

use std::time::{Duration, Instant};

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use super::candidate_filter::{Path, spreads_over_the_top_byte};
use super::tester::*;
use super::tuned_streams::FANCY_STREAM_OFFSETS;
use super::*;
use bitforge_index::Scheme;
use bitforge_index::SliderKind;
use bitforge_index::geometry::relevant_mask;

/// Where a square's search stands: enough to continue it exactly where it stopped (see
/// [`SquareProgress::resume`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SquareProgress {
    /// The slider kind.
    pub kind: SliderKind,
    /// The square.
    pub square: u8,
    /// What the search is looking for now.
    pub stage: Stage,
    /// The square's random stream (xoshiro256++ state words) as the stage left it.
    pub stream: [u64; 4],
    /// Candidates drawn in the current stage: the attempts budget counts them, and reduced-bit
    /// stages choose a candidate's density from their number.
    pub attempts: u64,
    /// Time spent in the current stage, for a time budget.
    pub spent: Duration,
    /// Candidates tried on this square in all.
    pub tried: u64,
    /// The magic kept so far and its index bits (none before the first full-width magic).
    pub best: Option<(Found, u8)>,
}

/// The stages of a square's search, in order: full-width magics until `candidates` are found
/// (keeping the one spanning the fewest slots), then for fancy magics with fewer bits asked,
/// one reduced bit level after another until one fails, or for fixed and black magics with
/// `narrow`, narrower and narrower spans until the budget runs out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Looking for full-width magic number `found + 1`.
    Full {
        /// Full-width magics found so far.
        found: u32,
    },
    /// Looking for a magic with `fewer` bits less than the full width.
    Reduced {
        /// Bits below the full width.
        fewer: u8,
    },
    /// Looking for a full-width magic whose indices span fewer slots than the one kept.
    Narrow,
    /// Finished: `best` is the result.
    Done,
}

/// What one call of the candidate loop ended with.
pub(crate) enum Step {
    Found(Found),
    Exhausted,
    Paused,
}

/// How often, in candidates, the candidate loop looks at the clock and asks whether to pause.
pub(crate) const PAUSE_CHECK: u64 = 4096;

/// One square's search: its tester, its random stream and where it stands.
pub(crate) struct SquareSearch {
    pub(crate) tester: Tester,
    pub(crate) rng: Xoshiro256PlusPlus,
    pub(crate) progress: SquareProgress,
    pub(crate) seed: u64,
    pub(crate) early_reject: bool,
    /// Where the full-width search's draws and cheap tests run.
    pub(crate) path: Path,
}

/// The stream a square's search draws from: its own, so that the result depends neither on the
/// thread count nor on the order of the squares. `offset` picks another of the square's
/// streams (every 128th): fancy searches use [`FANCY_STREAM_OFFSETS`].
pub(crate) fn stream_seed(kind: SliderKind, square: u8, seed: u64, offset: u16) -> u64 {
    let stream = (kind as u64) * 64 + u64::from(square) + 1 + 128 * u64::from(offset);
    seed ^ stream.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The stream offset a square's search uses under `scheme`.
pub(crate) fn stream_offset(kind: SliderKind, square: u8, scheme: Scheme) -> u16 {
    match scheme {
        Scheme::Fancy => FANCY_STREAM_OFFSETS[kind as usize][usize::from(square)],
        Scheme::Fixed | Scheme::Black => 0,
    }
}

pub(crate) fn stream_words(rng: &Xoshiro256PlusPlus) -> [u64; 4] {
    let bytes = rng.state();
    core::array::from_fn(|i| {
        u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().expect("8 bytes"))
    })
}

pub(crate) fn stream_from_words(words: [u64; 4]) -> Xoshiro256PlusPlus {
    let mut bytes = [0u8; 32];
    for (chunk, word) in bytes.chunks_exact_mut(8).zip(words) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    Xoshiro256PlusPlus::from_seed(bytes)
}

/// The full index width of a square under `scheme`.
pub(crate) fn full_bits(kind: SliderKind, square: u8, scheme: Scheme) -> u8 {
    scheme
        .fixed_bits(kind)
        .unwrap_or(relevant_mask(kind, square).count_ones() as u8)
}

/// The reduced bit levels `config` asks of a square `full` bits wide, as bits below the full
/// width, in order (fancy magics only).
pub(crate) fn reduced_levels(config: &SearchConfig, full: u8) -> core::ops::Range<u8> {
    if config.scheme != Scheme::Fancy {
        return 0..0;
    }
    match config.bits {
        BitsTarget::Mask => 0..0,
        // A square needs at least one bit: asking it for as many fewer as it has, or more,
        // leaves it at full width (and a state file claiming such a level is refused).
        BitsTarget::Fewer(n) if n < full => n..n + 1,
        BitsTarget::Fewer(_) => 0..0,
        BitsTarget::Minimise => 1..full,
    }
}

/// Whether `config` looks for narrower spans after its candidates.
pub(crate) fn narrows(config: &SearchConfig) -> bool {
    config.narrow && config.scheme != Scheme::Fancy
}

impl SquareProgress {
    /// A square's search under `config` before its first candidate.
    pub fn new(kind: SliderKind, square: u8, config: &SearchConfig) -> Self {
        let offset = stream_offset(kind, square, config.scheme);
        let rng = Xoshiro256PlusPlus::seed_from_u64(stream_seed(kind, square, config.seed, offset));
        SquareProgress {
            kind,
            square,
            stage: Stage::Full { found: 0 },
            stream: stream_words(&rng),
            attempts: 0,
            spent: Duration::ZERO,
            tried: 0,
            best: None,
        }
    }

    /// Whether the square's search is finished.
    pub fn is_done(&self) -> bool {
        self.stage == Stage::Done
    }

    /// The square's result, once it is done.
    pub fn result(&self) -> Option<SquareResult> {
        match (self.stage, self.best) {
            (Stage::Done, Some((found, bits))) => Some(SquareResult {
                kind: self.kind,
                square: self.square,
                magic: found.magic,
                bits,
                candidates_tried: self.tried,
            }),
            _ => None,
        }
    }

    /// Whether this state is one that `config`'s search of the square can reach: the stage
    /// among those it goes through, a kept magic (with indices inside its width) from the
    /// first full-width magic on. Whether the magic works is not checked here.
    pub fn fits(&self, config: &SearchConfig) -> Result<(), String> {
        let full = full_bits(self.kind, self.square, config.scheme);
        let levels = reduced_levels(config, full);
        match self.stage {
            Stage::Full { found } if found >= config.candidates.max(1) => {
                return Err(format!(
                    "{found} full-width magics found, but the search keeps the best of {}",
                    config.candidates
                ));
            }
            Stage::Reduced { fewer } if !levels.contains(&fewer) => {
                return Err(format!("the search does not try {fewer} bits fewer"));
            }
            Stage::Narrow if !narrows(config) => {
                return Err("the search does not look for narrower spans".to_owned());
            }
            _ => {}
        }
        match (self.stage, self.best) {
            (Stage::Full { found: 0 }, None) => Ok(()),
            (_, None) => Err("no magic is given, but the search has found one".to_owned()),
            (Stage::Full { found: 0 }, Some(_)) => {
                Err("a magic is given before the search has found one".to_owned())
            }
            (stage, Some((found, bits))) => {
                // Each reduced level starts from the magic the level before it kept.
                let allowed = match stage {
                    Stage::Full { .. } | Stage::Narrow => full..=full,
                    Stage::Reduced { fewer } => {
                        let kept = full - (fewer - levels.start);
                        kept..=kept
                    }
                    Stage::Done => full.saturating_sub(levels.end.saturating_sub(1)).max(1)..=full,
                };
                if !allowed.contains(&bits) {
                    return Err(format!(
                        "{bits} index bits: at this stage the search keeps {} to {}",
                        allowed.start(),
                        allowed.end()
                    ));
                }
                if found.lowest > found.highest || found.highest >> bits != 0 {
                    return Err(format!(
                        "indices {} to {} do not fit {bits} bits",
                        found.lowest, found.highest
                    ));
                }
                Ok(())
            }
        }
    }

    /// Continues the search under `config` (the one it was made with) until it is done, or
    /// until `pause` returns true (asked every few thousand candidates). The candidates tried
    /// and the result do not depend on where it paused: a paused search continues exactly.
    pub fn resume(&mut self, config: &SearchConfig, pause: &mut dyn FnMut() -> bool) {
        let mut search = SquareSearch::resume(*self, config);
        search.run(config, pause);
        *self = search.progress();
    }
}

impl SquareSearch {
    pub(crate) fn new(kind: SliderKind, square: u8, config: &SearchConfig, offset: u16) -> Self {
        let mut search = SquareSearch::resume(SquareProgress::new(kind, square, config), config);
        search.restart(offset);
        search
    }

    pub(crate) fn resume(progress: SquareProgress, config: &SearchConfig) -> Self {
        SquareSearch {
            tester: Tester::new(progress.kind, progress.square, config.scheme),
            rng: stream_from_words(progress.stream),
            progress,
            seed: config.seed,
            early_reject: config.scheme != Scheme::Black,
            path: Path::choose(config.vectors),
        }
    }

    pub(crate) fn progress(&self) -> SquareProgress {
        SquareProgress {
            stream: stream_words(&self.rng),
            ..self.progress
        }
    }

    /// Draws from the square's stream `offset` from now on and counts candidates afresh. Which
    /// candidate first succeeds depends only on the stream: the key order and the killers that
    /// earlier searches left only make failures cheaper.
    pub(crate) fn restart(&mut self, offset: u16) {
        let p = &self.progress;
        let seed = stream_seed(p.kind, p.square, self.seed, offset);
        self.rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        self.progress.tried = 0;
        self.progress.attempts = 0;
    }

    /// How many candidates the full-width search tries up to its first magic; `None` if more
    /// than `limit`.
    pub(crate) fn candidates_to_first_magic(&mut self, limit: u64) -> Option<u64> {
        let bits = self.tester.mask().count_ones() as u8;
        self.progress.attempts = 0;
        let budget = Some(Budget::Attempts(limit));
        match self.next_magic(bits, budget, false, Limits::NONE, &mut || false) {
            Step::Found(_) => Some(self.progress.tried),
            Step::Exhausted | Step::Paused => None,
        }
    }

    /// Runs the stages until the search is done or `pause` says to stop.
    pub(crate) fn run(&mut self, config: &SearchConfig, pause: &mut dyn FnMut() -> bool) {
        let p = &self.progress;
        let full = full_bits(p.kind, p.square, config.scheme);
        let levels = reduced_levels(config, full);
        let after_level = |fewer: u8| {
            if levels.contains(&(fewer + 1)) && full > fewer + 1 {
                Stage::Reduced { fewer: fewer + 1 }
            } else {
                Stage::Done
            }
        };
        // The candidate loop asks `pause` every PAUSE_CHECK candidates of one magic's search;
        // a stage that finds its magics sooner (many full-width candidates) is asked here,
        // between magics, once that many candidates have gone by since it last was.
        let mut asked_at = self.progress.tried;
        loop {
            if self.progress.tried - asked_at >= PAUSE_CHECK {
                asked_at = self.progress.tried;
                if pause() {
                    return;
                }
            }
            let (bits, budget, dense, limits) = match self.progress.stage {
                Stage::Done => return,
                Stage::Full { .. } => (full, None, false, Limits::NONE),
                Stage::Reduced { fewer } => (full - fewer, Some(config.budget), true, Limits::NONE),
                // Better than the kept magic: a shorter span, or fewer slots used.
                Stage::Narrow => {
                    let limits = self.progress.best.map_or(Limits::NONE, |(kept, bits)| {
                        match config.prefer {
                            Prefer::Span => Limits {
                                span: kept.span() - 1,
                                ..Limits::NONE
                            },
                            Prefer::Used => Limits {
                                used: self.tester.used_slots(kept.magic, bits),
                                ..Limits::NONE
                            },
                            // A slice uses no more slots than its comb cost counts.
                            Prefer::Comb => {
                                let comb = self.tester.comb_cost(kept.magic, bits);
                                Limits {
                                    span: usize::MAX,
                                    used: comb,
                                    comb,
                                }
                            }
                        }
                    });
                    (full, Some(config.budget), true, limits)
                }
            };
            let step = self.next_magic(bits, budget, dense, limits, pause);
            let tester = &self.tester;
            let progress = &mut self.progress;
            let next = match (step, progress.stage) {
                (Step::Paused, _) => return,
                (Step::Found(found), Stage::Full { found: count }) => {
                    // Fixed-width schemes pack better with shorter spans or fewer slots used.
                    let better = progress.best.is_none_or(|(kept, _)| match config.prefer {
                        Prefer::Span => found.span() < kept.span(),
                        Prefer::Used => {
                            let used = |f: Found| (tester.used_slots(f.magic, bits), f.span());
                            used(found) < used(kept)
                        }
                        Prefer::Comb => {
                            let comb = |f: Found| tester.comb_cost(f.magic, bits);
                            comb(found) < comb(kept)
                        }
                    });
                    if better {
                        progress.best = Some((found, bits));
                    }
                    if count + 1 < config.candidates.max(1) {
                        Stage::Full { found: count + 1 }
                    } else if levels.start > 0 && full > levels.start {
                        Stage::Reduced {
                            fewer: levels.start,
                        }
                    } else if narrows(config) {
                        Stage::Narrow
                    } else {
                        Stage::Done
                    }
                }
                (Step::Found(found), Stage::Narrow) => {
                    progress.best = Some((found, bits));
                    Stage::Narrow
                }
                (Step::Found(found), Stage::Reduced { fewer }) => {
                    progress.best = Some((found, bits));
                    after_level(fewer)
                }
                (Step::Exhausted, _) | (Step::Found(_), Stage::Done) => Stage::Done,
            };
            progress.stage = next;
            progress.attempts = 0;
            progress.spent = Duration::ZERO;
        }
    }

    /// The next valid magic for `bits`, unless `budget` runs out or `pause` says to stop first
    /// (then the search continues from here when called again), looking only at magics below
    /// `limits`. `dense`: candidates of mixed densities, for
    /// magics that need many constructive collisions (fewer bits than the mask, narrow spans).
    pub(crate) fn next_magic(
        &mut self,
        bits: u8,
        budget: Option<Budget>,
        dense: bool,
        limits: Limits,
        pause: &mut dyn FnMut() -> bool,
    ) -> Step {
        if budget.is_none() && !dense && limits == Limits::NONE {
            return self.next_full_width_magic(bits, pause);
        }
        let started = Instant::now();
        let spent_before = self.progress.spent;
        // The counts live in locals during the loop (they stay in registers) and go back to
        // the progress when it ends.
        let (mut attempts, mut tried) = (self.progress.attempts, self.progress.tried);
        // Every call makes progress before it may pause: a pause that always says yes still
        // lets the search advance by up to PAUSE_CHECK candidates per call.
        let mut first = true;
        let step = loop {
            if !first && attempts.is_multiple_of(PAUSE_CHECK) && pause() {
                self.progress.spent = spent_before + started.elapsed();
                break Step::Paused;
            }
            first = false;
            attempts += 1;
            tried += 1;
            match budget {
                Some(Budget::Attempts(limit)) if attempts > limit => break Step::Exhausted,
                Some(Budget::Time(limit))
                    if attempts.is_multiple_of(PAUSE_CHECK)
                        && spent_before + started.elapsed() > limit =>
                {
                    break Step::Exhausted;
                }
                _ => {}
            }
            let magic = if dense {
                mixed_density_candidate(&mut self.rng, attempts)
            } else {
                sparse_candidate(&mut self.rng)
            };
            if self.early_reject && !dense && !spreads_over_the_top_byte(self.tester.mask(), magic)
            {
                continue;
            }
            if let Some((lowest, highest)) = self.tester.test_within(magic, bits, limits)
                && (limits.comb == usize::MAX || self.tester.comb_cost(magic, bits) < limits.comb)
            {
                break Step::Found(Found {
                    magic,
                    lowest,
                    highest,
                });
            }
        };
        self.progress.attempts = attempts;
        self.progress.tried = tried;
        step
    }
}

/// A sparse candidate (about 8 bits set): at full width these succeed far more often.
#[inline]
pub(crate) fn sparse_candidate(rng: &mut Xoshiro256PlusPlus) -> u64 {
    rng.next_u64() & rng.next_u64() & rng.next_u64()
}

/// The `n`th candidate of a search for magics that need many constructive collisions (fewer
/// bits than the mask, narrow spans), which dense multipliers make far more often (measured in
/// results/analysis.md, "Reduced-bit (hard) fancy magics"): densities of 1/2, 1/4 and 1/8 in
/// turn.
#[inline]
pub(crate) fn mixed_density_candidate(rng: &mut Xoshiro256PlusPlus, n: u64) -> u64 {
    match n % 3 {
        0 => rng.next_u64(),
        1 => rng.next_u64() & rng.next_u64(),
        _ => sparse_candidate(rng),
    }
}
