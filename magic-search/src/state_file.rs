//! What the state files of long work (hunts, set searches) share: the line reader, the value
//! readers, and the errors of reading and merging.

use core::fmt;
use core::ops::Range;

use crate::engine::Found;

/// Why a state file (a hunt's or a set search's) was refused: the line (1-based; 0 for the
/// file as a whole) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateFileError {
    /// The line, from 1; 0 when something is missing.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for StateFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            f.write_str(&self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for StateFileError {}

/// Why chunks' results cannot be merged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    /// Nothing to merge.
    Empty,
    /// Part `part` (0-based, in the order given) is not part of the same hunt or search as
    /// part 0.
    OtherTarget {
        /// The part.
        part: usize,
    },
    /// Part `part` is not finished: a hunt that has not covered its range, a set search chunk
    /// with squares left.
    Incomplete {
        /// The part.
        part: usize,
    },
    /// A set search's chunk `index` of `count` is not among the parts.
    MissingChunk {
        /// The chunk.
        index: u32,
        /// The chunks of the search.
        count: u32,
    },
    /// A set search's chunk `index` of `count` is given twice.
    RepeatedChunk {
        /// The chunk.
        index: u32,
        /// The chunks of the search.
        count: u32,
    },
    /// Ranges that do not meet end to start once sorted: a gap or an overlap.
    NotAdjacent {
        /// Where one range ends.
        end: u128,
        /// Where the next one starts.
        next_start: u128,
    },
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Empty => f.write_str("nothing to merge"),
            MergeError::OtherTarget { part } => {
                write!(
                    f,
                    "part {} is not part of the same hunt or search as part 1 (another target, \
                     configuration or chunk count)",
                    part + 1
                )
            }
            MergeError::Incomplete { part } => write!(
                f,
                "part {} is not finished (resume it with the same command first)",
                part + 1
            ),
            MergeError::MissingChunk { index, count } => {
                write!(f, "chunk {index}/{count} is missing")
            }
            MergeError::RepeatedChunk { index, count } => {
                write!(f, "chunk {index}/{count} is given twice")
            }
            MergeError::NotAdjacent { end, next_start } if next_start > end => write!(
                f,
                "the candidates {end:#x}..{next_start:#x} are in no part (a chunk is missing)"
            ),
            MergeError::NotAdjacent { end, next_start } => write!(
                f,
                "two parts overlap from {next_start:#x} to {end:#x} (a chunk is given twice?)"
            ),
        }
    }
}

impl std::error::Error for MergeError {}

/// Reads a state file's lines: comments and blank lines skipped, `header` first, then each
/// line's words handed to `read`; errors name the line.
pub(crate) fn read_lines(
    text: &str,
    header: &str,
    what: &str,
    read: &mut dyn FnMut(&[&str]) -> Result<(), String>,
) -> Result<(), StateFileError> {
    let mut seen_header = false;
    for (number, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let fail = |message: String| StateFileError {
            line: number + 1,
            message,
        };
        if !seen_header {
            if line != header {
                return Err(fail(format!(
                    "expected '{header}' ({what}), found '{line}'"
                )));
            }
            seen_header = true;
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        read(&words).map_err(fail)?;
    }
    if !seen_header {
        return Err(StateFileError {
            line: 0,
            message: format!("no '{header}' line: not {what}"),
        });
    }
    Ok(())
}

pub(crate) fn number(text: &str) -> Result<u128, String> {
    text.strip_prefix("0x")
        .and_then(|hex| u128::from_str_radix(hex, 16).ok())
        .filter(|&n| n <= 1u128 << 64)
        .ok_or_else(|| format!("'{text}' is not a 0x-prefixed number up to 2^64"))
}

pub(crate) fn found(words: &[&str]) -> Result<Found, String> {
    let [magic, lowest, highest] = words else {
        return Err("expected a magic and its lowest and highest index".to_owned());
    };
    let magic = number(magic).and_then(|n| {
        u64::try_from(n).map_err(|_| format!("magic {n:#x} does not fit in 64 bits"))
    })?;
    let index = |text: &str| {
        text.parse::<usize>()
            .map_err(|_| format!("'{text}' is not an index"))
    };
    Ok(Found {
        magic,
        lowest: index(lowest)?,
        highest: index(highest)?,
    })
}

pub(crate) fn set_once<T>(slot: &mut Option<T>, value: T, key: &str) -> Result<(), String> {
    if slot.is_some() {
        return Err(format!("'{key}' is given twice"));
    }
    *slot = Some(value);
    Ok(())
}

/// Checks that `parts` are chunks of one range: the same target, each complete, their ranges
/// meeting end to start once sorted. Returns them sorted. `facts` gives a part's target, range
/// and whether it is complete.
pub(crate) fn tiling<P, T: PartialEq>(
    parts: &[P],
    facts: impl Fn(&P) -> (T, Range<u128>, bool),
) -> Result<Vec<&P>, MergeError> {
    let first = parts.first().ok_or(MergeError::Empty)?;
    let (target, _, _) = facts(first);
    if let Some(part) = parts.iter().position(|p| facts(p).0 != target) {
        return Err(MergeError::OtherTarget { part });
    }
    if let Some(part) = parts.iter().position(|p| !facts(p).2) {
        return Err(MergeError::Incomplete { part });
    }
    let mut sorted: Vec<&P> = parts.iter().collect();
    sorted.sort_by_key(|p| {
        let range = facts(p).1;
        (range.start, range.end)
    });
    for pair in sorted.windows(2) {
        let (end, next_start) = (facts(pair[0]).1.end, facts(pair[1]).1.start);
        if end != next_start {
            return Err(MergeError::NotAdjacent { end, next_start });
        }
    }
    Ok(sorted)
}
