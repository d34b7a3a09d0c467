//! How big a proof's tree is before walking it: Knuth's estimator (1975). Each probe follows
//! one random path from a root, testing every child of each node it passes through; the
//! product of the numbers of passing children along the path, times the children tested at
//! each level, is an unbiased estimate of the nodes each level will test. The probes also time
//! the tests, per level, so that the estimate comes with the core time the walk would take:
//! the children are tested as the walk tests them, sieved at once where it sieves them.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use super::tree::{Tree, Walker};
use super::{ProveError, Target};

/// The most residues of level 0 tested one by one (beyond, probes draw them).
const EXACT_LEVEL_0: u64 = 1 << 22;

/// What [`estimate_tree`] measured.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeEstimate {
    /// Random paths followed.
    pub probes: u64,
    /// Per level, the nodes a whole proof would test (level 0 exactly: all its residues).
    pub tested: Vec<f64>,
    /// Per level, the nanoseconds one node's test took while probing (0 where none was
    /// tested).
    pub ns_per_node: Vec<f64>,
}

impl TreeEstimate {
    /// Nodes the whole proof would test.
    pub fn nodes(&self) -> f64 {
        self.tested.iter().sum()
    }

    /// Seconds one core would spend on the whole proof, at the measured cost per node.
    pub fn core_seconds(&self) -> f64 {
        let ns: f64 = self
            .tested
            .iter()
            .zip(&self.ns_per_node)
            .map(|(nodes, ns)| nodes * ns)
            .sum();
        ns / 1e9
    }
}

/// Estimates the tree of `target` from `probes` random paths drawn with `seed`; `progress` is
/// called with the probes done since its last call.
pub fn estimate_tree(
    target: Target,
    probes: u64,
    seed: u64,
    progress: &dyn Fn(u64),
) -> Result<TreeEstimate, ProveError> {
    estimate_drawing_roots_past(target, probes, seed, EXACT_LEVEL_0, progress)
}

/// [`estimate_tree`], testing level 0 one residue at a time if it has at most `exact_level_0`.
pub(super) fn estimate_drawing_roots_past(
    target: Target,
    probes: u64,
    seed: u64,
    exact_level_0: u64,
    progress: &dyn Fn(u64),
) -> Result<TreeEstimate, ProveError> {
    let tree = Tree::new(target)?;
    let levels = tree.levels.len();
    let never = AtomicBool::new(false);
    let mut walker = Walker::new(&tree, &never);
    let mut tested = vec![0.0; levels];
    let (mut nanos, mut timed) = (vec![0u128; levels], vec![0u64; levels]);

    // Level 0 exactly (every residue, and which pass) where it is small; where it is not
    // (bishop d1 at 4 bits has 2^34 residues), each probe draws a residue of it at random
    // and a failing one ends the probe: the same estimate, in bounded memory.
    let roots = 1u64 << tree.levels[0].modulus_bits;
    tested[0] = roots as f64;
    let passing_roots: Option<Vec<u64>> = (roots <= exact_level_0).then(|| {
        let started = Instant::now();
        let passing = (0..roots).filter(|&r| walker.passes(0, r)).collect();
        nanos[0] = started.elapsed().as_nanos();
        timed[0] = roots;
        passing
    });

    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut passing = Vec::new();
    let pick = |rng: &mut Xoshiro256PlusPlus, among: &[u64]| {
        among[(rng.next_u64() % among.len() as u64) as usize]
    };
    for probe in 0..probes {
        if probe % 1024 == 1023 {
            progress(1024);
        }
        let (mut weight, mut node) = match &passing_roots {
            Some(passing_roots) if passing_roots.is_empty() => break,
            Some(passing_roots) => (passing_roots.len() as f64, pick(&mut rng, passing_roots)),
            None => {
                let root = rng.next_u64() % roots;
                let started = Instant::now();
                let passes = walker.passes(0, root);
                nanos[0] += started.elapsed().as_nanos();
                timed[0] += 1;
                if !passes {
                    continue;
                }
                (roots as f64, root)
            }
        };
        walker.place(0, node);
        let mut entered = 1;
        for level in 0..levels - 1 {
            let (children, _) = tree.children(level);
            tested[level + 1] += weight * children as f64;
            let started = Instant::now();
            walker.passing_children(level, node, &mut passing);
            nanos[level + 1] += started.elapsed().as_nanos();
            timed[level + 1] += children;
            if passing.is_empty() {
                break;
            }
            weight *= passing.len() as f64;
            node = pick(&mut rng, &passing);
            walker.place(level + 1, node);
            entered += 1;
        }
        for level in (0..entered).rev() {
            walker.leave(level);
        }
    }
    progress(probes % 1024);
    let runs = probes.max(1) as f64;
    for estimate in &mut tested[1..] {
        *estimate /= runs;
    }
    let ns_per_node = nanos
        .iter()
        .zip(&timed)
        .map(|(&ns, &n)| if n == 0 { 0.0 } else { ns as f64 / n as f64 })
        .collect();
    Ok(TreeEstimate {
        probes,
        tested,
        ns_per_node,
    })
}
