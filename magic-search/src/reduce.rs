//! Reduced-bit fancy magics from their neighbours: rounds in which every square looks for a
//! magic one index bit below its own, drawing candidates near the reduced magics other squares
//! of its kind already have.
//!
//! The reduced rook magics this finds are dense at the top (negated sparse numbers such as
//! `-0x1600183200`), and once one square has one, its neighbours' lie a shift and a few flipped
//! bits away: a draw from that neighbourhood succeeds where millions of random candidates do
//! not. Squares whose kind has no reduced magic yet draw negated sparse and random numbers.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use bitforge_index::verify;
//! use magic_search::{Budget, ReduceEffort, SearchConfig, find_set, reduce_set};
//!
//! let (set, _) = find_set(&SearchConfig::default(), 2, &|_| {});
//! let effort = ReduceEffort { budget: Budget::Attempts(100_000), rounds: 1, ..Default::default() };
//! let reduced = reduce_set(&set, &effort, &|_| {}, &AtomicBool::new(false))?;
//! assert!(reduced.entries <= 107_648);
//! assert_eq!(verify(&reduced.set).unwrap().entries() as u64, reduced.entries);
//! # Ok::<(), String>(())
//! ```

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use crate::Budget;
use crate::engine::{Tester, mixed_density_candidate, sparse_candidate};
use bitforge_index::geometry::relevant_mask;
use bitforge_index::{MagicSet, Scheme, SliderKind, occupancies_with_attacks, verify};

/// How hard [`reduce_set`] tries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReduceEffort {
    /// Candidates (or time) per square and round.
    pub budget: Budget,
    /// Rounds at most; the rounds also end when one reduces no square.
    pub rounds: u32,
    /// Seed of the squares' streams (each square and round has its own).
    pub seed: u64,
    /// Worker threads; the result does not depend on them (a time budget excepted).
    pub threads: usize,
    /// Reduce only this kind's squares (the other kind's magics are kept as they are).
    pub only: Option<SliderKind>,
    /// Index bits below which no magic exists, by kind (rook, bishop) and square, as proofs
    /// (`prove`, `hunt`) have shown; 0 where none is known. A square at its floor is not
    /// searched. The floor that counting gives (as many bits as the square's distinct attack
    /// sets need) applies whatever this says.
    pub floors: [[u8; 64]; 2],
}

impl Default for ReduceEffort {
    fn default() -> Self {
        ReduceEffort {
            budget: Budget::Attempts(1 << 26),
            rounds: 8,
            seed: 1,
            threads: 1,
            only: None,
            floors: [[0; 64]; 2],
        }
    }
}

/// Where a reduction stands, for a progress display.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReduceProgress {
    /// The round under way, from 1.
    pub round: u32,
    /// Squares of this round finished.
    pub squares_done: usize,
    /// Squares this round tries.
    pub squares: usize,
    /// Squares given a magic one bit smaller so far, in all rounds.
    pub reductions: usize,
    /// The set's table entries after the rounds finished so far.
    pub entries: u64,
    /// Whether this report closes the round (its reductions and entries counted).
    pub round_finished: bool,
}

/// What [`reduce_set`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reduced {
    /// The set with the smaller magics, its slices laid end to end.
    pub set: MagicSet,
    /// Table entries before.
    pub entries_before: u64,
    /// Table entries after.
    pub entries: u64,
    /// Rounds run (the last may have reduced nothing).
    pub rounds: u32,
    /// Squares given a magic one bit smaller, counted once per bit.
    pub reductions: usize,
    /// Candidates tried in all.
    pub candidates: u64,
    /// Whether `stop` ended it early: the magics found until then are kept.
    pub stopped: bool,
    /// Squares left alone because their bits are at their floor (in the last round).
    pub at_floor: usize,
}

/// The fewest index bits any magic for `kind` on `square` can have: a slot for each distinct
/// attack set.
pub fn counting_floor(kind: SliderKind, square: u8) -> u8 {
    let distinct: std::collections::HashSet<u64> = occupancies_with_attacks(kind, square)
        .map(|(_, attacks)| attacks)
        .collect();
    distinct.len().next_power_of_two().trailing_zeros() as u8
}

/// How often, in candidates, a square's search looks at the clock and the stop flag (an
/// attempts budget is counted exactly).
const CHECK_EVERY: u64 = 4096;

/// Shifts of a neighbour's magic tried: a square one file, one rank or one diagonal step
/// away sees its occupancies shifted by as much.
const NEIGHBOUR_SHIFTS: [i32; 11] = [0, 1, -1, 8, -8, 7, -7, 9, -9, 2, -2];

/// Lowers the index bits of a fancy set's magics: round after round, every square looks for
/// a magic one bit below its own (candidates drawn near the other squares' reduced magics of
/// its kind, and negated sparse numbers), until `effort.rounds` or a round that finds none.
/// Each square's search depends only on the seed, the round and the set at the round's
/// start, so the result does not depend on the threads. `stop` ends the search early with
/// the magics found until then. The set must be a verifying fancy set.
pub fn reduce_set(
    set: &MagicSet,
    effort: &ReduceEffort,
    progress: &(dyn Fn(ReduceProgress) + Sync),
    stop: &AtomicBool,
) -> Result<Reduced, String> {
    if set.scheme != Scheme::Fancy {
        return Err(format!(
            "only fancy sets have bits to lose: this one is {}",
            set.scheme
        ));
    }
    let mut pairs = [SliderKind::Rook, SliderKind::Bishop].map(|kind| {
        set.entries(kind)
            .iter()
            .map(|entry| (entry.magic, entry.bits))
            .collect::<Vec<_>>()
    });
    verify(set).map_err(|error| error.to_string())?;
    let entries_of = |pairs: &[Vec<(u64, u8)>; 2]| -> u64 {
        pairs.iter().flatten().map(|&(_, bits)| 1u64 << bits).sum()
    };
    let entries_before = entries_of(&pairs);
    let threads = effort.threads.max(1);
    let mut now = ReduceProgress {
        entries: entries_before,
        ..ReduceProgress::default()
    };
    let floors = [SliderKind::Rook, SliderKind::Bishop].map(|kind| {
        core::array::from_fn::<u8, 64, _>(|square| {
            let square = square as u8;
            counting_floor(kind, square)
                .max(effort.floors[kind as usize][usize::from(square)])
                .max(1)
        })
    });
    let (mut rounds, mut candidates, mut stopped, mut at_floor) = (0, 0u64, false, 0);
    while rounds < effort.rounds && !stopped {
        rounds += 1;
        // Squares with a bit to lose, and each kind's reduced magics as they stand now.
        let kinds = [SliderKind::Rook, SliderKind::Bishop]
            .into_iter()
            .filter(|kind| effort.only.is_none_or(|only| only == *kind));
        let mut work: Vec<(SliderKind, u8, u8)> = Vec::new();
        at_floor = 0;
        for kind in kinds {
            for (square, &(_, bits)) in (0u8..).zip(&pairs[kind as usize]) {
                if bits > floors[kind as usize][usize::from(square)] {
                    work.push((kind, square, bits - 1));
                } else {
                    at_floor += 1;
                }
            }
        }
        let neighbours = [SliderKind::Rook, SliderKind::Bishop].map(|kind| {
            (0u8..)
                .zip(&pairs[kind as usize])
                .filter(|&(square, &(_, bits))| {
                    u32::from(bits) < relevant_mask(kind, square).count_ones()
                })
                .map(|(_, &(magic, _))| magic)
                .collect::<Vec<_>>()
        });
        now.round = rounds;
        now.squares = work.len();
        now.squares_done = 0;
        progress(now);
        let next = AtomicUsize::new(0);
        let done = AtomicUsize::new(0);
        let mut found: Vec<(usize, Option<u64>, u64)> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|_| {
                    scope.spawn(|| {
                        let mut results = Vec::new();
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(&(kind, square, bits)) = work.get(i) else {
                                break;
                            };
                            let stream = effort.seed
                                ^ ((u64::from(rounds) << 32)
                                    | ((kind as u64) << 8)
                                    | u64::from(square))
                                .wrapping_mul(0x9E37_79B9_7F4A_7C15);
                            let (magic, tried) = search_square(
                                kind,
                                square,
                                bits,
                                &neighbours[kind as usize],
                                stream,
                                effort.budget,
                                stop,
                            );
                            results.push((i, magic, tried));
                            let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                            progress(ReduceProgress {
                                squares_done: finished,
                                ..now
                            });
                        }
                        results
                    })
                })
                .collect();
            workers
                .into_iter()
                .flat_map(|worker| worker.join().expect("a reduction worker panicked"))
                .collect()
        });
        found.sort_unstable_by_key(|&(i, _, _)| i);
        let mut reduced_now = 0;
        for (i, magic, tried) in found {
            candidates += tried;
            if let Some(magic) = magic {
                let (kind, square, bits) = work[i];
                pairs[kind as usize][usize::from(square)] = (magic, bits);
                reduced_now += 1;
            }
        }
        now.reductions += reduced_now;
        now.entries = entries_of(&pairs);
        stopped = stop.load(Ordering::Relaxed);
        progress(ReduceProgress {
            squares_done: now.squares,
            round_finished: true,
            ..now
        });
        if reduced_now == 0 {
            break;
        }
    }
    let [rook, bishop] =
        pairs.map(|magics| core::array::from_fn::<_, 64, _>(|square| magics[square]));
    let reduced = MagicSet::with_dense_offsets(Scheme::Fancy, rook, bishop);
    Ok(Reduced {
        set: reduced,
        entries_before,
        entries: now.entries,
        rounds,
        reductions: now.reductions,
        candidates,
        stopped,
        at_floor,
    })
}

/// One square's search at `bits`: a magic, and the candidates tried.
fn search_square(
    kind: SliderKind,
    square: u8,
    bits: u8,
    neighbours: &[u64],
    stream: u64,
    budget: Budget,
    stop: &AtomicBool,
) -> (Option<u64>, u64) {
    let mut tester = Tester::new(kind, square, Scheme::Fancy);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(stream);
    let started = Instant::now();
    let mut tried = 0u64;
    loop {
        let spent = match budget {
            Budget::Attempts(limit) => tried >= limit,
            Budget::Time(limit) => tried.is_multiple_of(CHECK_EVERY) && started.elapsed() >= limit,
        };
        if spent || (tried.is_multiple_of(CHECK_EVERY) && stop.load(Ordering::Relaxed)) {
            return (None, tried);
        }
        tried += 1;
        let magic = candidate(&mut rng, neighbours, tried);
        if tester.test(magic, bits).is_some() {
            return (Some(magic), tried);
        }
    }
}

/// The `n`th candidate: every other one near a neighbour's magic when there are any; the rest
/// in turn negated sparse numbers of three kinds (about 8 bits set, about 16, and about 8
/// within the low 31 to 52 bits: the first reduced rook magics are among them) and random
/// numbers of densities 1/2, 1/4 and 1/8 (where `find --bits min` finds its reduced bishops).
fn candidate(rng: &mut Xoshiro256PlusPlus, neighbours: &[u64], n: u64) -> u64 {
    if !neighbours.is_empty() && n.is_multiple_of(2) {
        let draw = rng.next_u64();
        let base = neighbours[(draw % neighbours.len() as u64) as usize];
        let shift = NEIGHBOUR_SHIFTS[((draw >> 32) % NEIGHBOUR_SHIFTS.len() as u64) as usize];
        let shifted = if shift >= 0 {
            base << shift
        } else {
            base >> -shift
        };
        let mut flips = 0u64;
        let positions = rng.next_u64();
        for i in 0..(draw >> 40) % 4 {
            flips |= 1 << ((positions >> (6 * i)) & 63);
        }
        // A flip in the negated number moves a whole run of ones.
        return if draw >> 44 & 1 == 0 {
            shifted ^ flips
        } else {
            (shifted.wrapping_neg() ^ flips).wrapping_neg()
        };
    }
    match n / 2 % 6 {
        0 => sparse_candidate(rng).wrapping_neg(),
        1 => (rng.next_u64() & rng.next_u64()).wrapping_neg(),
        2 => {
            let shift = 12 + rng.next_u64() % 22;
            (sparse_candidate(rng) >> shift).wrapping_neg()
        }
        // 3, 4, 5: densities 1/2, 1/4, 1/8.
        k => mixed_density_candidate(rng, k),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{SearchConfig, Target, check_magic, find_set};

    fn quick(rounds: u32, attempts: u64, threads: usize) -> ReduceEffort {
        ReduceEffort {
            budget: Budget::Attempts(attempts),
            rounds,
            seed: 3,
            threads,
            ..ReduceEffort::default()
        }
    }

    /// A square at its floor is not searched: the counting floor (bishop a1's seven attack
    /// sets need 3 bits) and a proved one (bishop d8 has no 4-bit magic).
    #[test]
    fn squares_at_their_floor_are_left_alone() {
        assert_eq!(counting_floor(SliderKind::Bishop, 0), 3);
        assert_eq!(counting_floor(SliderKind::Rook, 0), 6);
        let (set, _) = find_set(&SearchConfig::default(), 2, &|_| {});
        let d8 = 59;
        let d8_bits = set.entries(SliderKind::Bishop)[d8].bits;
        assert_eq!(
            d8_bits, 5,
            "the default set's bishop d8 has the mask's five bits"
        );
        let mut floors = [[0; 64]; 2];
        floors[SliderKind::Bishop as usize][d8] = 5;
        let bishops = |floors| ReduceEffort {
            only: Some(SliderKind::Bishop),
            floors,
            ..quick(1, 1_000, 1)
        };
        let stop = AtomicBool::new(false);
        let squares = |effort: &ReduceEffort| {
            let seen = std::sync::Mutex::new(0);
            let reduced = reduce_set(
                &set,
                effort,
                &|now| *seen.lock().unwrap() = now.squares,
                &stop,
            )
            .unwrap();
            (reduced.at_floor, seen.into_inner().unwrap())
        };
        let (free_floor, free) = squares(&bishops([[0; 64]; 2]));
        let (proved_floor, proved) = squares(&bishops(floors));
        assert_eq!((proved_floor, proved), (free_floor + 1, free - 1));
    }

    /// From the default fancy set, a short reduction verifies, loses bits (bishops lose them
    /// at once), is the same on one thread and two, and never grows a square.
    #[test]
    fn reduces_a_fancy_set_and_verifies() {
        let (set, _) = find_set(&SearchConfig::default(), 2, &|_| {});
        let stop = AtomicBool::new(false);
        let ends = std::sync::Mutex::new(Vec::new());
        let report = |now: ReduceProgress| {
            if now.round_finished {
                ends.lock().unwrap().push(now);
            }
        };
        let one = reduce_set(&set, &quick(2, 200_000, 1), &report, &stop).unwrap();
        let two = reduce_set(&set, &quick(2, 200_000, 2), &|_| {}, &stop).unwrap();
        assert_eq!(one, two);
        // One report closes each round, the last with the result's figures.
        let ends = ends.into_inner().unwrap();
        assert_eq!(ends.len() as u32, one.rounds);
        let last = ends.last().unwrap();
        assert_eq!(
            (last.entries, last.reductions),
            (one.entries, one.reductions)
        );
        assert!(one.entries < one.entries_before, "{}", one.entries);
        assert_eq!(verify(&one.set).unwrap().entries() as u64, one.entries);
        for kind in [SliderKind::Rook, SliderKind::Bishop] {
            for (before, after) in set.entries(kind).iter().zip(one.set.entries(kind)) {
                assert!(after.bits <= before.bits);
            }
        }
        assert!(one.reductions > 0 && one.candidates > 0 && !one.stopped);
    }

    /// One kind only: the other kind's magics are kept as they were.
    #[test]
    fn one_kind_is_reduced_and_the_other_kept() {
        let (set, _) = find_set(&SearchConfig::default(), 2, &|_| {});
        let effort = ReduceEffort {
            only: Some(SliderKind::Bishop),
            ..quick(1, 200_000, 2)
        };
        let reduced = reduce_set(&set, &effort, &|_| {}, &AtomicBool::new(false)).unwrap();
        assert!(reduced.reductions > 0, "bishops lose bits at once");
        let magics = |set: &MagicSet, kind| set.entries(kind).map(|e| (e.magic, e.bits));
        assert_eq!(
            magics(&reduced.set, SliderKind::Rook),
            magics(&set, SliderKind::Rook)
        );
        assert_ne!(
            magics(&reduced.set, SliderKind::Bishop),
            magics(&set, SliderKind::Bishop)
        );
    }

    /// The neighbourhood is what finds reduced rook magics: rook d8 at 10 bits (one below its
    /// mask) from rook e7's 9-bit magic within a few thousand candidates, where the draws
    /// without a neighbour find none in a million.
    #[test]
    fn a_neighbours_magic_leads_to_a_reduced_rook() {
        let (d8, e7) = (59, 52);
        // Found by negated sparse draws in a throwaway run of a few seconds; it is also the
        // magic Volker Annuss published for rook e7.
        let e7_magic = 0xffff_ffe9_ffe7_ce00;
        let e7_target = Target::new(SliderKind::Rook, e7, 9, Scheme::Fancy).unwrap();
        assert!(check_magic(e7_target, e7_magic).is_ok());
        let stop = AtomicBool::new(false);
        let budget = Budget::Attempts(1_000_000);
        let alone = search_square(SliderKind::Rook, d8, 10, &[], 5, budget, &stop);
        let (near, tried) = search_square(SliderKind::Rook, d8, 10, &[e7_magic], 5, budget, &stop);
        // The budget is spent exactly.
        assert_eq!(alone, (None, 1_000_000));
        let magic = near.expect("found near e7's magic");
        let target = Target::new(SliderKind::Rook, d8, 10, Scheme::Fancy).unwrap();
        assert!(
            check_magic(target, magic).is_ok() && tried < 10_000,
            "{tried}"
        );
    }

    /// A set of another scheme, or one that does not verify, is refused; a raised stop flag
    /// ends at once with the set unchanged.
    #[test]
    fn refuses_bad_sets_and_stops() {
        let stop = AtomicBool::new(false);
        let black = SearchConfig {
            scheme: Scheme::Black,
            ..SearchConfig::default()
        };
        let (set, _) = find_set(&black, 2, &|_| {});
        let error = reduce_set(&set, &quick(1, 10, 1), &|_| {}, &stop).unwrap_err();
        assert!(error.contains("only fancy"), "{error}");

        let (mut set, _) = find_set(&SearchConfig::default(), 2, &|_| {});
        let good = set.clone();
        set.rook[0].magic = 0;
        let error = reduce_set(&set, &quick(1, 10, 1), &|_| {}, &stop).unwrap_err();
        assert!(error.contains("rook a1"), "{error}");

        stop.store(true, Ordering::Relaxed);
        let stopped = reduce_set(&good, &quick(3, 1 << 30, 2), &|_| {}, &stop).unwrap();
        assert!(stopped.stopped && stopped.rounds == 1 && stopped.reductions == 0);
        assert_eq!(stopped.entries, stopped.entries_before);
    }
}
