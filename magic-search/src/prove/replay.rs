//! The certificate's re-check: the prover's tree walked again by code that shares nothing
//! with its walker but the geometry and the formula. Each node's whole occupancy set is
//! indexed, sorted and scanned for two occupancies in one slot with different attacks: no
//! shared table, no stamps, no incremental placing. Slower than the prover, but a walker that
//! skipped or wrongly pruned any node gives other counts or digests.

use core::cell::RefCell;
use core::ops::Range;

use bitforge_index::geometry::{ray_attacks, relevant_mask};
use bitforge_index::{Subsets, pext};

use super::ProofReport;
use super::tree::{Tally, count_node};
use crate::engine::Found;
use crate::hunt::{Target, check_magic};

/// Walks `roots` of `target`'s tree from scratch, keeping the `keep` smallest magics.
pub(crate) fn replay(target: Target, roots: Range<u64>, keep: usize) -> Tally {
    let mask = relevant_mask(target.kind(), target.square());
    let mut squares = Vec::new();
    let mut rest = mask;
    while rest != 0 {
        let highest = 63 - rest.leading_zeros();
        squares.push(highest);
        rest ^= 1 << highest;
    }
    // The reference ray walk of every occupancy once, by its bits under the mask.
    let attacks = Subsets::new(mask)
        .map(|occupancy| ray_attacks(target.kind(), target.square(), occupancy))
        .collect();
    let replayer = Replayer {
        target,
        mask,
        squares,
        attacks,
        keep,
        placed: RefCell::new(Vec::new()),
    };
    let mut tally = Tally::new(replayer.squares.len());
    let root_level = ProofReport::root_level(target).expect("a proof's target has a tree");
    for root in roots {
        // The root's ancestors, each counted once: by the root equal to it (a residue of
        // fewer bits is its own first descendant).
        let ancestors_pass = (0..root_level).all(|level| {
            let ancestor = root % (1u64 << (64 - replayer.squares[level]));
            let passes = !replayer.collides(level, ancestor);
            if ancestor == root {
                count_node(&mut tally, level, ancestor, passes);
            }
            passes
        });
        if ancestors_pass {
            replayer.node(root_level, root, &mut tally);
        }
    }
    tally
}

struct Replayer {
    target: Target,
    mask: u64,
    squares: Vec<u32>,
    /// Attacks by `pext(occupancy, mask)`: the order [`Subsets`] counts in.
    attacks: Vec<u64>,
    keep: usize,
    placed: RefCell<Vec<(usize, u64)>>,
}

impl Replayer {
    /// Whether two occupancies of the first `level + 1` squares need different attacks in
    /// one slot under `residue`.
    fn collides(&self, level: usize, residue: u64) -> bool {
        let prefix = self.squares[..=level].iter().fold(0u64, |m, &s| m | 1 << s);
        let t = self.target;
        let mut placed = self.placed.borrow_mut();
        placed.clear();
        placed.extend(Subsets::new(prefix).map(|occupancy| {
            (
                t.scheme().index(occupancy, self.mask, residue, t.bits()),
                self.attacks[pext(occupancy, self.mask) as usize],
            )
        }));
        placed.sort_unstable();
        placed.dedup();
        placed.windows(2).any(|pair| pair[0].0 == pair[1].0)
    }

    fn node(&self, level: usize, residue: u64, tally: &mut Tally) {
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
