//! Filling a slice's holes with another square: a magic searched for the holes it must fit.
//!
//! A packed table's holes lie mostly inside slices that nothing else fits: the periodic gaps
//! of stacked combs, the gaps of a slice whose used slots are scattered. No random magic of
//! another square fits them whole (tens of thousands of valid rank-8 rook magics tried against
//! the largest stack's holes, none fitting), so [`anneal_into`] searches for one: simulated
//! annealing over the magic's bits, its cost the slots that would meet the host's used ones,
//! the slots sticking out of the host, and the destructive collisions that make a magic
//! invalid. A magic of cost 0 fits whole; stacked into its host ([`stack`](super::stack)), the
//! square's own span leaves the table.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use super::arrange::unit_interval;
use super::choose::quick_entries;
use super::slices::{Slice, slices_of};
use super::stacking::stack;
use super::{PackEffort, PackProgress};
use crate::engine::Problem;
use bitforge_index::MagicSet;
use bitforge_index::SliderKind;

/// The slices a fill moves, and the stacking takes whole into another's holes: at least this
/// many slots long. Shorter ones (every bishop's) first-fit already places in holes.
pub(crate) const FILL_MIN_SPAN: usize = 1024;

/// How far a filled slice may stick out of its host at either end (the slots it adds to the
/// host's span).
pub(crate) const FILL_OVERHANG: usize = 64;

/// What one destructive collision (two occupancies with different attacks in one slot) costs
/// the annealing, in slots: more than a misplaced slot, so that the search stays among valid
/// magics, little enough that it can cross an invalid one.
const COLLISION_COST: usize = 4;

/// The annealing's temperature, in slots of cost, at its first step and at its last.
const TEMPERATURE: (f64, f64) = (30.0, 0.2);

/// A square to fill with: its occupancies as the search sees them (index keys, each with a
/// small id of its attack set), and its index bits in the set.
pub(super) struct Guest {
    bits: u8,
    problem: Problem,
}

impl Guest {
    pub(super) fn new(set: &MagicSet, kind: SliderKind, square: u8) -> Self {
        Guest {
            bits: set.entries(kind)[square as usize].bits,
            problem: Problem::new(kind, square, set.scheme),
        }
    }
}

/// Where [`anneal_into`] measures a magic: the host's used slots, a bit each, with empty words
/// around them for a guest that sticks out, and the scratch space of one measurement.
struct Measure<'a> {
    guest: &'a Guest,
    /// The host's used-slot words, `pad` empty words before and after.
    host: Vec<u64>,
    host_span: usize,
    pad: usize,
    /// Per index: `epoch << 32 | attack id` of the first key there this measurement.
    slots: Vec<u64>,
    epoch: u64,
    used: Vec<u64>,
}

/// What a magic costs, and whether it fits: `fits` when valid and stacked into the host's
/// holes with at most [`FILL_OVERHANG`] slots out at either end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cost {
    total: usize,
    fits: bool,
}

impl<'a> Measure<'a> {
    fn new(guest: &'a Guest, host: &Slice) -> Self {
        let size = 1usize << guest.bits;
        let pad = size.div_ceil(64) + 2;
        let mut words = vec![0u64; pad];
        words.extend_from_slice(&host.bits);
        words.resize(words.len() + pad, 0);
        Measure {
            guest,
            host: words,
            host_span: host.span(),
            pad,
            slots: vec![0; size],
            epoch: 0,
            used: Vec::with_capacity(size.div_ceil(64) + 1),
        }
    }

    /// The cost of `magic`: its destructive collisions (each [`COLLISION_COST`]) plus, at the
    /// best shift, the used slots that meet the host's and the slots it sticks out.
    fn cost(&mut self, magic: u64) -> Cost {
        self.epoch += 1;
        let stamp = self.epoch << 32;
        let shift = 64 - u32::from(self.guest.bits);
        let (mut collisions, mut lowest, mut highest) = (0, usize::MAX, 0);
        let problem = &self.guest.problem;
        for (&key, &id) in problem.keys.iter().zip(&problem.attack_ids) {
            let index = bitforge_index::magic_index(key, magic, shift);
            let slot = &mut self.slots[index];
            if *slot >> 32 != self.epoch {
                *slot = stamp | u64::from(id);
                lowest = lowest.min(index);
                highest = highest.max(index);
            } else if *slot as u8 != id {
                collisions += 1;
            }
        }
        let span = highest + 1 - lowest;
        self.used.clear();
        self.used.resize(span.div_ceil(64), 0);
        for index in lowest..=highest {
            if self.slots[index] >> 32 == self.epoch {
                self.used[(index - lowest) / 64] |= 1 << ((index - lowest) % 64);
            }
        }
        let (out_most, room) = (
            FILL_OVERHANG as isize,
            self.host_span as isize - span as isize,
        );
        let mut best = (usize::MAX, false);
        for start in room.min(0) - out_most..=room.max(0) + out_most {
            let out = (-start).max(0) + (start - room).max(0);
            let at = (start + 64 * self.pad as isize) as usize;
            let (word, bit) = (at / 64, at % 64);
            let mut met = 0;
            let mut carried = 0u64;
            for (k, &used) in self.used.iter().chain([&0]).enumerate() {
                let here = if bit == 0 {
                    used
                } else {
                    (used << bit) | carried
                };
                carried = if bit == 0 { 0 } else { used >> (64 - bit) };
                met += (here & self.host[word + k]).count_ones() as usize;
                if met + out as usize >= best.0 {
                    break;
                }
            }
            let cost = met + out as usize;
            if cost < best.0 {
                best = (cost, met == 0 && out <= out_most);
            }
        }
        Cost {
            total: collisions * COLLISION_COST + best.0,
            fits: collisions == 0 && best.1,
        }
    }
}

/// Searches for a magic of `guest` whose slice stacks into `host`'s holes: `steps` of
/// simulated annealing from `start` (one or two bits flipped a step), the first magic that
/// fits, or none. Deterministic for a seed.
pub(super) fn anneal_into(
    guest: &Guest,
    host: &Slice,
    start: u64,
    steps: u64,
    seed: u64,
    stop: &AtomicBool,
) -> Option<u64> {
    let mut measure = Measure::new(guest, host);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (mut magic, mut cost) = (start, measure.cost(start));
    let cooling = (TEMPERATURE.1 / TEMPERATURE.0).powf(1.0 / steps.max(1) as f64);
    let mut temperature = TEMPERATURE.0;
    for step in 0..steps {
        if cost.fits {
            return Some(magic);
        }
        if step % 4096 == 0 && stop.load(Ordering::Relaxed) {
            return None;
        }
        let draw = rng.next_u64();
        let mut next = magic ^ (1 << (draw & 63));
        if draw >> 63 == 0 {
            next ^= 1 << ((draw >> 6) & 63);
        }
        let next_cost = measure.cost(next);
        let rise = next_cost.total as f64 - cost.total as f64;
        if rise <= 0.0 || unit_interval(&mut rng) < (-rise / temperature).exp() {
            (magic, cost) = (next, next_cost);
        }
        temperature *= cooling;
    }
    cost.fits.then_some(magic)
}

/// One annealing worth trying: a guest square (alone in its slice) into a host slice.
struct Attempt {
    kind: SliderKind,
    square: u8,
    start: u64,
    /// Shared by the attempts of every guest.
    host: Arc<Slice>,
    /// The guest's magic and the host's members' magics: what the annealing's result depends
    /// on, so that an attempt is never repeated.
    key: AttemptKey,
}

type AttemptKey = (SliderKind, u8, u64, Vec<(SliderKind, u8, u64)>);

impl Attempt {
    /// The annealing of this attempt, `guest` made for its square: seeded by the effort's
    /// seed, the square and the host's first member.
    fn run(&self, guest: &Guest, effort: &PackEffort, stop: &AtomicBool) -> Option<u64> {
        let host = self.host.members[0];
        let seed = [(self.kind, self.square), (host.kind, host.square)]
            .iter()
            .fold(effort.seed, |seed, &(kind, square)| {
                seed.rotate_left(17)
                    ^ (kind as u64 * 64 + u64::from(square) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            });
        anneal_into(guest, &self.host, self.start, effort.fill_steps, seed, stop)
    }
}

/// What [`fill`] did: the set, the squares it gave new magics, and the annealings it ran.
pub(super) struct Filled {
    pub(super) set: MagicSet,
    pub(super) squares: usize,
    pub(super) attempts: u64,
}

/// Moves slices into other slices' holes: for each slice alone in its stack at least
/// [`FILL_MIN_SPAN`] long (the longest first) and each stack with at least half as many
/// holes (the most first), [`anneal_into`] searches `effort.fill_steps` steps for a magic that
/// fits; one that makes the quick packing smaller is kept, the stacks are built again, and the
/// attempts go on until none is left. Deterministic: attempts run one per core, their results
/// taken in order. `stop` ends it, keeping the magics found so far.
pub(super) fn fill(
    set: &MagicSet,
    effort: &PackEffort,
    choices: u64,
    progress: &(dyn Fn(PackProgress) + Sync),
    stop: &AtomicBool,
) -> Filled {
    let threads = thread::available_parallelism().map_or(1, |n| n.get());
    let mut filled = Filled {
        set: set.clone(),
        squares: 0,
        attempts: 0,
    };
    let mut smallest = quick_entries(&slices_of(set), effort);
    let mut tried: HashSet<AttemptKey> = HashSet::new();
    let mut moved: HashSet<(SliderKind, u8)> = HashSet::new();
    'units: loop {
        let attempts: Vec<Attempt> = attempts(&filled.set)
            .into_iter()
            .filter(|attempt| !tried.contains(&attempt.key))
            .collect();
        for batch in attempts.chunks(threads) {
            if stop.load(Ordering::Relaxed) {
                return filled;
            }
            let guests: Vec<Guest> = batch
                .iter()
                .map(|attempt| Guest::new(&filled.set, attempt.kind, attempt.square))
                .collect();
            let found: Vec<Option<u64>> = thread::scope(|scope| {
                let handles: Vec<_> = batch
                    .iter()
                    .zip(&guests)
                    .map(|(attempt, guest)| scope.spawn(move || attempt.run(guest, effort, stop)))
                    .collect();
                handles
                    .into_iter()
                    .map(|handle| {
                        handle
                            .join()
                            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                    })
                    .collect()
            });
            if stop.load(Ordering::Relaxed) {
                return filled;
            }
            for (attempt, magic) in batch.iter().zip(found) {
                filled.attempts += 1;
                tried.insert(attempt.key.clone());
                (progress)(PackProgress {
                    orders: 0,
                    choices,
                    fills: filled.attempts,
                    best_entries: smallest,
                });
                let Some(magic) = magic else { continue };
                let mut candidate = filled.set.clone();
                candidate.entries_mut(attempt.kind)[attempt.square as usize].magic = magic;
                let entries = quick_entries(&slices_of(&candidate), effort);
                if entries < smallest {
                    smallest = entries;
                    filled.set = candidate;
                    moved.insert((attempt.kind, attempt.square));
                    filled.squares = moved.len();
                    continue 'units;
                }
            }
        }
        return filled;
    }
}

/// The attempts on `set`'s stacks: guests (squares alone in a stack at least
/// [`FILL_MIN_SPAN`] long, the longest first) times hosts (other stacks with at least half
/// the guest's used slots in holes, the most holes first).
fn attempts(set: &MagicSet) -> Vec<Attempt> {
    let units = stack(slices_of(set));
    let members = |unit: &Slice| -> Vec<(SliderKind, u8, u64)> {
        unit.members
            .iter()
            .map(|m| {
                (
                    m.kind,
                    m.square,
                    set.entries(m.kind)[m.square as usize].magic,
                )
            })
            .collect()
    };
    let mut guests: Vec<(usize, &Slice)> = units
        .iter()
        .enumerate()
        .filter(|(_, unit)| unit.members.len() == 1 && unit.span() >= FILL_MIN_SPAN)
        .collect();
    guests.sort_by_key(|(_, unit)| core::cmp::Reverse(unit.span()));
    let mut hosts: Vec<(usize, Arc<Slice>)> = units
        .iter()
        .enumerate()
        .map(|(i, unit)| (i, Arc::new(unit.clone())))
        .collect();
    hosts.sort_by_key(|(_, unit)| core::cmp::Reverse(unit.span() - unit.used_slots()));
    let mut attempts = Vec::new();
    for (guest_index, guest) in guests {
        let member = guest.members[0];
        let start = set.entries(member.kind)[member.square as usize].magic;
        for (host_index, host) in &hosts {
            let holes = host.span() - host.used_slots();
            if *host_index == guest_index || 2 * holes < guest.used_slots() {
                continue;
            }
            attempts.push(Attempt {
                kind: member.kind,
                square: member.square,
                start,
                host: Arc::clone(host),
                key: (member.kind, member.square, start, members(host)),
            });
        }
    }
    attempts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pack::choose::quick_entries;
    use crate::pack::slices::square_slice;
    use crate::pack::tests::black_set;

    /// A host whose holes are exactly the slots of `magic`'s slice for the guest: the
    /// complement of that slice over its span.
    fn complement(set: &MagicSet, kind: SliderKind, square: u8, magic: u64) -> Slice {
        let mut host = square_slice(set, kind, square, magic);
        let span = host.span();
        for (k, word) in host.bits.iter_mut().enumerate() {
            let valid = if (k + 1) * 64 <= span {
                u64::MAX
            } else {
                (1u64 << (span % 64)) - 1
            };
            *word = !*word & valid;
        }
        host
    }

    #[test]
    fn annealing_finds_a_magic_that_fits_the_holes_left_for_one() {
        let set = black_set();
        let (kind, square) = (SliderKind::Rook, 57);
        let magic = set.rook[square as usize].magic;
        let host = complement(&set, kind, square, magic);
        let guest = Guest::new(&set, kind, square);
        let never = AtomicBool::new(false);
        // Its own magic fits the holes it leaves.
        let mut measure = Measure::new(&guest, &host);
        assert!(measure.cost(magic).fits);
        assert_eq!(
            anneal_into(&guest, &host, magic, 10, 1, &never),
            Some(magic)
        );
        // Two bits away, it does not fit; the annealing finds one that does.
        let away = magic ^ 1 << 40 ^ 1 << 13;
        assert!(!measure.cost(away).fits);
        let found = anneal_into(&guest, &host, away, 200_000, 1, &never).expect("a fit");
        assert!(measure.cost(found).fits);
        let mut with_found = set.clone();
        with_found.rook[square as usize].magic = found;
        bitforge_index::verify(&with_found).expect("the magic found is valid");
        // The same seed, the same magic.
        assert_eq!(
            anneal_into(&guest, &host, away, 200_000, 1, &never),
            Some(found)
        );
        // A guest of a host with no holes never fits.
        let full = Slice {
            bits: vec![u64::MAX; 64],
            demands: vec![Default::default(); 4096],
            ..host.clone()
        };
        assert_eq!(anneal_into(&guest, &full, magic, 2_000, 1, &never), None);
    }

    /// On the kept 89,540-entry set, rook d2 (a dense slice, 1,024 slots) gets a magic that
    /// fits a stack's holes, and the quick packing shrinks by most of its span.
    #[test]
    fn filling_moves_a_dense_rook_into_a_stacks_holes() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../results/magics/black-combs-annealed.magics"
        ))
        .unwrap();
        let set = MagicSet::parse(&text).unwrap();
        let effort = PackEffort {
            stack: true,
            fill_steps: 100_000,
            tries: 0,
            ..PackEffort::default()
        };
        let never = AtomicBool::new(false);
        let guest = Guest::new(&set, SliderKind::Rook, 11);
        let found = attempts(&set)
            .into_iter()
            .filter(|attempt| attempt.kind == SliderKind::Rook && attempt.square == 11)
            .find_map(|attempt| attempt.run(&guest, &effort, &never))
            .expect("a magic for d2 that fits");
        let before = quick_entries(&slices_of(&set), &effort);
        let mut filled = set.clone();
        filled.rook[11].magic = found;
        let after = quick_entries(&slices_of(&filled), &effort);
        assert!(after + 900 < before, "{before} -> {after}");
    }
}
