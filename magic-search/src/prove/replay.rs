//! The certificate's re-check: the prover's tree walked again by code that shares nothing
//! with its walker but the geometry and the formula. It keeps, per level of the path, the whole
//! table of the path's node there (every occupancy of its squares placed), copied from the
//! parent's when a node passes; a child is tested by placing its new occupancies (those holding
//! its level's square) against its parent's table, which it only reads, and a scratch table of
//! its own. The prover instead marks and unmarks the entries of one shared table along its
//! path: a walker that skipped or wrongly pruned any node, or left an entry behind, gives other
//! counts or digests here.

use core::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

use bitforge_index::geometry::{ray_attacks, relevant_mask};
use bitforge_index::{Subsets, magic_index};

use super::ProofReport;
use super::tree::{Tally, count_node};
use crate::engine::Found;
use crate::hunt::{Target, check_magic};

/// Walks `roots` of `target`'s tree again on `threads` threads (at least one), keeping
/// the `keep` smallest magics; `progress` is called with 1 as each root is done.
pub(crate) fn replay(
    target: Target,
    roots: Range<u64>,
    keep: usize,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Tally {
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
                    debug_assert_ne!(attacks, EMPTY, "a slider attacks a square");
                    (target.scheme().key(o, mask), attacks)
                })
                .collect()
        })
        .collect();
    let root_level = ProofReport::root_level(target).expect("a proof's target has a tree");
    // Roots differ in cost by orders of magnitude: each thread takes the next one left.
    let next_root = AtomicU64::new(roots.start);
    let (squares, levels, next_root) = (&squares[..], &levels[..], &next_root);
    let slots = 1usize << target.bits();
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|_| {
                let mut replayer = Replayer {
                    target,
                    shift: 64 - u32::from(target.bits()),
                    squares,
                    levels,
                    keep,
                    slots,
                    tables: vec![EMPTY; slots * (squares.len() + 1)],
                    scratch: vec![(0, EMPTY); slots],
                    node: 0,
                };
                scope.spawn(move || {
                    let mut tally = Tally::new(squares.len());
                    loop {
                        let root = next_root.fetch_add(1, Ordering::Relaxed);
                        if root >= roots.end {
                            break tally;
                        }
                        replayer.root(root, root_level, &mut tally);
                        progress(1);
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| handle.join().expect("a replay thread does not panic"))
            .collect()
    });
    let mut whole = Tally::new(squares.len());
    for tally in &tallies {
        whole.absorb(tally, keep);
    }
    whole
}

/// A slot that holds no attacks: every slider attacks at least one square, so no occupancy's
/// attacks are empty.
const EMPTY: u64 = 0;

struct Replayer<'a> {
    target: Target,
    /// The index's shift: 64 less the target's bits.
    shift: u32,
    squares: &'a [u32],
    /// Per level, its new occupancies' keys and their attacks.
    levels: &'a [Vec<(u64, u64)>],
    keep: usize,
    /// The attacks in each slot: at `level + 1` once every occupancy of the path's node at
    /// `level` is placed, at 0 none (what the nodes of `level` are tested against is at
    /// `level`). One allocation, level after level: tables allocated one by one lay 16 bytes
    /// past a whole number of pages apart, where the copy between them (`fill`) was slow
    /// (results/analysis.md).
    tables: Vec<u64>,
    /// Slots in a table: `2^bits`.
    slots: usize,
    /// The slots the node being tested filled that its parent's table left empty: the node's
    /// number and the attacks.
    scratch: Vec<(u64, u64)>,
    /// The number of the node last tested.
    node: u64,
}

impl Replayer<'_> {
    /// A root and its ancestors, each ancestor counted once: by the root equal to it (a
    /// residue of fewer bits is its own first descendant).
    fn root(&mut self, root: u64, root_level: usize, tally: &mut Tally) {
        for level in 0..root_level {
            let ancestor = root % (1u64 << (64 - self.squares[level]));
            let passes = !self.collides(level, ancestor);
            if ancestor == root {
                count_node(tally, level, ancestor, passes);
            }
            if !passes {
                return;
            }
            self.fill(level, ancestor);
        }
        self.node(root_level, root, tally);
    }

    /// Whether two occupancies of the first `level + 1` squares need different attacks in
    /// one slot under `residue`, given that its parent's (those without the level's square)
    /// do not.
    #[inline(always)]
    fn collides(&mut self, level: usize, residue: u64) -> bool {
        self.node += 1;
        let (shift, node) = (self.shift, self.node);
        let parent = &self.tables[level * self.slots..][..self.slots];
        for &(key, attacks) in &self.levels[level] {
            let index = magic_index(key, residue, shift);
            let held = parent[index];
            if held != EMPTY {
                if held != attacks {
                    return true;
                }
                continue;
            }
            let (owner, mine) = self.scratch[index];
            if owner != node {
                self.scratch[index] = (node, attacks);
            } else if mine != attacks {
                return true;
            }
        }
        false
    }

    /// Makes the table at `level + 1` that of `residue`, which passed at `level`: its parent's
    /// (at `level`) and its own new occupancies.
    fn fill(&mut self, level: usize, residue: u64) {
        let slots = self.slots;
        let (parents, own) = self.tables.split_at_mut((level + 1) * slots);
        let table = &mut own[..slots];
        table.copy_from_slice(&parents[level * slots..]);
        for &(key, attacks) in &self.levels[level] {
            table[magic_index(key, residue, self.shift)] = attacks;
        }
    }

    /// Tests `residue` at `level`, counts it, and walks its subtree if it passes; inlined into
    /// the loop over a node's children, where most calls would only test.
    #[inline(always)]
    fn node(&mut self, level: usize, residue: u64, tally: &mut Tally) {
        let passes = !self.collides(level, residue);
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
        self.fill(level, residue);
        let here = self.squares[level];
        for child in 0..1u64 << (here - next) {
            self.node(level + 1, residue + (child << (64 - here)), tally);
        }
    }
}
