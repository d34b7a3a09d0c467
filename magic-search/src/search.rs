//! The magic search: seeded random sparse candidates, a cheap early reject, and a collision
//! check that never clears its table.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use crate::geometry::{SliderKind, ray, ray_attacks, relevant_mask};
use crate::magic_set::MagicSet;
use crate::scheme::Scheme;
use crate::subsets::Subsets;
use crate::tuned_streams::FANCY_STREAM_OFFSETS;

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

/// When a search for a reduced-bit magic gives up (a full-width magic is always searched to the
/// end).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Candidates tried per square and bit level. Deterministic.
    Attempts(u64),
    /// Wall-clock time per square and bit level. Results then depend on the machine's speed.
    Time(Duration),
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
    /// When reduced-bit searches give up.
    pub budget: Budget,
    /// For the fixed and black schemes: among this many valid magics per square, keep the one
    /// whose used indices span the fewest slots, which packs better. 1 keeps the first found.
    pub candidates: u32,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            scheme: Scheme::Fancy,
            seed: DEFAULT_SEED,
            bits: BitsTarget::Mask,
            budget: Budget::default(),
            candidates: 1,
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
struct Problem {
    mask: u64,
    keys: Vec<u64>,
    attack_ids: Vec<u8>,
}

impl Problem {
    fn new(kind: SliderKind, square: u8, scheme: Scheme) -> Self {
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

    /// Moves key `number` to `position` if it is further back (the order of keys is free).
    fn promote(&mut self, number: usize, position: usize) {
        if number > position {
            self.keys.swap(number, position);
            self.attack_ids.swap(number, position);
        }
    }
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
    /// destructive collision, the numbers of the two keys that collide.
    #[inline]
    fn try_magic(
        &mut self,
        problem: &Problem,
        magic: u64,
        bits: u8,
    ) -> Result<(usize, usize), (usize, usize)> {
        let size = 1usize << bits;
        if self.slots.len() < size {
            self.slots.resize(size, 0);
        }
        self.epoch += 1;
        if self.epoch == Self::EPOCH_LIMIT {
            self.slots.fill(0);
            self.epoch = 1;
        }
        let stamp = self.epoch << KEY_BITS;
        let shift = 64 - u32::from(bits);
        let slots = &mut self.slots[..size];
        let ids = &problem.attack_ids;
        let (mut lowest, mut highest) = (usize::MAX, 0);
        for (number, (&key, &id)) in problem.keys.iter().zip(ids).enumerate() {
            let index = bitforge_index::magic_index(key, magic, shift);
            let slot = &mut slots[index];
            if *slot >> KEY_BITS != self.epoch {
                *slot = stamp | number as u32;
                lowest = lowest.min(index);
                highest = highest.max(index);
            } else {
                let holder = (*slot & ((1 << KEY_BITS) - 1)) as usize;
                if ids[holder] != id {
                    return Err((holder, number));
                }
            }
        }
        Ok((lowest, highest))
    }
}

/// How many recently colliding key pairs are tried before the table: successive candidates
/// tend to fail on the same pairs, and a pair costs two multiplications.
const KILLERS: usize = 8;

/// How many keys at the front of a problem take turns holding the most recently colliding keys.
const FRONT: usize = 64;

/// Tests candidate magics for one square, failing early: the key pairs that collided last
/// are tried first (killers), and keys that collide move to the front of the order.
pub(crate) struct Tester {
    problem: Problem,
    table: CollisionTable,
    killers: [(u64, u64); KILLERS],
    next_killer: usize,
    next_front: usize,
}

impl Tester {
    pub(crate) fn new(kind: SliderKind, square: u8, scheme: Scheme) -> Self {
        Tester {
            problem: Problem::new(kind, square, scheme),
            table: CollisionTable::new(),
            // Equal keys never collide destructively, so the empty slots reject nothing.
            killers: [(0, 0); KILLERS],
            next_killer: 0,
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
        let shift = 64 - u32::from(bits);
        let index = |key: u64| bitforge_index::magic_index(key, magic, shift);
        if self
            .killers
            .iter()
            .any(|&(a, b)| a != b && index(a) == index(b))
        {
            return None;
        }
        match self.table.try_magic(&self.problem, magic, bits) {
            Ok(span) => Some(span),
            Err((first, second)) => {
                let keys = &self.problem.keys;
                self.killers[self.next_killer] = (keys[first], keys[second]);
                self.next_killer = (self.next_killer + 1) % KILLERS;
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

/// One square's search state: its tester, its random stream and the running count.
pub(crate) struct SquareSearch {
    kind: SliderKind,
    square: u8,
    seed: u64,
    tester: Tester,
    rng: Xoshiro256PlusPlus,
    tried: u64,
    early_reject: bool,
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

impl SquareSearch {
    pub(crate) fn new(kind: SliderKind, square: u8, config: &SearchConfig, offset: u16) -> Self {
        SquareSearch {
            kind,
            square,
            seed: config.seed,
            tester: Tester::new(kind, square, config.scheme),
            rng: Xoshiro256PlusPlus::seed_from_u64(stream_seed(kind, square, config.seed, offset)),
            tried: 0,
            early_reject: config.scheme != Scheme::Black,
        }
    }

    /// Draws from the square's stream `offset` from now on and counts candidates afresh. Which
    /// candidate first succeeds depends only on the stream: the key order and the killers that
    /// earlier searches left only make failures cheaper.
    pub(crate) fn restart(&mut self, offset: u16) {
        let seed = stream_seed(self.kind, self.square, self.seed, offset);
        self.rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        self.tried = 0;
    }

    /// How many candidates the full-width search tries up to its first magic; `None` if more
    /// than `limit`.
    pub(crate) fn candidates_to_first_magic(&mut self, limit: u64) -> Option<u64> {
        let bits = self.tester.mask().count_ones() as u8;
        self.next_magic(bits, Some(Budget::Attempts(limit)), false)?;
        Some(self.tried)
    }

    /// The next valid magic for `bits`, or `None` when `budget` runs out first. `reduced`:
    /// fewer bits than the mask, which needs constructive collisions and denser candidates.
    fn next_magic(
        &mut self,
        bits: u8,
        budget: Option<Budget>,
        reduced: bool,
    ) -> Option<(u64, usize, usize)> {
        let started = Instant::now();
        let mut attempts = 0u64;
        loop {
            attempts += 1;
            self.tried += 1;
            match budget {
                Some(Budget::Attempts(limit)) if attempts > limit => return None,
                Some(Budget::Time(limit))
                    if attempts.is_multiple_of(4096) && started.elapsed() > limit =>
                {
                    return None;
                }
                _ => {}
            }
            let magic = if reduced {
                // Reduced-bit magics need constructive collisions, which dense multipliers make
                // far more often (here, sparse ones found none in 50M tries where dense ones
                // needed 25k): cycle through densities of 1/2, 1/4 and 1/8.
                match attempts % 3 {
                    0 => self.rng.next_u64(),
                    1 => self.rng.next_u64() & self.rng.next_u64(),
                    _ => self.rng.next_u64() & self.rng.next_u64() & self.rng.next_u64(),
                }
            } else {
                // Sparse candidates (about 8 bits set) succeed far more often at full width.
                self.rng.next_u64() & self.rng.next_u64() & self.rng.next_u64()
            };
            // A magic that moves fewer than 6 mask bits into the top byte cannot spread the
            // occupancies over the full index range: reject it before touching the table.
            if self.early_reject
                && !reduced
                && (self.tester.mask().wrapping_mul(magic) >> 56).count_ones() < 6
            {
                continue;
            }
            if let Some((lowest, highest)) = self.tester.test(magic, bits) {
                return Some((magic, lowest, highest));
            }
        }
    }
}

/// Finds a magic for one square.
pub fn find_square(kind: SliderKind, square: u8, config: &SearchConfig) -> SquareResult {
    let offset = stream_offset(kind, square, config.scheme);
    let mut search = SquareSearch::new(kind, square, config, offset);
    let full_bits = config
        .scheme
        .fixed_bits(kind)
        .unwrap_or(search.tester.mask().count_ones() as u8);
    let (mut magic, lowest, highest) = search
        .next_magic(full_bits, None, false)
        .expect("an unbounded search always ends with a magic");
    let mut bits = full_bits;

    // Fixed-width schemes pack better when the used indices span fewer slots.
    let mut span = highest - lowest;
    for _ in 1..config.candidates.max(1) {
        if let Some((found, lowest, highest)) = search.next_magic(full_bits, None, false)
            && highest - lowest < span
        {
            (magic, span) = (found, highest - lowest);
        }
    }

    if config.scheme == Scheme::Fancy {
        let levels = match config.bits {
            BitsTarget::Mask => 0..0,
            BitsTarget::Fewer(n) => n..n + 1,
            BitsTarget::Minimise => 1..full_bits,
        };
        for fewer in levels {
            let Some(target) = full_bits.checked_sub(fewer).filter(|&b| b >= 1) else {
                break;
            };
            match search.next_magic(target, Some(config.budget), true) {
                Some((found, _, _)) => (magic, bits) = (found, target),
                None => break,
            }
        }
    }
    SquareResult {
        kind,
        square,
        magic,
        bits,
        candidates_tried: search.tried,
    }
}

/// Finds a full set, rook and bishop on all 64 squares, on `threads` threads (at least one).
/// `on_square` is called once per finished square, from the thread that found it.
///
/// The result depends only on `config`, never on the thread count (each square has its own
/// random stream), except with a time budget.
pub fn find_set(
    config: &SearchConfig,
    threads: usize,
    on_square: &(dyn Fn(&SquareResult) + Sync),
) -> (MagicSet, SearchStats) {
    // Hardest squares first (most mask bits), so that threads finish together.
    let mut jobs: Vec<(SliderKind, u8)> = SliderKind::ALL
        .into_iter()
        .flat_map(|kind| (0..64).map(move |square| (kind, square)))
        .collect();
    jobs.sort_by_key(|&(kind, square)| {
        core::cmp::Reverse(relevant_mask(kind, square).count_ones())
    });

    let next_job = AtomicUsize::new(0);
    let worker = || {
        let mut done = Vec::new();
        while let Some(&(kind, square)) = jobs.get(next_job.fetch_add(1, Ordering::Relaxed)) {
            let result = find_square(kind, square, config);
            on_square(&result);
            done.push(result);
        }
        done
    };
    let results: Vec<SquareResult> = std::thread::scope(|scope| {
        let handles: Vec<_> = (1..threads.max(1)).map(|_| scope.spawn(worker)).collect();
        let mut all = worker();
        for handle in handles {
            all.extend(handle.join().expect("a search thread panicked"));
        }
        all
    });

    let mut pairs = [[(0u64, 0u8); 64]; 2];
    let mut stats = SearchStats::default();
    for result in &results {
        pairs[result.kind as usize][result.square as usize] = (result.magic, result.bits);
        stats.candidates_tried += result.candidates_tried;
        stats.squares += 1;
    }
    let set = MagicSet::with_dense_offsets(config.scheme, pairs[0], pairs[1]);
    (set, stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::verify;

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
}
