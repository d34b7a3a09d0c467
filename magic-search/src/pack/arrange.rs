//! The order search: first-fit placement, perturbed orders and annealing chains.

use std::panic::resume_unwind;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::thread;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use super::slices::*;
use super::stacking::*;
use super::*;
use bitforge_index::MagicSet;
use bitforge_index::{SlotDemand, VerifyError, verify};

/// What `effort` places: the slices, or with `stack` their stacks ([`stack`]).
pub(crate) fn units(slices: Vec<Slice>, effort: &PackEffort) -> Vec<Slice> {
    if effort.stack { stack(slices) } else { slices }
}

/// The slices' indices, most used slots first (then the longest span): first-fit's best
/// single order.
pub(crate) fn largest_first(slices: &[Slice]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..slices.len()).collect();
    order.sort_by_key(|&i| {
        (
            core::cmp::Reverse(slices[i].used_slots()),
            core::cmp::Reverse(slices[i].span()),
        )
    });
    order
}

/// `order` with a few neighbours swapped: big slices stay early.
pub(crate) fn perturb(order: &[usize], rng: &mut Xoshiro256PlusPlus) -> Vec<usize> {
    let mut perturbed = order.to_vec();
    for _ in 0..8 {
        let i = (rng.next_u64() % (perturbed.len() as u64 - 1)) as usize;
        perturbed.swap(i, i + 1);
    }
    perturbed
}

/// [`pack`] once the input is known to verify: stacks if asked, places, searches the orders.
/// `(choices, fills)`: the quick packings and annealings before (reported with the progress).
pub(crate) fn arrange(
    set: &MagicSet,
    entries_before: usize,
    (choices, fills): (u64, u64),
    effort: &PackEffort,
    progress: &(dyn Fn(PackProgress) + Sync),
    stop: &AtomicBool,
) -> Result<Packed, VerifyError> {
    let slices = units(slices_of(set), effort);

    let largest_first = largest_first(&slices);
    let first = place(&slices, &largest_first);
    let shared = Shared {
        orders: AtomicU64::new(0),
        choices,
        fills,
        best_entries: AtomicUsize::new(first.0),
        progress,
        stop,
    };
    let chain = |index: u32| {
        Chain {
            slices: &slices,
            order: largest_first.clone(),
            best: first.clone(),
            rng: Xoshiro256PlusPlus::seed_from_u64(effort.seed.wrapping_add(u64::from(index))),
        }
        .run(effort, &shared)
    };
    let ends: Vec<ChainEnd> = thread::scope(|scope| {
        let others: Vec<_> = (1..effort.chains.clamp(1, MAX_CHAINS))
            .map(|index| scope.spawn(move || chain(index)))
            .collect();
        let mut ends = vec![chain(0)];
        for other in others {
            ends.push(other.join().unwrap_or_else(|panic| resume_unwind(panic)));
        }
        ends
    });
    let stopped = ends.iter().any(|end| end.stopped);
    // The smallest table; on a tie, the first chain's (so one chain gives what it always gave).
    let best = ends
        .into_iter()
        .min_by_key(|end| end.best.0)
        .expect("there is at least one chain");
    let (entries, starts) = best.best;

    let mut packed = set.clone();
    for (slice, start) in slices.iter().zip(starts) {
        for member in &slice.members {
            packed.entries_mut(member.kind)[member.square as usize].offset =
                (start + member.at) as i64 - member.lowest as i64;
        }
    }
    // The packer is a heuristic over hand-written bookkeeping: prove the result.
    let check = verify(&packed)?;
    debug_assert_eq!(check.entries(), entries);
    Ok(Packed {
        set: packed,
        entries: check.entries(),
        entries_before,
        stopped,
        magics_changed: 0,
        filled: 0,
        fill_attempts: 0,
    })
}

/// What the chains share: the progress of all of them, and the stop flag.
pub(crate) struct Shared<'a> {
    pub(crate) orders: AtomicU64,
    pub(crate) choices: u64,
    pub(crate) fills: u64,
    pub(crate) best_entries: AtomicUsize,
    pub(crate) progress: &'a (dyn Fn(PackProgress) + Sync),
    pub(crate) stop: &'a AtomicBool,
}

impl Shared<'_> {
    pub(crate) fn placed(&self, entries: usize) {
        let orders = self.orders.fetch_add(1, Ordering::Relaxed) + 1;
        let best = self
            .best_entries
            .fetch_min(entries, Ordering::Relaxed)
            .min(entries);
        (self.progress)(PackProgress {
            orders,
            choices: self.choices,
            fills: self.fills,
            best_entries: best,
        });
    }

    pub(crate) fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// One search over placement orders, from the largest-first one, with its own random stream.
pub(crate) struct Chain<'a> {
    pub(crate) slices: &'a [Slice],
    pub(crate) order: Vec<usize>,
    /// The smallest table met: its length and where each slice's first used slot goes.
    pub(crate) best: (usize, Vec<usize>),
    pub(crate) rng: Xoshiro256PlusPlus,
}

/// How a chain ended.
pub(crate) struct ChainEnd {
    pub(crate) best: (usize, Vec<usize>),
    pub(crate) stopped: bool,
}

impl Chain<'_> {
    pub(crate) fn run(mut self, effort: &PackEffort, shared: &Shared<'_>) -> ChainEnd {
        for _ in 0..effort.tries {
            if shared.stopped() {
                return self.end(true);
            }
            let perturbed = perturb(&self.order, &mut self.rng);
            let candidate = place(self.slices, &perturbed);
            if candidate.0 < self.best.0 {
                self.best = candidate;
                self.order = perturbed;
            }
            shared.placed(self.best.0);
        }

        let mut current = self.best.0;
        let mut temperature = effort.start_temperature.max(FINAL_TEMPERATURE);
        let cooling =
            (FINAL_TEMPERATURE / temperature).powf(1.0 / effort.anneal_steps.max(1) as f64);
        for _ in 0..effort.anneal_steps {
            if shared.stopped() {
                return self.end(true);
            }
            let moved = move_one(&self.order, &mut self.rng);
            let candidate = place(self.slices, &moved);
            let rise = candidate.0 as f64 - current as f64;
            if rise <= 0.0 || unit_interval(&mut self.rng) < (-rise / temperature).exp() {
                self.order = moved;
                current = candidate.0;
                if candidate.0 < self.best.0 {
                    self.best = candidate;
                }
            }
            temperature *= cooling;
            shared.placed(self.best.0);
        }
        self.end(false)
    }

    pub(crate) fn end(self, stopped: bool) -> ChainEnd {
        ChainEnd {
            best: self.best,
            stopped,
        }
    }
}

/// `order` with one slice moved up to [`MOVE_REACH`] places earlier or later.
pub(crate) fn move_one(order: &[usize], rng: &mut Xoshiro256PlusPlus) -> Vec<usize> {
    let last = order.len() - 1;
    let draw = rng.next_u64();
    let from = (draw % order.len() as u64) as usize;
    let reach = (1 + (draw >> 32) % MOVE_REACH) as usize;
    let to = if draw >> 63 == 0 {
        from.saturating_sub(reach)
    } else {
        (from + reach).min(last)
    };
    let mut moved = order.to_vec();
    let slice = moved.remove(from);
    moved.insert(to, slice);
    moved
}

/// A uniform draw from [0, 1).
pub(crate) fn unit_interval(rng: &mut Xoshiro256PlusPlus) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// First-fit placement in the given order: the table length and where each slice's first used
/// slot goes (in the slices' own order).
pub(crate) fn place(slices: &[Slice], order: &[usize]) -> (usize, Vec<usize>) {
    let mut table = Table::default();
    let mut starts = vec![0; slices.len()];
    for &i in order {
        let slice = &slices[i];
        let start = table.first_fit(slice, 0);
        table.add(slice, start);
        starts[i] = start;
    }
    (table.demands.len(), starts)
}

/// The shared table while slices are placed: what each slot must hold, and a bit per slot
/// that is no longer empty, so that a slice is checked a word of slots at a time.
#[derive(Default)]
pub(crate) struct Table {
    pub(crate) demands: Vec<SlotDemand>,
    pub(crate) filled: Vec<u64>,
}

impl Table {
    /// Puts `slice` with its first used slot at `start`.
    pub(crate) fn add(&mut self, slice: &Slice, start: usize) {
        let end = start + slice.span();
        if end > self.demands.len() {
            self.demands.resize(end, SlotDemand::default());
            self.filled.resize(end.div_ceil(64), 0);
        }
        for index in slice.used() {
            let slot = start + index;
            self.demands[slot] = self.demands[slot].union(slice.demands[index]);
            self.filled[slot / 64] |= 1 << (slot % 64);
        }
    }

    /// The lowest start from `from` on where `slice` fits.
    pub(crate) fn first_fit(&self, slice: &Slice, from: usize) -> usize {
        let mut start = from;
        loop {
            if slice.plain {
                // A plain slice's first slot needs an empty one: skip filled runs.
                start = self.next_empty(start);
            }
            if self.fits(slice, start) {
                return start;
            }
            start += 1;
        }
    }

    /// Whether `slice` fits with its first used slot at `start`: only where its used slots
    /// meet filled ones are the demands compared.
    #[inline(always)]
    pub(crate) fn fits(&self, slice: &Slice, start: usize) -> bool {
        let (first_word, shift) = (start / 64, start % 64);
        let mut carried = 0;
        for (k, &bits) in slice.bits.iter().chain([&0]).enumerate() {
            let here = (bits << shift) | carried;
            carried = if shift == 0 { 0 } else { bits >> (64 - shift) };
            let Some(&filled) = self.filled.get(first_word + k) else {
                return true;
            };
            let mut met = here & filled;
            // A plain slice shares no slot: different squares' attack sets are never equal.
            if slice.plain && met != 0 {
                return false;
            }
            while met != 0 {
                let slot = (first_word + k) * 64 + met.trailing_zeros() as usize;
                if !self.demands[slot].joins(slice.demands[slot - start]) {
                    return false;
                }
                met &= met - 1;
            }
        }
        true
    }

    /// The first slot from `from` on that no slice uses (past the end, if none is).
    pub(crate) fn next_empty(&self, from: usize) -> usize {
        let mut word = from / 64;
        let mut empty = self.filled.get(word).map_or(u64::MAX, |&w| !w) & (u64::MAX << (from % 64));
        while empty == 0 {
            word += 1;
            empty = self.filled.get(word).map_or(u64::MAX, |&w| !w);
        }
        word * 64 + empty.trailing_zeros() as usize
    }
}
