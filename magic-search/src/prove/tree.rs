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
use bitforge_index::{Scheme, Subsets};

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
            levels.push(Level {
                square: position,
                modulus_bits: 64 - u32::from(position),
                refs,
            });
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
    let count = &mut tally.levels[level];
    count.tested += 1;
    if passes {
        count.passed += 1;
        count.digest = count.digest.wrapping_add(node_digest(level, residue));
    }
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

/// A slot of the table being filled: the attacks it holds and who put them there
/// ([`ON_PATH`], or the number of the node being tested).
#[derive(Clone, Copy, Default)]
struct Slot {
    attacks: u64,
    stamp: u64,
}

/// The stamp of a slot filled by a node on the walk's current path: valid until that node's
/// subtree is done. 0 marks a slot never filled; tested nodes are numbered from 2, so a slot a
/// failed node filled is stale as soon as the next node is tested, without being cleared.
const ON_PATH: u64 = 1;

/// One thread's walker: a table shared by every node of the path being walked.
pub(crate) struct Walker<'t> {
    tree: &'t Tree,
    /// Set to abandon the walk (checked between children).
    stop: &'t AtomicBool,
    slots: Vec<Slot>,
    /// The number of the node last tested (its stamp).
    node: u64,
    /// Per level, the slots the path's node at that level filled: emptied when its subtree is
    /// done.
    filled: Vec<Vec<usize>>,
    shift: u32,
}

impl<'t> Walker<'t> {
    pub(crate) fn new(tree: &'t Tree, stop: &'t AtomicBool) -> Self {
        let bits = tree.target.bits();
        Walker {
            tree,
            stop,
            slots: vec![Slot::default(); 1 << bits],
            node: ON_PATH,
            filled: tree
                .levels
                .iter()
                .map(|level| Vec::with_capacity(level.refs.len()))
                .collect(),
            shift: 64 - u32::from(bits),
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
            self.enter(level, node);
            entered += 1;
        }
        let finished = entered <= root_level || self.below(root_level, residue, keep, tally);
        for level in (0..entered).rev() {
            self.leave(level);
        }
        finished
    }

    /// Walks the children of a node of `level` that passed and is on the path (or records it
    /// as a magic at the last level); `false` if stopped part way. Every child is tested: they
    /// are counted at once, those that pass one by one.
    fn below(&mut self, level: usize, residue: u64, keep: usize, tally: &mut Tally) -> bool {
        if level + 1 == self.tree.levels.len() {
            let check = check_magic(self.tree.target, residue)
                .expect("a residue that passes every level is a magic");
            let found = Found {
                magic: residue,
                lowest: check.lowest,
                highest: check.highest,
            };
            tally.add_found(found, keep);
            return true;
        }
        if self.stop.load(Ordering::Relaxed) {
            return false;
        }
        let (children, step) = self.tree.children(level);
        tally.levels[level + 1].tested += children;
        for child in 0..children {
            let residue = residue + child * step;
            if self.place(level + 1, residue) {
                let count = &mut tally.levels[level + 1];
                count.passed += 1;
                count.digest = count.digest.wrapping_add(node_digest(level + 1, residue));
                self.enter(level + 1, residue);
                let finished = self.below(level + 1, residue, keep, tally);
                self.leave(level + 1);
                if !finished {
                    return false;
                }
            }
        }
        true
    }

    /// Tests the node `residue` of `level` under the path's entries: puts the level's new
    /// occupancies in the table, `false` at the first destructive collision.
    #[inline]
    pub(crate) fn place(&mut self, level: usize, residue: u64) -> bool {
        self.node += 1;
        let stamp = self.node;
        let last = self.slots.len() - 1;
        for &(key, attacks) in &self.tree.levels[level].refs {
            // The shift leaves at most `bits` bits: the mask only spares the bounds check.
            let slot = &mut self.slots[(key.wrapping_mul(residue) >> self.shift) as usize & last];
            if slot.stamp == ON_PATH || slot.stamp == stamp {
                if slot.attacks != attacks {
                    return false;
                }
            } else {
                *slot = Slot { attacks, stamp };
            }
        }
        true
    }

    /// Puts the node just placed (which passed) on the path at `level`: its entries stay valid
    /// for its subtree.
    pub(crate) fn enter(&mut self, level: usize, residue: u64) {
        let (stamp, last) = (self.node, self.slots.len() - 1);
        let filled = &mut self.filled[level];
        for &(key, _) in &self.tree.levels[level].refs {
            let at = (key.wrapping_mul(residue) >> self.shift) as usize & last;
            if self.slots[at].stamp == stamp {
                self.slots[at].stamp = ON_PATH;
                filled.push(at);
            }
        }
    }

    /// Takes the path's node at `level` off the path, emptying the slots it filled.
    pub(crate) fn leave(&mut self, level: usize) {
        for at in self.filled[level].drain(..) {
            self.slots[at].stamp = 0;
        }
    }
}
