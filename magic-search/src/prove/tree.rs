//! The tree the prover walks: a magic's low bits first, one relevant square at a time.
//!
//! Number the mask's squares from the highest, `s0 > s1 > ... > s(n-1)`, and let `Mi` be the
//! first `i + 1` of them. Every occupancy inside `Mi` is a multiple of `2^si`, so the top bits
//! of its product with a magic depend only on the magic modulo `2^(64 - si)`: a residue at
//! level `i` decides the indices of every occupancy of `Mi`. If two of those occupancies need
//! different attacks in one slot, no magic with that residue works, and the whole subtree of
//! `2^(si - s(n-1))` candidates below it is eliminated at once. The residues that survive the
//! last level are the magics of the period (the divide and conquer of Niklas Fiekas's
//! niklasf/magics; written here from that description).

use std::sync::atomic::{AtomicBool, Ordering};

use bitforge_index::geometry::{ray_attacks, relevant_mask};
use bitforge_index::{Scheme, Subsets, magic_index};

use crate::engine::Found;
use crate::hunt::{Target, check_magic, fewest_slots};

/// One level: the square it adds and the occupancies that first meet at it.
pub(crate) struct Level {
    /// The square this level adds to the ones above.
    pub(crate) square: u8,
    /// Residues at this level are taken modulo `2^modulus_bits` (`64 - square`).
    pub(crate) modulus_bits: u32,
    /// `(key, attacks)` of every occupancy that holds this level's square and otherwise only
    /// squares of earlier levels (and, at level 0, the empty occupancy).
    refs: Vec<(u64, u64)>,
    /// Per occupancy of `refs`, the keys of the earlier levels' occupancies with the same
    /// attacks. On a path every earlier occupancy is placed, so the slots holding those
    /// attacks are exactly the slots these keys index: a sieve finds them in a few products
    /// rather than by comparing every filled slot (`results/analysis.md`).
    holders: Vec<Vec<u64>>,
    /// The keys of `refs` grouped by attacks: where they land decides whether the node
    /// passes, without the table ([`Level::landed`]).
    by_attacks: Vec<Vec<u64>>,
}

impl Level {
    fn new(square: u8, refs: Vec<(u64, u64)>, holders: Vec<Vec<u64>>) -> Self {
        let mut by_attacks: Vec<(u64, Vec<u64>)> = Vec::new();
        for &(key, attacks) in &refs {
            match by_attacks.iter_mut().find(|(held, _)| *held == attacks) {
                Some((_, keys)) => keys.push(key),
                None => by_attacks.push((attacks, vec![key])),
            }
        }
        Level {
            square,
            modulus_bits: 64 - u32::from(square),
            refs,
            holders,
            by_attacks: by_attacks.into_iter().map(|(_, keys)| keys).collect(),
        }
    }

    /// The slots the occupancies of the node `residue` land on, in a table of at most a word
    /// of slots, if no two with different attacks land on one slot. For a child a sieve kept,
    /// none lands on a filled slot it may not take, so this is whether it passes.
    #[inline(always)]
    fn landed(&self, residue: u64, shift: u32) -> Option<u64> {
        let (mut landed, mut count) = (0u64, 0);
        for alike in &self.by_attacks {
            let slots = alike.iter().fold(0u64, |set, &key| {
                set | 1 << (magic_index(key, residue, shift) & 63)
            });
            count += slots.count_ones();
            landed |= slots;
        }
        (landed.count_ones() == count).then_some(landed)
    }
}

/// Why a target has no tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProveError {
    /// Black keys set every square outside the mask, bit 0 included: a magic's low bits do
    /// not decide any index, so nothing can be eliminated early.
    Black,
}

impl core::fmt::Display for ProveError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ProveError::Black => write!(
                f,
                "the prover needs fancy or fixed keys: a black key has bit 0 set, so no \
                 residue of a magic decides an index (use `hunt` for black magics)"
            ),
        }
    }
}

impl std::error::Error for ProveError {}

/// The level whose nodes are the walk's roots: the first with at least this many residues, so
/// that a walk splits into enough roots to share among threads and chunks and to checkpoint
/// between (rook f8's first level has four).
const MIN_ROOTS: u64 = 1 << 10;

/// The levels of a target's tree.
pub(crate) struct Tree {
    pub(crate) target: Target,
    pub(crate) levels: Vec<Level>,
    /// The level the roots are residues of ([`MIN_ROOTS`]).
    pub(crate) root_level: usize,
}

impl Tree {
    pub(crate) fn new(target: Target) -> Result<Self, ProveError> {
        if target.scheme() == Scheme::Black {
            return Err(ProveError::Black);
        }
        let (kind, square) = (target.kind(), target.square());
        let mask = relevant_mask(kind, square);
        let mut above = 0u64;
        let mut levels = Vec::new();
        let mut earlier: Vec<(u64, u64)> = Vec::new();
        for position in (0..64u8).rev().filter(|&s| mask >> s & 1 != 0) {
            let bit = 1u64 << position;
            let mut occupancies: Vec<u64> = Subsets::new(above).map(|o| o | bit).collect();
            if above == 0 {
                occupancies.insert(0, 0);
            }
            let mut refs: Vec<(u64, u64)> = occupancies
                .into_iter()
                .map(|o| (target.scheme().key(o, mask), ray_attacks(kind, square, o)))
                .collect();
            // Fewer blockers first: their attacks are the ones fewest occupancies share, so a
            // residue that fails shows it sooner (measured in results/analysis.md).
            refs.sort_by_key(|&(key, _)| key.count_ones());
            let holders = refs
                .iter()
                .map(|&(_, attacks)| {
                    earlier
                        .iter()
                        .filter(|&&(_, held)| held == attacks)
                        .map(|&(key, _)| key)
                        .collect()
                })
                .collect();
            earlier.extend_from_slice(&refs);
            levels.push(Level::new(position, refs, holders));
            above |= bit;
        }
        let root_level = levels
            .iter()
            .position(|level| 1u128 << level.modulus_bits >= u128::from(MIN_ROOTS))
            .unwrap_or(levels.len() - 1);
        Ok(Tree {
            target,
            levels,
            root_level,
        })
    }

    /// The roots: every residue of the root level.
    pub(crate) fn root_count(&self) -> u64 {
        1u64 << self.levels[self.root_level].modulus_bits
    }

    /// How many children a node at `level` has, and the step between them.
    pub(crate) fn children(&self, level: usize) -> (u64, u64) {
        let (this, next) = (&self.levels[level], &self.levels[level + 1]);
        (
            1u64 << (next.modulus_bits - this.modulus_bits),
            1u64 << this.modulus_bits,
        )
    }
}

/// What a walk counts at one level: the certificate's line for it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LevelCount {
    /// Nodes tested (every child of a node that passed the level above).
    pub tested: u64,
    /// Nodes that passed: no two of their occupancies collide.
    pub passed: u64,
    /// The wrapping sum of a digest of each node (its level and residue) over the nodes that
    /// passed: which nodes they were, independent of the order they were visited in.
    pub digest: u64,
}

/// A node's contribution to its level's digest (SplitMix64's finaliser of level and residue).
pub(crate) fn node_digest(level: usize, residue: u64) -> u64 {
    let mut z = residue ^ (level as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Counts a tested node at `level` in `tally`.
pub(crate) fn count_node(tally: &mut Tally, level: usize, residue: u64, passes: bool) {
    tally.levels[level].tested += 1;
    if passes {
        count_passed(tally, level, residue);
    }
}

/// Counts a node at `level` that passed in `tally` (its test counted with its siblings').
#[inline(always)]
fn count_passed(tally: &mut Tally, level: usize, residue: u64) {
    let count = &mut tally.levels[level];
    count.passed += 1;
    count.digest = count.digest.wrapping_add(node_digest(level, residue));
}

/// What a walk of some roots found: the certificate's counts and the magics.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Per level, from the highest square.
    pub levels: Vec<LevelCount>,
    /// Magics found (residues that passed the last level).
    pub found_count: u64,
    /// The smallest of them, in increasing order (at most as many as the walk was asked to
    /// keep).
    pub found: Vec<Found>,
    /// The one with the fewest slots from its lowest index to its highest (the smallest magic
    /// among equals).
    pub best: Option<Found>,
}

impl Tally {
    pub(crate) fn new(levels: usize) -> Self {
        Tally {
            levels: vec![LevelCount::default(); levels],
            ..Tally::default()
        }
    }

    /// Adds a magic, keeping the `keep` smallest listed.
    pub(crate) fn add_found(&mut self, found: Found, keep: usize) {
        self.found_count = self.found_count.saturating_add(1);
        self.best = fewest_slots(self.best, Some(found));
        if self.found.len() < keep || self.found.last().is_some_and(|f| found.magic < f.magic) {
            let at = self.found.partition_point(|f| f.magic < found.magic);
            self.found.insert(at, found);
            self.found.truncate(keep);
        }
    }

    /// Adds what another walk found.
    pub(crate) fn absorb(&mut self, other: &Tally, keep: usize) {
        for (mine, theirs) in self.levels.iter_mut().zip(&other.levels) {
            // Saturating: a merge of hostile files must not wrap into a false count.
            mine.tested = mine.tested.saturating_add(theirs.tested);
            mine.passed = mine.passed.saturating_add(theirs.passed);
            mine.digest = mine.digest.wrapping_add(theirs.digest);
        }
        let count = self.found_count.saturating_add(other.found_count);
        for &found in &other.found {
            self.add_found(found, keep);
        }
        self.found_count = count;
        self.best = fewest_slots(self.best, other.best);
    }
}

/// The table slot no occupancy has filled: no rook or bishop attacks no square, so no attack
/// set is 0.
const EMPTY: u64 = 0;

/// The table the path's nodes fill: the attacks each slot holds ([`EMPTY`] if none), and the
/// slots filled, in the order they were (a node that fails, or leaves the path, empties its
/// own from the end of the trail). Each of the tree's occupancies fills one slot at most, so
/// the tree's count bounds the trail.
struct Table {
    slots: Vec<u64>,
    trail: Vec<u32>,
}

/// What stays the same through a walk: passed down the recursion apart from the table, so that
/// the table's slices stay in registers across a level's children.
struct Descent<'t> {
    tree: &'t Tree,
    /// Set to abandon the walk (checked between children).
    stop: &'t AtomicBool,
    shift: u32,
    keep: usize,
    /// Whether the walk runs in its x86-64-v3 copy ([`Walker::v3`]).
    v3: bool,
    /// Whether the walk leaves the table as the roots' ancestors filled it
    /// ([`Walker::by_slot_sets`]).
    by_slot_sets: bool,
}

/// One thread's walker: a table shared by every node of the path being walked (where it walks
/// by slot sets, by the roots' ancestors only).
pub(crate) struct Walker<'t> {
    tree: &'t Tree,
    stop: &'t AtomicBool,
    table: Table,
    /// How much of the trail the path's nodes hold.
    trail_len: usize,
    /// Per level, where the path's node at that level starts in the trail.
    marks: Vec<usize>,
    shift: u32,
    /// Whether the walk runs in its copy compiled for x86-64-v3 (`Descent::below_v3`): only
    /// where the CPU has its features ([`x86_64_v3`]).
    v3: bool,
    /// Whether the walk below the roots' ancestors keeps each node as the set of slots its path
    /// fills rather than in the table ([`WordNode`]): in tables of at most a word of slots
    /// whose levels below the roots are all sieved (every bishop's; not a rook's at 6 bits or
    /// fewer, whose rank squares' levels have two children).
    by_slot_sets: bool,
}

impl<'t> Walker<'t> {
    pub(crate) fn new(tree: &'t Tree, stop: &'t AtomicBool) -> Self {
        let bits = tree.target.bits();
        Walker {
            tree,
            stop,
            table: Table {
                slots: vec![EMPTY; 1 << bits],
                trail: vec![0; tree.levels.iter().map(|level| level.refs.len()).sum()],
            },
            trail_len: 0,
            marks: vec![0; tree.levels.len()],
            shift: 64 - u32::from(bits),
            v3: x86_64_v3(),
            by_slot_sets: 1usize << bits <= SIEVE_MOST_SLOTS
                && (tree.root_level..tree.levels.len() - 1).all(|level| {
                    let child_bits = tree.children(level).0.trailing_zeros();
                    matches!(
                        sieve_for(child_bits, 1 << bits),
                        Some(SieveKind::Lanes | SieveKind::Blocks | SieveKind::Spread)
                    )
                }),
        }
    }

    /// The same walker in the plain copy of the walk, even where the CPU has x86-64-v3.
    #[cfg(test)]
    fn plain(self) -> Self {
        Walker { v3: false, ..self }
    }

    /// The same walker writing every node of the path in the table, even where it could keep
    /// them as slot sets.
    #[cfg(test)]
    fn in_the_table(self) -> Self {
        Walker {
            by_slot_sets: false,
            ..self
        }
    }

    /// Walks the subtree of root `residue`, adding to `tally`; `false` if the walk was stopped
    /// before the end (the tally is then partial). The root's ancestors are placed first; each
    /// is counted by one root only, the one whose residue equals the ancestor's (the first of
    /// its descendants), so that the counts of all roots add up to one walk of the whole tree.
    pub(crate) fn walk_root(&mut self, residue: u64, keep: usize, tally: &mut Tally) -> bool {
        let root_level = self.tree.root_level;
        let mut entered = 0;
        while entered <= root_level {
            let level = entered;
            let bits = self.tree.levels[level].modulus_bits;
            let node = residue & ((1u64 << bits) - 1);
            let passes = self.place(level, node);
            if level == root_level || residue == node {
                count_node(tally, level, node, passes);
            }
            if !passes {
                break;
            }
            entered += 1;
        }
        let descent = Descent {
            tree: self.tree,
            stop: self.stop,
            shift: self.shift,
            keep,
            v3: self.v3,
            by_slot_sets: self.by_slot_sets,
        };
        let finished = entered <= root_level
            || descent.start(
                &mut self.table.slots,
                &mut self.table.trail,
                self.trail_len,
                root_level,
                residue,
                tally,
            );
        for level in (0..entered).rev() {
            self.leave(level);
        }
        finished
    }

    /// Tests the node `residue` of `level` under the path's entries and, if none of the
    /// level's occupancies collides destructively, puts the node on the path (its entries stay
    /// until [`leave`](Self::leave)); `false` with the table as it was otherwise.
    pub(crate) fn place(&mut self, level: usize, residue: u64) -> bool {
        let (refs, start) = (&self.tree.levels[level].refs, self.trail_len);
        let Table { slots, trail } = &mut self.table;
        match fill(slots, trail, start, refs, self.shift, residue) {
            Some(end) => {
                self.marks[level] = start;
                self.trail_len = end;
                true
            }
            None => false,
        }
    }

    /// Whether the node `residue` of `level` passes under the path's entries, leaving the
    /// table as it was.
    pub(crate) fn passes(&mut self, level: usize, residue: u64) -> bool {
        let passes = self.place(level, residue);
        if passes {
            self.leave(level);
        }
        passes
    }

    /// The children of the path's node `residue` at `level` (the last placed) that pass,
    /// into `passing` in increasing order: sieved at once where the walk sieves them, the
    /// rest tested one by one.
    pub(crate) fn passing_children(&mut self, level: usize, residue: u64, passing: &mut Vec<u64>) {
        let (children, step) = self.tree.children(level);
        let child_bits = children.trailing_zeros();
        passing.clear();
        let Some(kind) = sieve_for(child_bits, self.table.slots.len()) else {
            passing.extend(
                (0..children)
                    .map(|child| residue + child * step)
                    .filter(|&child| self.passes(level + 1, child)),
            );
            return;
        };
        let filled = &self.table.trail[..self.trail_len];
        let path = PathSlots::new(self.table.slots.len(), filled, residue, self.shift);
        let next = &self.tree.levels[level + 1];
        let keep = |child| {
            passing.push(residue + child * step);
            true
        };
        match kind {
            SieveKind::Lanes => {
                LaneSieve::<LANE_SIEVE_WORDS>::new(&path, next, child_bits).each_child(keep)
            }
            SieveKind::Arcs => {
                ArcSieve::<ARC_SIEVE_RUNS>::new(&path, next, child_bits).each_child(keep)
            }
            SieveKind::Blocks => BlockSieve::new(&path, next, child_bits).each_child(keep),
            SieveKind::Spread => SpreadSieve::new(&path, next, child_bits).each_child(keep),
            SieveKind::Classes => ClassSieve::new(&path, next, child_bits).each_child(keep),
        };
        passing.sort_unstable();
        passing.retain(|&child| self.passes(level + 1, child));
    }

    /// Takes the path's node at `level` (the last placed) off the path, emptying the slots it
    /// filled.
    pub(crate) fn leave(&mut self, level: usize) {
        let start = self.marks[level];
        empty(
            &mut self.table.slots,
            &self.table.trail[start..self.trail_len],
        );
        self.trail_len = start;
    }
}

/// Whether the CPU has what the walk's x86-64-v3 copy is compiled with.
fn x86_64_v3() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

impl Descent<'_> {
    /// [`below`](Self::below) in the x86-64-v3 copy where the walk has it, in the plain one
    /// otherwise.
    fn start(
        &self,
        slots: &mut [u64],
        trail: &mut [u32],
        end: usize,
        level: usize,
        residue: u64,
        tally: &mut Tally,
    ) -> bool {
        if self.by_slot_sets {
            let taken = slot_set(&trail[..end]);
            let node = WordNode {
                slot_count: slots.len(),
                taken,
                level,
                residue,
            };
            return if self.v3 {
                self.word_node::<true>(node, tally)
            } else {
                self.word_node::<false>(node, tally)
            };
        }
        if self.v3 {
            self.below::<true>(slots, trail, end, level, residue, tally)
        } else {
            self.below::<false>(slots, trail, end, level, residue, tally)
        }
    }

    /// [`below_in`](Self::below_in) in the x86-64-v3 copy if `V3`, in the plain one
    /// otherwise: every child recurses through here, so a walk stays in the copy it began in.
    #[inline(always)]
    fn below<const V3: bool>(
        &self,
        slots: &mut [u64],
        trail: &mut [u32],
        end: usize,
        level: usize,
        residue: u64,
        tally: &mut Tally,
    ) -> bool {
        #[cfg(target_arch = "x86_64")]
        if V3 {
            // SAFETY: a `V3` walk begins in `start` only if `Walker::v3`, which is set from
            // `x86_64_v3` (the features `below_v3` is compiled with) and can only be cleared,
            // and stays `V3` down the recursion.
            return unsafe { self.below_v3(slots, trail, end, level, residue, tally) };
        }
        self.below_plain(slots, trail, end, level, residue, tally)
    }

    /// [`below_in`](Self::below_in) in plain code.
    #[inline(never)]
    fn below_plain(
        &self,
        slots: &mut [u64],
        trail: &mut [u32],
        end: usize,
        level: usize,
        residue: u64,
        tally: &mut Tally,
    ) -> bool {
        self.below_in::<false>(slots, trail, end, level, residue, tally)
    }

    /// [`below_in`](Self::below_in) compiled for x86-64-v3 (AVX2, BMI1, BMI2, LZCNT,
    /// POPCNT): the sieves' words and the shifts of the index formula in fewer instructions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    #[inline(never)]
    fn below_v3(
        &self,
        slots: &mut [u64],
        trail: &mut [u32],
        end: usize,
        level: usize,
        residue: u64,
        tally: &mut Tally,
    ) -> bool {
        self.below_in::<true>(slots, trail, end, level, residue, tally)
    }

    /// Walks the children of a node of `level` that passed and is on the path, the path's
    /// entries filling `trail` up to `end` (or records the node as a magic at the last level);
    /// `false` if stopped part way. Every child is tested: they are counted at once, those
    /// that pass one by one.
    #[inline(always)]
    fn below_in<const V3: bool>(
        &self,
        slots: &mut [u64],
        trail: &mut [u32],
        end: usize,
        level: usize,
        residue: u64,
        tally: &mut Tally,
    ) -> bool {
        let tree = self.tree;
        if level + 1 == tree.levels.len() {
            self.record(residue, tally);
            return true;
        }
        if self.stop.load(Ordering::Relaxed) {
            return false;
        }
        let (children, step) = tree.children(level);
        tally.levels[level + 1].tested += children;
        match sieve_for(children.trailing_zeros(), slots.len()) {
            Some(SieveKind::Lanes) => {
                return self.sieved::<LaneSieve<LANE_SIEVE_WORDS>, V3>(
                    slots, trail, end, level, residue, tally,
                );
            }
            Some(SieveKind::Arcs) => {
                return self.sieved_wide::<V3>(slots, trail, end, level, residue, tally);
            }
            Some(SieveKind::Blocks) => {
                return self.sieved::<BlockSieve, V3>(slots, trail, end, level, residue, tally);
            }
            Some(SieveKind::Spread) => {
                return self.sieved::<SpreadSieve, V3>(slots, trail, end, level, residue, tally);
            }
            Some(SieveKind::Classes) => {
                return self.sieved::<ClassSieve, V3>(slots, trail, end, level, residue, tally);
            }
            None => {}
        }
        for child in 0..children {
            let residue = residue + child * step;
            if !self.child::<V3>(slots, trail, end, level + 1, residue, tally) {
                return false;
            }
        }
        true
    }

    /// [`sieved`](Self::sieved) with the arc sieve: out of line, so that its arrays are not
    /// in every call's frame.
    #[inline(never)]
    fn sieved_wide<const V3: bool>(
        &self,
        slots: &mut [u64],
        trail: &mut [u32],
        end: usize,
        level: usize,
        residue: u64,
        tally: &mut Tally,
    ) -> bool {
        self.sieved::<ArcSieve<ARC_SIEVE_RUNS>, V3>(slots, trail, end, level, residue, tally)
    }

    /// [`below`](Self::below)'s children sieved ([`Sieve`]) and the ones left tested.
    #[inline(always)]
    fn sieved<S: Sieve, const V3: bool>(
        &self,
        slots: &mut [u64],
        trail: &mut [u32],
        end: usize,
        level: usize,
        residue: u64,
        tally: &mut Tally,
    ) -> bool {
        let (children, step) = self.tree.children(level);
        let path = PathSlots::new(slots.len(), &trail[..end], residue, self.shift);
        let sieve = S::new(
            &path,
            &self.tree.levels[level + 1],
            children.trailing_zeros(),
        );
        sieve.each_child(|child| {
            let residue = residue + child * step;
            self.child::<V3>(slots, trail, end, level + 1, residue, tally)
        })
    }

    /// Tests the node `residue` of `level`, the path's entries filling `trail` up to `end`,
    /// and walks its subtree if it passes; `false` if the walk was stopped there.
    #[inline(always)]
    fn child<const V3: bool>(
        &self,
        slots: &mut [u64],
        trail: &mut [u32],
        end: usize,
        level: usize,
        residue: u64,
        tally: &mut Tally,
    ) -> bool {
        let refs = &self.tree.levels[level].refs;
        let Some(child_end) = fill(slots, trail, end, refs, self.shift, residue) else {
            return true;
        };
        count_passed(tally, level, residue);
        let finished = self.below::<V3>(slots, trail, child_end, level, residue, tally);
        empty(slots, &trail[end..child_end]);
        finished
    }

    /// Records `residue`, which passed every level, as a magic.
    #[cold]
    fn record(&self, residue: u64, tally: &mut Tally) {
        let check = check_magic(self.tree.target, residue)
            .expect("a residue that passes every level is a magic");
        let found = Found {
            magic: residue,
            lowest: check.lowest,
            highest: check.highest,
        };
        tally.add_found(found, self.keep);
    }

    /// [`below`](Self::below) by slot sets ([`WordNode`], [`Walker::by_slot_sets`]): the
    /// children are sieved here, and only if some are left is there a call to walk them, so
    /// that the many nodes whose children all fail (at a wide level's foot) cost no call and
    /// no sieve in memory.
    #[inline(always)]
    fn word_node<const V3: bool>(&self, node: WordNode, tally: &mut Tally) -> bool {
        let WordNode {
            slot_count, level, ..
        } = node;
        let tree = self.tree;
        if level + 1 == tree.levels.len() {
            self.record(node.residue, tally);
            return true;
        }
        if self.stop.load(Ordering::Relaxed) {
            return false;
        }
        let (children, _) = tree.children(level);
        tally.levels[level + 1].tested += children;
        let child_bits = children.trailing_zeros();
        let path = PathSlots::in_word(slot_count, node.taken, node.residue, self.shift);
        let next = &tree.levels[level + 1];
        // `each_child` with a visit that stops at once: whether no child is left.
        let none = |_| false;
        match sieve_for(child_bits, slot_count) {
            Some(SieveKind::Lanes) if child_bits <= 6 => {
                let sieve = LaneSieve::<1>::new(&path, next, child_bits);
                sieve.each_child(none) || self.word_children::<_, V3>(&sieve, node, tally)
            }
            Some(SieveKind::Lanes) => {
                let sieve = LaneSieve::<LANE_SIEVE_WORDS>::new(&path, next, child_bits);
                sieve.each_child(none) || self.word_children::<_, V3>(&sieve, node, tally)
            }
            Some(SieveKind::Blocks) => {
                let sieve = BlockSieve::new(&path, next, child_bits);
                sieve.each_child(none) || self.word_children::<_, V3>(&sieve, node, tally)
            }
            Some(SieveKind::Spread) => {
                let sieve = SpreadSieve::new(&path, next, child_bits);
                sieve.each_child(none) || self.word_children::<_, V3>(&sieve, node, tally)
            }
            _ => unreachable!("a walk by slot sets has every level below its roots sieved"),
        }
    }

    /// [`word_children_in`](Self::word_children_in) in the x86-64-v3 copy if `V3`, in the
    /// plain one otherwise.
    #[inline(always)]
    fn word_children<S: Sieve, const V3: bool>(
        &self,
        sieve: &S,
        node: WordNode,
        tally: &mut Tally,
    ) -> bool {
        #[cfg(target_arch = "x86_64")]
        if V3 {
            // SAFETY: as in `below`: a `V3` walk begins in `start` only where the CPU has the
            // features `word_children_v3` is compiled with.
            return unsafe { self.word_children_v3(sieve, node, tally) };
        }
        self.word_children_plain(sieve, node, tally)
    }

    /// [`word_children_in`](Self::word_children_in) in plain code.
    #[inline(never)]
    fn word_children_plain<S: Sieve>(&self, sieve: &S, node: WordNode, tally: &mut Tally) -> bool {
        self.word_children_in::<S, false>(sieve, node, tally)
    }

    /// [`word_children_in`](Self::word_children_in) compiled for x86-64-v3, as
    /// [`below_v3`](Self::below_v3).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    #[inline(never)]
    fn word_children_v3<S: Sieve>(&self, sieve: &S, node: WordNode, tally: &mut Tally) -> bool {
        self.word_children_in::<S, true>(sieve, node, tally)
    }

    /// Walks the children `sieve` left of `node`.
    #[inline(always)]
    fn word_children_in<S: Sieve, const V3: bool>(
        &self,
        sieve: &S,
        node: WordNode,
        tally: &mut Tally,
    ) -> bool {
        let (_, step) = self.tree.children(node.level);
        sieve.each_child(|child| self.word_child::<V3>(node, node.residue + child * step, tally))
    }

    /// Tests `residue`, a child of `node` none of whose occupancies lands on a filled slot it
    /// may not take, and walks it if it passes: if no two of its occupancies with different
    /// attacks land on one slot ([`Level::landed`]).
    #[inline(always)]
    fn word_child<const V3: bool>(&self, node: WordNode, residue: u64, tally: &mut Tally) -> bool {
        let level = node.level + 1;
        let Some(landed) = self.tree.levels[level].landed(residue, self.shift) else {
            return true;
        };
        count_passed(tally, level, residue);
        let child = WordNode {
            taken: node.taken | landed,
            level,
            residue,
            ..node
        };
        self.word_node::<V3>(child, tally)
    }
}

/// A node on the path in a table of at most a word of slots, which the walk keeps as the set
/// of its filled slots rather than writing the table below the root's ancestors: a sieve needs
/// only that set, and whether a child it keeps passes comes from where its occupancies land.
#[derive(Clone, Copy)]
struct WordNode {
    slot_count: usize,
    /// The slots the path to the node fills.
    taken: u64,
    level: usize,
    residue: u64,
}

/// The children of a node that cannot pass because one of their occupancies lands on a slot
/// the path holds with other attacks, found for all the children at once.
///
/// A level's occupancies all hold its square `s` and otherwise only squares at least
/// `s + child_bits` (the level above's), so a key is `2^s` times an odd number that is 1
/// modulo `2^child_bits`. The children of a node `r` are `r + c * 2^(64 - s - child_bits)`,
/// `c < 2^child_bits`, and a key's product with child `c` is its product with `r` plus
/// `c * 2^(64 - child_bits)`: the product's top `child_bits` bits are `u + c` modulo
/// `2^child_bits`, `u` (the occupancy's turn) those of the product with `r`. Where the table
/// has no more slots than a node has children, a slot takes a run of those values, so the
/// children an occupancy lets through (onto empty slots or slots holding its own attacks) are
/// the runs of the slots it may take, turned by `u`. Three ways keep what is left of the
/// children, each the faster where it serves (`results/analysis.md`): [`LaneSieve`] a bit a
/// child, [`BlockSieve`] an interval a slot's run, [`ArcSieve`] the runs of children left (in
/// tables of more than a word of slots). Where the table has more slots than a node has
/// children, the children spread over the slots instead: [`SpreadSieve`], [`ClassSieve`].
pub(crate) trait Sieve {
    /// The children of the path's last node whose occupancies (`level`'s) land only on empty
    /// slots or on slots holding their own attacks.
    fn new(path: &PathSlots<'_>, level: &Level, child_bits: u32) -> Self;

    /// Calls `visit` with the number of each child left until it returns `false`; `false`
    /// then.
    fn each_child(&self, visit: impl FnMut(u64) -> bool) -> bool;
}

/// The narrowest level sieved by lanes or runs: `2^SIEVE_LEAST_BITS` children a node.
const SIEVE_LEAST_BITS: u32 = 3;

/// The widest level sieved: `2^SIEVE_MOST_BITS` children a node, the levels that cross a
/// bishop's own square.
const SIEVE_MOST_BITS: u32 = 16;

/// The largest table sieved by lanes or spread: their slot sets are a word.
const SIEVE_MOST_SLOTS: usize = 64;

/// The largest table sieved by runs, a bishop's at 8 bits: past a word of slots, the runs come
/// from slot sets of [`WIDE_SLOT_WORDS`] words.
const ARC_SIEVE_MOST_SLOTS: usize = 64 * WIDE_SLOT_WORDS;

/// The words of a slot set in a table of more than a word of slots.
const WIDE_SLOT_WORDS: usize = 4;

/// The fewest children a node sieved by spreading has: `2^SPREAD_LEAST_BITS`.
const SPREAD_LEAST_BITS: u32 = 2;

/// The fewest children a node sieved by classes has: `2^CLASS_SIEVE_LEAST_BITS`. From 4 or 8,
/// bishops d5 and e5 at 8 bits walked slower (`results/analysis.md`).
const CLASS_SIEVE_LEAST_BITS: u32 = 4;

/// The most children a node sieved by classes has: `2^CLASS_SIEVE_MOST_BITS`, a bit each in
/// a word.
const CLASS_SIEVE_MOST_BITS: u32 = 6;

/// The largest table sieved by classes, a bishop's at 8 bits.
const CLASS_SIEVE_MOST_SLOTS: usize = 256;

/// The most classes a node sieved by classes has: its slots less its children's bits.
const CLASS_SIEVE_MOST_CLASSES: usize = CLASS_SIEVE_MOST_SLOTS >> CLASS_SIEVE_LEAST_BITS;

/// How the walk sieves a level's children.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SieveKind {
    /// [`LaneSieve`].
    Lanes,
    /// [`ArcSieve`].
    Arcs,
    /// [`BlockSieve`].
    Blocks,
    /// [`SpreadSieve`].
    Spread,
    /// [`ClassSieve`].
    Classes,
}

/// How a level whose nodes have `2^child_bits` children is sieved with a table of `slots`, if
/// it is: levels of fewer children than slots (at least `2^SPREAD_LEAST_BITS`) spread, in
/// tables of at most [`SIEVE_MOST_SLOTS`], and by classes in tables of at most
/// [`CLASS_SIEVE_MOST_SLOTS`] (`2^CLASS_SIEVE_LEAST_BITS` to `2^CLASS_SIEVE_MOST_BITS`
/// children); levels of [`SIEVE_LEAST_BITS`] to [`SIEVE_MOST_BITS`] child bits with at least as
/// many children as slots by lanes where [`LaneSieve::holds`] them and by blocks otherwise in
/// tables of at most [`SIEVE_MOST_SLOTS`], by runs in tables of at most
/// [`ARC_SIEVE_MOST_SLOTS`].
pub(crate) fn sieve_for(child_bits: u32, slots: usize) -> Option<SieveKind> {
    if 1usize << child_bits < slots {
        if child_bits < SPREAD_LEAST_BITS {
            None
        } else if slots <= SIEVE_MOST_SLOTS {
            Some(SieveKind::Spread)
        } else {
            ((CLASS_SIEVE_LEAST_BITS..=CLASS_SIEVE_MOST_BITS).contains(&child_bits)
                && slots <= CLASS_SIEVE_MOST_SLOTS)
                .then_some(SieveKind::Classes)
        }
    } else if slots > ARC_SIEVE_MOST_SLOTS
        || !(SIEVE_LEAST_BITS..=SIEVE_MOST_BITS).contains(&child_bits)
    {
        None
    } else if slots <= SIEVE_MOST_SLOTS && LaneSieve::holds(child_bits) {
        Some(SieveKind::Lanes)
    } else if slots <= SIEVE_MOST_SLOTS {
        Some(SieveKind::Blocks)
    } else {
        Some(SieveKind::Arcs)
    }
}

/// The path's slots for a sieve: which are filled, and, in a table of at most a word of slots,
/// the same as sets, a bit a slot, and which an occupancy may not take.
pub(crate) struct PathSlots<'a> {
    /// The filled slots.
    filled: &'a [u32],
    /// The filled slots as a set: in a table of at most [`SIEVE_MOST_SLOTS`].
    taken: u64,
    every_slot: u64,
    slot_count: u32,
    /// The node whose children are sieved.
    residue: u64,
    shift: u32,
}

impl<'a> PathSlots<'a> {
    /// The path to `residue`, in a table of `slot_count` slots, whose entries fill `filled`.
    #[inline(always)]
    fn new(slot_count: usize, filled: &'a [u32], residue: u64, shift: u32) -> Self {
        let word = slot_count <= SIEVE_MOST_SLOTS;
        PathSlots {
            filled,
            taken: if word { slot_set(filled) } else { 0 },
            every_slot: u64::MAX >> (64 - slot_count.min(64)),
            slot_count: slot_count as u32,
            residue,
            shift,
        }
    }

    /// The path to `residue` in a table of `slot_count` slots, at most a word, whose filled
    /// slots are `taken`.
    #[inline(always)]
    fn in_word(slot_count: usize, taken: u64, residue: u64, shift: u32) -> Self {
        PathSlots {
            filled: &[],
            taken,
            every_slot: u64::MAX >> (64 - slot_count),
            slot_count: slot_count as u32,
            residue,
            shift,
        }
    }

    /// The slot `key` lands on at the path's node.
    #[inline(always)]
    fn slot(&self, key: u64) -> u32 {
        magic_index(key, self.residue, self.shift) as u32
    }

    /// The filled slots that an occupancy may not take, in a table of at most a word of slots:
    /// all but those its `holders` (the earlier occupancies with its attacks,
    /// [`Level::holders`]) landed on.
    #[inline(always)]
    fn forbidden(&self, holders: &[u64]) -> u64 {
        let holding = holders
            .iter()
            .fold(0u64, |set, &key| set | 1 << self.slot(key));
        self.taken & !holding
    }

    /// Whether every occupancy of `level` lands on an empty slot or one it may take, at the
    /// path's node, in a table of at most a word of slots.
    #[cfg(test)]
    fn lets_through(&self, level: &Level) -> bool {
        level
            .refs
            .iter()
            .zip(&level.holders)
            .all(|(&(key, _), holders)| self.forbidden(holders) >> self.slot(key) & 1 == 0)
    }

    /// `set` turned down by `by` slots, at most the slot count (slot `by`, modulo the slots,
    /// to bit 0).
    #[inline(always)]
    fn turned(&self, set: u64, by: u32) -> u64 {
        turned_round(set, by, self.slot_count) & self.every_slot
    }
}

/// `set`, of `size` bits (at most 64), turned down by `by` (at most `size`) round its end: bit
/// `by`, modulo `size`, to bit 0; the bits from `size` up are the caller's to mask. Two word
/// shifts, not a `u128`'s (slower: `results/analysis.md`); by 64 they wrap to none, which
/// leaves `set` as it is, as turning it by its size does.
#[inline(always)]
fn turned_round(set: u64, by: u32, size: u32) -> u64 {
    debug_assert!(by <= size && size <= 64);
    set.wrapping_shr(by) | set.wrapping_shl(size - by)
}

/// The slots `filled` as a set, a bit a slot, in a table of at most a word of slots.
#[inline(always)]
fn slot_set(filled: &[u32]) -> u64 {
    filled.iter().fold(0, |set, &slot| set | 1 << slot)
}

/// An occupancy's turn: the top `child_bits` bits of its key's product with the node, where
/// child `c` takes it to `turn + c`.
#[inline(always)]
fn turn(key: u64, residue: u64, child_bits: u32) -> u64 {
    key.wrapping_mul(residue) >> (64 - child_bits)
}

/// The sieve for levels of at most 512 children a node ([`LaneSieve::holds`]), a bit a child in
/// the order of the child's place within its run: bits `o * slots` to `(o + 1) * slots` (lane
/// `o`) hold, a bit per run `b`, whether child `b * run + o` is left.
///
/// With an occupancy's turn `u = q * run + p`, child `b * run + o` lands in slot `b + q` when
/// `o + p < run` and in slot `b + q + 1` otherwise (modulo the slots): so the occupancy takes
/// from the lanes below `run - p` its forbidden slots turned by `q`, and from the others the
/// same turned by `q + 1`, the same two masks in every lane of a word. `WORDS` words, at most
/// [`LANE_SIEVE_WORDS`]: a level of at most 64 children takes one, which stays in a register.
pub(crate) struct LaneSieve<const WORDS: usize> {
    bits: [u64; WORDS],
    words: usize,
    slot_bits: u32,
    run_bits: u32,
}

/// The lane sieve's words.
const LANE_SIEVE_WORDS: usize = 8;

impl LaneSieve<LANE_SIEVE_WORDS> {
    /// Whether the lane sieve holds a node's `2^child_bits` children (the block sieve takes
    /// wider levels).
    fn holds(child_bits: u32) -> bool {
        child_bits <= LANE_SIEVE_WORDS.ilog2() + 6
    }
}

impl<const WORDS: usize> Sieve for LaneSieve<WORDS> {
    #[inline(always)]
    fn new(path: &PathSlots<'_>, level: &Level, child_bits: u32) -> Self {
        let slot_bits = path.slot_count.ilog2();
        let run_bits = child_bits - slot_bits;
        // A slot set times this is the set in every lane of a word.
        let every_lane = EVERY_SPACING[slot_bits as usize];
        let words = 1usize << child_bits.saturating_sub(6);
        debug_assert!(words <= WORDS, "{WORDS} words hold the lanes");
        let mut sieve = LaneSieve {
            bits: [0; WORDS],
            words,
            slot_bits,
            run_bits,
        };
        sieve.bits[..words].fill(u64::MAX >> (64 - (1u32 << child_bits).min(64)));
        for (&(key, _), holders) in level.refs.iter().zip(&level.holders) {
            let forbidden = path.forbidden(holders);
            if forbidden == 0 {
                continue;
            }
            let turn = turn(key, path.residue, child_bits);
            let (whole, part) = ((turn >> run_bits) as u32, turn & ((1 << run_bits) - 1));
            let low_out = path.turned(forbidden, whole) * every_lane;
            let high_out = path.turned(forbidden, whole + 1) * every_lane;
            // The lanes below `run - part` end at bit `cut` of the sieve.
            let cut = (((1u64 << run_bits) - part) << slot_bits) as usize;
            let (low, high) = sieve.bits[..words].split_at_mut((cut / 64).min(words));
            let mut any = 0;
            for left in low {
                *left &= !low_out;
                any |= *left;
            }
            if let Some((mixed, high)) = high.split_first_mut() {
                let below = (1u64 << (cut % 64)) - 1;
                *mixed &= !(low_out & below | high_out & !below);
                any |= *mixed;
                for left in high {
                    *left &= !high_out;
                    any |= *left;
                }
            }
            if any == 0 {
                sieve.words = 0;
                break;
            }
        }
        sieve
    }

    /// Visits the children lane by lane.
    #[inline(always)]
    fn each_child(&self, mut visit: impl FnMut(u64) -> bool) -> bool {
        let slot_mask = (1u64 << self.slot_bits) - 1;
        for (word, &left) in self.bits[..self.words].iter().enumerate() {
            let mut left = left;
            while left != 0 {
                let bit = (word * 64) as u64 + u64::from(left.trailing_zeros());
                left &= left - 1;
                let child = (bit & slot_mask) << self.run_bits | bit >> self.slot_bits;
                if !visit(child) {
                    return false;
                }
            }
        }
        true
    }
}

/// Per spacing of `2^k` bits (`k` up to 6), a bit every spacing: read, not divided out, as the
/// lane and spread sieves are made for nearly every node that passes.
const EVERY_SPACING: [u64; 7] = {
    let mut every = [1; 7];
    let mut k = 0;
    while k < 6 {
        every[k] = u64::MAX / ((1u64 << (1u32 << k)) - 1);
        k += 1;
    }
    every
};

/// The sieve for levels with fewer children than slots, a bit a slot: an occupancy's product
/// with child `c` is its product with child 0 plus `c * 2^(64 - child_bits)`, so child `c`
/// lands `c` spacings (`slots / 2^child_bits`) after child 0's slot. Turned by child 0's slot,
/// the slots an occupancy may not take hold child `c`'s fate at bit `c` spacings: the children
/// left are the bits at those multiples that no occupancy forbids.
pub(crate) struct SpreadSieve(Landings);

/// The children left of a node, a bit each, child `c` at bit `c` spacings (`2^spacing_bits`).
struct Landings {
    left: u64,
    spacing_bits: u32,
}

impl Landings {
    /// Visits the children in increasing order, as [`Sieve::each_child`].
    #[inline(always)]
    fn each_child(&self, mut visit: impl FnMut(u64) -> bool) -> bool {
        let mut left = self.left;
        while left != 0 {
            let child = u64::from(left.trailing_zeros() >> self.spacing_bits);
            left &= left - 1;
            if !visit(child) {
                return false;
            }
        }
        true
    }
}

impl Sieve for SpreadSieve {
    #[inline(always)]
    fn new(path: &PathSlots<'_>, level: &Level, child_bits: u32) -> Self {
        let slot_bits = path.slot_count.ilog2();
        let spacing_bits = slot_bits - child_bits;
        // A bit every spacing: where the children land, turned by child 0's slot.
        let landings = path.every_slot & EVERY_SPACING[spacing_bits as usize];
        let mut dead = 0;
        for (&(key, _), holders) in level.refs.iter().zip(&level.holders) {
            let forbidden = path.forbidden(holders);
            dead |= path.turned(forbidden, turn(key, path.residue, slot_bits) as u32);
            if dead & landings == landings {
                break;
            }
        }
        SpreadSieve(Landings {
            left: landings & !dead,
            spacing_bits,
        })
    }

    /// Visits the children in increasing order.
    #[inline(always)]
    fn each_child(&self, visit: impl FnMut(u64) -> bool) -> bool {
        self.0.each_child(visit)
    }
}

/// [`SpreadSieve`]'s rule in tables of more than a word of slots, a bit a child: the children
/// of an occupancy land a spacing apart, so in one class of slots (their number modulo the
/// spacing), and each class is a word, a bit a spacing. The filled slots of child 0's class,
/// less those the occupancy may share and turned by child 0's place in the class, are the
/// children it rules out.
pub(crate) struct ClassSieve(Landings);

impl Sieve for ClassSieve {
    #[inline(always)]
    fn new(path: &PathSlots<'_>, level: &Level, child_bits: u32) -> Self {
        let spacing_bits = path.slot_count.ilog2() - child_bits;
        let class_of = (1 << spacing_bits) - 1;
        let every_child = u64::MAX >> (64 - (1u32 << child_bits));
        let mut classes = [0u64; CLASS_SIEVE_MOST_CLASSES];
        for &slot in path.filled {
            // Masked: the class is below the classes, so this only spares the bounds check.
            classes[(slot & class_of) as usize & (CLASS_SIEVE_MOST_CLASSES - 1)] |=
                1 << (slot >> spacing_bits);
        }
        let mut dead = 0;
        for (&(key, _), holders) in level.refs.iter().zip(&level.holders) {
            let first = path.slot(key);
            let class = first & class_of;
            let shared = holders.iter().fold(0u64, |set, &key| {
                let at = path.slot(key);
                set | u64::from(at & class_of == class) << (at >> spacing_bits)
            });
            let forbidden = classes[class as usize & (CLASS_SIEVE_MOST_CLASSES - 1)] & !shared;
            dead |= turned_round(forbidden, first >> spacing_bits, 1 << child_bits);
            if dead & every_child == every_child {
                break;
            }
        }
        // A bit a child.
        ClassSieve(Landings {
            left: every_child & !dead,
            spacing_bits: 0,
        })
    }

    /// Visits the children in increasing order.
    #[inline(always)]
    fn each_child(&self, visit: impl FnMut(u64) -> bool) -> bool {
        self.0.each_child(visit)
    }
}

/// The sieve for levels with more children than a lane sieve holds, in tables of at most a
/// word of slots: a node's children in blocks of a run each, block `b` the children from
/// `b * run` on. With an occupancy's turn `u = q * run + p`, a block's head (its first
/// `run - p` children) lands on slot `b + q` and its tail on slot `b + q + 1` (modulo the
/// slots), so what the occupancies rule out of a block is a head and a tail, and the children
/// left in it are one interval: past the longest head ruled out, before the longest tail. Per
/// occupancy, two slot sets turned and a bound kept in each block, the same few instructions
/// wherever the children left are scattered.
pub(crate) struct BlockSieve {
    /// Per block, where its children left start: the end of the longest head ruled out.
    starts: [u16; SIEVE_MOST_SLOTS],
    /// Per block, where they end: the start of the longest tail ruled out.
    ends: [u16; SIEVE_MOST_SLOTS],
    blocks: usize,
    run_bits: u32,
}

/// The blocks a [`BlockSieve`] bounds at once: a 256-bit vector of bounds.
const BLOCK_SIEVE_LANES: usize = 16;

/// Per byte, its bits as eight lanes of a [`BlockSieve`]'s bounds: all ones where a bit is set.
static BYTE_LANES: [[u16; 8]; 256] = {
    let mut lanes = [[0; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut lane = 0;
        while lane < 8 {
            if byte >> lane & 1 == 1 {
                lanes[byte][lane] = u16::MAX;
            }
            lane += 1;
        }
        byte += 1;
    }
    lanes
};

impl BlockSieve {
    /// Bounds the blocks of `set` (a bit a block) by `bound`, as heads (`starts` at least
    /// `bound`) or tails (`ends` at most `bound`).
    ///
    /// A lane's mask is read from [`BYTE_LANES`], not computed from its bit: computed (as a
    /// `match` or a mask), the choice was compiled to words shuffled lane by lane, and
    /// bishops at 6 bits walked up to 1.8 times slower (results/analysis.md).
    #[inline(always)]
    fn bound(bounds: &mut [u16; SIEVE_MOST_SLOTS], set: u64, bound: u16, lanes: usize, head: bool) {
        const _: () = assert!(
            BLOCK_SIEVE_LANES == 16,
            "a group's masks are two bytes' lanes"
        );
        for (group, bounds) in bounds[..lanes]
            .chunks_exact_mut(BLOCK_SIEVE_LANES)
            .enumerate()
        {
            let bits = set >> (group * BLOCK_SIEVE_LANES);
            let (low, high) = (
                &BYTE_LANES[bits as u8 as usize],
                &BYTE_LANES[(bits >> 8) as u8 as usize],
            );
            for (at, &ruled_out) in bounds.iter_mut().zip(low.iter().chain(high)) {
                // Where the block is not ruled out, a bound that bounds nothing: 0 or all ones.
                *at = if head {
                    (*at).max(bound & ruled_out)
                } else {
                    (*at).min(bound | !ruled_out)
                };
            }
        }
    }

    /// Whether some block has children left.
    #[inline(always)]
    fn any_left(&self, lanes: usize) -> bool {
        self.starts[..lanes]
            .iter()
            .zip(&self.ends[..lanes])
            .fold(false, |any, (start, end)| any | (start < end))
    }
}

impl Sieve for BlockSieve {
    #[inline(always)]
    fn new(path: &PathSlots<'_>, level: &Level, child_bits: u32) -> Self {
        let blocks = path.slot_count as usize;
        let run_bits = child_bits - path.slot_count.ilog2();
        // At most 2^16 children in at least two slots: a run fits a bound.
        let run = 1u16 << run_bits;
        let mut sieve = BlockSieve {
            starts: [0; SIEVE_MOST_SLOTS],
            ends: [0; SIEVE_MOST_SLOTS],
            blocks,
            run_bits,
        };
        sieve.ends[..blocks].fill(run);
        // Whole vectors: the lanes past the blocks hold no children and are never ruled out.
        let lanes = blocks.next_multiple_of(BLOCK_SIEVE_LANES);
        for (&(key, _), holders) in level.refs.iter().zip(&level.holders) {
            let forbidden = path.forbidden(holders);
            if forbidden == 0 {
                continue;
            }
            let turn = turn(key, path.residue, child_bits);
            let (whole, part) = ((turn >> run_bits) as u32, turn as u16 & (run - 1));
            let heads = path.turned(forbidden, whole);
            let tails = path.turned(forbidden, whole + 1);
            Self::bound(&mut sieve.starts, heads, run - part, lanes, true);
            Self::bound(&mut sieve.ends, tails, run - part, lanes, false);
            if !sieve.any_left(lanes) {
                sieve.blocks = 0;
                break;
            }
        }
        sieve
    }

    /// Visits the children in increasing order.
    #[inline(always)]
    fn each_child(&self, mut visit: impl FnMut(u64) -> bool) -> bool {
        for (block, (&start, &end)) in self.starts[..self.blocks]
            .iter()
            .zip(&self.ends[..self.blocks])
            .enumerate()
        {
            let first = (block as u64) << self.run_bits;
            for child in start..end {
                if !visit(first + u64::from(child)) {
                    return false;
                }
            }
        }
        true
    }
}

/// The sieve for the wider levels in tables of more than a word of slots, as the runs
/// `[start, end)` of children left, in increasing order: there a slot takes a long run of
/// children, so an occupancy lets through a few runs, and the sieve intersects them.
///
/// An intersection that would take more than `CAPACITY` runs is skipped (that occupancy sieves
/// nothing), so the sieve then keeps more than the children that pass; the walk tests each
/// child it keeps in full, so its result is the same. The proofs' sieved levels have not
/// come near it (`results/analysis.md`).
pub(crate) struct ArcSieve<const CAPACITY: usize> {
    runs: [(u32, u32); CAPACITY],
    len: usize,
}

/// The runs the walk's arc sieve keeps at most.
const ARC_SIEVE_RUNS: usize = 256;

impl<const CAPACITY: usize> ArcSieve<CAPACITY> {
    /// Keeps only the children an occupancy lets through: those landing on the positions of
    /// `runs` (`(position, length)`, in order), position `i` taking the children from
    /// `i * run - phase` to `(i + 1) * run - phase` of `children`; `next` is scratch. Leaves the
    /// sieve as it was if the result would take more than `CAPACITY` runs.
    #[inline(always)]
    fn keep_only(
        &mut self,
        runs: impl Iterator<Item = (u32, u32)>,
        (run, phase, children): (u32, u32, u32),
        next: &mut [(u32, u32); CAPACITY],
    ) {
        let (mut len, mut at) = (0, 0);
        for (position, allowed_run) in runs {
            if at == self.len {
                break;
            }
            let start = (position * run).saturating_sub(phase);
            let end = ((position + allowed_run) * run - phase).min(children);
            while at < self.len && self.runs[at].0 < end {
                let (alive_start, alive_end) = self.runs[at];
                let (low, high) = (alive_start.max(start), alive_end.min(end));
                if low < high {
                    if len == CAPACITY {
                        return;
                    }
                    next[len] = (low, high);
                    len += 1;
                }
                if alive_end > end {
                    break;
                }
                at += 1;
            }
        }
        self.runs[..len].copy_from_slice(&next[..len]);
        self.len = len;
    }
}

impl<const CAPACITY: usize> Sieve for ArcSieve<CAPACITY> {
    fn new(path: &PathSlots<'_>, level: &Level, child_bits: u32) -> Self {
        debug_assert!(path.slot_count as usize > SIEVE_MOST_SLOTS);
        let children = 1u32 << child_bits;
        let run_bits = child_bits - path.slot_count.ilog2();
        let run = 1 << run_bits;
        let mut sieve = ArcSieve {
            runs: [(0, 0); CAPACITY],
            len: 1,
        };
        sieve.runs[0] = (0, children);
        let mut next = [(0u32, 0u32); CAPACITY];
        let wide = WideSlots::new(path);
        for (&(key, _), holders) in level.refs.iter().zip(&level.holders) {
            // The slots in the order the children meet them: position `i` takes the children
            // from `i * run - phase` to `(i + 1) * run - phase`, the first and the last (the
            // first slot again) cut at the ends.
            let turn = turn(key, path.residue, child_bits) as u32;
            let (first, phase) = (turn >> run_bits, turn & (run - 1));
            let Some(order) = wide.allowed_in_order(path, holders, first) else {
                continue;
            };
            sieve.keep_only(WideRuns { order, at: 0 }, (run, phase, children), &mut next);
            if sieve.len == 0 {
                break;
            }
        }
        sieve
    }

    /// Visits the children in increasing order.
    #[inline(always)]
    fn each_child(&self, mut visit: impl FnMut(u64) -> bool) -> bool {
        for &(start, end) in &self.runs[..self.len] {
            for child in start..end {
                if !visit(u64::from(child)) {
                    return false;
                }
            }
        }
        true
    }
}

/// A node's filled slots as a set of [`WIDE_SLOT_WORDS`] words, for the arc sieve in a table
/// of more than a word of slots.
struct WideSlots {
    taken: [u64; WIDE_SLOT_WORDS],
    /// The words the table's slots take.
    words: usize,
}

impl WideSlots {
    #[inline(always)]
    fn new(path: &PathSlots<'_>) -> Self {
        let mut taken = [0; WIDE_SLOT_WORDS];
        for &slot in path.filled {
            // Masked: the slot is in the table, so this only spares the bounds check.
            taken[(slot / 64) as usize & (WIDE_SLOT_WORDS - 1)] |= 1 << (slot % 64);
        }
        WideSlots {
            taken,
            words: path.slot_count as usize / 64,
        }
    }

    /// The slots an occupancy whose alike occupancies are `holders` may take, in the order the
    /// children meet them from slot `first` on: bit `i` for slot `first + i` (modulo the
    /// slots), and past them slot `first` again; `None` if it may take every slot.
    #[inline(always)]
    fn allowed_in_order(
        &self,
        path: &PathSlots<'_>,
        holders: &[u64],
        first: u32,
    ) -> Option<[u64; WIDE_SLOT_WORDS + 1]> {
        let mut forbidden = self.taken;
        for &key in holders {
            let slot = path.slot(key);
            forbidden[(slot / 64) as usize & (WIDE_SLOT_WORDS - 1)] &= !(1 << (slot % 64));
        }
        if forbidden == [0; WIDE_SLOT_WORDS] {
            return None;
        }
        let words = self.words;
        let (word_turn, bit_turn) = ((first / 64) as usize, first % 64);
        let mut order = [0; WIDE_SLOT_WORDS + 1];
        for (word, turned) in order[..words].iter_mut().enumerate() {
            let low = !forbidden[(word + word_turn) % words];
            let high = !forbidden[(word + word_turn + 1) % words];
            *turned = if bit_turn == 0 {
                low
            } else {
                low >> bit_turn | high << (64 - bit_turn)
            };
        }
        order[words] = order[0] & 1;
        Some(order)
    }
}

/// The runs of set bits of [`WideSlots::allowed_in_order`]'s words, from bit `at` on, as
/// `(position, length)`, in order. The last word holds at most the first slot again, in its bit
/// 0, so a run always ends inside the words.
struct WideRuns {
    order: [u64; WIDE_SLOT_WORDS + 1],
    at: u32,
}

impl Iterator for WideRuns {
    type Item = (u32, u32);

    #[inline(always)]
    fn next(&mut self) -> Option<(u32, u32)> {
        let mut word = (self.at / 64) as usize;
        let mut bits = self.order.get(word)? & u64::MAX << (self.at % 64);
        while bits == 0 {
            word += 1;
            bits = *self.order.get(word)?;
        }
        let position = word as u32 * 64 + bits.trailing_zeros();
        let mut clear = !bits & u64::MAX << (position % 64);
        while clear == 0 {
            word += 1;
            clear = !self.order[word];
        }
        self.at = word as u32 * 64 + clear.trailing_zeros();
        Some((position, self.at - position))
    }
}

/// Puts the occupancies `refs` of the node `residue` in the table, recording the slots they
/// fill in `trail` from `start`: where the trail ends then, or `None` at the first destructive
/// collision, with the table as it was.
#[inline(always)]
fn fill(
    slots: &mut [u64],
    trail: &mut [u32],
    start: usize,
    refs: &[(u64, u64)],
    shift: u32,
    residue: u64,
) -> Option<usize> {
    let last = slots.len() - 1;
    let mut end = start;
    for &(key, attacks) in refs {
        // The shift leaves at most `bits` bits: the mask only spares the bounds check.
        let at = magic_index(key, residue, shift) & last;
        if slots[at] == EMPTY {
            slots[at] = attacks;
            trail[end] = at as u32;
            end += 1;
        } else if slots[at] != attacks {
            empty(slots, &trail[start..end]);
            return None;
        }
    }
    Some(end)
}

/// Empties the slots of `filled`.
fn empty(slots: &mut [u64], filled: &[u32]) {
    for &at in filled {
        slots[at as usize] = EMPTY;
    }
}

#[cfg(test)]
mod tests {
    use bitforge_index::{Scheme, SliderKind};
    use rand_xoshiro::Xoshiro256PlusPlus;
    use rand_xoshiro::rand_core::{Rng, SeedableRng};

    use super::*;

    /// The children a sieve keeps, in increasing order.
    fn sieved_children<S: Sieve>(path: &PathSlots<'_>, level: &Level, child_bits: u32) -> Vec<u64> {
        let mut kept = Vec::new();
        S::new(path, level, child_bits).each_child(|child| {
            kept.push(child);
            true
        });
        kept.sort_unstable();
        kept
    }

    /// Walks `paths` random paths down the walker's tree, calling `visit` with each node on
    /// the path that has children (its level and residue, the node placed) before going on
    /// to one of its passing children at random.
    fn random_paths(
        walker: &mut Walker<'_>,
        rng: &mut Xoshiro256PlusPlus,
        paths: usize,
        mut visit: impl FnMut(&mut Walker<'_>, usize, u64),
    ) {
        let levels = walker.tree.levels.len();
        let mut passing = Vec::new();
        for _ in 0..paths {
            let mut node = rng.next_u64() % (1 << walker.tree.levels[0].modulus_bits);
            let mut entered = 0;
            while entered + 1 < levels && walker.place(entered, node) {
                visit(walker, entered, node);
                walker.passing_children(entered, node, &mut passing);
                entered += 1;
                let Some(&next) = passing.get(rng.next_u64() as usize % passing.len().max(1))
                else {
                    break;
                };
                node = next;
            }
            for level in (0..entered).rev() {
                walker.leave(level);
            }
        }
    }

    /// In tables of at most a word of slots, a child passes exactly when every occupancy lands
    /// on a slot the path lets it take and no two with different attacks land on one slot
    /// (`lets_through` and `landed`, the table-free walk's test), and the slots it then fills
    /// are the path's and the ones it landed on; along random paths of bishops at 3 to 6 bits.
    #[test]
    fn where_a_childs_occupancies_land_decides_whether_it_passes() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let (mut passed, mut failed) = (0, 0);
        for (square, bits) in [(54, 3), (31, 4), (25, 4), (21, 6), (34, 6)] {
            let target = Target::new(SliderKind::Bishop, square, bits, Scheme::Fancy).unwrap();
            let tree = Tree::new(target).unwrap();
            let never = AtomicBool::new(false);
            let mut walker = Walker::new(&tree, &never);
            random_paths(&mut walker, &mut rng, 60, |walker, level, node| {
                let (children, step) = tree.children(level);
                let filled = &walker.table.trail[..walker.trail_len];
                let taken = slot_set(filled);
                let next = &tree.levels[level + 1];
                for child in (0..children.min(4096)).map(|child| node + child * step) {
                    let path = PathSlots::in_word(1 << bits, taken, child, walker.shift);
                    let landed = next.landed(child, walker.shift);
                    let lands_apart = path.lets_through(next) && landed.is_some();
                    if walker.place(level + 1, child) {
                        let after = &walker.table.trail[..walker.trail_len];
                        let now = slot_set(after);
                        assert!(lands_apart, "{target:?} level {level}");
                        assert_eq!(landed.map(|landed| taken | landed), Some(now));
                        walker.leave(level + 1);
                        passed += 1;
                    } else {
                        assert!(!lands_apart, "{target:?} level {level}");
                        failed += 1;
                    }
                }
            });
        }
        assert!(
            passed > 1000 && failed > 1000,
            "{passed} passed, {failed} failed"
        );
    }

    /// Every sieve keeps exactly the children whose occupancies each land on an empty slot or
    /// on their own attacks, at every level it serves, along random paths; an arc sieve too
    /// small for its runs keeps more, never fewer.
    #[test]
    fn the_sieves_keep_exactly_the_children_the_path_lets_through() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let (mut kept, mut dropped, mut cramped_extra) = (0u64, 0u64, 0);
        let (mut served, mut wide_runs, mut one_word_lanes) = ([0; 5], 0, 0);
        // Bishop g7, c8, f2, c5 and f6, whose levels take lanes and spread, h4 and g5, whose
        // levels of 2^16 children a node take the block sieve, d5 and e5 at 8 bits, classes, and
        // e4 at 8 and 7 bits, runs in tables of 256 and 128 slots.
        for (square, bits) in [
            (54, 3),
            (58, 4),
            (13, 4),
            (13, 5),
            (34, 6),
            (45, 6),
            (31, 4),
            (38, 4),
            (35, 8),
            (36, 8),
            (28, 8),
            (28, 7),
        ] {
            let target = Target::new(SliderKind::Bishop, square, bits, Scheme::Fancy).unwrap();
            let tree = Tree::new(target).unwrap();
            let never = AtomicBool::new(false);
            let mut walker = Walker::new(&tree, &never);
            let shift = 64 - u32::from(bits);
            random_paths(&mut walker, &mut rng, 30, |walker, level, residue| {
                let (children, step) = tree.children(level);
                let child_bits = children.trailing_zeros();
                let Some(kind) = sieve_for(child_bits, 1 << bits) else {
                    return;
                };
                let (next, slots) = (&tree.levels[level + 1], &walker.table.slots);
                let lets_through: Vec<u64> = (0..children)
                    .filter(|child| {
                        next.refs.iter().all(|&(key, attacks)| {
                            let held = slots[magic_index(key, residue + child * step, shift)];
                            held == EMPTY || held == attacks
                        })
                    })
                    .collect();
                let filled = &walker.table.trail[..walker.trail_len];
                let path = PathSlots::new(slots.len(), filled, residue, shift);
                let mut sieved = Vec::new();
                match kind {
                    SieveKind::Lanes => {
                        sieved.push(sieved_children::<LaneSieve<LANE_SIEVE_WORDS>>(
                            &path, next, child_bits,
                        ));
                        if child_bits <= 6 {
                            sieved.push(sieved_children::<LaneSieve<1>>(&path, next, child_bits));
                            one_word_lanes += 1;
                        }
                    }
                    SieveKind::Arcs => sieved.push(sieved_children::<ArcSieve<ARC_SIEVE_RUNS>>(
                        &path, next, child_bits,
                    )),
                    SieveKind::Blocks => {
                        sieved.push(sieved_children::<BlockSieve>(&path, next, child_bits));
                    }
                    SieveKind::Spread => {
                        sieved.push(sieved_children::<SpreadSieve>(&path, next, child_bits));
                    }
                    SieveKind::Classes => {
                        sieved.push(sieved_children::<ClassSieve>(&path, next, child_bits));
                    }
                }
                for sieved in sieved {
                    assert_eq!(sieved, lets_through, "{target:?} level {level} {kind:?}");
                }
                if kind == SieveKind::Arcs {
                    let cramped = sieved_children::<ArcSieve<2>>(&path, next, child_bits);
                    assert!(
                        lets_through
                            .iter()
                            .all(|child| cramped.binary_search(child).is_ok())
                    );
                    cramped_extra += cramped.len() - lets_through.len();
                }
                served[kind as usize] += 1;
                wide_runs += usize::from(kind == SieveKind::Arcs && slots.len() > SIEVE_MOST_SLOTS);
                kept += lets_through.len() as u64;
                dropped += children - lets_through.len() as u64;
            });
        }
        assert!(
            kept > 1000
                && dropped > 1000
                && served.iter().all(|&n| n > 50)
                && wide_runs > 20
                && one_word_lanes > 20
                && cramped_extra > 0,
            "{kept} kept, {dropped} dropped, {served:?} served (lanes, arcs, blocks, spread, \
             classes), {wide_runs} runs in wide tables, {one_word_lanes} lanes in one word, \
             {cramped_extra} extra"
        );
    }

    /// A random node for the tests of a sieve against the landing rule: a table of
    /// `2^slot_bits` slots, some filled, and a level of one to six occupancies, each with up to
    /// three alike occupancies (holders); the node is 1, so a key's product with it is the key.
    /// With the children (of `2^child_bits`) whose every occupancy lands, by `landing` (key and
    /// child to slot), on an empty slot or on one a holder landed on.
    fn random_node(
        rng: &mut Xoshiro256PlusPlus,
        slot_bits: u32,
        child_bits: u32,
        landing: impl Fn(u64, u64) -> u64,
    ) -> (Vec<u32>, Level, Vec<u64>) {
        let density = 1 + rng.next_u64() % 3;
        let filled: Vec<u32> = (0..1u32 << slot_bits)
            .filter(|_| rng.next_u64() % 8 < density)
            .collect();
        let occupancies = 1 + rng.next_u64() % 6;
        let refs: Vec<(u64, u64)> = (0..occupancies).map(|_| (rng.next_u64(), 1)).collect();
        let holders: Vec<Vec<u64>> = (0..occupancies)
            .map(|_| (0..rng.next_u64() % 4).map(|_| rng.next_u64()).collect())
            .collect();
        let slot_of = |key: u64| key >> (64 - slot_bits);
        let lets_through = (0..1u64 << child_bits)
            .filter(|&child| {
                refs.iter().zip(&holders).all(|(&(key, _), holders)| {
                    let slot = landing(key, child);
                    !filled.contains(&(slot as u32))
                        || holders.iter().any(|&holder| slot_of(holder) == slot)
                })
            })
            .collect();
        (filled, Level::new(0, refs, holders), lets_through)
    }

    /// The block sieve, on random tables of 16 to 64 slots and occupancies, and the arc sieve on
    /// those of 128 and 256, keep exactly the children that no occupancy sends onto a filled
    /// slot none of its holders landed on, child `c` landing at `turn + c` in the product's top
    /// bits (round the end): the rule itself.
    #[test]
    fn the_block_and_arc_sieves_keep_the_children_the_landing_rule_keeps() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let (mut wide, mut blocks, mut kept, mut dropped) = (0, 0, 0, 0);
        for _ in 0..3000 {
            let slot_bits = 4 + rng.next_u64() as u32 % 5;
            let child_bits = slot_bits + rng.next_u64() as u32 % 7;
            let (slots, shift, children) = (1u64 << slot_bits, 64 - slot_bits, 1u64 << child_bits);
            // Child `c` lands at `turn + c` in the product's top bits, round the end.
            let (filled, level, lets_through) =
                random_node(&mut rng, slot_bits, child_bits, |key, child| {
                    (((key >> (64 - child_bits)) + child) % children) >> (child_bits - slot_bits)
                });
            let path = PathSlots::new(slots as usize, &filled, 1, shift);
            let sieved = if slots as usize > SIEVE_MOST_SLOTS {
                wide += 1;
                // Room for every run: the sieve is exact then.
                sieved_children::<ArcSieve<2048>>(&path, &level, child_bits)
            } else {
                blocks += 1;
                sieved_children::<BlockSieve>(&path, &level, child_bits)
            };
            assert_eq!(
                sieved, lets_through,
                "{slots} slots, 2^{child_bits} children"
            );
            kept += lets_through.len();
            dropped += children as usize - lets_through.len();
        }
        assert!(
            wide > 500 && blocks > 500 && kept > 1000 && dropped > 1000,
            "{wide} wide tables, {blocks} by blocks, {kept} kept, {dropped} dropped"
        );
    }

    /// The spread and class sieves, on random tables and occupancies, rule out exactly the
    /// children that some occupancy sends onto a filled slot none of its holders landed on,
    /// child `c` landing `c` spacings after child 0: the rule itself, slot by slot.
    #[test]
    fn the_spread_and_class_sieves_keep_the_children_the_landing_rule_keeps() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let (mut checked, mut kept, mut dropped) = ([0; 2], 0, 0);
        for _ in 0..4000 {
            let slot_bits = 4 + rng.next_u64() as u32 % 5;
            let child_bits = 2 + rng.next_u64() as u32 % (slot_bits - 2);
            let slots = 1u64 << slot_bits;
            let spacing = slots >> child_bits;
            let kind = sieve_for(child_bits, slots as usize);
            let shift = 64 - slot_bits;
            // Child `c` lands `c` spacings after child 0.
            let (filled, level, lets_through) =
                random_node(&mut rng, slot_bits, child_bits, |key, child| {
                    ((key >> shift) + child * spacing) % slots
                });
            let path = PathSlots::new(slots as usize, &filled, 1, shift);
            let (sieved, which) = match kind {
                Some(SieveKind::Spread) => {
                    (sieved_children::<SpreadSieve>(&path, &level, child_bits), 0)
                }
                Some(SieveKind::Classes) => {
                    (sieved_children::<ClassSieve>(&path, &level, child_bits), 1)
                }
                _ => continue,
            };
            assert_eq!(
                sieved, lets_through,
                "{slots} slots, 2^{child_bits} children"
            );
            checked[which] += 1;
            kept += lets_through.len();
            dropped += (1 << child_bits) - lets_through.len();
        }
        assert!(
            checked.iter().all(|&n| n > 300) && kept > 1000 && dropped > 1000,
            "{checked:?} checked (spread, classes), {kept} kept, {dropped} dropped"
        );
    }

    /// Every way the walk runs counts the same: its plain and x86-64-v3 copies, and in tables
    /// of at most 64 slots by slot sets and in the table: bishop g7 at 3 bits (lanes), h4 at 4
    /// (blocks and lanes), d8 at 5 whole (its magics), d3 at 6 (blocks and spread), rook a1 at
    /// 4 (levels of two children, not sieved: in the table) and h5 at 10 (not sieved).
    #[test]
    fn every_way_the_walk_runs_counts_the_same() {
        let mut found = 0;
        for (kind, square, bits, roots) in [
            (SliderKind::Bishop, 54, 3, 0x40000..0x40040),
            (SliderKind::Bishop, 31, 4, 0x101..0x102),
            (SliderKind::Bishop, 59, 5, 0..u64::MAX),
            (SliderKind::Bishop, 19, 6, 0x4000..0x4002),
            (SliderKind::Rook, 0, 4, 0x3000..0x3004),
            (SliderKind::Rook, 39, 10, 0x100..0x104),
        ] {
            let target = Target::new(kind, square, bits, Scheme::Fancy).unwrap();
            let tree = Tree::new(target).unwrap();
            let roots = roots.start..roots.end.min(tree.root_count());
            let never = AtomicBool::new(false);
            let walk = |walker: Walker<'_>| {
                let mut walker = walker;
                let mut tally = Tally::new(tree.levels.len());
                for root in roots.clone() {
                    assert!(walker.walk_root(root, 8, &mut tally));
                }
                tally
            };
            let walker = || Walker::new(&tree, &never);
            let by_slot_sets = walker().by_slot_sets;
            assert_eq!(by_slot_sets, kind == SliderKind::Bishop, "{target:?}");
            let plain_in_the_table = walk(walker().plain().in_the_table());
            let passed: u64 = plain_in_the_table
                .levels
                .iter()
                .map(|level| level.passed)
                .sum();
            assert!(passed > 1000, "{target:?}: {passed} passed");
            for (tally, how) in [
                (walk(walker()), "as it runs here"),
                (walk(walker().plain()), "plain"),
                (walk(walker().in_the_table()), "in the table"),
            ] {
                assert_eq!(tally, plain_in_the_table, "{target:?} {how}");
            }
            found += plain_in_the_table.found_count;
        }
        assert!(found > 0);
    }

    /// Along random paths, a node's passing children as the estimate takes them (sieved where
    /// the walk sieves) are those that pass tested one by one, sieved levels and others.
    #[test]
    fn a_paths_passing_children_are_those_that_pass_one_by_one() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let mut compared = [0u64; 2];
        // Bishop g7 at 3 bits, h4 at 4 (the wide sieve), c5 at 6 (spread) and d5 at 8
        // (classes), rook h5 at 10 (never sieved).
        for (kind, square, bits) in [
            (SliderKind::Bishop, 54, 3),
            (SliderKind::Bishop, 31, 4),
            (SliderKind::Bishop, 34, 6),
            (SliderKind::Bishop, 35, 8),
            (SliderKind::Rook, 39, 10),
        ] {
            let target = Target::new(kind, square, bits, Scheme::Fancy).unwrap();
            let tree = Tree::new(target).unwrap();
            let never = AtomicBool::new(false);
            let mut walker = Walker::new(&tree, &never);
            let (mut sieved, mut one_by_one) = (Vec::new(), Vec::new());
            random_paths(&mut walker, &mut rng, 40, |walker, level, node| {
                let (children, step) = tree.children(level);
                walker.passing_children(level, node, &mut sieved);
                one_by_one.clear();
                one_by_one.extend(
                    (0..children)
                        .map(|child| node + child * step)
                        .filter(|&child| walker.passes(level + 1, child)),
                );
                assert_eq!(sieved, one_by_one, "{target:?} level {level}");
                let sieves = sieve_for(children.trailing_zeros(), 1 << bits).is_some();
                compared[usize::from(sieves)] += 1;
            });
        }
        assert!(compared.iter().all(|&n| n > 20), "{compared:?}");
    }
}
