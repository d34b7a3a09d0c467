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

use std::panic::resume_unwind;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::thread;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use crate::geometry::SliderKind;
use crate::magic_set::MagicSet;
use crate::verify::{SlotDemand, VerifyError, occupancies_with_attacks, verify};

/// A square's slice: where its used slots are and what each must hold.
struct Slice {
    kind: SliderKind,
    square: u8,
    post_mask: u64,
    /// The index of its first used slot.
    lowest: usize,
    /// The attacks by slot from `lowest` to the last used slot, 0 where unused (no slider's
    /// attack set is empty).
    attacks: Vec<u64>,
    /// A bit per slot from `lowest` on, set where used.
    bits: Vec<u64>,
}

impl Slice {
    fn span(&self) -> usize {
        self.attacks.len()
    }

    /// How many of its slots are used.
    fn used_slots(&self) -> u32 {
        self.bits.iter().map(|word| word.count_ones()).sum()
    }

    /// The used slots, counted from `lowest`, in order.
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

    fn is_plain(&self) -> bool {
        self.post_mask == u64::MAX
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
}

/// The most chains [`pack`] runs at once (a thread each).
pub const MAX_CHAINS: u32 = 1024;

/// The annealing's temperature at its last step: by then a step that costs an entry is taken
/// about one time in seven.
pub const FINAL_TEMPERATURE: f64 = 0.5;

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
        }
    }
}

/// Where a packing is: orders placed so far (tries and annealing steps), and the smallest
/// table yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackProgress {
    /// Orders placed after the largest-first one.
    pub orders: u64,
    /// Entries of the smallest table so far.
    pub best_entries: usize,
}

/// What packing achieved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packed {
    /// The same magics with new offsets.
    pub set: MagicSet,
    /// Entries of the packed table.
    pub entries: usize,
    /// Entries before packing.
    pub entries_before: usize,
    /// Whether `stop` ended the search early (the set is the best one found until then).
    pub stopped: bool,
}

/// Packs `set` with the given effort and keeps the smallest table; `progress` hears of every
/// order placed (from every chain's thread), and `stop` ends the search early, keeping the
/// best arrangement so far. The same effort gives the same set on any machine. The
/// input must verify, and so does the result (it is checked). A post-masked set
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
    let slices = slices_of(set);

    let mut largest_first: Vec<usize> = (0..slices.len()).collect();
    largest_first.sort_by_key(|&i| {
        (
            core::cmp::Reverse(slices[i].used_slots()),
            core::cmp::Reverse(slices[i].span()),
        )
    });
    let first = place(&slices, &largest_first);
    let shared = Shared {
        orders: AtomicU64::new(0),
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
    let (entries, offsets) = best.best;

    let mut packed = set.clone();
    for (slice, offset) in slices.iter().zip(offsets) {
        packed.entries_mut(slice.kind)[slice.square as usize].offset = offset;
    }
    // The packer is a heuristic over hand-written bookkeeping: prove the result.
    let check = verify(&packed)?;
    debug_assert_eq!(check.entries(), entries);
    Ok(Packed {
        set: packed,
        entries: check.entries(),
        entries_before,
        stopped,
    })
}

/// What the chains share: the progress of all of them, and the stop flag.
struct Shared<'a> {
    orders: AtomicU64,
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
    /// The smallest table met: its length and the slices' offsets.
    best: (usize, Vec<i64>),
    rng: Xoshiro256PlusPlus,
}

/// How a chain ended.
struct ChainEnd {
    best: (usize, Vec<i64>),
    stopped: bool,
}

impl Chain<'_> {
    fn run(mut self, effort: &PackEffort, shared: &Shared<'_>) -> ChainEnd {
        for _ in 0..effort.tries {
            if shared.stopped() {
                return self.end(true);
            }
            // Swap a few neighbours: big slices stay early.
            let mut perturbed = self.order.clone();
            for _ in 0..8 {
                let i = (self.rng.next_u64() % (perturbed.len() as u64 - 1)) as usize;
                perturbed.swap(i, i + 1);
            }
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
        match slice.kind {
            SliderKind::Rook => spans.rook += slice.span(),
            SliderKind::Bishop => spans.bishop += slice.span(),
        }
    }
    spans
}

fn slices_of(set: &MagicSet) -> Vec<Slice> {
    let mut slices = Vec::with_capacity(128);
    for kind in SliderKind::ALL {
        for square in 0..64u8 {
            let base = set.entries(kind)[square as usize].offset;
            let mut used: Vec<(usize, u64)> = occupancies_with_attacks(kind, square)
                .map(|(occupancy, attacks)| {
                    ((set.slot(kind, square, occupancy) - base) as usize, attacks)
                })
                .collect();
            used.sort_unstable();
            used.dedup();
            let lowest = used.first().map_or(0, |&(index, _)| index);
            let span = used.last().map_or(0, |&(index, _)| index + 1 - lowest);
            let mut attacks = vec![0; span];
            let mut bits = vec![0u64; span.div_ceil(64)];
            for (index, held) in used {
                attacks[index - lowest] = held;
                bits[(index - lowest) / 64] |= 1 << ((index - lowest) % 64);
            }
            slices.push(Slice {
                kind,
                square,
                post_mask: set.post_mask(kind, square),
                lowest,
                attacks,
                bits,
            });
        }
    }
    slices
}

/// First-fit placement in the given order: the table length and each slice's offset (in the
/// slices' own order).
fn place(slices: &[Slice], order: &[usize]) -> (usize, Vec<i64>) {
    let mut table = Table::default();
    let mut offsets = vec![0i64; slices.len()];
    for &i in order {
        let slice = &slices[i];
        // The slice's first used slot goes at `start`.
        let mut start = 0usize;
        loop {
            if slice.is_plain() {
                // A plain slice's first slot needs an empty one (no two squares' attack sets
                // are equal, so a filled plain slot admits no other slice): skip filled runs.
                start = table.next_empty(start);
            }
            let fits = table.fits(slice, start);
            if fits {
                break;
            }
            start += 1;
        }
        for index in slice.used() {
            table.add(start + index, slice.attacks[index], slice.post_mask);
        }
        offsets[i] = start as i64 - slice.lowest as i64;
    }
    (table.demands.len(), offsets)
}

/// The shared table while slices are placed: what each slot must hold, and a bit per slot
/// that is no longer empty, so that a slice is checked a word of slots at a time.
#[derive(Default)]
struct Table {
    demands: Vec<SlotDemand>,
    filled: Vec<u64>,
}

impl Table {
    fn add(&mut self, slot: usize, attacks: u64, post_mask: u64) {
        if slot >= self.demands.len() {
            self.demands.resize(slot + 1, SlotDemand::default());
            self.filled.resize(slot / 64 + 1, 0);
        }
        self.demands[slot] = self.demands[slot].with(attacks, post_mask);
        self.filled[slot / 64] |= 1 << (slot % 64);
    }

    /// Whether `slice` fits with its first used slot at `start`: only where its used slots
    /// meet filled ones is the demand checked.
    fn fits(&self, slice: &Slice, start: usize) -> bool {
        // The plain case gets its own copy, with the mask a constant.
        if slice.is_plain() {
            self.fits_through(slice, start, u64::MAX)
        } else {
            self.fits_through(slice, start, slice.post_mask)
        }
    }

    #[inline(always)]
    fn fits_through(&self, slice: &Slice, start: usize, post_mask: u64) -> bool {
        let (first_word, shift) = (start / 64, start % 64);
        let mut carried = 0;
        for (k, &bits) in slice.bits.iter().chain([&0]).enumerate() {
            let here = (bits << shift) | carried;
            carried = if shift == 0 { 0 } else { bits >> (64 - shift) };
            let Some(&filled) = self.filled.get(first_word + k) else {
                return true;
            };
            let mut met = here & filled;
            while met != 0 {
                let slot = (first_word + k) * 64 + met.trailing_zeros() as usize;
                if !self.demands[slot].admits(slice.attacks[slot - start], post_mask) {
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
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::{Scheme, SearchConfig, find_set};

    fn pack_quietly(set: &MagicSet, tries: u32, anneal_steps: u64) -> Result<Packed, VerifyError> {
        let effort = PackEffort {
            tries,
            anneal_steps,
            ..PackEffort::default()
        };
        pack(set, &effort, &|_| {}, &AtomicBool::new(false))
    }

    fn black_set() -> MagicSet {
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
}
