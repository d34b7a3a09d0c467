//! The proof state file: a proof's checkpoint, its certificate, and the merge of several
//! chunks'.
//!
//! ```text
//! # comments start with '#'
//! bitforge-proof 1
//! target bishop d8 4 fancy
//! roots 0x0 0x1000
//! done 0x1000
//! level 0 4096 3840 0x72732195d2e5fc67    (one line per level: tested, passed, digest)
//! ...
//! found-count 0
//! elapsed-ms 11
//! best 0x208800 0 31          (the magic with the fewest slots, if any)
//! found 0x208800 0 31         (any number of lines, in increasing order)
//! ```
//!
//! Roots are the residues of the tree's root level (the first level with at least 2^10 of
//! them). Every root of `roots` (start included, end excluded) below `done` is covered, and the
//! level lines count what their subtrees held, each ancestor of the roots counted by the root
//! equal to it.

use core::ops::Range;

use super::tree::Tree;
use super::{LevelCount, ProofReport, Tally};
use crate::hunt::Target;
use crate::hunt::state_file::{MagicLines, target_line, target_words};
use crate::state_file::{MergeError, StateFileError, number, read_lines, set_once, tiling};

impl ProofReport {
    /// The format's first line.
    pub const HEADER: &str = "bitforge-proof 1";

    /// The state as a proof state file, `comments` first.
    pub fn to_text(&self, comments: &[String]) -> String {
        let mut lines: Vec<String> = comments.iter().map(|c| format!("# {c}")).collect();
        lines.push(Self::HEADER.to_owned());
        lines.push(target_line(&self.target));
        lines.push(format!(
            "roots {:#x} {:#x}",
            self.roots.start, self.roots.end
        ));
        lines.push(format!("done {:#x}", self.done));
        for (level, count) in self.tally.levels.iter().enumerate() {
            lines.push(format!(
                "level {level} {} {} {:#x}",
                count.tested, count.passed, count.digest
            ));
        }
        let tally = &self.tally;
        MagicLines::text(
            lines,
            tally.found_count,
            self.elapsed_ms,
            tally.best.as_ref(),
            &tally.found,
        )
    }

    /// Reads a proof state file, checking that every field fits the target and the roots (a
    /// file that parses is one a proof can resume, a merge can use and a re-check can replay).
    pub fn parse(text: &str) -> Result<Self, StateFileError> {
        let mut fields = Fields::default();
        read_lines(text, Self::HEADER, "a proof state file", &mut |words| {
            fields.read(words)
        })?;
        fields.finish()
    }

    /// Combines the certificates of chunks that together cover one range of roots (in any
    /// order): the same target, every part complete, the ranges meeting end to start. The
    /// magics listed are the `keep` smallest of those the parts list.
    pub fn merge(parts: &[ProofReport], keep: usize) -> Result<ProofReport, MergeError> {
        let sorted = tiling(parts, |p| {
            let roots = u128::from(p.roots.start)..u128::from(p.roots.end);
            (p.target, roots, p.complete())
        })?;
        let (start, end) = (sorted[0].roots.start, sorted[sorted.len() - 1].roots.end);
        let levels = sorted[0].tally.levels.len();
        let mut merged = ProofReport {
            target: sorted[0].target,
            roots: start..end,
            done: end,
            tally: Tally::new(levels),
            elapsed_ms: 0,
        };
        for part in sorted {
            merged.tally.absorb(&part.tally, keep);
            merged.elapsed_ms = merged.elapsed_ms.saturating_add(part.elapsed_ms);
        }
        Ok(merged)
    }
}

/// The fields of a file as they are read.
#[derive(Default)]
struct Fields {
    target: Option<Target>,
    roots: Option<Range<u64>>,
    done: Option<u64>,
    levels: Vec<LevelCount>,
    magics: MagicLines,
}

fn root(text: &str) -> Result<u64, String> {
    u64::try_from(number(text)?).map_err(|_| format!("'{text}' is past every root"))
}

fn count(text: &str) -> Result<u64, String> {
    text.parse().map_err(|_| format!("'{text}' is not a count"))
}

impl Fields {
    fn read(&mut self, words: &[&str]) -> Result<(), String> {
        if let Some(read) = self.magics.read(words) {
            return read;
        }
        match words {
            ["target", rest @ ..] => set_once(&mut self.target, target_words(rest)?, "target"),
            ["roots", start, end] => set_once(&mut self.roots, root(start)?..root(end)?, "roots"),
            ["done", done] => set_once(&mut self.done, root(done)?, "done"),
            ["level", level, tested, passed, digest] => {
                if level.parse::<usize>() != Ok(self.levels.len()) {
                    return Err(format!(
                        "expected level {} here, not '{level}'",
                        self.levels.len()
                    ));
                }
                if self.levels.len() >= 64 {
                    return Err("more than 64 level lines".to_owned());
                }
                let digest = u64::try_from(number(digest)?)
                    .map_err(|_| format!("'{digest}' is not a 64-bit digest"))?;
                self.levels.push(LevelCount {
                    tested: count(tested)?,
                    passed: count(passed)?,
                    digest,
                });
                Ok(())
            }
            [key, ..] => Err(format!(
                "unknown or malformed line '{key} ...' (expected target, roots, done, level, \
                 found-count, elapsed-ms, best or found)"
            )),
            [] => Ok(()),
        }
    }

    fn finish(self) -> Result<ProofReport, StateFileError> {
        let missing = |key: &str| StateFileError {
            line: 0,
            message: format!("the '{key}' line is missing"),
        };
        let wrong = |message: String| StateFileError { line: 0, message };
        let target = self.target.ok_or_else(|| missing("target"))?;
        let roots = self.roots.ok_or_else(|| missing("roots"))?;
        let done = self.done.ok_or_else(|| missing("done"))?;
        let found_count = self
            .magics
            .found_count
            .ok_or_else(|| missing("found-count"))?;
        // The target's tree, built once: every bound below comes from it.
        let tree = Tree::new(target).map_err(|e| wrong(e.to_string()))?;
        if roots.start > roots.end || roots.end > tree.root_count() {
            return Err(wrong(format!(
                "the roots {:#x}..{:#x} are not inside the target's 0x0..{:#x}",
                roots.start,
                roots.end,
                tree.root_count()
            )));
        }
        if !(roots.start..=roots.end).contains(&done) {
            return Err(wrong(format!("done {done:#x} is outside the roots")));
        }
        if self.levels.len() != tree.levels.len() {
            return Err(wrong(format!(
                "{} level lines: the target's tree has {} levels",
                self.levels.len(),
                tree.levels.len()
            )));
        }
        // No level tests more than every child of the nodes that passed above it, and the
        // root level no more than the roots covered (once each when it is the first level):
        // counts that cannot wrap when merged.
        let root_level = tree.root_level;
        let covered = done - roots.start;
        let mut most = 1u64 << tree.levels[0].modulus_bits;
        for (level, count) in self.levels.iter().enumerate() {
            if level == root_level {
                // The ancestors above are counted by the roots equal to them, which need not be
                // among these: the root level is bounded by the roots alone.
                most = covered;
            }
            let exact = level == 0 && root_level == 0;
            let fits = count.tested <= most && (!exact || count.tested == covered);
            if !fits || count.passed > count.tested {
                return Err(wrong(format!(
                    "level {level}: {} tested and {} passed cannot follow from the roots and \
                     the level above",
                    count.tested, count.passed
                )));
            }
            if level + 1 < tree.levels.len() {
                most = count.passed.saturating_mul(tree.children(level).0);
            }
        }
        let last_passed = self.levels.last().map_or(0, |c| c.passed);
        if found_count != last_passed {
            return Err(wrong(
                "found-count disagrees with the last level's nodes that passed".to_owned(),
            ));
        }
        let period = target.period();
        self.magics
            .check(
                found_count,
                1usize << target.bits(),
                |f| u128::from(f.magic) < period,
                "the period",
            )
            .map_err(wrong)?;
        Ok(ProofReport {
            target,
            roots,
            done,
            tally: Tally {
                levels: self.levels,
                found_count,
                found: self.magics.found,
                best: self.magics.best,
            },
            elapsed_ms: self.magics.elapsed_ms.unwrap_or(0),
        })
    }
}
