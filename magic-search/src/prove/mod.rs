//! A prover that prunes: whether any magic with so many bits exists for one square, decided by
//! eliminating whole subtrees of candidates instead of testing each ([`prove`]).
//!
//! The tree ([`tree`]'s module documentation) fixes a magic's low bits first; a residue whose
//! occupancies already collide removes every candidate that ends with it. The walk leaves a
//! certificate ([`ProofReport`]): per level, the nodes tested, those that passed and a digest
//! of which ones passed. [`ProofReport::recheck`] walks the same roots again with independent
//! code and must reproduce every count and digest; [`ProofReport::merge`] joins chunks of the
//! roots into the whole.

mod estimate;
mod replay;
mod state_file;
mod tree;

use core::ops::Range;
use std::sync::atomic::AtomicBool;

use crate::blocks::{Split, in_block_order};
use crate::hunt::{Target, elapsed_since};
pub use estimate::{TimedWalk, TreeEstimate, estimate_tree};
pub use tree::{LevelCount, ProveError, Tally};
use tree::{Tree, Walker};

/// A proof's state: the roots covered and the certificate of their subtrees. A finished proof,
/// a checkpoint of an interrupted one and the merge of several chunks are all one of these
/// ([`to_text`](Self::to_text) and [`parse`](Self::parse) write and read it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofReport {
    /// What is proved.
    pub target: Target,
    /// The roots to cover: residues of the [`root_level`](Self::root_level) (inside
    /// [`root_count`](Self::root_count)).
    pub roots: Range<u64>,
    /// Every root from the range's start up to this one (excluded) is covered.
    pub done: u64,
    /// The certificate and the magics of the covered roots.
    pub tally: Tally,
    /// Milliseconds spent on the covered roots, over every run that resumed them.
    pub elapsed_ms: u64,
}

/// What the mask's squares make of a target: the squares from the highest, and how many magic
/// bits each level fixes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeShape {
    /// The square each level adds, from the highest.
    pub squares: Vec<u8>,
    /// The residue bits at each level (`64 - square`).
    pub residue_bits: Vec<u32>,
}

impl ProofReport {
    /// A proof of `roots` for `target` that has covered nothing yet; the range is clamped to
    /// the target's roots.
    pub fn new(target: Target, roots: Range<u64>) -> Result<Self, ProveError> {
        let tree = Tree::new(target)?;
        let count = tree.root_count();
        let start = roots.start.min(count);
        Ok(ProofReport {
            target,
            roots: start..roots.end.clamp(start, count),
            done: start,
            tally: Tally::new(tree.levels.len()),
            elapsed_ms: 0,
        })
    }

    /// Every root of `target`'s tree: `2^(64 - s)`, `s` the square of the
    /// [`root_level`](Self::root_level).
    pub fn root_count(target: Target) -> Result<u64, ProveError> {
        Ok(Tree::new(target)?.root_count())
    }

    /// The level whose residues are the roots: the first with at least 2^10 of them.
    pub fn root_level(target: Target) -> Result<usize, ProveError> {
        Ok(Tree::new(target)?.root_level)
    }

    /// The tree's levels.
    pub fn shape(target: Target) -> Result<TreeShape, ProveError> {
        let tree = Tree::new(target)?;
        Ok(TreeShape {
            squares: tree.levels.iter().map(|l| l.square).collect(),
            residue_bits: tree.levels.iter().map(|l| l.modulus_bits).collect(),
        })
    }

    /// Whether every root of the range is covered.
    pub fn complete(&self) -> bool {
        self.done >= self.roots.end
    }

    /// Roots covered.
    pub fn covered(&self) -> u64 {
        self.done - self.roots.start
    }

    /// The candidates of the period the covered roots stand for: each root is a residue of
    /// the root level, the last level fixes `log2(period)` bits.
    pub fn candidates_covered(&self) -> u128 {
        let roots = Self::root_count(self.target).unwrap_or(1);
        u128::from(self.covered()) * (self.target.period() / u128::from(roots))
    }

    /// Whether the range is covered and holds no magic: a proof over that range.
    pub fn proves_none(&self) -> bool {
        self.complete() && self.tally.found_count == 0
    }

    /// Whether the range holds every root: a complete proof then covers every magic there is.
    pub fn is_whole_space(&self) -> bool {
        Self::root_count(self.target).is_ok_and(|count| self.roots == (0..count))
    }

    /// Walks the covered roots again with independent code (a walker of its own) on
    /// `threads` threads and compares every count, digest and magic: `Err` names the first
    /// level (or the magics) that differ.
    pub fn recheck(&self, threads: usize) -> Result<(), RecheckError> {
        self.recheck_reporting(threads, &|_| {})
    }

    /// [`recheck`](Self::recheck), calling `progress` with the roots walked again since its
    /// last call.
    pub fn recheck_reporting(
        &self,
        threads: usize,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<(), RecheckError> {
        let never = AtomicBool::new(false);
        self.recheck_from(self.recheck_start(), threads, progress, &|_| {}, &never)
            .map(|_| ())
    }

    /// The replay's record before it has walked any root again: what
    /// [`recheck_from`](Self::recheck_from) starts with.
    pub fn recheck_start(&self) -> ProofReport {
        ProofReport {
            target: self.target,
            roots: self.roots.start..self.done,
            done: self.roots.start,
            tally: Tally::new(self.tally.levels.len()),
            elapsed_ms: 0,
        }
    }

    /// [`recheck`](Self::recheck), resumable: continues `replayed` (the replay's own record
    /// of the roots walked again so far, in the format of a proof, from
    /// [`recheck_start`](Self::recheck_start) or an earlier call) and returns it, calling
    /// `checkpoint` with it each time it grows (throttle it). Setting `stop` ends the replay
    /// within moments; the record returned is then not [`complete`](Self::complete) and holds
    /// every root before the first unfinished one. Complete, it is compared with the
    /// certificate: `Err` names the first level (or the magics) that differ.
    pub fn recheck_from(
        &self,
        replayed: ProofReport,
        threads: usize,
        progress: &(dyn Fn(u64) + Sync),
        checkpoint: &(dyn Fn(&ProofReport) + Sync),
        stop: &AtomicBool,
    ) -> Result<ProofReport, RecheckError> {
        let start = self.recheck_start();
        if (replayed.target, &replayed.roots) != (start.target, &start.roots) {
            return Err(RecheckError::OtherRecord);
        }
        let keep = self.tally.found.len();
        let walked = RootWalk {
            threads,
            keep,
            progress,
            checkpoint,
            stop,
        };
        let replayed = replay::replay(replayed, &walked);
        if replayed.complete() {
            self.compare(&replayed.tally)?;
        }
        Ok(replayed)
    }

    /// Whether the replay's tally `again` has every count, digest and magic of the
    /// certificate's.
    fn compare(&self, again: &Tally) -> Result<(), RecheckError> {
        for (level, (claimed, replayed)) in self.tally.levels.iter().zip(&again.levels).enumerate()
        {
            if claimed != replayed {
                return Err(RecheckError::Level {
                    level,
                    claimed: *claimed,
                    replayed: *replayed,
                });
            }
        }
        if (self.tally.found_count, &self.tally.found, self.tally.best)
            != (again.found_count, &again.found, again.best)
        {
            return Err(RecheckError::Magics {
                claimed: self.tally.found_count,
                replayed: again.found_count,
            });
        }
        Ok(())
    }
}

/// How a certificate failed its re-check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecheckError {
    /// A level's counts or digest differ from the replay's.
    Level {
        /// The level, from 0 (the highest square).
        level: usize,
        /// What the certificate says.
        claimed: LevelCount,
        /// What the replay found.
        replayed: LevelCount,
    },
    /// The magics listed differ from the replay's.
    Magics {
        /// How many the certificate counts.
        claimed: u64,
        /// How many the replay found.
        replayed: u64,
    },
    /// The replay's record handed to [`ProofReport::recheck_from`] is of another target or
    /// other roots than the certificate's.
    OtherRecord,
}

impl core::fmt::Display for RecheckError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            RecheckError::Level {
                level,
                claimed,
                replayed,
            } => write!(
                f,
                "level {level}: the certificate says {} tested, {} passed, digest {:#x}; the \
                 replay gives {} tested, {} passed, digest {:#x}",
                claimed.tested,
                claimed.passed,
                claimed.digest,
                replayed.tested,
                replayed.passed,
                replayed.digest
            ),
            RecheckError::Magics { claimed, replayed } => write!(
                f,
                "the magics differ: the certificate counts {claimed}, the replay finds \
                 {replayed} (or lists other ones)"
            ),
            RecheckError::OtherRecord => write!(
                f,
                "the recheck's progress is of another target or other roots than the \
                 certificate"
            ),
        }
    }
}

impl std::error::Error for RecheckError {}

/// Continues `report`'s proof from where it stopped, on `threads` threads (at least one),
/// keeping the `keep` smallest magics found. `progress` is called with the roots covered since
/// its last call; `checkpoint` with the state each time it grows (throttle it); setting `stop`
/// ends the walk early, within moments even inside a root, keeping every root before the first
/// unfinished one. The result does
/// not depend on the thread count, nor on where the walk was stopped and resumed.
pub fn prove(
    report: ProofReport,
    threads: usize,
    keep: usize,
    progress: &(dyn Fn(u64) + Sync),
    checkpoint: &(dyn Fn(&ProofReport) + Sync),
    stop: &AtomicBool,
) -> Result<ProofReport, ProveError> {
    let tree = Tree::new(report.target)?;
    let walk =
        |walker: &mut Walker<'_>, root, tally: &mut Tally| walker.walk_root(root, keep, tally);
    let walked = RootWalk {
        threads,
        keep,
        progress,
        checkpoint,
        stop,
    };
    Ok(walked.run(report, || Walker::new(&tree, stop), walk))
}

/// How [`prove`] and the recheck's replay walk a proof's roots: on `threads` threads, each
/// root's tally added in root order, so that the report always covers whole roots from its
/// start.
struct RootWalk<'a> {
    threads: usize,
    keep: usize,
    progress: &'a (dyn Fn(u64) + Sync),
    checkpoint: &'a (dyn Fn(&ProofReport) + Sync),
    stop: &'a AtomicBool,
}

impl RootWalk<'_> {
    /// Continues `report` with each thread's walker from `new_walker`; `walk_root(walker,
    /// root, tally)` walks one root into `tally`, `false` if `stop` cut it short.
    fn run<W>(
        &self,
        report: ProofReport,
        new_walker: impl Fn() -> W + Sync,
        walk_root: impl Fn(&mut W, u64, &mut Tally) -> bool + Sync,
    ) -> ProofReport {
        let roots = report.roots.end.saturating_sub(report.roots.start);
        let per_block = roots_per_block(roots, self.threads);
        self.run_in_blocks(report, per_block, new_walker, walk_root)
    }

    /// [`run`](Self::run), `per_block` roots at a time a thread.
    fn run_in_blocks<W>(
        &self,
        report: ProofReport,
        per_block: u64,
        new_walker: impl Fn() -> W + Sync,
        walk_root: impl Fn(&mut W, u64, &mut Tally) -> bool + Sync,
    ) -> ProofReport {
        let elapsed_ms = elapsed_since(report.elapsed_ms);
        let (from, end, levels) = (report.done, report.roots.end, report.tally.levels.len());
        let blocks = end.saturating_sub(from).div_ceil(per_block);
        let mut report = in_block_order(
            report,
            Split {
                blocks,
                threads: self.threads,
                stop: self.stop,
            },
            new_walker,
            |walker, block| {
                let first = from + block * per_block;
                let roots = first..(first + per_block).min(end);
                let mut tally = Tally::new(levels);
                for root in roots.clone() {
                    if !walk_root(walker, root, &mut tally) {
                        return None;
                    }
                }
                let walked = roots.end - roots.start;
                (self.progress)(walked);
                Some((tally, walked))
            },
            |report, (tally, walked)| {
                report.tally.absorb(&tally, self.keep);
                report.done += walked;
            },
            |report| {
                report.elapsed_ms = elapsed_ms();
                (self.checkpoint)(report);
            },
        );
        report.elapsed_ms = elapsed_ms();
        report
    }
}

/// How many roots a thread walks between two turns at the shared state (a lock, the clock, the
/// progress bar): one where roots are few (each then long enough that a turn costs nothing), up
/// to [`MOST_ROOTS_A_BLOCK`] where they are many (bishop e2 at 4 bits has 2^31, most dead in
/// microseconds: a turn each was a large part of their walk). Wherever a block holds more than
/// one root, each thread still has at least 2^14 blocks, so that none waits long for the last.
fn roots_per_block(roots: u64, threads: usize) -> u64 {
    (roots / (threads.max(1) as u64 * BLOCKS_A_THREAD)).clamp(1, MOST_ROOTS_A_BLOCK)
}

/// See [`roots_per_block`].
const MOST_ROOTS_A_BLOCK: u64 = 64;
const BLOCKS_A_THREAD: u64 = 1 << 14;

#[cfg(test)]
mod tests;
