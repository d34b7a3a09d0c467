//! The magic search: seeded random sparse candidates, a cheap early reject, and a collision
//! check that never clears its table.

use std::time::{Duration, Instant};

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use crate::hunt::Found;
use crate::lanes::{BATCH, Killers, Lanes, Scalar, spreads_over_the_top_byte};
use crate::tuned_streams::FANCY_STREAM_OFFSETS;
use bitforge_index::Scheme;
use bitforge_index::SliderKind;
use bitforge_index::Subsets;
use bitforge_index::geometry::{ray, ray_attacks, relevant_mask};

/// The seed the command line uses when none is given.
pub const DEFAULT_SEED: u64 = 0x0B17_F06E;

/// How many index bits to ask of each square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BitsTarget {
    /// As many bits as the relevant mask has (or the scheme's fixed 12/9): a magic always exists.
    #[default]
    Mask,
    /// `n` fewer bits than the mask on every square ("hard" magics). A square whose budget runs
    /// out keeps the best magic it found.
    Fewer(u8),
    /// As few bits as the budget allows: one fewer at a time, per square, until a level fails.
    Minimise,
}

impl core::fmt::Display for BitsTarget {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            BitsTarget::Mask => f.write_str("mask"),
            BitsTarget::Fewer(n) => write!(f, "-{n}"),
            BitsTarget::Minimise => f.write_str("min"),
        }
    }
}

impl core::str::FromStr for BitsTarget {
    type Err = String;

    /// `mask`, `min` or `-N` with N from 1 to 8.
    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "mask" => Ok(BitsTarget::Mask),
            "min" => Ok(BitsTarget::Minimise),
            _ => match text.strip_prefix('-').map(str::parse::<u8>) {
                Some(Ok(fewer @ 1..=8)) => Ok(BitsTarget::Fewer(fewer)),
                _ => Err(format!(
                    "'{text}' is not mask, min or -N with N from 1 to 8"
                )),
            },
        }
    }
}

/// What makes one valid magic better than another when a fixed or black search chooses among
/// candidates or narrows: what packs the square's slice tighter among the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Prefer {
    /// Fewer slots from the lowest index used to the highest: a short slice.
    #[default]
    Span,
    /// Fewer distinct slots used (more occupancies sharing a slot with the same attacks), then
    /// the shorter span: a slice with more holes, though scattered ones, which packing seldom
    /// fills (results/analysis.md, issue 19).
    Used,
    /// A smaller comb cost: the [`comb_footprint`] (the span, or for a slice whose used slots
    /// fall into a few neighbouring residues modulo a period, a comb, only its teeth) plus a
    /// [`COMB_SPAN_SHARE`]th of the span, since a comb's gaps are filled only where combs of
    /// its period fit them: a dense slice keeps its span unless a comb is much better. Combs
    /// of one period interleave, two or three in one span, when packed with
    /// [`PackEffort::stack`](crate::PackEffort::stack); the rank-8 rook squares have such
    /// magics and few short ones. Which combs pack best together, no search of one square
    /// sees: [`pack_choosing`](crate::pack_choosing) chooses among several searches' magics.
    Comb,
}

impl core::fmt::Display for Prefer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Prefer::Span => "span",
            Prefer::Used => "used",
            Prefer::Comb => "comb",
        })
    }
}

impl core::str::FromStr for Prefer {
    type Err = String;

    /// `span`, `used` or `comb`.
    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "span" => Ok(Prefer::Span),
            "used" => Ok(Prefer::Used),
            "comb" => Ok(Prefer::Comb),
            _ => Err(format!("'{text}' is not span, used or comb")),
        }
    }
}

/// When a search for a reduced-bit magic, or for a narrower span, gives up (a full-width magic
/// is always searched to the end). A narrowing search counts from its last improvement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Candidates tried per square and bit level. Deterministic.
    Attempts(u64),
    /// Wall-clock time per square and bit level. Results then depend on the machine's speed.
    Time(Duration),
}

impl core::fmt::Display for Budget {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Budget::Attempts(n) => write!(f, "{n} attempts"),
            Budget::Time(time) => write!(f, "{time:?}"),
        }
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget::Attempts(1 << 24)
    }
}

/// What to search for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// The index formula.
    pub scheme: Scheme,
    /// The seed of every square's random stream.
    pub seed: u64,
    /// Index bits to demand.
    pub bits: BitsTarget,
    /// When reduced-bit and narrowing searches give up.
    pub budget: Budget,
    /// For the fixed and black schemes: among this many valid magics per square, keep the best
    /// by `prefer` (which packs better). 1 keeps the first found.
    pub candidates: u32,
    /// For the fixed and black schemes: after the candidates, keep looking for magics better
    /// by `prefer` than the one kept, until `budget` candidates in a row bring no better one.
    pub narrow: bool,
    /// What makes a magic better for `candidates` and `narrow`.
    pub prefer: Prefer,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            scheme: Scheme::Fancy,
            seed: DEFAULT_SEED,
            bits: BitsTarget::Mask,
            budget: Budget::default(),
            candidates: 1,
            narrow: false,
            prefer: Prefer::Span,
        }
    }
}

/// The outcome for one square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SquareResult {
    /// The slider kind.
    pub kind: SliderKind,
    /// The square.
    pub square: u8,
    /// The magic found.
    pub magic: u64,
    /// Its index bits.
    pub bits: u8,
    /// Candidate multipliers tried (including those rejected early).
    pub candidates_tried: u64,
}

/// Totals over a whole set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Candidate multipliers tried.
    pub candidates_tried: u64,
    /// Squares searched.
    pub squares: usize,
}

/// A square's occupancies, pre-transformed into the scheme's key, with each attack set replaced
/// by a small id (so that the collision check compares bytes in L1, not 64-bit sets).
pub(crate) struct Problem {
    mask: u64,
    pub(crate) keys: Vec<u64>,
    pub(crate) attack_ids: Vec<u8>,
}

impl Problem {
    pub(crate) fn new(kind: SliderKind, square: u8, scheme: Scheme) -> Self {
        let mask = relevant_mask(kind, square);
        let rays = kind.steps().map(|step| ray(square, step));
        let (keys, attack_ids) = Subsets::new(mask)
            .map(|occupancy| {
                let attacks = ray_attacks(kind, square, occupancy);
                // An attack set is fixed by how far each ray reaches: number it in mixed radix.
                // A rook reaches at most 4 * 3 * 4 * 3 = 144 combinations, a bishop fewer.
                let id = rays.iter().fold(0u32, |id, &ray| {
                    let reach = (attacks & ray).count_ones();
                    id * ray.count_ones().max(1) + reach.saturating_sub(1)
                });
                (
                    scheme.key(occupancy, mask),
                    u8::try_from(id).expect("at most 144 distinct attack sets per square"),
                )
            })
            .unzip();
        Problem {
            mask,
            keys,
            attack_ids,
        }
    }

    /// How many distinct slots `magic` maps the keys to with `bits` index bits.
    fn used_slots(&self, magic: u64, bits: u8) -> usize {
        let shift = 64 - u32::from(bits);
        let mut seen = vec![0u64; (1usize << bits).div_ceil(64)];
        for &key in &self.keys {
            let index = bitforge_index::magic_index(key, magic, shift);
            seen[index / 64] |= 1 << (index % 64);
        }
        seen.iter().map(|word| word.count_ones() as usize).sum()
    }

    /// The comb cost of `magic` with `bits` index bits (see [`Prefer::Comb`]).
    fn comb_cost(&self, magic: u64, bits: u8) -> usize {
        let shift = 64 - u32::from(bits);
        let (mut lowest, mut highest, mut residues) = (usize::MAX, 0, 0u128);
        for &key in &self.keys {
            let index = bitforge_index::magic_index(key, magic, shift);
            lowest = lowest.min(index);
            highest = highest.max(index);
            residues |= 1 << (index % MAX_COMB_PERIOD);
        }
        let span = highest + 1 - lowest;
        comb_footprint(span, residues) + span / COMB_SPAN_SHARE
    }

    /// Moves key `number` to `position` if it is further back (the order of keys is free).
    fn promote(&mut self, number: usize, position: usize) {
        if number > position {
            self.keys.swap(number, position);
            self.attack_ids.swap(number, position);
        }
    }
}

/// The share of a slice's span that [`Prefer::Comb`] adds to its footprint: an eighth.
pub(crate) const COMB_SPAN_SHARE: usize = 8;

/// The longest period [`comb_footprint`] looks at.
pub(crate) const MAX_COMB_PERIOD: usize = 128;

/// The fewest periods a span must hold for [`comb_footprint`] to count it as a comb of that
/// period.
pub(crate) const MIN_TEETH: usize = 8;

/// The slots a slice blocks when other slices may fill its gaps: a slice `span` slots long
/// whose used slots are `residues` modulo [`MAX_COMB_PERIOD`] (a bit per residue). For a
/// period `p` (a power of two, at most [`MAX_COMB_PERIOD`], the span at least [`MIN_TEETH`]
/// periods long), the used residues modulo `p` lie in a circular run of `w` residues (the
/// teeth) and leave the other `p - w` to other slices of the same period: the slice blocks
/// `ceil(span / p) * w` slots. The footprint is the least of these and the span itself (a
/// dense slice's footprint is its span).
pub(crate) fn comb_footprint(span: usize, residues: u128) -> usize {
    let mut footprint = span;
    let (mut period, mut folded) = (MAX_COMB_PERIOD, residues);
    while period >= 2 {
        if span >= MIN_TEETH * period {
            let gap = longest_circular_gap(folded, period);
            footprint = footprint.min(span.div_ceil(period) * (period - gap));
        }
        period /= 2;
        let low = (1u128 << period) - 1;
        folded = (folded & low) | (folded >> period);
    }
    footprint
}

/// The longest circular run of clear bits among the low `period` bits of `residues`.
fn longest_circular_gap(residues: u128, period: usize) -> usize {
    let (mut longest, mut run) = (0, 0);
    for bit in 0..2 * period {
        if residues >> (bit % period) & 1 == 0 {
            run += 1;
            longest = longest.max(run.min(period));
        } else {
            run = 0;
        }
    }
    longest
}

/// What a candidate must stay below to be worth keeping: the slots its indices span, the
/// distinct slots it uses and its comb cost ([`Limits::NONE`]: anything valid). The comb cost
/// is measured only for valid candidates; the collision test stops at the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Limits {
    span: usize,
    used: usize,
    comb: usize,
}

impl Limits {
    const NONE: Limits = Limits {
        span: usize::MAX,
        used: usize::MAX,
        comb: usize::MAX,
    };
}

/// The reusable collision table. Each slot holds `epoch << 12 | key number`: a new candidate
/// starts on a clean table by bumping the epoch instead of clearing it, and a collision can name
/// the earlier key that holds the slot.
struct CollisionTable {
    slots: Vec<u32>,
    epoch: u32,
}

/// Bits of a slot that hold the key number (a square has at most 4096 keys).
const KEY_BITS: u32 = 12;

impl CollisionTable {
    const EPOCH_LIMIT: u32 = 1 << (32 - KEY_BITS);

    fn new() -> Self {
        CollisionTable {
            slots: Vec::new(),
            epoch: 0,
        }
    }

    /// Maps every key through `magic`: on success, the lowest and highest index used; on a
    /// destructive collision, the numbers of the two keys that collide; with `LIMITED`,
    /// `Err(None)` as soon as the indices span `limits.span` slots or more, or use `limits.used`
    /// distinct slots or more (a compile-time switch: the unlimited search, the common one, pays
    /// nothing for the checks).
    #[inline]
    fn try_magic<const LIMITED: bool>(
        &mut self,
        problem: &Problem,
        magic: u64,
        bits: u8,
        limits: Limits,
    ) -> Result<(usize, usize), Option<(usize, usize)>> {
        let size = 1usize << bits;
        if self.slots.len() < size {
            self.slots.resize(size, 0);
        }
        self.epoch += 1;
        if self.epoch == Self::EPOCH_LIMIT {
            self.slots.fill(0);
            self.epoch = 1;
        }
        let (epoch, stamp) = (self.epoch, self.epoch << KEY_BITS);
        let shift = 64 - u32::from(bits);
        let slots = &mut self.slots[..size];
        let ids = &problem.attack_ids;
        let (mut lowest, mut highest, mut used) = (usize::MAX, 0, 0);
        for (number, (&key, &id)) in problem.keys.iter().zip(ids).enumerate() {
            // The index has `bits` bits already: the mask only shows the compiler that it is
            // in bounds.
            let index = bitforge_index::magic_index(key, magic, shift) & (size - 1);
            let slot = &mut slots[index];
            if *slot >> KEY_BITS != epoch {
                *slot = stamp | number as u32;
                // Only a limited search tracks the span as it goes; otherwise it is measured
                // once, for the rare candidate that passes.
                if LIMITED {
                    lowest = lowest.min(index);
                    highest = highest.max(index);
                    used += 1;
                    if highest - lowest >= limits.span || used >= limits.used {
                        return Err(None);
                    }
                }
            } else {
                let holder = (*slot & ((1 << KEY_BITS) - 1)) as usize;
                if ids.get(holder) != Some(&id) {
                    return Err(Some((holder, number)));
                }
            }
        }
        if !LIMITED {
            (lowest, highest) = problem
                .keys
                .iter()
                .fold((usize::MAX, 0), |(low, high), &key| {
                    let index = bitforge_index::magic_index(key, magic, shift);
                    (low.min(index), high.max(index))
                });
        }
        Ok((lowest, highest))
    }
}

/// How many keys at the front of a problem take turns holding the most recently colliding keys.
const FRONT: usize = 64;

/// Tests candidate magics for one square, failing early: the key pairs that collided last
/// are tried first (killers), and keys that collide move to the front of the order.
pub(crate) struct Tester {
    problem: Problem,
    table: CollisionTable,
    killers: Killers,
    next_front: usize,
}

impl Tester {
    pub(crate) fn new(kind: SliderKind, square: u8, scheme: Scheme) -> Self {
        Tester {
            problem: Problem::new(kind, square, scheme),
            table: CollisionTable::new(),
            killers: Killers::new(),
            next_front: 0,
        }
    }

    /// The square's relevant mask.
    pub(crate) fn mask(&self) -> u64 {
        self.problem.mask
    }

    /// Whether `magic` maps every key to `bits` index bits without two different attack sets
    /// sharing a slot: if so, the lowest and highest index used.
    #[inline]
    pub(crate) fn test(&mut self, magic: u64, bits: u8) -> Option<(usize, usize)> {
        self.test_within(magic, bits, Limits::NONE)
    }

    /// [`test`](Self::test), failing as well when the magic reaches `limits`.
    #[inline]
    fn test_within(&mut self, magic: u64, bits: u8, limits: Limits) -> Option<(usize, usize)> {
        // SAFETY: the scalar path runs on every CPU.
        if unsafe { Scalar::killed(&self.killers, magic, 64 - u32::from(bits)) } {
            return None;
        }
        self.test_table(magic, bits, limits)
    }

    /// How many distinct slots `magic` uses with `bits` index bits.
    fn used_slots(&self, magic: u64, bits: u8) -> usize {
        self.problem.used_slots(magic, bits)
    }

    /// The comb cost of `magic` with `bits` index bits.
    fn comb_cost(&self, magic: u64, bits: u8) -> usize {
        self.problem.comb_cost(magic, bits)
    }

    /// The test after the killers: every key into the collision table.
    #[inline]
    fn test_table(&mut self, magic: u64, bits: u8, limits: Limits) -> Option<(usize, usize)> {
        let tried = if limits == Limits::NONE {
            self.table
                .try_magic::<false>(&self.problem, magic, bits, limits)
        } else {
            self.table
                .try_magic::<true>(&self.problem, magic, bits, limits)
        };
        match tried {
            Ok(span) => Some(span),
            Err(None) => None,
            Err(Some((first, second))) => {
                let keys = &self.problem.keys;
                self.killers.remember(keys[first], keys[second]);
                // Move the colliding keys to the front: the next candidates meet them early.
                let front = self.next_front;
                self.next_front = (self.next_front + 2) % FRONT;
                self.problem.promote(second, front);
                self.problem.promote(first, front + 1);
                None
            }
        }
    }
}

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
enum Step {
    Found(Found),
    Exhausted,
    Paused,
}

/// How often, in candidates, the candidate loop looks at the clock and asks whether to pause.
const PAUSE_CHECK: u64 = 4096;

/// One square's search: its tester, its random stream and where it stands.
pub(crate) struct SquareSearch {
    tester: Tester,
    rng: Xoshiro256PlusPlus,
    progress: SquareProgress,
    seed: u64,
    early_reject: bool,
    /// Whether the full-width search's cheap tests run in AVX-512 lanes here.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    avx512: bool,
}

/// The stream a square's search draws from: its own, so that the result depends neither on the
/// thread count nor on the order of the squares. `offset` picks another of the square's
/// streams (every 128th): fancy searches use [`FANCY_STREAM_OFFSETS`].
fn stream_seed(kind: SliderKind, square: u8, seed: u64, offset: u16) -> u64 {
    let stream = (kind as u64) * 64 + u64::from(square) + 1 + 128 * u64::from(offset);
    seed ^ stream.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The stream offset a square's search uses under `scheme`.
fn stream_offset(kind: SliderKind, square: u8, scheme: Scheme) -> u16 {
    match scheme {
        Scheme::Fancy => FANCY_STREAM_OFFSETS[kind as usize][usize::from(square)],
        Scheme::Fixed | Scheme::Black => 0,
    }
}

fn stream_words(rng: &Xoshiro256PlusPlus) -> [u64; 4] {
    let bytes = rng.state();
    core::array::from_fn(|i| {
        u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().expect("8 bytes"))
    })
}

fn stream_from_words(words: [u64; 4]) -> Xoshiro256PlusPlus {
    let mut bytes = [0u8; 32];
    for (chunk, word) in bytes.chunks_exact_mut(8).zip(words) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    Xoshiro256PlusPlus::from_seed(bytes)
}

/// The full index width of a square under `scheme`.
fn full_bits(kind: SliderKind, square: u8, scheme: Scheme) -> u8 {
    scheme
        .fixed_bits(kind)
        .unwrap_or(relevant_mask(kind, square).count_ones() as u8)
}

/// The reduced bit levels `config` asks of a square `full` bits wide, as bits below the full
/// width, in order (fancy magics only).
fn reduced_levels(config: &SearchConfig, full: u8) -> core::ops::Range<u8> {
    if config.scheme != Scheme::Fancy {
        return 0..0;
    }
    match config.bits {
        BitsTarget::Mask => 0..0,
        BitsTarget::Fewer(n) => n..n + 1,
        BitsTarget::Minimise => 1..full,
    }
}

/// Whether `config` looks for narrower spans after its candidates.
fn narrows(config: &SearchConfig) -> bool {
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

    fn resume(progress: SquareProgress, config: &SearchConfig) -> Self {
        SquareSearch {
            tester: Tester::new(progress.kind, progress.square, config.scheme),
            rng: stream_from_words(progress.stream),
            progress,
            seed: config.seed,
            early_reject: config.scheme != Scheme::Black,
            #[cfg(target_arch = "x86_64")]
            avx512: crate::lanes::Avx512::available(),
            #[cfg(not(target_arch = "x86_64"))]
            avx512: false,
        }
    }

    fn progress(&self) -> SquareProgress {
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
    fn run(&mut self, config: &SearchConfig, pause: &mut dyn FnMut() -> bool) {
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
        loop {
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
    fn next_magic(
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
    /// the same result, but drawn [`BATCH`] at a time, their cheap tests in vector lanes where
    /// the CPU has them, and no branch per candidate for the nine in ten that the top-byte
    /// filter rejects. With AVX-512, whole pause intervals are drawn in eight lanes at once
    /// ([`Block`](crate::lanes::Block)).
    fn next_full_width_magic(&mut self, bits: u8, pause: &mut dyn FnMut() -> bool) -> Step {
        #[cfg(target_arch = "x86_64")]
        if self.avx512 {
            // SAFETY: `avx512` is set only where `Avx512::available()`.
            return unsafe { self.full_width_avx512(bits, pause) };
        }
        // SAFETY: the scalar path runs on every CPU.
        unsafe { self.full_width::<Scalar>(bits, pause, false) }
    }

    /// The full-width loop compiled with AVX-512, for [`crate::lanes::Avx512`]: up to the next
    /// pause point in batches, then in blocks. A stage's first pause interval is drawn in
    /// batches too: a tuned stream finds most magics there, sooner than a block is drawn.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vpopcntdq")]
    fn full_width_avx512(&mut self, bits: u8, pause: &mut dyn FnMut() -> bool) -> Step {
        let before = self.progress.attempts;
        if before == 0 || !before.is_multiple_of(PAUSE_CHECK) {
            // SAFETY: this function's features are those `Avx512` needs.
            match unsafe { self.full_width::<crate::lanes::Avx512>(bits, pause, true) } {
                Step::Paused if self.progress.attempts.is_multiple_of(PAUSE_CHECK) => {}
                step => return step,
            }
        }
        // SAFETY: as above.
        unsafe { self.full_width_blocks(bits, pause, self.progress.attempts == before) }
    }

    /// The full-width loop from a pause point on, one [`Block`](crate::lanes::Block) (a pause
    /// interval) at a time. `first`: this call has drawn nothing yet (it does not pause
    /// before it has).
    ///
    /// # Safety
    /// The CPU has the features of [`crate::lanes::Avx512`].
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn full_width_blocks(
        &mut self,
        bits: u8,
        pause: &mut dyn FnMut() -> bool,
        mut first: bool,
    ) -> Step {
        use crate::lanes::{Avx512, BLOCK, Block};
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
            // SAFETY: the caller guarantees Avx512's features.
            unsafe { Avx512::draw(&mut block, mask, self.early_reject) };
            for (number, magic) in block.passed() {
                // SAFETY: as above.
                if unsafe { Avx512::killed(&self.tester.killers, magic, shift) } {
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
    unsafe fn full_width<L: Lanes>(
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

/// Finds a magic for one square.
pub fn find_square(kind: SliderKind, square: u8, config: &SearchConfig) -> SquareResult {
    let mut progress = SquareProgress::new(kind, square, config);
    progress.resume(config, &mut || false);
    progress
        .result()
        .expect("a search that never pauses ends with a magic")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::find::find_set;
    use bitforge_index::verify;

    #[test]
    fn a_comb_blocks_its_teeth_and_a_dense_slice_its_span() {
        // Used slots 5, 6, 7 of every 8, over 4,096 slots: teeth 3 wide, 512 of them.
        let residues = (0..128)
            .filter(|r| r % 8 >= 5)
            .fold(0u128, |m, r| m | 1 << r);
        assert_eq!(comb_footprint(4096, residues), 3 * 512);
        // Every residue used: no gap to share, the span.
        assert_eq!(comb_footprint(1024, u128::MAX), 1024);
    }

    #[test]
    fn a_full_fancy_set_verifies_with_the_published_size() {
        let (set, stats) = find_set(&SearchConfig::default(), 1, &|_| {});
        assert_eq!(stats.squares, 128);
        let table = verify(&set).expect("the search only returns valid magics");
        assert_eq!(table.entries(), 107_648);
    }

    #[test]
    fn the_tuned_streams_keep_the_default_fancy_search_short() {
        let (_, stats) = find_set(&SearchConfig::default(), 1, &|_| {});
        // 9,384 with the committed table; the plain streams took 10,249,680.
        assert!(
            stats.candidates_tried < 20_000,
            "{}",
            stats.candidates_tried
        );
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_vector_and_scalar_paths_search_alike() {
        if !crate::lanes::Avx512::available() {
            eprintln!("no AVX-512 here: only the scalar path ran");
            return;
        }
        let mut most = 0;
        for scheme in [Scheme::Fancy, Scheme::Black] {
            let config = SearchConfig {
                scheme,
                candidates: 3,
                ..SearchConfig::default()
            };
            for (kind, square) in [
                (SliderKind::Rook, 0),
                (SliderKind::Rook, 27),
                (SliderKind::Bishop, 9),
            ] {
                let start = SquareProgress::new(kind, square, &config);
                let mut vector = SquareSearch::resume(start, &config);
                let mut scalar = SquareSearch::resume(start, &config);
                scalar.avx512 = false;
                // Pausing at every chance: batches that end at every pause point.
                while !vector.progress.is_done() {
                    vector.run(&config, &mut || true);
                }
                scalar.run(&config, &mut || false);
                // And never pausing: block after block.
                let mut straight = SquareSearch::resume(start, &config);
                straight.run(&config, &mut || false);
                let (vector, scalar) = (vector.progress(), scalar.progress());
                let straight = straight.progress();
                assert_eq!(
                    (vector.best, vector.tried, vector.stream),
                    (scalar.best, scalar.tried, scalar.stream),
                    "{scheme} {kind:?} {square}"
                );
                assert_eq!(
                    (straight.best, straight.tried, straight.stream),
                    (scalar.best, scalar.tried, scalar.stream),
                    "{scheme} {kind:?} {square}"
                );
                assert!(vector.tried > 3, "{}", vector.tried);
                most = most.max(vector.tried);
            }
        }
        // Past the first pause interval, the vector path draws whole blocks: many of them here.
        assert!(most > 100 * PAUSE_CHECK, "{most}");
    }

    #[test]
    fn thread_count_does_not_change_the_set() {
        let config = SearchConfig {
            scheme: Scheme::Black,
            ..SearchConfig::default()
        };
        let (one, _) = find_set(&config, 1, &|_| {});
        let (two, _) = find_set(&config, 2, &|_| {});
        assert_eq!(one, two);
        verify(&one).unwrap();
    }

    #[test]
    fn seeds_change_the_set() {
        let other = SearchConfig {
            seed: 7,
            ..SearchConfig::default()
        };
        assert_ne!(
            find_set(&other, 2, &|_| {}).0,
            find_set(&SearchConfig::default(), 2, &|_| {}).0
        );
    }

    #[test]
    fn fewer_bits_with_a_budget_never_loses_the_full_magic() {
        let config = SearchConfig {
            bits: BitsTarget::Fewer(1),
            budget: Budget::Attempts(20_000),
            ..SearchConfig::default()
        };
        let result = find_square(SliderKind::Bishop, 0, &config);
        assert!(result.bits == 5 || result.bits == 6);
        let hard = find_square(SliderKind::Rook, 0, &config);
        assert!(hard.bits <= 12);
    }

    #[test]
    fn the_comb_footprint_counts_teeth_only_where_the_span_holds_enough_periods() {
        let residues_of = |used: &[usize]| used.iter().fold(0u128, |m, &r| m | 1 << r);
        // Residues 7 and 0 modulo 8 are neighbours (the run wraps): teeth 2 wide.
        let wrapping: Vec<usize> = (0..128).filter(|r| r % 8 == 7 || r % 8 == 0).collect();
        assert_eq!(longest_circular_gap(residues_of(&wrapping), 8), 6);
        assert_eq!(comb_footprint(800, residues_of(&wrapping)), 100 * 2);
        // 100 slots hold twelve periods of 8 (counted) but not eight of 16.
        assert_eq!(comb_footprint(100, residues_of(&wrapping)), 13 * 2);
        // Too short for any period: the span.
        assert_eq!(comb_footprint(15, residues_of(&wrapping)), 15);
        // Residues spread out every third: gaps of two, barely below the span.
        let spread: Vec<usize> = (0..128).step_by(3).collect();
        assert_eq!(comb_footprint(4096, residues_of(&spread)), 32 * 126);
        // Teeth of 40 in 128, over 4,096 slots.
        let teeth: Vec<usize> = (10..50).collect();
        assert_eq!(comb_footprint(4096, residues_of(&teeth)), 32 * 40);
    }

    /// Preferring the comb cost: among the same candidates never a higher cost than
    /// preferring the span, and narrowing by it lowers the cost further (rank 8's rooks,
    /// where combs are).
    #[test]
    fn preferring_combs_keeps_the_cheapest_comb() {
        let by_span = SearchConfig {
            scheme: Scheme::Black,
            candidates: 4,
            ..SearchConfig::default()
        };
        let by_comb = SearchConfig {
            prefer: Prefer::Comb,
            ..by_span
        };
        let narrowing = SearchConfig {
            narrow: true,
            budget: Budget::Attempts(20_000),
            ..by_comb
        };
        let mut cheaper = 0;
        for square in [56, 57, 62] {
            let problem = Problem::new(SliderKind::Rook, square, Scheme::Black);
            let cost = |config: &SearchConfig| {
                let found = find_square(SliderKind::Rook, square, config);
                problem.comb_cost(found.magic, found.bits)
            };
            let [span, comb, narrowed] = [by_span, by_comb, narrowing].map(|c| cost(&c));
            assert!(comb <= span, "square {square}: {comb} > {span}");
            assert!(narrowed <= comb, "square {square}: {narrowed} > {comb}");
            cheaper += usize::from(narrowed < span);
        }
        assert!(cheaper > 0);
    }
}
