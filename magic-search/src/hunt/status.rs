//! What many chunks of one hunt or proof add up to: covered, found, rate and time left.

use core::ops::Range;

use crate::engine::Found;
use crate::hunt::{HuntReport, Target, fewest_slots};
use crate::prove::ProofReport;

/// The progress of the state files of one hunt target, or of one proof target, read together
/// (any number, in any order, complete or not): what a status view prints for a thousand
/// chunks. A hunt counts candidates, a proof roots ([`unit`](Self::unit)).
#[derive(Clone, Debug, PartialEq)]
pub struct HuntStatus {
    /// What is hunted or proved.
    pub target: Target,
    /// What the ranges count: `"candidates"` (hunts) or `"roots"` (proofs).
    pub unit: &'static str,
    /// The whole space in that unit: the period, or every root of the proof's tree.
    pub whole: u128,
    /// Files read.
    pub files: usize,
    /// Files whose range is covered.
    pub complete: usize,
    /// The candidates (roots) of the files' ranges, and how many of them are covered.
    pub total: u128,
    /// See [`total`](Self::total).
    pub covered: u128,
    /// The smallest range holding every file's range.
    pub span: Range<u128>,
    /// Parts of [`span`](Self::span) that no file holds (chunks not started, or lost), in
    /// increasing order.
    pub gaps: Vec<Range<u128>>,
    /// Whether two files' ranges overlap (files of two different splits: `merge` refuses them).
    pub overlapping: bool,
    /// Magics found in the covered parts, and the one with the fewest slots.
    pub found_count: u64,
    /// See [`found_count`](Self::found_count).
    pub best: Option<Found>,
    /// Candidates tested (covered, less those below the lower bound, skipped at once; for
    /// proofs the roots walked) and the milliseconds it took, over every file.
    pub tested: u128,
    /// See [`tested`](Self::tested).
    pub elapsed_ms: u64,
    /// Candidates (roots) still to do, over every file, and in the file with the most left.
    pub left: u128,
    /// See [`left`](Self::left).
    pub most_left_in_one: u128,
}

/// What one file contributes to a status.
struct ChunkFacts {
    range: Range<u128>,
    covered: u128,
    complete: bool,
    found_count: u64,
    best: Option<Found>,
    tested: u128,
    elapsed_ms: u64,
    left: u128,
}

impl HuntStatus {
    /// The status of `reports`, all of one target; `None` if there are none or their targets
    /// differ.
    pub fn of(reports: &[HuntReport]) -> Option<HuntStatus> {
        let target = reports.first()?.target;
        let bound = target.lower_bound();
        let facts = reports.iter().map(|report| ChunkFacts {
            range: report.range.clone(),
            covered: report.covered(),
            complete: report.complete(),
            found_count: report.found_count,
            best: report.best,
            // Candidates below the lower bound are skipped without a test.
            tested: report.covered() - report.below_bound,
            elapsed_ms: report.elapsed_ms,
            left: report.range.end - report.done.max(bound).min(report.range.end),
        });
        Self::of_facts(target, "candidates", target.period(), facts, || {
            reports.iter().all(|report| report.target == target)
        })
    }

    /// The status of proof files, all of one target (in roots); `None` if there are none or
    /// their targets differ.
    pub fn of_proofs(reports: &[ProofReport]) -> Option<HuntStatus> {
        let target = reports.first()?.target;
        let whole = ProofReport::root_count(target).ok()?;
        let facts = reports.iter().map(|report| ChunkFacts {
            range: u128::from(report.roots.start)..u128::from(report.roots.end),
            covered: u128::from(report.covered()),
            complete: report.complete(),
            found_count: report.tally.found_count,
            best: report.tally.best,
            tested: u128::from(report.covered()),
            elapsed_ms: report.elapsed_ms,
            left: u128::from(report.roots.end - report.done),
        });
        Self::of_facts(target, "roots", u128::from(whole), facts, || {
            reports.iter().all(|report| report.target == target)
        })
    }

    fn of_facts(
        target: Target,
        unit: &'static str,
        whole: u128,
        facts: impl Iterator<Item = ChunkFacts>,
        one_target: impl Fn() -> bool,
    ) -> Option<HuntStatus> {
        if !one_target() {
            return None;
        }
        let facts: Vec<ChunkFacts> = facts.collect();
        let mut ranges: Vec<Range<u128>> = facts.iter().map(|f| f.range.clone()).collect();
        ranges.sort_by_key(|range| (range.start, range.end));
        let mut gaps = Vec::new();
        let mut overlapping = false;
        for pair in ranges.windows(2) {
            if pair[1].start > pair[0].end {
                gaps.push(pair[0].end..pair[1].start);
            }
            overlapping |= pair[1].start < pair[0].end;
        }
        let mut status = HuntStatus {
            target,
            unit,
            whole,
            files: facts.len(),
            complete: 0,
            total: 0,
            covered: 0,
            span: ranges[0].start..ranges.iter().map(|range| range.end).max().unwrap_or(0),
            gaps,
            overlapping,
            found_count: 0,
            best: None,
            tested: 0,
            elapsed_ms: 0,
            left: 0,
            most_left_in_one: 0,
        };
        for chunk in facts {
            status.complete += usize::from(chunk.complete);
            status.total += chunk.range.end - chunk.range.start;
            status.covered += chunk.covered;
            status.found_count = status.found_count.saturating_add(chunk.found_count);
            status.best = fewest_slots(status.best, chunk.best);
            status.tested += chunk.tested;
            status.elapsed_ms = status.elapsed_ms.saturating_add(chunk.elapsed_ms);
            status.left += chunk.left;
            status.most_left_in_one = status.most_left_in_one.max(chunk.left);
        }
        Some(status)
    }

    /// Whether the files hold the whole space (the period, or every root), without a gap or
    /// an overlap.
    pub fn spans_the_period(&self) -> bool {
        self.gaps.is_empty() && !self.overlapping && self.total == self.whole
    }

    /// Candidates tested (or roots walked) per second by one process, if the files recorded
    /// any time.
    pub fn rate(&self) -> Option<f64> {
        (self.elapsed_ms > 0 && self.tested > 0)
            .then(|| self.tested as f64 / (self.elapsed_ms as f64 / 1000.0))
    }

    /// Seconds left at [`rate`](Self::rate): in one process, and with every incomplete file's
    /// hunt running at once (the one with the most left sets the time).
    pub fn seconds_left(&self) -> Option<(f64, f64)> {
        let rate = self.rate()?;
        Some((self.left as f64 / rate, self.most_left_in_one as f64 / rate))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Found;
    use bitforge_index::{Scheme, SliderKind};

    #[test]
    fn chunks_add_up_with_their_gaps_rate_and_time_left() {
        // Bishop d8 at 4 bits: period 2^26, lower bound 2^22.
        let target = Target::new(SliderKind::Bishop, 59, 4, Scheme::Fancy).unwrap();
        let quarter = 1u128 << 24;
        let chunk = |i: u128| HuntReport::new(target, i * quarter..(i + 1) * quarter);
        let mut first = chunk(0);
        first.done = first.range.end;
        first.below_bound = 1 << 22;
        first.elapsed_ms = 1_000;
        first.found_count = 2;
        first.best = Some(Found {
            magic: 0x20_8800,
            lowest: 0,
            highest: 31,
        });
        let mut second = chunk(1);
        second.done = second.range.start + (1 << 22);
        second.elapsed_ms = 500;
        let fourth = chunk(3);
        let status = HuntStatus::of(&[fourth, first, second]).unwrap();
        assert_eq!((status.files, status.complete), (3, 1));
        assert_eq!(status.total, 3 * quarter);
        assert_eq!(status.covered, quarter + (1 << 22));
        assert_eq!(status.gaps, vec![(2 * quarter)..(3 * quarter)]);
        assert_eq!(status.span, 0..4 * quarter);
        assert!(!status.overlapping && !status.spans_the_period());
        assert_eq!(status.found_count, 2);
        // Tested: the first chunk less what lies below the bound, and the second's start.
        assert_eq!(status.tested, quarter - (1 << 22) + (1 << 22));
        let rate = status.rate().unwrap();
        assert!((rate - quarter as f64 / 1.5).abs() < 1.0);
        let left = (quarter - (1 << 22)) + quarter;
        assert_eq!((status.left, status.most_left_in_one), (left, quarter));
        let (one, at_once) = status.seconds_left().unwrap();
        assert!((one - left as f64 / rate).abs() < 1e-6 && at_once < one);
        // Files of another target, or of no time at all.
        let other = HuntReport::new(
            Target::new(SliderKind::Bishop, 60, 4, Scheme::Fancy).unwrap(),
            0..quarter,
        );
        assert_eq!(HuntStatus::of(&[chunk(0), other]), None);
        assert_eq!(HuntStatus::of(&[chunk(0)]).unwrap().rate(), None);
        let whole: Vec<HuntReport> = (0..4).map(chunk).collect();
        assert!(HuntStatus::of(&whole).unwrap().spans_the_period());
        let mut overlapping = whole.clone();
        overlapping.push(HuntReport::new(target, 1..2));
        assert!(HuntStatus::of(&overlapping).unwrap().overlapping);
    }
}
