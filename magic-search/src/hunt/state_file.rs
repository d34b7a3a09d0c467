//! The hunt state file: a hunt's checkpoint, its result, and the merge of several chunks'.
//!
//! ```text
//! # comments start with '#'
//! bitforge-hunt 1
//! target bishop e8 4 fancy
//! range 0x0 0x80000000
//! done 0x80000000
//! below-bound 0x8000000
//! found-count 0
//! elapsed-ms 2215             (time spent hunting, over every resumed run; optional)
//! best 0x4f68bcb9 0 29        (the magic with the fewest slots, if any)
//! found 0x208800 0 31         (any number of lines, in increasing order)
//! ```
//!
//! Every candidate of `range` (start included, end excluded) below `done` is covered;
//! `below-bound` of them lay below the target's lower bound. A file is complete when `done` is
//! the range's end.

use core::ops::Range;

use crate::engine::Found;
use crate::hunt::{HuntReport, Target};
use crate::state_file::{MergeError, StateFileError, found, number, read_lines, set_once, tiling};
use bitforge_index::Scheme;
use bitforge_index::SliderKind;
use bitforge_index::geometry::{parse_square, square_name};

/// The most `found` lines a file may hold: a hunt keeps what it was asked to, and a file that
/// claims more is refused before it fills memory.
pub(crate) const MAX_FOUND_LINES: usize = 1 << 20;

fn hex(n: u128) -> String {
    format!("{n:#x}")
}

/// The `target` line of a hunt or proof file.
pub(crate) fn target_line(t: &Target) -> String {
    format!(
        "target {} {} {} {}",
        t.kind(),
        square_name(t.square()),
        t.bits(),
        t.scheme()
    )
}

/// Reads the words after `target`: piece, square, bits and scheme.
pub(crate) fn target_words(words: &[&str]) -> Result<Target, String> {
    let [kind, square, bits, scheme] = words else {
        return Err("expected 'target PIECE SQUARE BITS SCHEME'".to_owned());
    };
    let kind = match *kind {
        "rook" => SliderKind::Rook,
        "bishop" => SliderKind::Bishop,
        other => return Err(format!("'{other}' is not rook or bishop")),
    };
    let square = parse_square(square).ok_or_else(|| format!("'{square}' is not a square"))?;
    let bits: u8 = bits
        .parse()
        .map_err(|_| format!("'{bits}' is not a bit count"))?;
    let scheme: Scheme = scheme.parse().map_err(|e| format!("{e}"))?;
    Target::new(kind, square, bits, scheme).map_err(|e| format!("{e}"))
}

/// The lines a hunt or proof file ends with: how many magics, the time spent, the one with the
/// fewest slots and the smallest ones, as they are written and read.
#[derive(Default)]
pub(crate) struct MagicLines {
    pub(crate) found_count: Option<u64>,
    pub(crate) elapsed_ms: Option<u64>,
    pub(crate) best: Option<Found>,
    pub(crate) found: Vec<Found>,
}

impl MagicLines {
    /// Appends the lines for these values to `lines` and returns the file's text.
    pub(crate) fn text(
        mut lines: Vec<String>,
        found_count: u64,
        elapsed_ms: u64,
        best: Option<&Found>,
        found: &[Found],
    ) -> String {
        lines.push(format!("found-count {found_count}"));
        lines.push(format!("elapsed-ms {elapsed_ms}"));
        lines.extend(best.map(|best| format!("best {}", found_text(best))));
        lines.extend(found.iter().map(|f| format!("found {}", found_text(f))));
        let mut text = lines.join("\n");
        text.push('\n');
        text
    }

    /// Reads one of its lines: `None` if `words` is not one of them.
    pub(crate) fn read(&mut self, words: &[&str]) -> Option<Result<(), String>> {
        let count = |n: &str| n.parse().map_err(|_| format!("'{n}' is not a count"));
        Some(match words {
            ["found-count", n] => {
                count(n).and_then(|n| set_once(&mut self.found_count, n, "found-count"))
            }
            ["elapsed-ms", n] => {
                count(n).and_then(|n| set_once(&mut self.elapsed_ms, n, "elapsed-ms"))
            }
            ["best", rest @ ..] => found(rest).and_then(|f| set_once(&mut self.best, f, "best")),
            ["found", rest @ ..] if self.found.len() >= MAX_FOUND_LINES => {
                Err(format!("more than {MAX_FOUND_LINES} 'found' lines"))
            }
            ["found", rest @ ..] => found(rest).map(|f| self.found.push(f)),
            _ => return None,
        })
    }

    /// Checks the magics against their count and each other (in increasing order, `best`
    /// present when any was found, none past `slots` or outside `fits`).
    pub(crate) fn check(
        &self,
        found_count: u64,
        slots: usize,
        fits: impl Fn(&Found) -> bool,
        place: &str,
    ) -> Result<(), String> {
        if (found_count as u128) < self.found.len() as u128
            || (found_count > 0) != self.best.is_some()
        {
            return Err("found-count disagrees with the 'found' and 'best' lines".to_owned());
        }
        for f in self.best.iter().chain(&self.found) {
            if !fits(f) || f.lowest > f.highest || f.highest >= slots {
                return Err(format!(
                    "{} does not fit {place} and {} index bits",
                    found_text(f),
                    slots.trailing_zeros()
                ));
            }
        }
        if !self.found.windows(2).all(|w| w[0].magic < w[1].magic) {
            return Err("the 'found' lines are not in increasing order".to_owned());
        }
        Ok(())
    }
}

pub(crate) fn found_text(found: &Found) -> String {
    format!("{:#x} {} {}", found.magic, found.lowest, found.highest)
}

impl HuntReport {
    /// The format's first line.
    pub const HEADER: &str = "bitforge-hunt 1";

    /// The state as a hunt state file, `comments` first.
    pub fn to_text(&self, comments: &[String]) -> String {
        let mut lines: Vec<String> = comments.iter().map(|c| format!("# {c}")).collect();
        lines.push(Self::HEADER.to_owned());
        lines.push(target_line(&self.target));
        lines.push(format!(
            "range {} {}",
            hex(self.range.start),
            hex(self.range.end)
        ));
        lines.push(format!("done {}", hex(self.done)));
        lines.push(format!("below-bound {}", hex(self.below_bound)));
        MagicLines::text(
            lines,
            self.found_count,
            self.elapsed_ms,
            self.best.as_ref(),
            &self.found,
        )
    }

    /// Reads a hunt state file, checking that every field is consistent with the target and
    /// the range (a file that parses is one a hunt can resume or a merge can use).
    pub fn parse(text: &str) -> Result<Self, StateFileError> {
        let mut fields = Fields::default();
        read_lines(text, Self::HEADER, "a hunt state file", &mut |words| {
            fields.read(words)
        })?;
        fields.finish()
    }

    /// Combines the results of chunks that together cover one range (in any order): the same
    /// target, every part complete, the ranges meeting end to start. The magics listed are the
    /// `keep` smallest of those the parts list.
    pub fn merge(parts: &[HuntReport], keep: usize) -> Result<HuntReport, MergeError> {
        let sorted = tiling(parts, |p| (p.target, p.range.clone(), p.complete()))?;
        let start = sorted[0].range.start;
        let end = sorted[sorted.len() - 1].range.end;
        let mut merged = HuntReport::new(sorted[0].target, start..end);
        merged.done = end;
        for part in sorted {
            // Adjacent parts of one period, each counting at most the candidates it tested
            // (checked when read): the sums stay below the period, which both types hold.
            merged.below_bound += part.below_bound;
            merged.elapsed_ms = merged.elapsed_ms.saturating_add(part.elapsed_ms);
            merged.record(&part.found, part.found_count, part.best, keep);
        }
        Ok(merged)
    }
}

/// The fields of a file as they are read.
#[derive(Default)]
struct Fields {
    target: Option<Target>,
    range: Option<Range<u128>>,
    done: Option<u128>,
    below_bound: Option<u128>,
    magics: MagicLines,
}

impl Fields {
    fn read(&mut self, words: &[&str]) -> Result<(), String> {
        if let Some(read) = self.magics.read(words) {
            return read;
        }
        match words {
            ["target", rest @ ..] => set_once(&mut self.target, target_words(rest)?, "target"),
            ["range", start, end] => {
                set_once(&mut self.range, number(start)?..number(end)?, "range")
            }
            ["done", done] => set_once(&mut self.done, number(done)?, "done"),
            ["below-bound", n] => set_once(&mut self.below_bound, number(n)?, "below-bound"),
            [key, ..] => Err(format!(
                "unknown or malformed line '{key} ...' (expected target, range, done, \
                 below-bound, found-count, elapsed-ms, best or found)"
            )),
            [] => Ok(()),
        }
    }

    fn finish(self) -> Result<HuntReport, StateFileError> {
        let missing = |key: &str| StateFileError {
            line: 0,
            message: format!("the '{key}' line is missing"),
        };
        let wrong = |message: String| StateFileError { line: 0, message };
        let target = self.target.ok_or_else(|| missing("target"))?;
        let range = self.range.ok_or_else(|| missing("range"))?;
        let done = self.done.ok_or_else(|| missing("done"))?;
        let below_bound = self.below_bound.ok_or_else(|| missing("below-bound"))?;
        let found_count = self
            .magics
            .found_count
            .ok_or_else(|| missing("found-count"))?;
        let period = target.period();
        if range.start > range.end || range.end > period {
            return Err(wrong(format!(
                "the range {:#x}..{:#x} is not inside the target's space 0x0..{period:#x}",
                range.start, range.end
            )));
        }
        if !range.contains(&done) && done != range.end {
            return Err(wrong(format!("done {done:#x} is outside the range")));
        }
        if below_bound > done - range.start {
            return Err(wrong(format!(
                "below-bound {below_bound:#x} is more than the candidates covered"
            )));
        }
        // Every magic counted is a candidate covered and tested: more than those is a count
        // that merging would add into a false result (a wrapped sum proving a range empty).
        if u128::from(found_count) > done - range.start - below_bound {
            return Err(wrong(format!(
                "found-count {found_count} is more than the candidates tested"
            )));
        }
        let slots = 1usize << target.bits();
        let covered = range.start..done;
        self.magics
            .check(
                found_count,
                slots,
                |f| covered.contains(&u128::from(f.magic)),
                "the covered range",
            )
            .map_err(wrong)?;
        Ok(HuntReport {
            target,
            range,
            done,
            below_bound,
            found_count,
            found: self.magics.found,
            best: self.magics.best,
            elapsed_ms: self.magics.elapsed_ms.unwrap_or(0),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> HuntReport {
        let target = Target::new(SliderKind::Bishop, 59, 5, Scheme::Fancy).unwrap();
        let mut report = HuntReport::new(target, 0x20_0000..0x21_0000);
        report.done = 0x20_9000;
        report.below_bound = 0;
        report.found_count = 3;
        let found = |magic, highest| Found {
            magic,
            lowest: 0,
            highest,
        };
        report.found = vec![found(0x20_8800, 31), found(0x20_8801, 31)];
        report.best = Some(found(0x20_8800, 31));
        report.elapsed_ms = 1234;
        report
    }

    #[test]
    fn a_state_round_trips_through_its_text() {
        let report = sample();
        let text = report.to_text(&["written by a test".to_owned()]);
        assert!(text.starts_with("# written by a test\nbitforge-hunt 1\n"));
        assert_eq!(HuntReport::parse(&text), Ok(report));
    }

    #[test]
    fn bad_files_name_the_line_and_the_fault() {
        let good = sample().to_text(&[]);
        let cases = [
            (
                good.replace("bitforge-hunt 1", "bitforge-hunt 2"),
                "line 1: expected",
            ),
            (
                good.replace("target bishop d8", "target queen d8"),
                "'queen' is not rook",
            ),
            (
                good.replace("done 0x209000", "done 0x300000"),
                "outside the range",
            ),
            (good.replace("found-count 3", "found-count 1"), "disagrees"),
            (
                good.replace("found 0x208801", "found 0x20a000"),
                "does not fit",
            ),
            (
                good.replace("range 0x200000 0x210000", "range 0x0 0x8000000"),
                "not inside",
            ),
            (
                good.replace("below-bound 0x0\n", ""),
                "'below-bound' line is missing",
            ),
            (format!("{good}done 0x200000\n"), "given twice"),
            (
                good.replace("found 0x208800 0 31", "found 0x208800 0"),
                "expected a magic",
            ),
            (String::new(), "not a hunt state file"),
        ];
        for (text, expected) in cases {
            let error = HuntReport::parse(&text).unwrap_err().to_string();
            assert!(error.contains(expected), "{expected}: {error}");
        }
    }

    #[test]
    fn merges_need_every_chunk_once_and_complete() {
        let target = Target::new(SliderKind::Bishop, 59, 4, Scheme::Fancy).unwrap();
        let part = |range: Range<u128>| {
            let mut report = HuntReport::new(target, range.clone());
            report.done = range.end;
            report.below_bound = 1;
            report
        };
        let whole = HuntReport::merge(&[part(10..20), part(0..10), part(20..30)], 8).unwrap();
        assert_eq!(
            (whole.range.clone(), whole.done, whole.below_bound),
            (0..30, 30, 3)
        );
        assert!(whole.proves_none());
        let gap = HuntReport::merge(&[part(0..10), part(12..30)], 8).unwrap_err();
        assert!(gap.to_string().contains("a chunk is missing"), "{gap}");
        let overlap = HuntReport::merge(&[part(0..10), part(5..30)], 8).unwrap_err();
        assert!(overlap.to_string().contains("overlap"), "{overlap}");
        let mut unfinished = part(30..40);
        unfinished.done = 35;
        assert_eq!(
            HuntReport::merge(&[part(20..30), unfinished], 8),
            Err(MergeError::Incomplete { part: 1 })
        );
        let other = Target::new(SliderKind::Bishop, 60, 4, Scheme::Fancy).unwrap();
        let mut foreign = part(30..40);
        foreign.target = other;
        assert_eq!(
            HuntReport::merge(&[part(20..30), foreign], 8),
            Err(MergeError::OtherTarget { part: 1 })
        );
        assert_eq!(HuntReport::merge(&[], 8), Err(MergeError::Empty));
    }
}
