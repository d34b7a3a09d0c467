//! The certificate's re-check: the prover's tree walked again by code that shares nothing
//! with its walker but the geometry and the formula. Each node places its whole occupancy set
//! (every subset of its squares, fewest blockers first) in a table of its own, stopping at the
//! first two occupancies in one slot with different attacks: no state carried from node to
//! node, no incremental placing. Slower than the prover, but a walker that
//! skipped or wrongly pruned any node gives other counts or digests.

use core::ops::Range;

use bitforge_index::geometry::{ray_attacks, relevant_mask};
use bitforge_index::{Subsets, pext};

use super::ProofReport;
use super::tree::{Tally, count_node};
use crate::engine::Found;
use crate::hunt::{Target, check_magic};

/// Walks `roots` of `target`'s tree from scratch on `threads` threads (at least one), keeping
/// the `keep` smallest magics.
pub(crate) fn replay(target: Target, roots: Range<u64>, keep: usize, threads: usize) -> Tally {
    let mask = relevant_mask(target.kind(), target.square());
    let mut squares = Vec::new();
    let mut rest = mask;
    while rest != 0 {
        let highest = 63 - rest.leading_zeros();
        squares.push(highest);
        rest ^= 1 << highest;
    }
    // The reference ray walk of every occupancy once, by its bits under the mask.
    let attacks: Vec<u64> = Subsets::new(mask)
        .map(|occupancy| ray_attacks(target.kind(), target.square(), occupancy))
        .collect();
    // Each level's occupancies (every subset of its squares), fewest blockers first: their
    // attacks are the most distinct, so a collision shows soonest.
    let mut prefix = 0u64;
    let occupancies: Vec<Vec<u64>> = squares
        .iter()
        .map(|&square| {
            prefix |= 1 << square;
            let mut all: Vec<u64> = Subsets::new(prefix).collect();
            all.sort_by_key(|occupancy| occupancy.count_ones());
            all
        })
        .collect();
    let root_level = ProofReport::root_level(target).expect("a proof's target has a tree");
    let threads = threads.max(1) as u64;
    let length = roots.end - roots.start;
    let part =
        |i: u64| roots.start + (u128::from(length) * u128::from(i) / u128::from(threads)) as u64;
    let (squares, attacks, occupancies) = (&squares[..], &attacks[..], &occupancies[..]);
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|i| {
                let mut replayer = Replayer {
                    target,
                    mask,
                    squares,
                    attacks,
                    occupancies,
                    keep,
                    table: vec![(0, 0); 1 << target.bits()],
                    node: 0,
                };
                let mine = part(i)..part(i + 1);
                scope.spawn(move || {
                    let mut tally = Tally::new(squares.len());
                    for root in mine {
                        replayer.root(root, root_level, &mut tally);
                    }
                    tally
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

struct Replayer<'a> {
    target: Target,
    mask: u64,
    squares: &'a [u32],
    /// Per level, every occupancy of its squares and those above.
    occupancies: &'a [Vec<u64>],
    /// Attacks by `pext(occupancy, mask)`: the order [`Subsets`] counts in.
    attacks: &'a [u64],
    keep: usize,
    /// Per slot, the node that last filled it and the attacks it put there.
    table: Vec<(u64, u64)>,
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
        }
        self.node(root_level, root, tally);
    }

    /// Whether two occupancies of the first `level + 1` squares need different attacks in
    /// one slot under `residue`.
    fn collides(&mut self, level: usize, residue: u64) -> bool {
        self.node += 1;
        let t = self.target;
        for &occupancy in &self.occupancies[level] {
            let index = t.scheme().index(occupancy, self.mask, residue, t.bits());
            let attacks = self.attacks[pext(occupancy, self.mask) as usize];
            let (owner, held) = self.table[index];
            if owner != self.node {
                self.table[index] = (self.node, attacks);
            } else if held != attacks {
                return true;
            }
        }
        false
    }

    fn node(&mut self, level: usize, residue: u64, tally: &mut Tally) {
        let passes = !self.collides(level, residue);
        count_node(tally, level, residue, passes);
        if !passes {
            return;
        }
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
        let here = self.squares[level];
        for child in 0..1u64 << (here - next) {
            self.node(level + 1, residue + (child << (64 - here)), tally);
        }
    }
}
