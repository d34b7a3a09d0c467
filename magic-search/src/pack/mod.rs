//! Overlapping the squares' slices into one shared table.
//!
//! A square's slice is a run of slots, some used (each with the attack set it must hold) and
//! some never selected. Two slices may overlap wherever one of them leaves a slot unused or both
//! want the same attack set there; in a post-masked set, wherever each lookup's mask recovers
//! its own attacks from the union of what the slot holds. Finding the smallest arrangement is
//! NP-complete, so slices are placed first-fit (one by one, each at the lowest offset where it
//! fits) and the search is over their order: largest first, then seeded perturbations of it
//! kept when smaller, then, if asked, simulated annealing, which also takes a larger table now
//! and then to leave a local minimum.

use std::sync::atomic::{AtomicBool, Ordering};

use bitforge_index::MagicSet;
use bitforge_index::SliderKind;
use bitforge_index::{VerifyError, verify};

mod arrange;
mod choose;
mod fill;
mod slices;
mod stacking;

use arrange::*;
pub use choose::{ChooseError, pack_choosing};
pub(crate) use fill::{FILL_MIN_SPAN, FILL_OVERHANG};
pub use slices::{IndexSpans, index_spans};

/// How hard [`pack`] looks for a smaller arrangement. The default is quick (well under a
/// second for a black set); record attempts raise `anneal_steps`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PackEffort {
    /// Seeded random perturbations of the largest-first order, each kept only if its table is
    /// smaller.
    pub tries: u32,
    /// Steps of simulated annealing after the tries, from the best order they found; each
    /// step moves one slice a few places in the order and places them all again.
    pub anneal_steps: u64,
    /// The annealing's starting temperature, in table entries: a step that makes the table `d`
    /// entries larger is taken with probability `exp(-d / T)`. `T` falls geometrically to
    /// half an entry over the steps.
    pub start_temperature: f64,
    /// Seed of the perturbations and of the annealing (of the first chain).
    pub seed: u64,
    /// Independent searches (tries, then annealing), each on its own thread, chain `i` seeded
    /// with `seed + i`; the smallest table wins. One chain gives what `seed` alone gives. 0
    /// counts as 1, and more than [`MAX_CHAINS`] as that many.
    pub chains: u32,
    /// Before placing, stack comb slices (used slots in short teeth, with gaps of one period:
    /// see [`Prefer::Comb`](crate::Prefer::Comb)) into each other, greedily, the
    /// pair that saves the most slots first, and place each stack as one: combs, which
    /// first-fit spreads over other slices' holes, then interleave whole. A slice alone and at
    /// least 1,024 slots long that fits another stack's holes whole is stacked there too.
    pub stack: bool,
    /// With `stack`: steps of the annealing that searches a slice a magic fitting another
    /// stack's holes (see `stack`); 0, none. Each slice alone in its stack, at least 1,024
    /// slots long, is tried against each stack with holes enough, and a
    /// magic that fits is kept when the quick packing gets smaller with it.
    pub fill_steps: u64,
}

/// The most chains [`pack`] runs at once (a thread each).
pub const MAX_CHAINS: u32 = 1024;

/// The annealing's temperature at its last step: by then a step that costs an entry is taken
/// about one time in seven.
pub(crate) const FINAL_TEMPERATURE: f64 = 0.5;

/// How far (in places of the order) an annealing step moves a slice at most: far enough to
/// change which slices meet, near enough that large slices stay early, which first-fit needs.
const MOVE_REACH: u64 = 16;

impl Default for PackEffort {
    fn default() -> Self {
        PackEffort {
            tries: 16,
            anneal_steps: 0,
            start_temperature: 64.0,
            seed: 1,
            chains: 1,
            stack: false,
            fill_steps: 0,
        }
    }
}

/// Where a packing is: orders placed so far (tries and annealing steps), and the smallest
/// table yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackProgress {
    /// Orders placed after the largest-first one.
    pub orders: u64,
    /// Quick packings placed while choosing magics ([`pack_choosing`]; 0 for [`pack`]).
    pub choices: u64,
    /// Annealings run to fit slices into other stacks' holes ([`PackEffort::fill_steps`]).
    pub fills: u64,
    /// Entries of the smallest table so far.
    pub best_entries: usize,
}

/// What packing achieved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packed {
    /// The set with new offsets (and from [`pack_choosing`], the magics it chose).
    pub set: MagicSet,
    /// Entries of the packed table.
    pub entries: usize,
    /// Entries before packing.
    pub entries_before: usize,
    /// Whether `stop` ended the search early (the set is the best one found until then).
    pub stopped: bool,
    /// Squares whose magic [`pack_choosing`] changed, or filling did (see
    /// [`PackEffort::fill_steps`]).
    pub magics_changed: usize,
    /// Of those, the squares that filling gave a magic fitting another stack's holes.
    pub filled: usize,
    /// The annealings filling ran (see [`PackEffort::fill_steps`]).
    pub fill_attempts: u64,
}

/// Packs `set` with the given effort and keeps the smallest table; `progress` hears of every
/// order placed (from every chain's thread), and `stop` ends the search early, keeping the
/// best arrangement so far. The same effort gives the same set on any machine. The
/// input must verify, and so does the result (it is checked). The result is never larger
/// than the input's own table: a packed set that no order placed here beats comes back as
/// it was. A post-masked set
/// ([`MagicSet::post_masked`]) packs into one combined table, its slices sharing slots wherever
/// their masks allow.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use bitforge_index::Scheme;
/// use magic_search::{PackEffort, SearchConfig, find_set, pack};
///
/// let config = SearchConfig { scheme: Scheme::Black, ..SearchConfig::default() };
/// let (set, _) = find_set(&config, 1, &|_| {});
/// let effort = PackEffort { tries: 0, anneal_steps: 4, ..PackEffort::default() };
/// let packed = pack(&set, &effort, &|_| {}, &AtomicBool::new(false)).unwrap();
/// assert!(packed.entries < packed.entries_before);
/// ```
pub fn pack(
    set: &MagicSet,
    effort: &PackEffort,
    progress: &(dyn Fn(PackProgress) + Sync),
    stop: &AtomicBool,
) -> Result<Packed, VerifyError> {
    let entries_before = verify(set)?.entries();
    finish(set, set.clone(), entries_before, 0, effort, progress, stop)
}

/// Fills (if the effort asks) and arranges `chosen`, the magics of `input` or ones chosen for
/// it: the packed set, never larger than `input`'s own table if no magic changed.
/// `choices`: the quick packings placed before (reported with the progress).
fn finish(
    input: &MagicSet,
    chosen: MagicSet,
    entries_before: usize,
    choices: u64,
    effort: &PackEffort,
    progress: &(dyn Fn(PackProgress) + Sync),
    stop: &AtomicBool,
) -> Result<Packed, VerifyError> {
    let filled = if effort.stack && effort.fill_steps > 0 {
        fill::fill(&chosen, effort, choices, progress, stop)
    } else {
        fill::Filled {
            set: chosen,
            squares: 0,
            attempts: 0,
        }
    };
    let counts = (choices, filled.attempts);
    let mut packed = arrange(&filled.set, entries_before, counts, effort, progress, stop)?;
    packed.stopped |= stop.load(Ordering::Relaxed);
    packed.filled = filled.squares;
    packed.fill_attempts = filled.attempts;
    packed.magics_changed = SliderKind::ALL
        .into_iter()
        .map(|kind| {
            (input.entries(kind).iter().zip(packed.set.entries(kind)))
                .filter(|(before, after)| before.magic != after.magic)
                .count()
        })
        .sum();
    Ok(if packed.magics_changed == 0 {
        no_larger_than(input, packed)
    } else {
        packed
    })
}

/// `packed`, unless `set` (the same magics) already has a table no larger: then `set` as it
/// is, so that packing a packed set never loses what an earlier, longer search found.
fn no_larger_than(set: &MagicSet, packed: Packed) -> Packed {
    if packed.entries < packed.entries_before {
        return packed;
    }
    Packed {
        set: set.clone(),
        entries: packed.entries_before,
        ..packed
    }
}

#[cfg(test)]
pub(super) mod tests;
