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

use std::collections::HashMap;
use std::panic::resume_unwind;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::thread;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use crate::search::{MAX_COMB_PERIOD, comb_footprint};
use bitforge_index::MagicSet;
use bitforge_index::SliderKind;
use bitforge_index::geometry::{relevant_mask, square_name};
use bitforge_index::{SlotDemand, VerifyError, occupancies_with_attacks, verify};

mod fill;

pub(crate) use fill::{FILL_MIN_SPAN, FILL_OVERHANG};

/// A square whose slice is placed as part of a [`Slice`].
#[derive(Clone, Copy, Debug)]
struct Member {
    kind: SliderKind,
    square: u8,
    /// The index of the square's first used slot.
    lowest: usize,
    /// Where that slot lies in the slice, counted from the slice's first used slot.
    at: usize,
}

/// A run of slots placed as one: a square's slice (some slots used, each with what it must
/// hold, some never selected), or several squares' slices stacked into each other's unused
/// slots (see [`stack`]).
#[derive(Clone)]
struct Slice {
    members: Vec<Member>,
    /// What each slot from the first used one to the last must hold (no demand where unused).
    demands: Vec<SlotDemand>,
    /// A bit per slot from the first used one on, set where used.
    bits: Vec<u64>,
    /// Whether every member is read without a post mask: then no slot it uses admits another
    /// square's lookup (different squares' attack sets are never equal).
    plain: bool,
}

impl Slice {
    fn span(&self) -> usize {
        self.demands.len()
    }

    /// How many of its slots are used.
    fn used_slots(&self) -> usize {
        self.bits
            .iter()
            .map(|word| word.count_ones() as usize)
            .sum()
    }

    /// The used slots, counted from the first, in order.
    fn used(&self) -> impl Iterator<Item = usize> + '_ {
        self.bits.iter().enumerate().flat_map(|(k, &word)| {
            let mut rest = word;
            core::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    k * 64 + bit
                })
            })
        })
    }
}

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
    /// [`FINAL_TEMPERATURE`] over the steps.
    pub start_temperature: f64,
    /// Seed of the perturbations and of the annealing (of the first chain).
    pub seed: u64,
    /// Independent searches (tries, then annealing), each on its own thread, chain `i` seeded
    /// with `seed + i`; the smallest table wins. One chain gives what `seed` alone gives. 0
    /// counts as 1, and more than [`MAX_CHAINS`] as that many.
    pub chains: u32,
    /// Before placing, stack comb slices (used slots in short teeth, with gaps of one period:
    /// see [`comb_footprint`]) into each other, greedily, the
    /// pair that saves the most slots first, and place each stack as one: combs, which
    /// first-fit spreads over other slices' holes, then interleave whole. A slice alone and at
    /// least [`FILL_MIN_SPAN`] long that fits another stack's holes whole is stacked there too.
    pub stack: bool,
    /// With `stack`: steps of the annealing that searches a slice a magic fitting another
    /// stack's holes (see [`FILL_MIN_SPAN`]); 0, none. Each slice alone in its stack, at
    /// least [`FILL_MIN_SPAN`] long, is tried against each stack with holes enough, and a
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
/// use magic_search::{PackEffort, Scheme, SearchConfig, find_set, pack};
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

/// Why [`pack_choosing`] refused its input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChooseError {
    /// The set (`alternative` `None`) or an alternative (`Some(i)`: `alternatives[i]`) does
    /// not verify.
    Invalid {
        /// Which alternative, if not the set.
        alternative: Option<usize>,
        /// What is wrong with it.
        error: VerifyError,
    },
    /// An alternative has another scheme than the set, or other index bits on a square.
    Mismatch {
        /// Which alternative.
        alternative: usize,
        /// What differs.
        reason: String,
    },
}

impl core::fmt::Display for ChooseError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ChooseError::Invalid {
                alternative: None,
                error,
            } => write!(f, "{error}"),
            ChooseError::Invalid {
                alternative: Some(i),
                error,
            } => write!(f, "alternative {}: {error}", i + 1),
            ChooseError::Mismatch {
                alternative,
                reason,
            } => write!(f, "alternative {}: {reason}", alternative + 1),
        }
    }
}

impl std::error::Error for ChooseError {}

/// Packs `set` like [`pack`], but first chooses each square's magic among its own and those
/// that `alternatives` (verified sets of the same scheme and index bits, from other searches)
/// give the square, by coordinate descent: square after square, each other magic replaces the
/// kept one if a quick packing (the same stacking, largest first and up to [`QUICK_TRIES`]
/// perturbed orders) gets smaller with it; with stacking, a round of pairs follows (two combs
/// changed at once, which neither helps alone); rounds repeat until one changes nothing. Which
/// magics pack well depends on the others' (combs of one period interleave, see
/// [`Prefer::Comb`](crate::Prefer::Comb)), which no search of one square sees. Then the set
/// with the chosen magics is packed with `effort`. Deterministic, like [`pack`]; `stop`
/// ends the descent too, keeping the magics chosen so far. `progress` hears of each quick
/// packing ([`PackProgress::choices`]) and then of the orders as in [`pack`].
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use magic_search::{PackEffort, Scheme, SearchConfig, find_set, pack, pack_choosing};
///
/// let config = |seed| SearchConfig { scheme: Scheme::Black, seed, ..SearchConfig::default() };
/// let (set, _) = find_set(&config(1), 1, &|_| {});
/// let (other, _) = find_set(&config(2), 1, &|_| {});
/// let effort = PackEffort { tries: 0, ..PackEffort::default() };
/// let never = AtomicBool::new(false);
/// let alone = pack(&set, &effort, &|_| {}, &never).unwrap();
/// let chosen = pack_choosing(&set, &[other], &effort, &|_| {}, &never).unwrap();
/// assert!(chosen.entries <= alone.entries);
/// ```
pub fn pack_choosing(
    set: &MagicSet,
    alternatives: &[MagicSet],
    effort: &PackEffort,
    progress: &(dyn Fn(PackProgress) + Sync),
    stop: &AtomicBool,
) -> Result<Packed, ChooseError> {
    let invalid = |alternative| move |error| ChooseError::Invalid { alternative, error };
    if alternatives.is_empty() {
        return pack(set, effort, progress, stop).map_err(invalid(None));
    }
    let entries_before = verify(set).map_err(invalid(None))?.entries();
    for (i, alternative) in alternatives.iter().enumerate() {
        verify(alternative).map_err(invalid(Some(i)))?;
        let mismatch = |reason| ChooseError::Mismatch {
            alternative: i,
            reason,
        };
        if alternative.scheme != set.scheme {
            return Err(mismatch(format!(
                "its scheme is {}, the set's {}",
                alternative.scheme, set.scheme
            )));
        }
        for kind in SliderKind::ALL {
            for square in 0..64u8 {
                let (theirs, ours) = (
                    alternative.entries(kind)[square as usize].bits,
                    set.entries(kind)[square as usize].bits,
                );
                if theirs != ours {
                    return Err(mismatch(format!(
                        "{kind} {} has {theirs} index bits, the set's {ours}",
                        square_name(square)
                    )));
                }
            }
        }
    }
    let (chosen, choices) = choose(set, alternatives, effort, progress, stop);
    finish(set, chosen, entries_before, choices, effort, progress, stop).map_err(invalid(None))
}

/// The most perturbed orders [`pack_choosing`]'s quick packing tries after the largest-first
/// one (fewer if the effort's `tries` are fewer: its first chain starts with the same orders,
/// so the final table is never larger than the quick packing of the chosen magics).
pub(crate) const QUICK_TRIES: u32 = 8;

/// The descent of [`pack_choosing`]: the set with the chosen magics (offsets unchanged, so not
/// a valid table until arranged), and how many quick packings it placed. Rounds of single
/// squares' options alternate with a round of pairs ([`Descent::pairs`]) until neither
/// changes anything.
fn choose(
    set: &MagicSet,
    alternatives: &[MagicSet],
    effort: &PackEffort,
    progress: &(dyn Fn(PackProgress) + Sync),
    stop: &AtomicBool,
) -> (MagicSet, u64) {
    let slices = slices_of(set);
    let mut descent = Descent {
        chosen: set.clone(),
        smallest: quick_entries(&slices, effort),
        slices,
        choices: 0,
        effort,
        progress,
        stop,
    };
    // Each square's options: the alternatives' magics, once each, in their order.
    let options: Vec<(usize, SliderKind, u8, Vec<u64>)> = squares()
        .enumerate()
        .map(|(i, (kind, square))| {
            let mut magics: Vec<u64> = Vec::with_capacity(alternatives.len());
            for alternative in alternatives {
                let magic = alternative.entries(kind)[square as usize].magic;
                if !magics.contains(&magic) {
                    magics.push(magic);
                }
            }
            (i, kind, square, magics)
        })
        .collect();
    loop {
        let singles = options
            .iter()
            .flat_map(|(i, kind, square, magics)| {
                magics
                    .iter()
                    .map(|&magic| vec![(*i, *kind, *square, magic)])
            })
            .collect();
        let mut improved = descent.take_better(singles);
        if !improved && effort.stack {
            let pairs = descent.pairs(&options);
            improved = descent.take_better(pairs);
        }
        if !improved || descent.stopped() {
            return (descent.chosen, descent.choices);
        }
    }
}

/// Every square, rooks a1..h8 then bishops: the order of [`slices_of`].
fn squares() -> impl Iterator<Item = (SliderKind, u8)> {
    SliderKind::ALL
        .into_iter()
        .flat_map(|kind| (0..64u8).map(move |square| (kind, square)))
}

/// Where [`choose`]'s descent stands.
struct Descent<'a> {
    chosen: MagicSet,
    /// The chosen magics' slices, in [`squares`] order.
    slices: Vec<Slice>,
    /// The quick packing of `slices`.
    smallest: usize,
    choices: u64,
    effort: &'a PackEffort,
    progress: &'a (dyn Fn(PackProgress) + Sync),
    stop: &'a AtomicBool,
}

/// One square's possible new magic: its index in [`squares`] order, kind, square, magic.
type Change = (usize, SliderKind, u8, u64);

impl Descent<'_> {
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    fn is_chosen(&self, &(_, kind, square, magic): &Change) -> bool {
        self.chosen.entries(kind)[square as usize].magic == magic
    }

    /// The quick packing with `changes` made.
    fn entries_with(&self, changes: &[Change]) -> usize {
        let mut slices = self.slices.clone();
        for &(i, kind, square, magic) in changes {
            slices[i] = square_slice(&self.chosen, kind, square, magic);
        }
        quick_entries(&slices, self.effort)
    }

    /// Goes through `candidates` (each a set of changes) in order, making each that gets the
    /// quick packing smaller (judged after those made before it); whether any did. Several
    /// are measured at once, one per core, and those after a taken one measured again: the
    /// result is what one at a time gives. Candidates chosen already are skipped; a stop ends
    /// the round.
    fn take_better(&mut self, candidates: Vec<Vec<Change>>) -> bool {
        let threads = thread::available_parallelism().map_or(1, |n| n.get());
        let mut improved = false;
        let mut next = 0;
        while next < candidates.len() && !self.stopped() {
            let batch: Vec<usize> = (next..candidates.len())
                .filter(|&n| !candidates[n].iter().all(|change| self.is_chosen(change)))
                .take(threads)
                .collect();
            let Some(&last) = batch.last() else {
                break;
            };
            let (descent, candidates_ref) = (&*self, &candidates);
            let entries: Vec<usize> = thread::scope(|scope| {
                let handles: Vec<_> = batch
                    .iter()
                    .map(|&n| scope.spawn(move || descent.entries_with(&candidates_ref[n])))
                    .collect();
                handles
                    .into_iter()
                    .map(|handle| handle.join().unwrap_or_else(|panic| resume_unwind(panic)))
                    .collect()
            });
            let taken = batch
                .iter()
                .zip(&entries)
                .position(|(_, &entries)| entries < self.smallest);
            let measured = taken.map_or(batch.len(), |k| k + 1);
            self.choices += measured as u64;
            next = match taken {
                Some(k) => {
                    self.smallest = entries[k];
                    for &(i, kind, square, magic) in &candidates[batch[k]] {
                        self.chosen.entries_mut(kind)[square as usize].magic = magic;
                        self.slices[i] = square_slice(&self.chosen, kind, square, magic);
                    }
                    improved = true;
                    batch[k] + 1
                }
                None => last + 1,
            };
            (self.progress)(PackProgress {
                orders: 0,
                choices: self.choices,
                fills: 0,
                best_entries: self.smallest,
            });
        }
        improved
    }

    /// The pairs worth a round: two squares changed at once, which a round of single squares
    /// cannot find when neither change helps alone (a comb needs a partner of its period).
    /// Only pairs of comb slices ([`is_comb`], one option per distinct slice) that stack almost
    /// whole ([`PAIR_SAVING`]) are tried, most slots saved first.
    fn pairs(&self, options: &[(usize, SliderKind, u8, Vec<u64>)]) -> Vec<Vec<Change>> {
        let mut combs: Vec<(Change, Slice)> = Vec::new();
        for (i, kind, square, magics) in options {
            for &magic in magics {
                let change = (*i, *kind, *square, magic);
                if self.is_chosen(&change) {
                    continue;
                }
                let slice = square_slice(&self.chosen, *kind, *square, magic);
                let same_shape =
                    |(known, other): &(Change, Slice)| known.0 == *i && other.bits == slice.bits;
                if is_comb(&slice) && !combs.iter().any(same_shape) {
                    combs.push((change, slice));
                }
            }
        }
        let mut pairs: Vec<(usize, Change, Change)> = Vec::new();
        for (n, (first, a)) in combs.iter().enumerate() {
            for (second, b) in &combs[n + 1..] {
                if first.0 == second.0 {
                    continue;
                }
                let shorter = a.span().min(b.span());
                if let Some(stacking) = best_stacking(a, b)
                    && stacking.saving * PAIR_SAVING.1 >= shorter * PAIR_SAVING.0
                {
                    pairs.push((stacking.saving, *first, *second));
                }
            }
        }
        pairs.sort_by_key(|&(saving, ..)| core::cmp::Reverse(saving));
        pairs
            .into_iter()
            .map(|(_, first, second)| vec![first, second])
            .collect()
    }
}

/// How much of the shorter comb a pair must save when stacked for [`Descent::pairs`] to try
/// it: fifteen sixteenths.
const PAIR_SAVING: (usize, usize) = (15, 16);

/// The table a quick packing of `slices` reaches: stacked if `effort` stacks, the
/// largest-first order and the first [`QUICK_TRIES`] of the effort's tries (the first chain's).
fn quick_entries(slices: &[Slice], effort: &PackEffort) -> usize {
    let slices = units(slices.to_vec(), effort);
    let mut order = largest_first(&slices);
    let mut smallest = place(&slices, &order).0;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(effort.seed);
    for _ in 0..effort.tries.min(QUICK_TRIES) {
        let perturbed = perturb(&order, &mut rng);
        let entries = place(&slices, &perturbed).0;
        if entries < smallest {
            smallest = entries;
            order = perturbed;
        }
    }
    smallest
}

/// What `effort` places: the slices, or with `stack` their stacks ([`stack`]).
fn units(slices: Vec<Slice>, effort: &PackEffort) -> Vec<Slice> {
    if effort.stack { stack(slices) } else { slices }
}

/// The slices' indices, most used slots first (then the longest span): first-fit's best
/// single order.
fn largest_first(slices: &[Slice]) -> Vec<usize> {
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
fn perturb(order: &[usize], rng: &mut Xoshiro256PlusPlus) -> Vec<usize> {
    let mut perturbed = order.to_vec();
    for _ in 0..8 {
        let i = (rng.next_u64() % (perturbed.len() as u64 - 1)) as usize;
        perturbed.swap(i, i + 1);
    }
    perturbed
}

/// [`pack`] once the input is known to verify: stacks if asked, places, searches the orders.
/// `(choices, fills)`: the quick packings and annealings before (reported with the progress).
fn arrange(
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
struct Shared<'a> {
    orders: AtomicU64,
    choices: u64,
    fills: u64,
    best_entries: AtomicUsize,
    progress: &'a (dyn Fn(PackProgress) + Sync),
    stop: &'a AtomicBool,
}

impl Shared<'_> {
    fn placed(&self, entries: usize) {
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

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// One search over placement orders, from the largest-first one, with its own random stream.
struct Chain<'a> {
    slices: &'a [Slice],
    order: Vec<usize>,
    /// The smallest table met: its length and where each slice's first used slot goes.
    best: (usize, Vec<usize>),
    rng: Xoshiro256PlusPlus,
}

/// How a chain ended.
struct ChainEnd {
    best: (usize, Vec<usize>),
    stopped: bool,
}

impl Chain<'_> {
    fn run(mut self, effort: &PackEffort, shared: &Shared<'_>) -> ChainEnd {
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

    fn end(self, stopped: bool) -> ChainEnd {
        ChainEnd {
            best: self.best,
            stopped,
        }
    }
}

/// `order` with one slice moved up to [`MOVE_REACH`] places earlier or later.
fn move_one(order: &[usize], rng: &mut Xoshiro256PlusPlus) -> Vec<usize> {
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
fn unit_interval(rng: &mut Xoshiro256PlusPlus) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// The squares' index spans (first used slot to last, inclusive) summed by kind: what a packed
/// table takes when no slice fills another's holes, and what a narrowing search
/// (`find --narrow`) makes shorter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexSpans {
    /// The rook squares' spans, summed.
    pub rook: usize,
    /// The bishop squares' spans, summed.
    pub bishop: usize,
}

/// The index spans of `set` by kind (see [`IndexSpans`]); meaningful for a verified set.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use magic_search::{PackEffort, Scheme, SearchConfig, find_set, index_spans, pack};
///
/// let config = SearchConfig { scheme: Scheme::Black, ..SearchConfig::default() };
/// let (set, _) = find_set(&config, 1, &|_| {});
/// let spans = index_spans(&set);
/// // Each slice lies within its square's 4,096 or 512 slots...
/// assert!(spans.rook <= 64 * 4096 && spans.bishop <= 64 * 512);
/// // ...and packing moves the slices, never changes them.
/// let effort = PackEffort { tries: 0, ..PackEffort::default() };
/// let packed = pack(&set, &effort, &|_| {}, &AtomicBool::new(false)).unwrap();
/// assert_eq!(index_spans(&packed.set), spans);
/// ```
pub fn index_spans(set: &MagicSet) -> IndexSpans {
    let mut spans = IndexSpans { rook: 0, bishop: 0 };
    for slice in slices_of(set) {
        match slice.members[0].kind {
            SliderKind::Rook => spans.rook += slice.span(),
            SliderKind::Bishop => spans.bishop += slice.span(),
        }
    }
    spans
}

/// Every square's slice, alone, in [`squares`] order.
fn slices_of(set: &MagicSet) -> Vec<Slice> {
    squares()
        .map(|(kind, square)| {
            let entry = set.entries(kind)[square as usize];
            square_slice(set, kind, square, entry.magic)
        })
        .collect()
}

/// The slice of `square` with `magic` (and the set's bits and post mask).
fn square_slice(set: &MagicSet, kind: SliderKind, square: u8, magic: u64) -> Slice {
    let bits = set.entries(kind)[square as usize].bits;
    let mask = relevant_mask(kind, square);
    let post_mask = set.post_mask(kind, square);
    let mut used: Vec<(usize, u64)> = occupancies_with_attacks(kind, square)
        .map(|(occupancy, attacks)| (set.scheme.index(occupancy, mask, magic, bits), attacks))
        .collect();
    used.sort_unstable();
    used.dedup();
    let lowest = used.first().map_or(0, |&(index, _)| index);
    let span = used.last().map_or(0, |&(index, _)| index + 1 - lowest);
    let mut demands = vec![SlotDemand::default(); span];
    let mut bits = vec![0u64; span.div_ceil(64)];
    for (index, held) in used {
        demands[index - lowest] = SlotDemand::of(held, post_mask);
        bits[(index - lowest) / 64] |= 1 << ((index - lowest) % 64);
    }
    Slice {
        members: vec![Member {
            kind,
            square,
            lowest,
            at: 0,
        }],
        demands,
        bits,
        plain: post_mask == u64::MAX,
    }
}

/// Which slices take part in stacking: combs, whose [`comb_footprint`] is at most three
/// quarters of their span (holes without a period seldom take another slice whole, and
/// measuring every pair of a set of such slices costs seconds).
fn is_comb(slice: &Slice) -> bool {
    let residues = slice.used().fold(0u128, |residues, index| {
        residues | 1 << (index % MAX_COMB_PERIOD)
    });
    4 * comb_footprint(slice.span(), residues) <= 3 * slice.span()
}

/// How two slices stack: the guest's first used slot `shift` slots after the host's (before
/// it when negative), which makes their joint span `saving` slots shorter than the two spans'
/// sum.
#[derive(Clone, Copy, Debug)]
struct Stacking {
    host_first: bool,
    shift: isize,
    saving: usize,
}

/// Stacks comb slices ([`is_comb`]) into each other, greedily: the pair whose stacking saves
/// the most slots first, again and again, as long as some pair saves at least half the shorter
/// one's span. Each stack is then placed as one slice. First-fit alone places a comb wherever
/// its teeth first fit, usually across other slices' holes, and leaves its own gaps empty;
/// stacked, two or three combs of the same period fill one span. A slice alone and at least
/// [`FILL_MIN_SPAN`] long that fits whole into another stack's holes (sticking out at most
/// [`FILL_OVERHANG`] slots) is stacked there too, as it saves its span: what filling
/// ([`PackEffort::fill_steps`]) searches magics for.
fn stack(mut slices: Vec<Slice>) -> Vec<Slice> {
    // Each slice has an id for the pairs already measured, and whether it is a comb; a stack
    // gets a new id.
    let mut ids: Vec<usize> = (0..slices.len()).collect();
    let mut comb: Vec<bool> = slices.iter().map(is_comb).collect();
    let mut next_id = slices.len();
    let mut measured: HashMap<(usize, usize), Option<Stacking>> = HashMap::new();
    let mut measured_whole: HashMap<(usize, usize), Option<Stacking>> = HashMap::new();
    loop {
        let combs: Vec<usize> = (0..slices.len()).filter(|&i| comb[i]).collect();
        let mut best: Option<(usize, usize, Stacking)> = None;
        let mut consider = |i: usize, j: usize, stacking: Option<Stacking>| {
            if let Some(stacking) = stacking
                && best.is_none_or(|(_, _, kept)| stacking.saving > kept.saving)
            {
                best = Some((i, j, stacking));
            }
        };
        for (n, &i) in combs.iter().enumerate() {
            for &j in &combs[n + 1..] {
                let stacking = *measured
                    .entry((ids[i], ids[j]))
                    .or_insert_with(|| best_stacking(&slices[i], &slices[j]));
                consider(i, j, stacking);
            }
        }
        for (guest, slice) in slices.iter().enumerate() {
            if slice.members.len() > 1 || slice.span() < FILL_MIN_SPAN {
                continue;
            }
            for (host, other) in slices.iter().enumerate() {
                if host == guest || other.span() - other.used_slots() < slice.used_slots() {
                    continue;
                }
                let stacking = *measured_whole
                    .entry((ids[host], ids[guest]))
                    .or_insert_with(|| whole_stacking(other, slice));
                // `host_first` is relative to the pair's order, as for the combs.
                let (i, j) = (host.min(guest), host.max(guest));
                consider(
                    i,
                    j,
                    stacking.map(|stacking| Stacking {
                        host_first: host < guest,
                        ..stacking
                    }),
                );
            }
        }
        let Some((i, j, stacking)) = best else {
            return slices;
        };
        let (host, guest) = if stacking.host_first { (i, j) } else { (j, i) };
        let merged = merge(&slices[host], &slices[guest], stacking.shift);
        // `i < j`: remove `j` first, so that `i` still names its slice.
        for k in [j, i] {
            slices.swap_remove(k);
            ids.swap_remove(k);
            comb.swap_remove(k);
        }
        comb.push(is_comb(&merged));
        slices.push(merged);
        ids.push(next_id);
        next_id += 1;
    }
}

/// The stacking of `a` and `b` that saves the most slots, if one saves at least half the
/// shorter span: the shorter slice (the guest) inside the longer one (the host), see
/// [`stack_into`].
fn best_stacking(a: &Slice, b: &Slice) -> Option<Stacking> {
    let host_first = a.span() >= b.span();
    let (host, guest) = if host_first { (a, b) } else { (b, a) };
    stack_into(host, guest, guest.span() / 2).map(|stacking| Stacking {
        host_first,
        ..stacking
    })
}

/// How `guest` stacks into `host`'s holes whole, if it does, sticking out at most
/// [`FILL_OVERHANG`] slots: see [`stack_into`].
fn whole_stacking(host: &Slice, guest: &Slice) -> Option<Stacking> {
    stack_into(host, guest, FILL_OVERHANG)
}

/// Where `guest` goes into `host` sticking out the fewest slots, at most `most_out` in all:
/// inside the host's span if it fits anywhere there (the lowest shift first), else one slot
/// more out at either end, then two, and so on. A guest longer than its host sticks out by
/// the difference at least.
fn stack_into(host: &Slice, guest: &Slice, most_out: usize) -> Option<Stacking> {
    let room = host.span() as isize - guest.span() as isize;
    let (lowest, highest) = (room.min(0), room.max(0));
    let least_out = (-room).max(0) as usize;
    // The host's first used slot at `base`, so that every shift is a start >= 0.
    let base = guest.span() + most_out;
    let mut table = Table::default();
    table.add(host, base);
    let fits = |shift: isize| table.fits(guest, (base as isize + shift) as usize);
    let found = |shift: isize, out: usize| Stacking {
        host_first: true,
        shift,
        saving: guest.span() - out,
    };
    if least_out > most_out {
        return None;
    }
    if let Some(shift) = (lowest..=highest).find(|&shift| fits(shift)) {
        return Some(found(shift, least_out));
    }
    (1..=(most_out - least_out) as isize).find_map(|more| {
        [lowest - more, highest + more]
            .into_iter()
            .find(|&shift| fits(shift))
            .map(|shift| found(shift, least_out + more as usize))
    })
}

/// `guest` stacked into `host` with its first used slot `shift` slots after the host's.
fn merge(host: &Slice, guest: &Slice, shift: isize) -> Slice {
    let host_at = shift.min(0).unsigned_abs();
    let guest_at = (host_at as isize + shift) as usize;
    // A table holding both is the stack: its demands and filled bits, from the first used slot.
    let mut table = Table::default();
    let mut members = Vec::with_capacity(host.members.len() + guest.members.len());
    for (part, at) in [(host, host_at), (guest, guest_at)] {
        table.add(part, at);
        members.extend(part.members.iter().map(|member| Member {
            at: member.at + at,
            ..*member
        }));
    }
    Slice {
        members,
        demands: table.demands,
        bits: table.filled,
        plain: host.plain && guest.plain,
    }
}

/// First-fit placement in the given order: the table length and where each slice's first used
/// slot goes (in the slices' own order).
fn place(slices: &[Slice], order: &[usize]) -> (usize, Vec<usize>) {
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
struct Table {
    demands: Vec<SlotDemand>,
    filled: Vec<u64>,
}

impl Table {
    /// Puts `slice` with its first used slot at `start`.
    fn add(&mut self, slice: &Slice, start: usize) {
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
    fn first_fit(&self, slice: &Slice, from: usize) -> usize {
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
    fn fits(&self, slice: &Slice, start: usize) -> bool {
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
    fn next_empty(&self, from: usize) -> usize {
        let mut word = from / 64;
        let mut empty = self.filled.get(word).map_or(u64::MAX, |&w| !w) & (u64::MAX << (from % 64));
        while empty == 0 {
            word += 1;
            empty = self.filled.get(word).map_or(u64::MAX, |&w| !w);
        }
        word * 64 + empty.trailing_zeros() as usize
    }
}

#[cfg(test)]
pub(super) mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::{SearchConfig, find_set};
    use bitforge_index::{Entry, Scheme};

    fn pack_quietly(set: &MagicSet, tries: u32, anneal_steps: u64) -> Result<Packed, VerifyError> {
        let effort = PackEffort {
            tries,
            anneal_steps,
            ..PackEffort::default()
        };
        pack(set, &effort, &|_| {}, &AtomicBool::new(false))
    }

    pub(super) fn black_set() -> MagicSet {
        let config = SearchConfig {
            scheme: Scheme::Black,
            ..SearchConfig::default()
        };
        find_set(&config, 2, &|_| {}).0
    }

    #[test]
    fn packing_a_fixed_set_shrinks_it_and_still_verifies() {
        let config = SearchConfig {
            scheme: Scheme::Fixed,
            ..SearchConfig::default()
        };
        let (set, _) = find_set(&config, 2, &|_| {});
        let packed = pack_quietly(&set, 2, 0).unwrap();
        // Unpacked, every slice is 4096 or 512 slots long (the last may stop short of its end).
        assert!(packed.entries_before > 64 * 4096 + 63 * 512);
        // Random fixed-shift magics scatter their indices, which limits overlap; a fifth saved
        // is what first-fit reliably reaches on them.
        assert!(
            packed.entries * 5 < packed.entries_before * 4,
            "{}",
            packed.entries
        );
        assert_eq!(verify(&packed.set).unwrap().entries(), packed.entries);
    }

    #[test]
    fn a_post_masked_set_packs_both_pieces_into_one_table() {
        let set = black_set();
        let plain = pack_quietly(&set, 0, 0).unwrap();
        let combined = pack_quietly(
            &MagicSet {
                post_masked: true,
                ..set
            },
            0,
            0,
        )
        .unwrap();
        assert!(combined.set.post_masked);
        assert_eq!(verify(&combined.set).unwrap().entries(), combined.entries);
        // The bishops' slices, at least, fit inside the rooks' (their rays never meet on one
        // square).
        let bishops: usize = (0..64)
            .map(|square| 1usize << set.bishop[square].bits)
            .sum();
        assert!(
            combined.entries + bishops / 2 < plain.entries,
            "combined {} vs plain {}",
            combined.entries,
            plain.entries
        );
        // Without the post mask the combined layout collides.
        let unmasked = MagicSet {
            post_masked: false,
            ..combined.set
        };
        assert!(matches!(
            verify(&unmasked),
            Err(VerifyError::Collision { .. })
        ));
    }

    #[test]
    fn packing_a_bad_set_reports_the_collision() {
        let set = MagicSet::with_dense_offsets(Scheme::Fixed, [(1, 12); 64], [(1, 9); 64]);
        assert!(pack_quietly(&set, 0, 0).is_err());
        assert!(pack_quietly(&set, 0, 8).is_err());
    }

    #[test]
    fn annealing_keeps_the_best_order_it_meets_and_repeats_with_its_seed() {
        let set = black_set();
        let tried = pack_quietly(&set, 4, 0).unwrap();
        let heard = Mutex::new(Vec::new());
        let effort = PackEffort {
            tries: 4,
            anneal_steps: 24,
            ..PackEffort::default()
        };
        let never = AtomicBool::new(false);
        let annealed = pack(&set, &effort, &|p| heard.lock().unwrap().push(p), &never).unwrap();
        let heard = heard.into_inner().unwrap();
        // It starts from the tries' best order, so it is never worse than they are.
        assert!(annealed.entries <= tried.entries);
        assert!(!annealed.stopped);
        assert_eq!(verify(&annealed.set).unwrap().entries(), annealed.entries);
        // Every order placed is reported, the best never grows, and the last is the result.
        assert_eq!(heard.len(), 28);
        assert!(
            heard
                .windows(2)
                .all(|w| w[1].best_entries <= w[0].best_entries)
        );
        assert_eq!(heard.last().unwrap().best_entries, annealed.entries);
        assert_eq!(heard.last().unwrap().orders, 28);
        let again = pack(&set, &effort, &|_| {}, &never).unwrap();
        assert_eq!(again, annealed);
    }

    #[test]
    fn chains_give_the_smallest_of_their_seeds_and_the_first_on_a_tie() {
        let set = black_set();
        let never = AtomicBool::new(false);
        let single = |seed| {
            let effort = PackEffort {
                tries: 2,
                anneal_steps: 6,
                seed,
                ..PackEffort::default()
            };
            pack(&set, &effort, &|_| {}, &never).unwrap()
        };
        let alone: Vec<Packed> = (5..8).map(single).collect();
        let orders = AtomicU64::new(0);
        let effort = PackEffort {
            tries: 2,
            anneal_steps: 6,
            seed: 5,
            chains: 3,
            ..PackEffort::default()
        };
        let chained = pack(
            &set,
            &effort,
            &|p| {
                orders.fetch_max(p.orders, Ordering::Relaxed);
            },
            &never,
        )
        .unwrap();
        let smallest = alone.iter().map(|p| p.entries).min().unwrap();
        let first_smallest = alone.iter().find(|p| p.entries == smallest).unwrap();
        assert_eq!(&chained, first_smallest);
        assert_eq!(orders.into_inner(), 3 * 8);
    }

    #[test]
    fn a_stopped_packing_returns_the_best_arrangement_so_far() {
        let set = black_set();
        let effort = PackEffort {
            tries: 100,
            anneal_steps: 100,
            ..PackEffort::default()
        };
        let stop = AtomicBool::new(false);
        let orders = AtomicU64::new(0);
        let packed = pack(
            &set,
            &effort,
            &|p| {
                orders.store(p.orders, Ordering::Relaxed);
                if p.orders == 3 {
                    stop.store(true, Ordering::Relaxed);
                }
            },
            &stop,
        )
        .unwrap();
        assert!(packed.stopped);
        assert_eq!(orders.into_inner(), 3);
        assert!(packed.entries < packed.entries_before);
        assert_eq!(verify(&packed.set).unwrap().entries(), packed.entries);
    }

    /// Comb magics for rook b8 and g8 (black, 12 bits): each uses three or two neighbouring
    /// slots of every eight over nearly the whole 4,096.
    const COMB_B8: u64 = 0x0000_8002_0104_400a;
    const COMB_G8: u64 = 0x8a00_0028_0200_7004;

    /// `set` with rook b8's and g8's magics replaced by the combs, slices laid end to end.
    fn with_combs(set: &MagicSet) -> MagicSet {
        let pairs = |entries: &[Entry; 64]| entries.map(|entry| (entry.magic, entry.bits));
        let mut rook = pairs(&set.rook);
        (rook[57].0, rook[62].0) = (COMB_B8, COMB_G8);
        let combs = MagicSet::with_dense_offsets(set.scheme, rook, pairs(&set.bishop));
        verify(&combs).expect("the combs are valid magics");
        combs
    }

    /// A slice alone, at least [`FILL_MIN_SPAN`] long, stacks into another's holes when it
    /// fits them whole (here a host whose holes are its used slots, 300 slots in), even
    /// sticking out a little; not when one slot of it meets the host's.
    #[test]
    fn a_long_slice_that_fits_another_whole_stacks_into_it() {
        let set = black_set();
        let guest = square_slice(&set, SliderKind::Rook, 27, set.rook[27].magic);
        assert!(guest.span() >= FILL_MIN_SPAN);
        let host_with_holes = |at: usize, span: usize| {
            let mut bits = vec![u64::MAX; span.div_ceil(64)];
            if !span.is_multiple_of(64) {
                *bits.last_mut().unwrap() = (1 << (span % 64)) - 1;
            }
            for slot in guest
                .used()
                .map(|slot| at + slot)
                .filter(|&slot| slot < span)
            {
                bits[slot / 64] &= !(1 << (slot % 64));
            }
            Slice {
                members: vec![Member {
                    kind: SliderKind::Rook,
                    square: 0,
                    lowest: 0,
                    at: 0,
                }],
                demands: vec![SlotDemand::default(); span],
                bits,
                plain: true,
            }
        };
        let host = host_with_holes(300, guest.span() + 600);
        let stacked = stack(vec![host.clone(), guest.clone()]);
        assert_eq!(stacked.len(), 1);
        assert_eq!(stacked[0].span(), host.span());
        assert_eq!(
            stacked[0].used_slots(),
            host.used_slots() + guest.used_slots()
        );
        // Sticking out by 40 slots: the stack is 40 longer.
        let short = host_with_holes(0, guest.span() - 40);
        let out = stack(vec![guest.clone(), short.clone()]);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].span(), short.span() + 40);
        // One of its slots taken: it stays apart.
        let mut blocked = host.clone();
        let first = guest.used().next().unwrap() + 300;
        blocked.bits[first / 64] |= 1 << (first % 64);
        assert_eq!(stack(vec![blocked, guest.clone()]).len(), 2);
    }

    #[test]
    fn two_combs_of_one_period_stack_into_one_span() {
        let combs = with_combs(&black_set());
        let slices = slices_of(&combs);
        let (b8, g8) = (&slices[57], &slices[62]);
        assert!(is_comb(b8) && is_comb(g8));
        // They interleave, one sticking out by less than a period.
        let stacking = best_stacking(b8, g8).expect("they interleave");
        let shorter = b8.span().min(g8.span());
        assert!(stacking.saving + 8 > shorter, "{stacking:?}");
        let (host, guest) = if stacking.host_first {
            (b8, g8)
        } else {
            (g8, b8)
        };
        let merged = merge(host, guest, stacking.shift);
        assert_eq!(merged.span(), b8.span() + g8.span() - stacking.saving);
        assert_eq!(merged.used_slots(), b8.used_slots() + g8.used_slots());

        // Stacked alone, they become one slice of both.
        let stacked = stack(vec![b8.clone(), g8.clone()]);
        assert_eq!(stacked.len(), 1);
        assert_eq!(stacked[0].span(), merged.span());
        let squares: Vec<u8> = stacked[0].members.iter().map(|m| m.square).collect();
        assert_eq!(squares.len(), 2);
        assert!(squares.contains(&57) && squares.contains(&62));

        // A set packed with stacking verifies.
        let effort = PackEffort {
            tries: 2,
            stack: true,
            ..PackEffort::default()
        };
        let packed = pack(&combs, &effort, &|_| {}, &AtomicBool::new(false)).unwrap();
        assert_eq!(verify(&packed.set).unwrap().entries(), packed.entries);
        assert!(packed.entries < packed.entries_before);
    }

    #[test]
    fn choosing_among_alternatives_takes_the_combs_that_pack_smaller() {
        let set = black_set();
        let combs = with_combs(&set);
        let effort = PackEffort {
            tries: 0,
            stack: true,
            ..PackEffort::default()
        };
        let never = AtomicBool::new(false);
        let alone = pack(&set, &effort, &|_| {}, &never).unwrap();
        // No alternatives: what `pack` gives.
        assert_eq!(
            pack_choosing(&set, &[], &effort, &|_| {}, &never),
            Ok(alone.clone())
        );

        let heard = Mutex::new(Vec::new());
        let chosen = pack_choosing(
            &set,
            std::slice::from_ref(&combs),
            &effort,
            &|p| heard.lock().unwrap().push(p),
            &never,
        )
        .unwrap();
        assert_eq!(verify(&chosen.set).unwrap().entries(), chosen.entries);
        assert!(
            chosen.entries < alone.entries,
            "{} {}",
            chosen.entries,
            alone.entries
        );
        assert_eq!(chosen.magics_changed, 2);
        assert_eq!(chosen.set.rook[57].magic, COMB_B8);
        assert_eq!(chosen.set.rook[62].magic, COMB_G8);
        assert_eq!(chosen.entries_before, alone.entries_before);
        // Two options tried in the first round, both kept; the second round tries none.
        let heard = heard.into_inner().unwrap();
        assert_eq!(heard.iter().map(|p| p.choices).max(), Some(2));
        assert_eq!(heard.last().unwrap().best_entries, chosen.entries);
        let again =
            pack_choosing(&set, std::slice::from_ref(&combs), &effort, &|_| {}, &never).unwrap();
        assert_eq!(again, chosen);

        // Alternatives must verify and match the scheme and bits.
        let mut broken = combs.clone();
        broken.rook[57].magic = 1;
        assert!(matches!(
            pack_choosing(&set, &[combs.clone(), broken], &effort, &|_| {}, &never),
            Err(ChooseError::Invalid {
                alternative: Some(1),
                ..
            })
        ));
        let fixed = MagicSet {
            scheme: Scheme::Fixed,
            ..find_set(
                &SearchConfig {
                    scheme: Scheme::Fixed,
                    ..SearchConfig::default()
                },
                2,
                &|_| {},
            )
            .0
        };
        let error = pack_choosing(&set, &[fixed], &effort, &|_| {}, &never).unwrap_err();
        assert_eq!(
            error.to_string(),
            "alternative 1: its scheme is fixed, the set's black"
        );
    }

    #[test]
    fn packing_a_packed_set_never_makes_it_larger() {
        let packed = pack_quietly(&black_set(), 64, 0).unwrap();
        let never = AtomicBool::new(false);
        let quick = PackEffort {
            tries: 0,
            ..PackEffort::default()
        };
        // The largest-first order alone does worse than the 64 tries did...
        let raw = arrange(&packed.set, packed.entries, (0, 0), &quick, &|_| {}, &never).unwrap();
        assert!(
            raw.entries > packed.entries,
            "{} {}",
            raw.entries,
            packed.entries
        );
        // ...so the packed set comes back as it was.
        let again = pack(&packed.set, &quick, &|_| {}, &never).unwrap();
        assert_eq!(again.set, packed.set);
        assert_eq!(
            (again.entries, again.entries_before),
            (packed.entries, packed.entries)
        );
    }

    /// The descent's rounds: measured several at a time, they take what one at a time takes;
    /// two combs that stack whole are offered as a pair.
    #[test]
    fn the_descent_takes_what_one_at_a_time_takes_and_pairs_stacking_combs() {
        let set = black_set();
        let combs = with_combs(&set);
        let other = find_set(
            &SearchConfig {
                scheme: Scheme::Black,
                seed: 9,
                ..SearchConfig::default()
            },
            2,
            &|_| {},
        )
        .0;
        let effort = PackEffort {
            tries: 2,
            stack: true,
            ..PackEffort::default()
        };
        let never = AtomicBool::new(false);
        let descent = || {
            let slices = slices_of(&set);
            Descent {
                chosen: set.clone(),
                smallest: quick_entries(&slices, &effort),
                slices,
                choices: 0,
                effort: &effort,
                progress: &|_| {},
                stop: &never,
            }
        };
        // Every fourth rook square's magic from `other`, then b8 and g8 from `combs`.
        let candidates: Vec<Vec<Change>> = (0..64u8)
            .step_by(4)
            .map(|square| {
                (
                    usize::from(square),
                    SliderKind::Rook,
                    square,
                    other.rook[usize::from(square)].magic,
                )
            })
            .chain([57u8, 62].map(|square| {
                (
                    usize::from(square),
                    SliderKind::Rook,
                    square,
                    combs.rook[usize::from(square)].magic,
                )
            }))
            .map(|change| vec![change])
            .collect();
        let mut batched = descent();
        assert!(batched.take_better(candidates.clone()));
        let mut one_at_a_time = descent();
        for candidate in &candidates {
            let entries = one_at_a_time.entries_with(candidate);
            if entries < one_at_a_time.smallest {
                one_at_a_time.smallest = entries;
                for &(i, kind, square, magic) in candidate {
                    one_at_a_time.chosen.entries_mut(kind)[square as usize].magic = magic;
                    one_at_a_time.slices[i] = square_slice(&set, kind, square, magic);
                }
            }
        }
        assert_eq!(batched.chosen, one_at_a_time.chosen);
        assert_eq!(batched.smallest, one_at_a_time.smallest);

        // The two combs, neither chosen, come as a pair.
        let options: Vec<(usize, SliderKind, u8, Vec<u64>)> = squares()
            .enumerate()
            .map(|(i, (kind, square))| {
                let magic = combs.entries(kind)[square as usize].magic;
                (i, kind, square, vec![magic])
            })
            .collect();
        let pairs = descent().pairs(&options);
        let b8_g8 = vec![
            (57, SliderKind::Rook, 57, COMB_B8),
            (62, SliderKind::Rook, 62, COMB_G8),
        ];
        assert!(pairs.contains(&b8_g8), "{pairs:?}");
    }
}
