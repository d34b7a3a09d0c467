//! How big a proof's tree is before walking it: Knuth's estimator (1975). Each probe follows
//! one random path from a root, testing every child of each node it passes through; the
//! product of the numbers of passing children along the path, times the children tested at
//! each level, is an unbiased estimate of the nodes each level will test.
//!
//! The core time comes from the proof's own walk, timed on random roots for a while: nodes a
//! second there, times the nodes estimated. Timing the probes' calls instead was off by up to
//! 3.5 times, and did not follow changes to the walk (results/analysis.md): a probe's
//! calls are short, so their fixed costs weigh in, and they do not run the walk's code.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use super::tree::{Tally, Tree, Walker};
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
    /// The proof's walk, timed on random roots.
    pub walk: TimedWalk,
}

/// The proof's walk timed on random roots (drawn with repetition; the last one may be cut
/// short when the time is up: its nodes walked so far count).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimedWalk {
    /// Roots walked.
    pub roots: u64,
    /// Nodes they tested.
    pub nodes: u64,
    /// Seconds the walk took, on one core.
    pub seconds: f64,
}

impl TimedWalk {
    /// The walk's nanoseconds a node.
    pub fn ns_per_node(&self) -> f64 {
        self.seconds * 1e9 / self.nodes.max(1) as f64
    }
}

impl TreeEstimate {
    /// Nodes the whole proof would test.
    pub fn nodes(&self) -> f64 {
        self.tested.iter().sum()
    }

    /// Seconds one core would spend on the whole proof, at the timed walk's cost a node.
    pub fn core_seconds(&self) -> f64 {
        self.nodes() * self.walk.ns_per_node() / 1e9
    }
}

/// Estimates the tree of `target` from `probes` random paths drawn with `seed`, then times
/// the proof's walk on random roots for `walk_for` (or until it has walked as many roots as the
/// tree has); `progress` is called with the probes done since its last call.
pub fn estimate_tree(
    target: Target,
    probes: u64,
    seed: u64,
    walk_for: Duration,
    progress: &dyn Fn(u64),
) -> Result<TreeEstimate, ProveError> {
    estimate_drawing_roots_past(target, probes, seed, walk_for, EXACT_LEVEL_0, progress)
}

/// [`estimate_tree`], testing level 0 one residue at a time if it has at most `exact_level_0`.
pub(super) fn estimate_drawing_roots_past(
    target: Target,
    probes: u64,
    seed: u64,
    walk_for: Duration,
    exact_level_0: u64,
    progress: &dyn Fn(u64),
) -> Result<TreeEstimate, ProveError> {
    let tree = Tree::new(target)?;
    let levels = tree.levels.len();
    let never = AtomicBool::new(false);
    let mut walker = Walker::new(&tree, &never);
    let mut tested = vec![0.0; levels];

    // Level 0 exactly (every residue, and which pass) where it is small; where it is not
    // (bishop d1 at 4 bits has 2^34 residues), each probe draws a residue of it at random
    // and a failing one ends the probe: the same estimate, in bounded memory.
    let roots = 1u64 << tree.levels[0].modulus_bits;
    tested[0] = roots as f64;
    let passing_roots: Option<Vec<u64>> =
        (roots <= exact_level_0).then(|| (0..roots).filter(|&r| walker.passes(0, r)).collect());

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
                if !walker.passes(0, root) {
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
            walker.passing_children(level, node, &mut passing);
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
    let walk = time_the_walk(&tree, &mut rng, walk_for);
    Ok(TreeEstimate {
        probes,
        tested,
        walk,
    })
}

/// Walks random roots of `tree` as a proof walks them, for `walk_for` or until it has walked
/// as many roots as the tree has, and times it.
fn time_the_walk(tree: &Tree, rng: &mut Xoshiro256PlusPlus, walk_for: Duration) -> TimedWalk {
    let stop = AtomicBool::new(false);
    let (walked, time_up) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        let stop = &stop;
        scope.spawn(move || {
            if time_up.recv_timeout(walk_for) == Err(mpsc::RecvTimeoutError::Timeout) {
                stop.store(true, Ordering::Relaxed);
            }
        });
        let mut walker = Walker::new(tree, stop);
        let mut tally = Tally::new(tree.levels.len());
        let root_count = tree.root_count();
        let started = Instant::now();
        let mut roots = 0;
        while roots < root_count && !stop.load(Ordering::Relaxed) {
            walker.walk_root(rng.next_u64() % root_count, 1, &mut tally);
            roots += 1;
        }
        let seconds = started.elapsed().as_secs_f64();
        // Ends the timer's wait if the roots ran out first.
        drop(walked);
        TimedWalk {
            roots,
            nodes: tally.levels.iter().map(|level| level.tested).sum(),
            seconds,
        }
    })
}
