//! One square's search: its stages, its random stream and the candidate loop.

use std::time::{Duration, Instant};

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use super::candidate_filter::{BATCH, Lanes, Path, Scalar, spreads_over_the_top_byte};
#[cfg(target_arch = "x86_64")]
use super::candidate_filter::{BLOCK, Block, Blocks};
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

    /// [`next_magic`](Self::next_magic) for a full-width stage (no budget, sparse candidates,
    /// no limits), the hot path of every search: the same candidates in the same order and
    /// the same result, but drawn [`BATCH`] at a time, with no branch per candidate for the
    /// nine in ten that the top-byte filter rejects. Where the CPU has AVX2 or AVX-512, the
    /// cheap tests run in vector lanes and, past a stage's first pause interval, whole pause
    /// intervals are drawn in eight lanes at once (`Block`): a tuned stream finds most magics
    /// in the first interval, sooner than a block is drawn. Without AVX2, blocks drawn in plain
    /// code were slower than batches (results/analysis.md, issue 38).
    pub(crate) fn next_full_width_magic(
        &mut self,
        bits: u8,
        pause: &mut dyn FnMut() -> bool,
    ) -> Step {
        match self.path {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Path::choose` picks `Avx512` only where `Avx512::available()`.
            Path::Avx512 => unsafe { self.full_width_avx512(bits, pause) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Path::choose` picks `Avx2` only where `Avx2::available()`.
            Path::Avx2 => unsafe { self.full_width_avx2(bits, pause) },
            // SAFETY: the scalar path runs on every CPU.
            _ => unsafe { self.full_width::<Scalar>(bits, pause, false) },
        }
    }

    /// The full-width loop compiled with AVX-512, for [`super::candidate_filter::Avx512`].
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vpopcntdq")]
    fn full_width_avx512(&mut self, bits: u8, pause: &mut dyn FnMut() -> bool) -> Step {
        // SAFETY: this function's features are those `Avx512` needs.
        unsafe { self.full_width_lanes::<super::candidate_filter::Avx512>(bits, pause) }
    }

    /// The full-width loop compiled with AVX2, for [`super::candidate_filter::Avx2`].
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn full_width_avx2(&mut self, bits: u8, pause: &mut dyn FnMut() -> bool) -> Step {
        // SAFETY: this function's features are those `Avx2` needs.
        unsafe { self.full_width_lanes::<super::candidate_filter::Avx2>(bits, pause) }
    }

    /// The full-width loop up to the next pause point in batches, then in blocks.
    ///
    /// # Safety
    /// The CPU has the features of `L`.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn full_width_lanes<L: Blocks>(
        &mut self,
        bits: u8,
        pause: &mut dyn FnMut() -> bool,
    ) -> Step {
        let before = self.progress.attempts;
        if before == 0 || !before.is_multiple_of(PAUSE_CHECK) {
            // SAFETY: the caller guarantees L's features.
            match unsafe { self.full_width::<L>(bits, pause, true) } {
                Step::Paused if self.progress.attempts.is_multiple_of(PAUSE_CHECK) => {}
                step => return step,
            }
        }
        // SAFETY: as above.
        unsafe { self.full_width_blocks::<L>(bits, pause, self.progress.attempts == before) }
    }

    /// The full-width loop from a pause point on, one [`Block`] (a pause interval) at a time.
    /// `first`: this call has drawn nothing yet (it does not pause before it has).
    ///
    /// # Safety
    /// The CPU has the features of `L`.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn full_width_blocks<L: Blocks>(
        &mut self,
        bits: u8,
        pause: &mut dyn FnMut() -> bool,
        mut first: bool,
    ) -> Step {
        const _: () = assert!(BLOCK as u64 == PAUSE_CHECK);
        let started = Instant::now();
        let (mut attempts, mut tried) = (self.progress.attempts, self.progress.tried);
        let mask = self.tester.mask();
        let shift = 64 - u32::from(bits);
        let mut block = Block::new(stream_words(&self.rng));
        loop {
            if !first && pause() {
                self.rng = stream_from_words(block.stream());
                self.progress.spent += started.elapsed();
                self.progress.attempts = attempts;
                self.progress.tried = tried;
                return Step::Paused;
            }
            first = false;
            // SAFETY: the caller guarantees L's features.
            unsafe { L::draw(&mut block, mask, self.early_reject) };
            for (number, magic) in block.passed() {
                // SAFETY: as above.
                if unsafe { L::killed(&self.tester.killers, magic, shift) } {
                    continue;
                }
                if let Some((lowest, highest)) = self.tester.test_table(magic, bits, Limits::NONE) {
                    self.rng = stream_from_words(block.stream_after(number));
                    let drawn = number as u64 + 1;
                    self.progress.attempts = attempts + drawn;
                    self.progress.tried = tried + drawn;
                    return Step::Found(Found {
                        magic,
                        lowest,
                        highest,
                    });
                }
            }
            block.advance();
            attempts += PAUSE_CHECK;
            tried += PAUSE_CHECK;
        }
    }

    /// # Safety
    /// The CPU has the features of `L`.
    /// `to_pause_point`: return [`Step::Paused`] at the next pause point without asking
    /// `pause`.
    #[inline(always)]
    pub(crate) unsafe fn full_width<L: Lanes>(
        &mut self,
        bits: u8,
        pause: &mut dyn FnMut() -> bool,
        to_pause_point: bool,
    ) -> Step {
        let started = Instant::now();
        let (mut attempts, mut tried) = (self.progress.attempts, self.progress.tried);
        let mask = self.tester.mask();
        let shift = 64 - u32::from(bits);
        let mut candidates = [0u64; BATCH];
        let (mut kept, mut numbers) = ([0u64; BATCH], [0u64; BATCH]);
        let mut first = true;
        loop {
            if !first && attempts.is_multiple_of(PAUSE_CHECK) && (to_pause_point || pause()) {
                self.progress.spent += started.elapsed();
                self.progress.attempts = attempts;
                self.progress.tried = tried;
                return Step::Paused;
            }
            first = false;
            // A batch ends where the one-at-a-time loop would ask `pause`.
            let count = (PAUSE_CHECK - attempts % PAUSE_CHECK).min(BATCH as u64) as usize;
            let stream_before = self.rng.clone();
            for candidate in &mut candidates[..count] {
                *candidate = sparse_candidate(&mut self.rng);
            }
            // SAFETY: the caller guarantees L's features.
            let total = unsafe {
                L::keep(
                    mask,
                    self.early_reject,
                    &candidates,
                    count,
                    &mut kept,
                    &mut numbers,
                )
            };
            for (&magic, &number) in kept[..total].iter().zip(&numbers[..total]) {
                // SAFETY: as above.
                if unsafe { L::killed(&self.tester.killers, magic, shift) } {
                    continue;
                }
                if let Some((lowest, highest)) = self.tester.test_table(magic, bits, Limits::NONE) {
                    // The stream goes on right after this candidate, as if drawn one by one.
                    self.rng = stream_before;
                    for _ in 0..=number {
                        sparse_candidate(&mut self.rng);
                    }
                    self.progress.attempts = attempts + number + 1;
                    self.progress.tried = tried + number + 1;
                    return Step::Found(Found {
                        magic,
                        lowest,
                        highest,
                    });
                }
            }
            attempts += count as u64;
            tried += count as u64;
        }
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
