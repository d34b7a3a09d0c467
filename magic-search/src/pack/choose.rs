//! Choosing each square's magic among other sets by coordinate descent on a quick packing.

use std::panic::resume_unwind;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::SeedableRng;

use super::arrange::*;
use super::slices::*;
use super::stacking::*;
use super::*;
use bitforge_index::MagicSet;
use bitforge_index::SliderKind;
use bitforge_index::geometry::square_name;
use bitforge_index::{VerifyError, verify};

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
/// kept one if a quick packing (the same stacking, largest first and up to eight
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
/// use bitforge_index::Scheme;
/// use magic_search::{PackEffort, SearchConfig, find_set, pack, pack_choosing};
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
pub(crate) fn choose(
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
pub(crate) fn squares() -> impl Iterator<Item = (SliderKind, u8)> {
    SliderKind::ALL
        .into_iter()
        .flat_map(|kind| (0..64u8).map(move |square| (kind, square)))
}

/// Where [`choose`]'s descent stands.
pub(crate) struct Descent<'a> {
    pub(crate) chosen: MagicSet,
    /// The chosen magics' slices, in [`squares`] order.
    pub(crate) slices: Vec<Slice>,
    /// The quick packing of `slices`.
    pub(crate) smallest: usize,
    pub(crate) choices: u64,
    pub(crate) effort: &'a PackEffort,
    pub(crate) progress: &'a (dyn Fn(PackProgress) + Sync),
    pub(crate) stop: &'a AtomicBool,
}

/// One square's possible new magic: its index in [`squares`] order, kind, square, magic.
pub(crate) type Change = (usize, SliderKind, u8, u64);

impl Descent<'_> {
    pub(crate) fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    pub(crate) fn is_chosen(&self, &(_, kind, square, magic): &Change) -> bool {
        self.chosen.entries(kind)[square as usize].magic == magic
    }

    /// The quick packing with `changes` made.
    pub(crate) fn entries_with(&self, changes: &[Change]) -> usize {
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
    pub(crate) fn take_better(&mut self, candidates: Vec<Vec<Change>>) -> bool {
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
    pub(crate) fn pairs(&self, options: &[(usize, SliderKind, u8, Vec<u64>)]) -> Vec<Vec<Change>> {
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
pub(crate) const PAIR_SAVING: (usize, usize) = (15, 16);

/// The table a quick packing of `slices` reaches: stacked if `effort` stacks, the
/// largest-first order and the first [`QUICK_TRIES`] of the effort's tries (the first chain's).
pub(crate) fn quick_entries(slices: &[Slice], effort: &PackEffort) -> usize {
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
