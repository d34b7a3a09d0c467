//! One square at a time: test a single magic ([`check_magic`]), or every candidate of a range
//! ([`hunt`]): an exhaustive search whose empty result proves that the range holds no magic.
//!
//! A range can cover a square's whole space: the product `key * magic` is taken modulo 2^64,
//! so magic bits at or above `64 - t`, where `t` is the fewest trailing zeros of any nonzero
//! key, never reach the product, and every candidate acts like its remainder modulo
//! [`Target::period`] (Niklas Fiekas, "Disproving the existence of some magics", 2017).

pub(crate) mod state_file;
mod status;

pub use status::HuntStatus;

use core::fmt;
use core::ops::Range;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::blocks::{Split, in_block_order};
use crate::engine::{Found, Tester};
use bitforge_index::Scheme;
use bitforge_index::SliderKind;
use bitforge_index::Subsets;
use bitforge_index::geometry::{relevant_mask, square_name};
use bitforge_index::{SlotUse, VerifyError, occupancies_with_attacks};

/// The most index bits [`check_magic`] and [`hunt`] take: 2^20 slots, far more than the 12 a
/// rook's mask needs.
pub(crate) const MAX_BITS: u8 = 20;

/// One square, an index width and a scheme: what a magic is checked or hunted for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    kind: SliderKind,
    square: u8,
    bits: u8,
    scheme: Scheme,
}

/// Why a [`Target`] cannot be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetError {
    /// A square number outside `0..64`.
    Square(u8),
    /// Index bits outside `1..=MAX_BITS`.
    Bits(u8),
}

impl fmt::Display for TargetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TargetError::Square(square) => write!(f, "square {square} is not in 0..64"),
            TargetError::Bits(bits) => {
                write!(f, "{bits} index bits: expected 1 to {MAX_BITS}")
            }
        }
    }
}

impl std::error::Error for TargetError {}

impl Target {
    /// The target `kind` on `square` (`0..64`, a1 = 0) with `bits` index bits under `scheme`.
    pub fn new(
        kind: SliderKind,
        square: u8,
        bits: u8,
        scheme: Scheme,
    ) -> Result<Self, TargetError> {
        if square >= 64 {
            return Err(TargetError::Square(square));
        }
        if !(1..=MAX_BITS).contains(&bits) {
            return Err(TargetError::Bits(bits));
        }
        Ok(Target {
            kind,
            square,
            bits,
            scheme,
        })
    }

    /// The index bits a magic for this square needs at most: the mask's bit count, or the
    /// scheme's fixed 12 (rook) or 9 (bishop).
    pub fn full_bits(kind: SliderKind, square: u8, scheme: Scheme) -> u8 {
        scheme
            .fixed_bits(kind)
            .unwrap_or(relevant_mask(kind, square % 64).count_ones() as u8)
    }

    /// The slider kind.
    pub fn kind(&self) -> SliderKind {
        self.kind
    }

    /// The square (`0..64`).
    pub fn square(&self) -> u8 {
        self.square
    }

    /// The index bits.
    pub fn bits(&self) -> u8 {
        self.bits
    }

    /// The scheme.
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    fn keys(&self) -> impl Iterator<Item = u64> + '_ {
        let mask = relevant_mask(self.kind, self.square);
        Subsets::new(mask).map(move |occupancy| self.scheme.key(occupancy, mask))
    }

    /// Candidates at or past this number act like their remainder modulo it: `2^(64 - t)`,
    /// `t` the fewest trailing zeros of a nonzero key (the mask's lowest square for fancy and
    /// fixed magics; black keys have bit 0 set, so their period is all 2^64 numbers).
    pub fn period(&self) -> u128 {
        let zeros = self
            .keys()
            .filter(|&key| key != 0)
            .map(u64::trailing_zeros)
            .min()
            .unwrap_or(0);
        1u128 << (64 - zeros)
    }

    /// No candidate below this number is a magic: for fancy and fixed magics,
    /// `2^(64 - bits - t)`, below which the occupancy of the mask's lowest square alone lands
    /// on index 0 with the empty occupancy, although their attacks differ. 0 for black magics.
    pub fn lower_bound(&self) -> u128 {
        match self.scheme {
            Scheme::Black => 0,
            Scheme::Fancy | Scheme::Fixed => {
                let zeros = relevant_mask(self.kind, self.square).trailing_zeros();
                1u128 << 64u32.saturating_sub(u32::from(self.bits) + zeros)
            }
        }
    }

    /// The whole space: every candidate that can differ from another, `0..period`.
    pub fn space(&self) -> Range<u128> {
        0..self.period()
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}, {} bits, {}",
            self.kind,
            square_name(self.square),
            self.bits,
            self.scheme
        )
    }
}

/// What [`check_magic`] found for a valid magic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MagicCheck {
    /// The lowest index used.
    pub lowest: usize,
    /// The highest index used: a table for this square needs `highest + 1` entries.
    pub highest: usize,
    /// Distinct slots used.
    pub used_slots: usize,
    /// The square's relevant occupancies.
    pub occupancies: usize,
    /// Occupancies that share a slot with an earlier one holding the same attacks (constructive
    /// collisions): `occupancies - used_slots`.
    pub constructive: usize,
}

/// Checks `magic` on `target`'s square against the reference ray walker: every relevant
/// occupancy, in the order of [`Subsets`]. On a destructive collision, the error names the two
/// occupancies (as [`VerifyError::Collision`], the slot being the index).
pub fn check_magic(target: Target, magic: u64) -> Result<MagicCheck, VerifyError> {
    let mask = relevant_mask(target.kind, target.square);
    let mut slots: HashMap<usize, (u64, u64)> = HashMap::new();
    let (mut lowest, mut highest, mut occupancies) = (usize::MAX, 0, 0);
    for (occupancy, attacks) in occupancies_with_attacks(target.kind, target.square) {
        occupancies += 1;
        let index = target.scheme.index(occupancy, mask, magic, target.bits);
        let use_of = |occupancy| SlotUse {
            kind: target.kind,
            square: target.square,
            occupancy,
        };
        match slots.get(&index) {
            None => {
                slots.insert(index, (occupancy, attacks));
                lowest = lowest.min(index);
                highest = highest.max(index);
            }
            Some(&(_, held)) if held == attacks => {}
            Some(&(first, _)) => {
                return Err(VerifyError::Collision {
                    slot: index as i64,
                    first: use_of(first),
                    second: use_of(occupancy),
                });
            }
        }
    }
    Ok(MagicCheck {
        lowest,
        highest,
        used_slots: slots.len(),
        occupancies,
        constructive: occupancies - slots.len(),
    })
}

/// Which of two candidates for [`HuntReport::best`] to keep: the fewer slots, then the smaller
/// magic.
pub(crate) fn fewest_slots(best: Option<Found>, other: Option<Found>) -> Option<Found> {
    [best, other]
        .into_iter()
        .flatten()
        .min_by_key(|found| (found.span(), found.magic))
}

/// A hunt's state: what it covered and found so far. A finished hunt, a checkpoint of an
/// interrupted one and the merge of several chunks are all one of these
/// ([`to_text`](Self::to_text) and [`parse`](Self::parse) write and read it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HuntReport {
    /// What is hunted for.
    pub target: Target,
    /// The candidates to cover (inside [`Target::space`]).
    pub range: Range<u128>,
    /// Every candidate from the range's start up to this one (excluded) is covered.
    pub done: u128,
    /// Of those, how many lay below [`Target::lower_bound`] (rejected without a test).
    pub below_bound: u128,
    /// Magics found in the covered part.
    pub found_count: u64,
    /// The smallest of them, in increasing order (at most as many as the hunt was asked to
    /// keep).
    pub found: Vec<Found>,
    /// The one with the fewest slots from its lowest index to its highest (the smallest magic
    /// among equals).
    pub best: Option<Found>,
    /// Milliseconds spent hunting the covered part, over every run that resumed it (0 in files
    /// written before this was kept): what a status view turns into a rate.
    pub elapsed_ms: u64,
}

impl HuntReport {
    /// A hunt of `range` for `target` that has covered nothing yet; the range is clamped to
    /// the target's space.
    pub fn new(target: Target, range: Range<u128>) -> Self {
        let period = target.period();
        let start = range.start.min(period);
        HuntReport {
            target,
            range: start..range.end.clamp(start, period),
            done: start,
            below_bound: 0,
            found_count: 0,
            found: Vec::new(),
            best: None,
            elapsed_ms: 0,
        }
    }

    /// Whether the whole range is covered.
    pub fn complete(&self) -> bool {
        self.done >= self.range.end
    }

    /// Candidates covered, tested or not.
    pub fn covered(&self) -> u128 {
        self.done - self.range.start
    }

    /// Whether the range is covered and holds no magic: a proof over that range.
    pub fn proves_none(&self) -> bool {
        self.complete() && self.found_count == 0
    }

    /// Whether the range is the target's whole space: a complete hunt then covers every magic
    /// there is.
    pub fn is_whole_space(&self) -> bool {
        self.range == self.target.space()
    }

    /// Adds `found` (magics of the candidates just past those covered, in increasing order),
    /// keeping at most `keep` in the list.
    pub(crate) fn record(&mut self, found: &[Found], count: u64, best: Option<Found>, keep: usize) {
        let room = keep.saturating_sub(self.found.len());
        self.found.extend(found.iter().take(room));
        self.found_count += count;
        self.best = fewest_slots(self.best, best);
    }
}

/// Candidates per block handed to a thread.
const BLOCK: u128 = 1 << 20;

/// One block's findings.
struct BlockResult {
    end: u128,
    found: Vec<Found>,
    count: u64,
    best: Option<Found>,
}

/// Continues `report`'s hunt from where it stopped, on `threads` threads (at least one),
/// keeping the `keep` smallest magics found. `progress` is called with the candidates covered
/// since its last call; `checkpoint` with the state each time it grows (from the thread that
/// grew it: keep it short, or throttle it); setting `stop` ends the hunt early, keeping
/// everything up to the first unfinished block. The result does not depend on the thread
/// count, nor on where the hunt was stopped and resumed.
pub fn hunt(
    mut report: HuntReport,
    threads: usize,
    keep: usize,
    progress: &(dyn Fn(u64) + Sync),
    checkpoint: &(dyn Fn(&HuntReport) + Sync),
    stop: &AtomicBool,
) -> HuntReport {
    let target = report.target;
    let elapsed_ms = elapsed_since(report.elapsed_ms);
    let bound = target
        .lower_bound()
        .clamp(report.done, report.range.end.max(report.done));
    if bound > report.done {
        report.below_bound += bound - report.done;
        progress(u64::try_from(bound - report.done).unwrap_or(u64::MAX));
        report.done = bound;
        checkpoint(&report);
    }
    let from = report.done;
    let to = report.range.end.max(from);
    let blocks = u64::try_from((to - from).div_ceil(BLOCK)).unwrap_or(u64::MAX);
    let mut report = in_block_order(
        report,
        Split {
            blocks,
            threads,
            stop,
        },
        || Tester::new(target.kind, target.square, target.scheme),
        |tester, block| {
            let start = from + u128::from(block) * BLOCK;
            let end = (start + BLOCK).min(to);
            let mut result = BlockResult {
                end,
                found: Vec::new(),
                count: 0,
                best: None,
            };
            // Every candidate of the space fits in 64 bits: the period is at most 2^64.
            for candidate in start..end {
                let magic = candidate as u64;
                if let Some((lowest, highest)) = tester.test(magic, target.bits) {
                    let here = Found {
                        magic,
                        lowest,
                        highest,
                    };
                    result.count += 1;
                    result.best = fewest_slots(result.best, Some(here));
                    if result.found.len() < keep {
                        result.found.push(here);
                    }
                }
            }
            progress((end - start) as u64);
            Some(result)
        },
        |report, ready| {
            report.record(&ready.found, ready.count, ready.best, keep);
            report.done = ready.end;
        },
        |report| {
            report.elapsed_ms = elapsed_ms();
            checkpoint(report);
        },
    );
    report.elapsed_ms = elapsed_ms();
    report
}

/// Milliseconds spent so far: `earlier` plus the time since this call.
pub(crate) fn elapsed_since(earlier: u64) -> impl Fn() -> u64 + Sync {
    let started = Instant::now();
    move || {
        let now = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        earlier.saturating_add(now)
    }
}

#[cfg(test)]
mod tests;
