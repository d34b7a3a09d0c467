//! The certificate's re-check: the prover's tree walked again by code that shares nothing
//! with its walker but the geometry, the formula and the choice of levels to sieve. It keeps,
//! per level of the path, the whole table of the path's node there (every occupancy of its
//! squares placed, a slot holding its attacks' number among the target's distinct sets of
//! attacks, a byte). A child a screen left above the last level is tested by placing its new
//! occupancies (those holding its level's square) into a copy of its parent's table, which
//! then is its own if it passes; any other child against its parent's table, which it only
//! reads, and a scratch table of its own, its table copied and filled only if it passes and
//! has children. The prover instead marks and unmarks the entries of one shared table along
//! its path: a walker that skipped or wrongly pruned any node, or left an entry behind, gives
//! other counts or digests here.
//!
//! Where the prover sieves a node's children, the replay screens them at once before testing the
//! rest one by one, but by its own route. It checks the premise on every key when it starts (a
//! child's product is its parent's plus the child's number in the top bits). It keeps each table's
//! filled slots as a set; the slots of the parent's table that an occupancy cannot share are those
//! filled but by its alike occupancies of the levels above (its own list of keys with the same
//! attacks: the fact the prover's sieves use too, taken from the replay's own occupancies). Then,
//! where a node has at least as many children as slots, it marks the runs of children landing on
//! those slots: up to 512 children with runs of up to 8, laid out a byte of slots at a time (once
//! for the occupancies that follow with the same slots) and turned by where child 0 lands; wider
//! levels by blocks of a slot's run, each slot's run the tail
//! of one block of children and the head of the next, cut at one place a given occupancy, so that
//! a block keeps one interval of children left, bounded by batches of occupancies taken in order
//! of their cut, the first to reach a block bounding it; all at once for an occupancy that can
//! share no slot. Where it has fewer children than slots, child `c` lands `c` spacings after
//! child 0, so the slots turned by child 0's hold each child's fate a spacing apart. The prover
//! instead keeps what is left: up to 512 children a bit
//! each, ordered by place within a slot's run (two masks per occupancy), wider levels as each
//! block's bounds, raised and lowered for all blocks at once from the slot sets turned, and spread
//! levels a bit a slot. In tables of more than 64 slots (up to 256, in four words) the replay
//! screens the levels that cross the bishop's square run by run, and the prover keeps the runs of
//! children an occupancy lets through, intersected. Where the prover sieves spread levels there by
//! classes of slots, sorting the path's filled slots into them at each node, the replay lays each
//! table's filled slots out by class once when it fills the table, by exchanges of the slot
//! numbers' bits, and reads an occupancy's class as one word.

use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use bitforge_index::geometry::{ray_attacks, relevant_mask};
use bitforge_index::{Subsets, magic_index};

use super::tree::{SieveKind, Tally, count_node, sieve_for};
use super::{ProofReport, RootWalk};
use crate::engine::Found;
use crate::hunt::{Target, check_magic};

/// Continues `replayed`, the replay's own record of the roots walked again so far, as
/// `walked` says (its `keep` smallest magics kept).
pub(super) fn replay(replayed: ProofReport, walked: &RootWalk<'_>) -> ProofReport {
    let target = replayed.target;
    let mask = relevant_mask(target.kind(), target.square());
    let mut squares = Vec::new();
    let mut rest = mask;
    while rest != 0 {
        let highest = 63 - rest.leading_zeros();
        squares.push(highest);
        rest ^= 1 << highest;
    }
    // Each level's new occupancies (every subset of the squares above with its own square
    // added; the empty one too at level 0) as the scheme's keys, and their attacks by the
    // reference ray walk, fewest blockers first: their attacks are the most distinct, so a
    // collision shows soonest.
    let mut above = 0u64;
    let levels: Vec<Vec<(u64, u64)>> = squares
        .iter()
        .enumerate()
        .map(|(level, &square)| {
            let bit = 1u64 << square;
            let mut new: Vec<u64> = Subsets::new(above).map(|o| o | bit).collect();
            if level == 0 {
                new.push(0);
            }
            new.sort_by_key(|occupancy| occupancy.count_ones());
            above |= bit;
            new.into_iter()
                .map(|o| {
                    let attacks = ray_attacks(target.kind(), target.square(), o);
                    (target.scheme().key(o, mask), attacks)
                })
                .collect()
        })
        .collect();
    // Each set of attacks as its number among the target's distinct ones, from 1 (0 is
    // `EMPTY`): the tables, copied at every node that passes, are a byte a slot.
    let mut distinct: Vec<u64> = levels.iter().flatten().map(|&(_, a)| a).collect();
    distinct.sort_unstable();
    distinct.dedup();
    let levels: Vec<Vec<(u64, Attacks)>> = levels
        .into_iter()
        .map(|level| {
            level
                .into_iter()
                .map(|(key, attacks)| {
                    let number = distinct.binary_search(&attacks).expect("listed just above");
                    let number = Attacks::try_from(number + 1)
                        .expect("a slider has at most 144 sets of attacks on a square");
                    (key, number)
                })
                .collect()
        })
        .collect();
    let slots = 1usize << target.bits();
    let screened = screened_levels(&squares, &levels, slots);
    let spreads: Vec<Vec<u64>> = screened
        .iter()
        .map(|&bits| match bits {
            Some(bits) if laid_out(1 << bits, slots as u64) => {
                spread_table((1 << bits) / slots as u64)
            }
            _ => Vec::new(),
        })
        .collect();
    let root_level = ProofReport::root_level(target).expect("a proof's target has a tree");
    // Per level and new occupancy, the keys of the levels above's occupancies that have its
    // attacks.
    let alike_before: Vec<Vec<Vec<u64>>> = levels
        .iter()
        .enumerate()
        .map(|(level, new)| {
            new.iter()
                .map(|&(_, attacks)| {
                    levels[..level]
                        .iter()
                        .flatten()
                        .filter(|&&(_, other)| other == attacks)
                        .map(|&(key, _)| key)
                        .collect()
                })
                .collect()
        })
        .collect();
    let class_layouts: Vec<Option<ClassLayout>> = screened
        .iter()
        .map(|&bits| {
            bits.filter(|&bits| 1 << bits < slots && slots > 64)
                .map(|bits| ClassLayout::new(slots.ilog2(), slots.ilog2() - bits))
        })
        .collect();
    let mut words_before = 0;
    let dead_words: Vec<Range<usize>> = screened
        .iter()
        .map(|bits| {
            let words = bits.map_or(0, |bits| (1usize << bits).div_ceil(64));
            words_before += words;
            words_before - words..words_before
        })
        .collect();
    let (squares, levels, alike_before, screened, spreads, dead_words, class_layouts) = (
        &squares[..],
        &levels[..],
        &alike_before[..],
        &screened[..],
        &spreads[..],
        &dead_words[..],
        &class_layouts[..],
    );
    let new_replayer = || Replayer {
        target,
        stop: walked.stop,
        shift: 64 - u32::from(target.bits()),
        squares,
        levels,
        alike_before,
        keep: walked.keep,
        slots,
        tables: vec![EMPTY; slots * (squares.len() + 1)],
        taken: [[0; SLOT_WORDS]; MOST_LEVELS + 1],
        class_layouts,
        classes: [[0; SLOT_WORDS]; MOST_LEVELS + 1],
        scratch: vec![(0, EMPTY); slots],
        node: 0,
        screened,
        spreads,
        dead: OwnLines::new(dead_words.last().map_or(0, |words| words.end)),
        dead_words,
    };
    // Made here, not on the threads: made there (in their own allocator arenas), the replay
    // of bishop g4 took up to a sixth longer (results/analysis.md).
    let pool = Mutex::new(
        (0..walked.threads.max(1))
            .map(|_| new_replayer())
            .collect::<Vec<_>>(),
    );
    walked.run(
        replayed,
        || {
            let replayer = pool.lock().ok().and_then(|mut pool| pool.pop());
            replayer.unwrap_or_else(new_replayer)
        },
        |replayer, root, tally| replayer.root(root, root_level, tally),
    )
}

/// Per level, the bits of its nodes' children numbers where the replay screens them at once
/// (`None` where it tests each): the levels below the first that the prover sieves (a speed
/// choice, [`sieve_for`]; of the levels it sieves by classes, those of at most a word of
/// children) and whose
/// every key times the step between two children is 1 in the product's top bits, so that
/// child `c`'s product is child 0's plus `c` there (checked here, not taken from the prover).
fn screened_levels(
    squares: &[u32],
    levels: &[Vec<(u64, Attacks)>],
    slots: usize,
) -> Vec<Option<u32>> {
    let mut screened = vec![None];
    for (level, pair) in squares.windows(2).enumerate() {
        let child_bits = pair[0] - pair[1];
        let step = 1u64 << (64 - pair[0]);
        let premise = levels[level + 1]
            .iter()
            .all(|&(key, _)| key.wrapping_mul(step) == 1 << (64 - child_bits));
        let sieved = match sieve_for(child_bits, slots) {
            Some(SieveKind::Spread) => true,
            Some(SieveKind::Lanes | SieveKind::Arcs | SieveKind::Blocks) => {
                slots <= 64 * SLOT_WORDS
            }
            Some(SieveKind::Classes) => {
                (65..=64 * SLOT_WORDS).contains(&slots) && child_bits <= CLASS_MOST_BITS
            }
            None => false,
        };
        screened.push((premise && sieved).then_some(child_bits));
    }
    screened
}

/// The most squares a relevant mask has (a rook's in a corner): the levels of a tree.
const MOST_LEVELS: usize = 12;

/// The words of a table's filled slots as a set: 256 slots, a bishop's table at 8 bits.
const SLOT_WORDS: usize = 4;

/// The most children a node screened by classes has: `2^CLASS_MOST_BITS`, a bit each in a word.
const CLASS_MOST_BITS: u32 = 6;

/// How to lay a table's filled slots out by class for children `2^spacing_bits` slots apart
/// (`2^child_bits` of them a class): the slots of class `c` (those equal to `c` modulo the
/// spacing) become bits `c * 2^child_bits` on, in the order the children meet them, so slot
/// `s` goes to `(s mod 2^spacing_bits) * 2^child_bits + s / 2^spacing_bits`: its number turned
/// right by the spacing's bits. A turn of the number's bits is a sequence of exchanges of two
/// of them, each of which moves the set's bits a fixed distance within a word, or between two
/// words, at once.
#[derive(Clone, Copy, Debug, Default)]
struct ClassLayout {
    /// The exchanges, in order, as the two bits of a slot's number (the lower first).
    swaps: [(u32, u32); MOST_SLOT_BITS as usize],
    count: usize,
}

/// The most bits a slot's number has in a table laid out by class: 2^8 slots, a bishop's at 8
/// bits.
const MOST_SLOT_BITS: u32 = 8;

impl ClassLayout {
    /// The layout of a table of `2^slot_bits` slots (at most [`MOST_SLOT_BITS`]) for children
    /// `2^spacing_bits` slots apart.
    fn new(slot_bits: u32, spacing_bits: u32) -> Self {
        let mut layout = ClassLayout::default();
        // Bit `b` of a slot's number goes to bit `b - spacing_bits`, round `slot_bits`. Per
        // cycle of that turn, from its first bit: exchanging it with each next bit along the
        // cycle in turn carries every bit to its place.
        let mut placed = 0u32;
        for first in 0..slot_bits {
            if placed >> first & 1 == 1 {
                continue;
            }
            placed |= 1 << first;
            let mut at = (first + slot_bits - spacing_bits) % slot_bits;
            while at != first {
                layout.swaps[layout.count] = (first.min(at), first.max(at));
                layout.count += 1;
                placed |= 1 << at;
                at = (at + slot_bits - spacing_bits) % slot_bits;
            }
        }
        layout
    }

    /// The slots of `taken` (a bit a slot) laid out by class.
    fn lay_out(&self, taken: &[u64; SLOT_WORDS]) -> [u64; SLOT_WORDS] {
        let mut set = *taken;
        for &(low, high) in &self.swaps[..self.count] {
            exchange_number_bits(&mut set, low, high);
        }
        set
    }
}

/// Moves each bit of `set` (slot `s` at bit `s % 64` of word `s / 64`) to the slot whose
/// number is its own with bits `low` and `high` (`low < high`, `low` a bit of the place in a
/// word: a turn's cycles start at their lowest bit, below the turn's bits) exchanged.
fn exchange_number_bits(set: &mut [u64; SLOT_WORDS], low: u32, high: u32) {
    debug_assert!(low < high && low < 6);
    // The bits of a word whose place has bit `bit` set.
    const WITH_BIT: [u64; 6] = [
        0xaaaa_aaaa_aaaa_aaaa,
        0xcccc_cccc_cccc_cccc,
        0xf0f0_f0f0_f0f0_f0f0,
        0xff00_ff00_ff00_ff00,
        0xffff_0000_ffff_0000,
        0xffff_ffff_0000_0000,
    ];
    if high < 6 {
        // Within each word: place `p` (with `low`, without `high`) and `p + delta`.
        let delta = (1 << high) - (1 << low);
        let lower = WITH_BIT[low as usize] & !WITH_BIT[high as usize];
        for word in set.iter_mut() {
            let moved = ((*word >> delta) ^ *word) & lower;
            *word ^= moved ^ (moved << delta);
        }
    } else {
        // Between word `w` (without `high`) and `w + 2^(high - 6)`: place `p` of the first
        // (with `low`) and `p - 2^low` of the second.
        let (words_apart, delta) = (1usize << (high - 6), 1u32 << low);
        for first in (0..SLOT_WORDS).filter(|word| word & words_apart == 0) {
            let second = first + words_apart;
            let moved = (set[first] ^ set[second] << delta) & WITH_BIT[low as usize];
            set[first] ^= moved;
            set[second] ^= moved >> delta;
        }
    }
}

/// The children ruled out where a node has fewer children (`2^child_bits`, at most 64) than
/// a table of more than a word of slots has slots (a bit a child, the bits past the last child
/// set). `classes` holds the table's filled slots laid out by class ([`ClassLayout`]);
/// each occupancy comes as its child-0 slot and the slots its alike occupancies land on. Child
/// `c` lands `c` spacings after child 0's slot, so an occupancy's children all land in child
/// 0's class, and the filled slots of that class but its alike occupancies', turned by child
/// 0's place in the class, are the children it rules out.
fn classes_out<A: IntoIterator<Item = usize>>(
    classes: &[u64; SLOT_WORDS],
    occupancies: impl Iterator<Item = (usize, A)>,
    child_bits: u32,
    spacing_bits: u32,
) -> u64 {
    let children = 1u32 << child_bits;
    let every_child = !0u64 >> (64 - children);
    let class_of = (1 << spacing_bits) - 1;
    let mut dead = 0;
    for (first, alike) in occupancies {
        let class = first & class_of;
        let at = class << child_bits;
        // Masked: the word is in the table; this spares the bounds check.
        let mut out = classes[(at / 64) & (SLOT_WORDS - 1)] >> (at % 64) & every_child;
        for slot in alike {
            if slot & class_of == class {
                out &= !(1 << (slot >> spacing_bits));
            }
        }
        dead |= turned_down(out, (first >> spacing_bits) as u32, children);
        if dead == every_child {
            break;
        }
    }
    dead | !every_child
}

/// Sets the bits `first..first + count` of `words`, wrapping round at `size` bits.
fn mark_dead(words: &mut [u64], first: u64, count: u64, size: u64) {
    if count <= 64 && size >= 64 {
        // At most two words, the second the first's successor round the end.
        let bits = !0u64 >> (64 - count);
        let (word, bit) = ((first / 64) as usize, first % 64);
        words[word] |= bits << bit;
        if bit + count > 64 {
            words[(word + 1) & (words.len() - 1)] |= bits >> (64 - bit);
        }
        return;
    }
    let mut set = |from: u64, to: u64| {
        let mut at = from;
        while at < to {
            let bit = at % 64;
            let take = (64 - bit).min(to - at);
            words[(at / 64) as usize] |= (!0u64 >> (64 - take)) << bit;
            at += take;
        }
    };
    if first + count <= size {
        set(first, first + count);
    } else {
        set(first, size);
        set(0, first + count - size);
    }
}

/// Whether a screen of `children` (at least as many as `slots`, in a table of at most 64
/// slots) lays each occupancy's runs out in landing order and turns them ([`lay_out`],
/// [`turn_into`] or a rotation) rather than marking them one by one: where runs are short,
/// several slots' to a word, marking them one by one read the same words back again and
/// again.
fn laid_out(children: u64, slots: u64) -> bool {
    slots <= 64 && (slots..=LAID_OUT_MOST_CHILDREN).contains(&children) && children / slots <= 8
}

/// The most children a screen lays out (its words are an array on the stack).
const LAID_OUT_MOST_CHILDREN: u64 = 512;

/// Per byte of slots, their runs of `run` (at most 8) landing positions each, laid side by side.
fn spread_table(run: u64) -> Vec<u64> {
    (0..256u64)
        .map(|slots| {
            (0..8)
                .filter(|slot| slots >> slot & 1 == 1)
                .fold(0, |runs, slot| runs | (!0u64 >> (64 - run)) << (slot * run))
        })
        .collect()
}

/// Sets in `landed`, a bit a landing position, the runs of the slots of `slots_out`: slot `s`
/// takes the `run` positions from `s * run`; `spread` is [`spread_table`]`(run)`.
fn lay_out(landed: &mut [u64], slots_out: u64, run: u64, spread: &[u64]) {
    let bytes_a_word = (8 / run) as usize;
    for (word, landed) in landed.iter_mut().enumerate() {
        *landed = (0..bytes_a_word).fold(0, |runs, byte| {
            let slots = (slots_out >> ((word * bytes_a_word + byte) * 8)) & 0xff;
            runs | spread[slots as usize] << (byte as u64 * 8 * run)
        });
    }
}

/// Sets in `dead` the children whose landing positions `landed` holds, child `c` landing at
/// `first_child_at + c`, round the end of `landed`'s words (as many as `dead`'s, a power of
/// two).
fn turn_into(dead: &mut [u64], landed: &[u64], first_child_at: u64) {
    let words = landed.len();
    let (word_turn, bit_turn) = ((first_child_at / 64) as usize, (first_child_at % 64) as u32);
    for (word, dead) in dead.iter_mut().enumerate() {
        let low = landed[(word + word_turn) & (words - 1)];
        let high = landed[(word + word_turn + 1) & (words - 1)];
        *dead |= if bit_turn == 0 {
            low
        } else {
            (low >> bit_turn) | (high << (64 - bit_turn))
        };
    }
}

/// A set of attacks, as its number among the target's distinct ones (from 1).
type Attacks = u8;

/// A slot that holds no attacks.
const EMPTY: Attacks = 0;

struct Replayer<'a> {
    target: Target,
    /// Set to end the walk: a root walked while it was set does not count.
    stop: &'a AtomicBool,
    /// The index's shift: 64 less the target's bits.
    shift: u32,
    squares: &'a [u32],
    /// Per level, its new occupancies' keys and their attacks.
    levels: &'a [Vec<(u64, Attacks)>],
    /// Per level and new occupancy, the keys of the levels above's occupancies with the same
    /// attacks: the slots of a table holding those attacks are the ones they index.
    alike_before: &'a [Vec<Vec<u64>>],
    keep: usize,
    /// The attacks in each slot: at `level + 1` once every occupancy of the path's node at
    /// `level` is placed, at 0 none (what the nodes of `level` are tested against is at
    /// `level`). One allocation, level after level: tables allocated one by one lay 16 bytes
    /// past a whole number of pages apart, where the copy between them (`placed`) was slow
    /// (results/analysis.md).
    tables: Vec<Attacks>,
    /// Per table of `tables`, its filled slots, a bit each (slot `s` at bit `s % 64` of word
    /// `s / 64`): in the replayer itself, which lives on its thread, for the reason of
    /// [`OwnLines`].
    taken: [[u64; SLOT_WORDS]; MOST_LEVELS + 1],
    /// Per level screened by classes, how its tables' filled slots are laid out by class.
    class_layouts: &'a [Option<ClassLayout>],
    /// Per table of `tables` whose nodes' children are screened by classes, its filled slots
    /// laid out by class ([`ClassLayout`]) for their spacing.
    classes: [[u64; SLOT_WORDS]; MOST_LEVELS + 1],
    /// Slots in a table: `2^bits`.
    slots: usize,
    /// The slots the node being tested filled that its parent's table left empty: the node's
    /// number and the attacks.
    scratch: Vec<(u64, Attacks)>,
    /// The number of the node last tested.
    node: u64,
    /// Per level, the bits of the children numbers where they are screened at once.
    screened: &'a [Option<u32>],
    /// Per level, the [`spread_table`] of its slots' runs where its screen lays them out
    /// ([`laid_out`]), empty elsewhere.
    spreads: &'a [Vec<u64>],
    /// Per screened level, a bit per child (its words at `dead_words`): set once the child is
    /// known to fail (and for the numbers past the last child where there are fewer than 64).
    dead: OwnLines,
    /// Per level, where its words of `dead` are (none where it is not screened).
    dead_words: &'a [Range<usize>],
}

/// Words that share no cache line with any other allocation. Each replayer's words are
/// written on its own thread, while every thread reads the target's levels and squares,
/// allocated from the same heap: a small buffer of words could take a freed chunk beside
/// them, and the line they shared went back and forth between the cores. The recheck of
/// bishop c5 took up to 1.6 times as long with some lengths of its command line
/// (results/analysis.md).
#[derive(Default)]
struct OwnLines {
    buffer: Vec<u64>,
    start: usize,
    len: usize,
}

/// The words an [`OwnLines`] keeps free on each side: two cache lines, as lines are
/// prefetched in pairs.
const OWN_LINES_GUARD: usize = 16;

impl OwnLines {
    fn new(len: usize) -> Self {
        let buffer = vec![0; len + 2 * OWN_LINES_GUARD + 8];
        let start = OWN_LINES_GUARD + buffer[OWN_LINES_GUARD..].as_ptr().align_offset(64).min(8);
        OwnLines { buffer, start, len }
    }
}

impl core::ops::Deref for OwnLines {
    type Target = [u64];

    fn deref(&self) -> &[u64] {
        &self.buffer[self.start..self.start + self.len]
    }
}

impl core::ops::DerefMut for OwnLines {
    fn deref_mut(&mut self) -> &mut [u64] {
        &mut self.buffer[self.start..self.start + self.len]
    }
}

impl Replayer<'_> {
    /// A root and its ancestors, each ancestor counted once: by the root equal to it (a
    /// residue of fewer bits is its own first descendant); `false` if `stop` was set before
    /// the end (the tally is then partial).
    fn root(&mut self, root: u64, root_level: usize, tally: &mut Tally) -> bool {
        for level in 0..root_level {
            let ancestor = root % (1u64 << (64 - self.squares[level]));
            let passes = self.passes(level, ancestor);
            if ancestor == root {
                count_node(tally, level, ancestor, passes);
            }
            if !passes {
                return true;
            }
        }
        self.node(root_level, root, tally);
        // Once set, `stop` stays set: a walk it cut short is never taken for whole.
        !self.stop.load(Ordering::Relaxed)
    }

    /// Whether two occupancies of the first `level + 1` squares need different attacks in
    /// one slot under `residue`, given that its parent's (those without the level's square)
    /// do not, its table left unwritten: where most nodes fail (the last level's, which have
    /// no children, and those no screen left).
    #[inline(always)]
    fn collides(&mut self, level: usize, residue: u64) -> bool {
        self.node += 1;
        let (shift, node) = (self.shift, self.node);
        let parent = &self.tables[level * self.slots..][..self.slots];
        let scratch = &mut self.scratch[..];
        for &(key, attacks) in &self.levels[level] {
            let index = magic_index(key, residue, shift);
            let held = parent[index];
            if held != EMPTY {
                if held != attacks {
                    return true;
                }
                continue;
            }
            let (owner, mine) = scratch[index];
            if owner != node {
                scratch[index] = (node, attacks);
            } else if mine != attacks {
                return true;
            }
        }
        false
    }

    /// Whether `residue` passes at `level` (above the last), tested by placing its new
    /// occupancies into a copy of its parent's table (at `level`): if it passes, the table at
    /// `level + 1` is then its own, in one pass over them, not a test and then a fill. Where a
    /// screen left the node, it most likely passes (`results/analysis.md`), so the copy is
    /// seldom wasted; elsewhere [`collides`](Self::collides) tests it first.
    #[inline(always)]
    fn placed(&mut self, level: usize, residue: u64) -> bool {
        if self.slots <= 64 {
            self.placed_in::<1>(level, residue)
        } else {
            self.placed_in::<SLOT_WORDS>(level, residue)
        }
    }

    /// [`placed`](Self::placed) in a table whose slots take `WORDS` words as a set.
    #[inline(always)]
    fn placed_in<const WORDS: usize>(&mut self, level: usize, residue: u64) -> bool {
        let slots = self.slots;
        let (parents, own) = self.tables.split_at_mut((level + 1) * slots);
        let table = &mut own[..slots];
        table.copy_from_slice(&parents[level * slots..]);
        let mut taken: [u64; WORDS] = core::array::from_fn(|word| self.taken[level][word]);
        for &(key, attacks) in &self.levels[level] {
            let index = magic_index(key, residue, self.shift);
            let held = table[index];
            if held != EMPTY && held != attacks {
                return false;
            }
            // Written and marked whether empty or holding these attacks already: one branch,
            // taken once a failing node, not one that follows which slots were empty.
            table[index] = attacks;
            // Masked: the slot is in the table; this spares the bounds check.
            taken[(index / 64) & (WORDS - 1)] |= 1u64 << (index % 64);
        }
        self.taken[level + 1][..WORDS].copy_from_slice(&taken);
        if WORDS > 1
            && let Some(layout) = &self.class_layouts[level + 1]
        {
            self.classes[level + 1] = layout.lay_out(&self.taken[level + 1]);
        }
        true
    }

    /// Whether `residue` passes at `level`, its table at `level + 1` made if it does and has
    /// children.
    #[inline(always)]
    fn passes(&mut self, level: usize, residue: u64) -> bool {
        if level + 1 == self.squares.len() {
            !self.collides(level, residue)
        } else if self.screened[level].is_some() {
            // Most nodes a screen leaves pass: tested and filled in one pass.
            self.placed(level, residue)
        } else {
            // Most fail: tested without a copy of the table, which is made for those that pass.
            !self.collides(level, residue) && self.placed(level, residue)
        }
    }

    /// Tests `residue` at `level`, counts it, and walks its subtree if it passes; inlined into
    /// the loop over a node's children, where most calls would only test.
    #[inline(always)]
    fn node(&mut self, level: usize, residue: u64, tally: &mut Tally) {
        let passes = self.passes(level, residue);
        count_node(tally, level, residue, passes);
        if passes {
            self.below(level, residue, tally);
        }
    }

    /// Walks the subtree of `residue` at `level`, which passed: each child tested here, the
    /// ones that pass walked in turn (or the magic recorded at the last level).
    fn below(&mut self, level: usize, residue: u64, tally: &mut Tally) {
        let t = self.target;
        let Some(&next) = self.squares.get(level + 1) else {
            let check = check_magic(t, residue).expect("every occupancy was just placed");
            let found = Found {
                magic: residue,
                lowest: check.lowest,
                highest: check.highest,
            };
            tally.add_found(found, self.keep);
            return;
        };
        // Looked at where two levels or more lie below: soon enough to stop within moments,
        // and off the last levels, where the replay spends its time.
        if level + 3 <= self.squares.len() && self.stop.load(Ordering::Relaxed) {
            // The root is abandoned (see `root`): its subtree is left unwalked.
            return;
        }
        let child_shift = 64 - self.squares[level];
        let Some(child_bits) = self.screened[level + 1] else {
            for child in 0..1u64 << (self.squares[level] - next) {
                self.node(level + 1, residue + (child << child_shift), tally);
            }
            return;
        };
        let words = self.dead_words[level + 1].clone();
        let mut dead = core::mem::take(&mut self.dead);
        let any_left = if self.slots <= 64 {
            self.screen::<1>(level + 1, residue, child_bits, &mut dead[words.clone()])
        } else {
            self.screen::<SLOT_WORDS>(level + 1, residue, child_bits, &mut dead[words.clone()])
        };
        self.dead = dead;
        if !any_left {
            tally.levels[level + 1].tested += 1 << child_bits;
            return;
        }
        // Counted as they are tested; the others, screened out, here.
        let mut left = 0;
        for (word, at) in words.enumerate() {
            let mut alive = !self.dead[at];
            while alive != 0 {
                let child = word as u64 * 64 + u64::from(alive.trailing_zeros());
                alive &= alive - 1;
                left += 1;
                self.node(level + 1, residue + (child << child_shift), tally);
            }
        }
        tally.levels[level + 1].tested += (1 << child_bits) - left;
    }

    /// Marks in `dead` the children of `parent` (2^`child_bits` of them, a node at
    /// `level - 1` whose table is filled) that have an occupancy landing on a slot of the
    /// parent's table that holds other attacks (and the numbers past the last child). `WORDS`:
    /// the words of the table's slots as a set, 1 up to 64 slots; with more, only levels of at
    /// least as many children as slots are screened. `false` if no child is left (`dead` may
    /// then be left unwritten).
    #[inline(never)]
    fn screen<const WORDS: usize>(
        &self,
        level: usize,
        parent: u64,
        child_bits: u32,
        dead: &mut [u64],
    ) -> bool {
        let children = 1u64 << child_bits;
        let slots = self.slots as u64;
        let every_slot: [u64; WORDS] = core::array::from_fn(|word| {
            let bits = slots.saturating_sub(64 * word as u64).min(64);
            if bits == 0 { 0 } else { !0u64 >> (64 - bits) }
        });
        let taken: [u64; WORDS] = core::array::from_fn(|word| self.taken[level][word]);
        // The slots an occupancy cannot share: the filled ones but those its alike
        // occupancies landed on (every occupancy of the levels above is in the table).
        let out_for = |alike: &[u64]| {
            let mut out = taken;
            for &key in alike {
                let slot = magic_index(key, parent, self.shift);
                // Masked: the slot is in the table; this spares the bounds check.
                out[(slot / 64) & (WORDS - 1)] &= !(1u64 << (slot % 64));
            }
            out
        };
        let occupancies = self.levels[level].iter().zip(&self.alike_before[level]);
        if children < slots {
            // Children a spacing apart: by class in a table of more than a word of slots.
            dead[0] = if WORDS > 1 {
                classes_out(
                    &self.classes[level],
                    occupancies.map(|(&(key, _), alike)| {
                        let slot = |&key: &u64| magic_index(key, parent, self.shift);
                        (slot(&key), alike.iter().map(slot))
                    }),
                    child_bits,
                    slots.ilog2() - child_bits,
                )
            } else {
                spaced_out(
                    occupancies.map(|(&(key, _), alike)| {
                        (
                            magic_index(key, parent, self.shift) as u32,
                            out_for(alike)[0],
                        )
                    }),
                    children,
                    slots,
                )
            };
            return dead[0] != !0;
        }
        if WORDS == 1 && !laid_out(children, slots) {
            return blocks_out(
                occupancies.map(|(&(key, _), alike)| {
                    (
                        key.wrapping_mul(parent) >> (64 - child_bits),
                        out_for(alike)[0],
                    )
                }),
                children,
                slots,
                dead,
            );
        }
        // A slot is `run` consecutive values of the product's top `child_bits` bits.
        let run = children / slots;
        let spread = &self.spreads[level];
        let laid_out = laid_out(children, slots);
        if laid_out && children <= 64 {
            dead[0] = runs_out(
                occupancies.map(|(&(key, _), alike)| {
                    (
                        key.wrapping_mul(parent) >> (64 - child_bits),
                        out_for(alike)[0],
                    )
                }),
                children,
                slots,
                spread,
            );
            return dead[0] != !0;
        }
        dead.fill(0);
        // Wider: laid out over several words (the runs of one set of slots kept as in
        // [`runs_out`]) or marked run by run.
        let mut last_out = [0; WORDS];
        let mut landed = [0; (LAID_OUT_MOST_CHILDREN / 64) as usize];
        let landed = &mut landed[..if laid_out { dead.len() } else { 0 }];
        for (&(key, _), alike) in occupancies {
            let out_words = out_for(alike);
            if out_words == every_slot {
                return false;
            }
            if out_words == [0; WORDS] {
                continue;
            }
            let first_child_at = key.wrapping_mul(parent) >> (64 - child_bits);
            if laid_out {
                if out_words != last_out {
                    lay_out(landed, out_words[0], run, spread);
                    last_out = out_words;
                }
                turn_into(dead, landed, first_child_at);
            } else {
                for (word, &out) in out_words.iter().enumerate() {
                    let mut rest = out;
                    while rest != 0 {
                        let slot = word as u64 * 64 + u64::from(rest.trailing_zeros());
                        rest &= rest - 1;
                        let first = (slot * run).wrapping_sub(first_child_at) & (children - 1);
                        mark_dead(dead, first, run, children);
                    }
                }
            }
            if dead.iter().all(|&word| word == !0) {
                return false;
            }
        }
        true
    }
}

/// The children ruled out (a bit a child, the bits past the last child set) where a node has
/// at least as many `children` as a table of `slots` has slots, and at most 64 (a run of
/// children a slot, [`laid_out`]), from each occupancy's landing position of child 0 and the
/// slots it cannot share: the runs of those slots ([`lay_out`], `spread` its table), turned by
/// where child 0 lands. The runs laid out for one set of slots serve the occupancies that
/// follow with the same set (all of a level's where no occupancy above shares its attacks).
fn runs_out(
    occupancies: impl Iterator<Item = (u64, u64)>,
    children: u64,
    slots: u64,
    spread: &[u64],
) -> u64 {
    let every_slot = !0u64 >> (64 - slots);
    let run = children / slots;
    let mut dead = if children < 64 { !0 << children } else { 0 };
    let (mut last_out, mut runs) = (0, 0);
    for (first_child_at, out) in occupancies {
        if out == every_slot {
            // Most screens at the last levels, where tables are full, end here.
            return !0;
        }
        if out == 0 {
            continue;
        }
        if out != last_out {
            let mut laid = [0];
            lay_out(&mut laid, out, run, spread);
            (last_out, runs) = (out, laid[0]);
        }
        dead |= turned_down(runs, first_child_at as u32, children as u32);
        if dead == !0 {
            return !0;
        }
    }
    dead
}

/// `set`, a set of `size` bits (a power of two up to 64), turned down by `by` (below `size`)
/// round the end: bit `by` to bit 0.
#[inline(always)]
fn turned_down(set: u64, by: u32, size: u32) -> u64 {
    if size == 64 {
        set.rotate_right(by)
    } else {
        (set >> by | set << (size - by)) & (!0u64 >> (64 - size))
    }
}

/// The most occupancies [`blocks_out`] bounds the blocks by at once, in order of their cuts:
/// 16 in tables of 64 slots, 8 in smaller ones, whose occupancies rule out fewer blocks each
/// (the quickest of 4, 8 and 16 on bishops at 4 and 6 bits, `results/analysis.md`). The screen
/// ends after a batch that leaves no child.
const BLOCKS_OUT_MOST_BATCH: usize = 16;

/// The children ruled out (`dead`, a bit a child, the bits past the last child set) where a
/// node has at least as many `children` as a table of at most 64 `slots` has slots, but more
/// than [`laid_out`] serves, from each occupancy's landing position of child 0 and the slots
/// it cannot share. The children landing on slot `s` are a run from `s * run` less child 0's
/// position, round the end: the tail of one block of `run` children (block `b` from `b * run`)
/// and the head of the next, cut at the same place in the block for every slot of one
/// occupancy. So what is ruled out of a block is a head and a tail, and each block keeps the
/// interval of its children left: after the longest head, before the longest tail. Taken in
/// batches, and in each in order of their cut, the first occupancy to rule out a block's tail
/// bounds it (the lowest cut of the batch), and the last to rule out its head: each block is
/// bounded at most once a batch, whatever the number of slots the occupancies cannot share, and
/// the screen ends after a batch that leaves no child. `false` if no child is left (`dead` is
/// then not written).
fn blocks_out(
    occupancies: impl Iterator<Item = (u64, u64)>,
    children: u64,
    slots: u64,
    dead: &mut [u64],
) -> bool {
    let run = children / slots;
    let run_bits = run.trailing_zeros();
    let every_slot = !0u64 >> (64 - slots);
    let turned = |set: u64, by: u64| turned_down(set, by as u32, slots as u32);
    // The blocks past the table's are empty from the start, so that the look for a block
    // left reads all 64 whatever the table.
    let (mut starts, mut ends) = ([0u32; 64], [0u32; 64]);
    ends[..slots as usize].fill(run as u32);
    let mut occupancies = occupancies;
    let batch = if slots == 64 {
        BLOCKS_OUT_MOST_BATCH
    } else {
        BLOCKS_OUT_MOST_BATCH / 2
    };
    loop {
        // Per occupancy of the batch, its cut times 2^32 plus its place, and the blocks whose
        // tails it rules out.
        let (mut order, mut tails, mut count) = (
            [0u64; BLOCKS_OUT_MOST_BATCH],
            [0u64; BLOCKS_OUT_MOST_BATCH],
            0,
        );
        for (first_child_at, out) in occupancies.by_ref().take(batch) {
            if out == every_slot {
                return false;
            }
            // Child 0 lands `first_child_at = q * run + p` into the products: slot `s` takes
            // the children from `s * run - first_child_at`, block `s - q` from 0 where `p` is
            // 0, and block `s - q - 1` from `run - p` otherwise. Masks and shifts: powers of
            // two.
            let phase = first_child_at & (run - 1);
            let behind = ((first_child_at >> run_bits) + u64::from(phase != 0)) & (slots - 1);
            let cut = (run - phase) & (run - 1);
            order[count] = cut << 32 | count as u64;
            tails[count] = turned(out, behind);
            count += 1;
        }
        if count == 0 {
            break;
        }
        let order = &mut order[..count];
        order.sort_unstable();
        let cut_and_tails = |&key: &u64| ((key >> 32) as u32, tails[key as u32 as usize]);
        let mut bounded = 0;
        for (cut, tails) in order.iter().map(cut_and_tails) {
            let mut first = tails & !bounded;
            bounded |= tails;
            while first != 0 {
                let end = &mut ends[first.trailing_zeros() as usize];
                *end = (*end).min(cut);
                first &= first - 1;
            }
        }
        bounded = 0;
        for (cut, tails) in order.iter().rev().map(cut_and_tails) {
            // The heads: the blocks after the tails.
            let heads = turned(tails, slots - 1);
            let mut first = heads & !bounded;
            bounded |= heads;
            while first != 0 {
                let start = &mut starts[first.trailing_zeros() as usize];
                *start = (*start).max(cut);
                first &= first - 1;
            }
        }
        if !starts
            .iter()
            .zip(&ends)
            .fold(false, |left, (start, end)| left | (start < end))
        {
            return false;
        }
    }
    // The children left, marked as runs, then turned round (the bits past the last child too).
    dead.fill(0);
    for block in (0..slots as usize).filter(|&block| starts[block] < ends[block]) {
        let (first, count) = (block as u64 * run, ends[block] - starts[block]);
        mark_dead(
            dead,
            first + u64::from(starts[block]),
            count.into(),
            children,
        );
    }
    for word in dead.iter_mut() {
        *word = !*word;
    }
    true
}

/// The children ruled out where a node has fewer `children` than the table has `slots` (a
/// bit a child, the bits past the last child set), from each occupancy's child-0 slot and the
/// slots it cannot share. Child `c`'s product is child 0's plus `c` in the top
/// `log2(children)` bits, so it lands `c` spacings (`slots / children`) after child 0's slot:
/// turning the slots an occupancy cannot share by child 0's slot puts child `c`'s at bit `c`
/// spacings.
fn spaced_out(occupancies: impl Iterator<Item = (u32, u64)>, children: u64, slots: u64) -> u64 {
    let spacing = slots / children;
    let landings = (0..children).fold(0u64, |set, child| set | 1 << (child * spacing));
    let mut out_at_landings = 0;
    for (first, out) in occupancies {
        out_at_landings |= turned_down(out, first, slots as u32) & landings;
        if out_at_landings == landings {
            return !0;
        }
    }
    let mut dead = !0;
    let mut left = landings & !out_at_landings;
    while left != 0 {
        dead &= !(1 << (u64::from(left.trailing_zeros()) / spacing));
        left &= left - 1;
    }
    dead
}

#[cfg(test)]
mod tests {
    use rand_xoshiro::Xoshiro256PlusPlus;
    use rand_xoshiro::rand_core::{Rng, SeedableRng};

    use super::{
        ClassLayout, LAID_OUT_MOST_CHILDREN, SLOT_WORDS, blocks_out, classes_out, laid_out,
        lay_out, mark_dead, runs_out, spaced_out, spread_table, turn_into,
    };

    #[test]
    fn a_class_screen_rules_out_exactly_the_children_landing_on_a_slot_they_cannot_share() {
        let mut random = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut next = || random.next_u64();
        let mut count = ScreenCount::default();
        for slot_bits in [7u32, 8] {
            let slots = 1usize << slot_bits;
            for child_bits in 4..=6 {
                let spacing_bits = slot_bits - child_bits;
                for _ in 0..300 {
                    // Sparse, so that some children are left.
                    let taken: [u64; SLOT_WORDS] = core::array::from_fn(|word| {
                        if word * 64 < slots {
                            next() & next() & next()
                        } else {
                            0
                        }
                    });
                    let is_taken = |slot: usize| taken[slot / 64] >> (slot % 64) & 1 == 1;
                    let occupancies: Vec<(usize, Vec<usize>)> = (0..1 + next() % 4)
                        .map(|_| {
                            let first = next() as usize % slots;
                            let alike = (0..next() % 6).map(|_| next() as usize % slots);
                            (first, alike.collect())
                        })
                        .collect();
                    let classes = ClassLayout::new(slot_bits, spacing_bits).lay_out(&taken);
                    for slot in 0..slots {
                        // Its class's bits first, then its place in the class.
                        let class = slot % (1 << spacing_bits);
                        let at = class << child_bits | slot >> spacing_bits;
                        assert_eq!(
                            classes[at / 64] >> (at % 64) & 1 == 1,
                            is_taken(slot),
                            "{slots} slots, {child_bits} child bits, slot {slot}"
                        );
                    }
                    let dead = classes_out(
                        &classes,
                        occupancies
                            .iter()
                            .map(|(first, alike)| (*first, alike.clone())),
                        child_bits,
                        spacing_bits,
                    );
                    let lands_out = |child: u64| {
                        occupancies.iter().any(|(first, alike)| {
                            let slot = (first + ((child as usize) << spacing_bits)) % slots;
                            is_taken(slot) && !alike.contains(&slot)
                        })
                    };
                    let what = format!("{slots} slots, {child_bits} child bits");
                    count.check(dead, 1 << child_bits, lands_out, &what);
                }
            }
        }
        count.assert_both_seen();
    }

    /// The children a screen left and ruled out, over a test's random cases.
    #[derive(Default)]
    struct ScreenCount {
        alive: u32,
        ruled_out: u32,
    }

    impl ScreenCount {
        /// Checks a screen's `dead` (a bit a child, the bits past the last of `children` set)
        /// against the landing rule, `lands_out`, child by child, and counts them.
        fn check(&mut self, dead: u64, children: u64, lands_out: impl Fn(u64) -> bool, what: &str) {
            let past = |bits: u64| bits.checked_shr(children as u32).unwrap_or(0);
            assert_eq!(past(dead), past(!0), "{what}: the bits past the last child");
            for child in 0..children {
                let out = lands_out(child);
                assert_eq!(dead >> child & 1 == 1, out, "{what}, child {child}");
                if out {
                    self.ruled_out += 1;
                } else {
                    self.alive += 1;
                }
            }
        }

        /// Both kinds of children are common: the cases test the screen.
        fn assert_both_seen(&self) {
            let (alive, ruled_out) = (self.alive, self.ruled_out);
            assert!(
                alive > 1000 && ruled_out > 1000,
                "{alive} alive, {ruled_out} ruled out"
            );
        }
    }

    #[test]
    fn a_block_screen_rules_out_exactly_the_children_landing_on_a_slot_they_cannot_share() {
        let mut random = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut next = || random.next_u64();
        let mut count = ScreenCount::default();
        for (children, slots) in [(32u64, 2u64), (256, 4), (256, 16), (1024, 64), (4096, 16)] {
            assert!(!laid_out(children, slots));
            for _ in 0..60 {
                // Sparse sets, so that some children are left; up to 40 occupancies, so that
                // the screen bounds the blocks in several batches.
                let many = next() % 2 == 0;
                let occupancies: Vec<(u64, u64)> = (0..1 + next() % if many { 40 } else { 5 })
                    .map(|_| {
                        let sparse = next() & next() & if many { next() & next() } else { !0 };
                        (next() % children, sparse & (!0 >> (64 - slots)))
                    })
                    .collect();
                let mut dead = vec![0; children.div_ceil(64) as usize];
                if !blocks_out(occupancies.iter().copied(), children, slots, &mut dead) {
                    dead.fill(!0);
                }
                let run = children / slots;
                for (word, &dead) in dead.iter().enumerate() {
                    let first = word as u64 * 64;
                    count.check(
                        dead,
                        children.min(64),
                        |child| {
                            occupancies.iter().any(|&(first_child_at, out)| {
                                out >> ((first_child_at + first + child) % children / run) & 1 == 1
                            })
                        },
                        &format!("{children} children, {slots} slots, word {word}"),
                    );
                }
            }
        }
        count.assert_both_seen();
    }

    #[test]
    fn a_spaced_screen_rules_out_exactly_the_children_landing_on_a_slot_they_cannot_share() {
        let mut random = Xoshiro256PlusPlus::seed_from_u64(2);
        let mut next = || random.next_u64();
        let mut count = ScreenCount::default();
        for slots in [16u64, 32, 64] {
            for children in [4u64, 8, 16, 32].into_iter().filter(|&c| c < slots) {
                for _ in 0..300 {
                    // Sparse sets, so that some children are left.
                    let occupancies: Vec<(u32, u64)> = (0..1 + next() % 4)
                        .map(|_| ((next() % slots) as u32, next() & next() & next() & next()))
                        .map(|(first, out)| (first, out & (!0u64 >> (64 - slots))))
                        .collect();
                    let dead = spaced_out(occupancies.iter().copied(), children, slots);
                    let lands_out = |child: u64| {
                        occupancies.iter().any(|&(first, out)| {
                            let slot = (u64::from(first) + child * (slots / children)) % slots;
                            out >> slot & 1 == 1
                        })
                    };
                    let what = format!("{children} children, {slots} slots");
                    count.check(dead, children, lands_out, &what);
                }
            }
        }
        count.assert_both_seen();
    }

    #[test]
    fn laid_out_runs_turn_to_exactly_the_children_landing_on_their_slots() {
        let mut random = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut next = || random.next_u64();
        for children in [128u64, 256, 512] {
            for slots in [16u64, 32, 64] {
                if !laid_out(children, slots) {
                    continue;
                }
                let run = children / slots;
                let spread = spread_table(run);
                let words = (children / 64) as usize;
                assert!(children <= LAID_OUT_MOST_CHILDREN);
                for _ in 0..200 {
                    let slots_out = next() & (!0u64 >> (64 - slots));
                    let first_child_at = next() % children;
                    let mut landed = vec![0; words];
                    lay_out(&mut landed, slots_out, run, &spread);
                    let mut dead = vec![0; words];
                    turn_into(&mut dead, &landed, first_child_at);
                    for child in 0..children {
                        let slot = (first_child_at + child) % children / run;
                        assert_eq!(
                            dead[(child / 64) as usize] >> (child % 64) & 1 == 1,
                            slots_out >> slot & 1 == 1,
                            "{children} children, {slots} slots, child {child}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_word_of_runs_rules_out_exactly_the_children_landing_on_a_slot_they_cannot_share() {
        let mut random = Xoshiro256PlusPlus::seed_from_u64(4);
        let mut next = || random.next_u64();
        for (children, slots) in [(16u64, 16u64), (32, 16), (64, 16), (32, 32), (64, 8)] {
            assert!(laid_out(children, slots) && children <= 64);
            let spread = spread_table(children / slots);
            for _ in 0..300 {
                // Sparse, so that some children are left; the filled slots themselves now and
                // then, as for an occupancy no alike one clears a slot for.
                let filled = next() & next() & next() & (!0u64 >> (64 - slots));
                let occupancies: Vec<(u64, u64)> = (0..1 + next() % 6)
                    .map(|_| {
                        let out = if next() % 2 == 0 {
                            filled
                        } else {
                            filled & next()
                        };
                        (next() % children, out)
                    })
                    .collect();
                let dead = runs_out(occupancies.iter().copied(), children, slots, &spread);
                for child in 0..64 {
                    let expected = child >= children
                        || occupancies.iter().any(|&(first, out)| {
                            out >> ((first + child) % children / (children / slots)) & 1 == 1
                        });
                    assert_eq!(
                        dead >> child & 1 == 1,
                        expected,
                        "{children} children, {child}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_dead_run_marks_exactly_its_children_round_the_end() {
        for size in [64u64, 128, 512] {
            let words = size.div_ceil(64) as usize;
            for count in [1, 2, 3, size / 4, size / 2, size - 1, size] {
                for first in 0..size {
                    let mut marked = vec![0u64; words];
                    mark_dead(&mut marked, first, count, size);
                    for child in 0..size {
                        let dead = marked[(child / 64) as usize] >> (child % 64) & 1 == 1;
                        let from_first = (child + size - first) % size;
                        assert_eq!(
                            dead,
                            from_first < count,
                            "size {size}, run of {count} from {first}, child {child}"
                        );
                    }
                }
            }
        }
    }
}
