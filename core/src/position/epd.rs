//! Perft test vectors in the EPD format engines share: a FEN, then `;Dn count` fields giving
//! the leaf count at depth `n`.

use core::fmt;

/// One line of a perft suite: the position and its published counts.
///
/// Hidden from the documentation: a reader for bitforge's own perft suites, shared by its
/// tests, benchmarks and perft command, not part of the API an engine builds on.
///
/// ```
/// use bitforge::position::PerftLine;
///
/// let line = PerftLine::parse("4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66")?;
/// assert_eq!(line.fen, "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
/// assert_eq!(line.counts().collect::<Vec<_>>(), [(1, 15), (2, 66)]);
/// assert!(PerftLine::parse("8/8/8/8/8/8/8/8 w - - ;D1 x").is_err());
/// # Ok::<(), bitforge::position::EpdError>(())
/// ```
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerftLine<'a> {
    /// The position, as written.
    pub fen: &'a str,
    fields: &'a str,
}

/// A perft line that could not be read (see [`PerftLine`]: hidden likewise).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EpdError {
    /// No `;` field follows the FEN.
    NoCounts,
    /// A field is not `Dn count` with a depth from 1 to 64 and a number.
    BadField,
}

impl fmt::Display for EpdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EpdError::NoCounts => f.write_str("no ;Dn count fields after the FEN"),
            EpdError::BadField => {
                f.write_str("a field is not ;Dn count (depth 1 to 64, then the node count)")
            }
        }
    }
}

impl core::error::Error for EpdError {}

/// One `Dn count` field.
fn parse_field(field: &str) -> Option<(u32, u64)> {
    let (depth, count) = field
        .trim()
        .strip_prefix('D')?
        .split_once(char::is_whitespace)?;
    let depth = depth
        .parse()
        .ok()
        .filter(|depth| (1..=64).contains(depth))?;
    Some((depth, count.trim().parse().ok()?))
}

impl<'a> PerftLine<'a> {
    /// Reads a line; every count field is checked here, so [`counts`](Self::counts) cannot
    /// fail later.
    pub fn parse(line: &'a str) -> Result<PerftLine<'a>, EpdError> {
        let (fen, fields) = line.split_once(';').ok_or(EpdError::NoCounts)?;
        if fields.split(';').any(|field| parse_field(field).is_none()) {
            return Err(EpdError::BadField);
        }
        Ok(PerftLine {
            fen: fen.trim(),
            fields,
        })
    }

    /// The `(depth, nodes)` pairs, in the order written.
    pub fn counts(&self) -> impl Iterator<Item = (u32, u64)> + 'a {
        self.fields.split(';').filter_map(parse_field)
    }
}
