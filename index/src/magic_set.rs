//! A full set of magics (rook and bishop on all 64 squares) and its text file format.
//!
//! # The `.magics` format, version 1
//!
//! Plain text, one record a line. `#` starts a comment that runs to the end of the line; blank
//! lines are ignored. The first record is the header `bitforge-magics 1`, the second names the
//! scheme (`scheme fancy`, `scheme fixed` or `scheme black`), and then come exactly 128 entries,
//! one per slider kind and square, in any order:
//!
//! ```text
//! # piece  square  magic               bits  offset
//! rook     a1      0x8a80104000800020  12    0
//! ```
//!
//! The magic is hexadecimal with a `0x` prefix. `bits` is the index width (the shift is
//! `64 - bits`), and `offset` is where the square's slice starts in the one attack table that
//! every square shares: slot = offset + index. Offsets may be negative when a square never uses
//! its lowest indices (packed tables); they are signed decimal.
//!
//! A set whose lookups mask what they read has the line `post-mask yes` right after the scheme:
//! a lookup returns `table[slot] & empty_board_attacks(square)`, so a slot may hold the union
//! of what several squares need there, as long as each square's mask recovers its own attacks
//! (a rook's and a bishop's slice on the same square never disagree: their rays are disjoint).
//! Without the line (or with `post-mask no`) a lookup returns `table[slot]` as it is.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use core::fmt::Write as _;

use crate::SliderKind;
use crate::geometry::{parse_square, ray_attacks, relevant_mask, square_name};
use crate::scheme::Scheme;

/// The header every version-1 file starts with.
pub const HEADER: &str = "bitforge-magics 1";

/// The largest index width a file may ask for: 2^22 slots for one square is already far beyond
/// any useful table.
pub const MAX_BITS: u8 = 22;

/// One square's magic: the multiplier, the index width and where its slice starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Entry {
    /// The magic multiplier.
    pub magic: u64,
    /// Index bits; the shift is `64 - bits`.
    pub bits: u8,
    /// The slot of index 0 in the shared attack table (may be negative, see the module docs).
    pub offset: i64,
}

impl Entry {
    /// The table slot that `occupancy` selects through this entry, `mask` being its square's
    /// relevant mask (for a caller that computes it once per square).
    #[inline]
    pub fn slot(&self, scheme: Scheme, mask: u64, occupancy: u64) -> i64 {
        self.offset + scheme.index(occupancy, mask, self.magic, self.bits) as i64
    }
}

/// A complete magic set: a scheme and one entry per slider kind and square.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MagicSet {
    /// The index formula.
    pub scheme: Scheme,
    /// Rook entries by square.
    pub rook: [Entry; 64],
    /// Bishop entries by square.
    pub bishop: [Entry; 64],
    /// Whether a lookup ANDs what it reads with the square's empty-board attacks
    /// ([`post_mask`](Self::post_mask)), which lets slices share slots whose attack sets differ
    /// outside each other's rays: one combined table for both pieces.
    pub post_masked: bool,
}

impl MagicSet {
    /// A set whose offsets lay the squares' slices end to end (rook a1 .. h8, then bishop a1 ..
    /// h8), each `2^bits` slots long.
    pub fn with_dense_offsets(
        scheme: Scheme,
        rook: [(u64, u8); 64],
        bishop: [(u64, u8); 64],
    ) -> Self {
        let mut next = 0i64;
        let mut lay_out = |pairs: [(u64, u8); 64]| {
            pairs.map(|(magic, bits)| {
                let offset = next;
                next += 1i64 << bits;
                Entry {
                    magic,
                    bits,
                    offset,
                }
            })
        };
        let rook = lay_out(rook);
        let bishop = lay_out(bishop);
        MagicSet {
            scheme,
            rook,
            bishop,
            post_masked: false,
        }
    }

    /// What a lookup for `kind` on `square` ANDs with the table entry: the empty-board attacks
    /// in a post-masked set, every square otherwise.
    pub fn post_mask(&self, kind: SliderKind, square: u8) -> u64 {
        if self.post_masked {
            ray_attacks(kind, square, 0)
        } else {
            u64::MAX
        }
    }

    /// The entries of one slider kind.
    pub fn entries(&self, kind: SliderKind) -> &[Entry; 64] {
        match kind {
            SliderKind::Rook => &self.rook,
            SliderKind::Bishop => &self.bishop,
        }
    }

    /// The entries of one slider kind, to change.
    pub fn entries_mut(&mut self, kind: SliderKind) -> &mut [Entry; 64] {
        match kind {
            SliderKind::Rook => &mut self.rook,
            SliderKind::Bishop => &mut self.bishop,
        }
    }

    /// The table slot that `occupancy` selects for a slider of `kind` on `square`.
    ///
    /// For a set that [`verify`](crate::verify()) accepted this is always inside the table.
    #[inline]
    pub fn slot(&self, kind: SliderKind, square: u8, occupancy: u64) -> i64 {
        let entry = self.entries(kind)[square as usize];
        entry.slot(self.scheme, relevant_mask(kind, square), occupancy)
    }

    /// Writes the set in the `.magics` format, with each line of `comments` as a leading `#`
    /// comment (the command that produced it, for instance).
    pub fn to_text(&self, comments: &[String]) -> String {
        let mut text = String::new();
        for comment in comments {
            for line in comment.lines() {
                let _ = writeln!(text, "# {line}");
            }
        }
        let _ = writeln!(text, "{HEADER}");
        let _ = writeln!(text, "scheme {}", self.scheme);
        if self.post_masked {
            let _ = writeln!(text, "post-mask yes");
        }
        let _ = writeln!(text, "# piece  square  magic               bits  offset");
        for kind in SliderKind::ALL {
            for (square, entry) in self.entries(kind).iter().enumerate() {
                let _ = writeln!(
                    text,
                    "{:<8} {:<7} {:#018x}  {:<5} {}",
                    kind.name(),
                    square_name(square as u8),
                    entry.magic,
                    entry.bits,
                    entry.offset
                );
            }
        }
        text
    }

    /// Reads a set in the `.magics` format.
    ///
    /// ```
    /// let text = "bitforge-magics 1\nscheme fancy\nrook a1 0x1 12 0\n";
    /// let error = bitforge_index::MagicSet::parse(text).unwrap_err();
    /// assert_eq!(error.to_string(), "rook b1: no entry (every square of both pieces needs one)");
    /// ```
    pub fn parse(text: &str) -> Result<Self, ParseError> {
        let mut records = text.lines().enumerate().filter_map(|(index, raw)| {
            let content = raw.split('#').next().unwrap_or_default().trim();
            (!content.is_empty()).then_some((index + 1, content))
        });

        match records.next() {
            Some((_, HEADER)) => {}
            Some((line, content)) if content.starts_with("bitforge-magics") => {
                return Err(ParseError::at(
                    line,
                    format!("unsupported format '{content}' (this tool reads '{HEADER}')"),
                ));
            }
            Some((line, _)) => {
                return Err(ParseError::at(
                    line,
                    format!("expected the header '{HEADER}'"),
                ));
            }
            None => {
                return Err(ParseError::whole(
                    "the file is empty (expected the header)".into(),
                ));
            }
        }

        let scheme = match records.next() {
            Some((line, content)) => match content.split_whitespace().collect::<Vec<_>>()[..] {
                ["scheme", name] => name
                    .parse::<Scheme>()
                    .map_err(|error| ParseError::at(line, error.to_string()))?,
                _ => return Err(ParseError::at(line, "expected 'scheme NAME'".into())),
            },
            None => {
                return Err(ParseError::whole(
                    "no 'scheme NAME' line after the header".into(),
                ));
            }
        };

        let mut records = records.peekable();
        let post_masked = match records.peek() {
            Some(&(line, content)) if content.starts_with("post-mask") => {
                records.next();
                match content.split_whitespace().collect::<Vec<_>>()[..] {
                    ["post-mask", "yes"] => true,
                    ["post-mask", "no"] => false,
                    _ => {
                        return Err(ParseError::at(
                            line,
                            format!(
                                "expected 'post-mask yes' or 'post-mask no', found '{content}'"
                            ),
                        ));
                    }
                }
            }
            _ => false,
        };

        let mut seen: [[Option<usize>; 64]; 2] = [[None; 64]; 2];
        let mut set = MagicSet {
            scheme,
            rook: [Entry::default(); 64],
            bishop: [Entry::default(); 64],
            post_masked,
        };
        for (line, content) in records {
            let (kind, square, entry) = parse_entry(line, content, scheme)?;
            let first = &mut seen[kind as usize][square as usize];
            if let Some(first_line) = *first {
                return Err(ParseError::at(
                    line,
                    format!(
                        "{kind} {}: a second entry (the first is on line {first_line})",
                        square_name(square)
                    ),
                ));
            }
            *first = Some(line);
            set.entries_mut(kind)[square as usize] = entry;
        }
        for kind in SliderKind::ALL {
            if let Some(square) = seen[kind as usize].iter().position(Option::is_none) {
                return Err(ParseError::whole(format!(
                    "{kind} {}: no entry (every square of both pieces needs one)",
                    square_name(square as u8)
                )));
            }
        }
        Ok(set)
    }
}

fn parse_entry(
    line: usize,
    content: &str,
    scheme: Scheme,
) -> Result<(SliderKind, u8, Entry), ParseError> {
    let fields: Vec<&str> = content.split_whitespace().collect();
    let [piece, square, magic, bits, offset] = fields[..] else {
        return Err(ParseError::at(
            line,
            format!(
                "expected 'PIECE SQUARE MAGIC BITS OFFSET', found {} field(s)",
                fields.len()
            ),
        ));
    };
    let kind = match piece {
        "rook" => SliderKind::Rook,
        "bishop" => SliderKind::Bishop,
        _ => {
            return Err(ParseError::at(
                line,
                format!("unknown piece '{piece}' (expected rook or bishop)"),
            ));
        }
    };
    let square = parse_square(square)
        .ok_or_else(|| ParseError::at(line, format!("'{square}' is not a square (a1 to h8)")))?;
    let name = square_name(square);
    let magic = magic
        .strip_prefix("0x")
        .and_then(|hex| u64::from_str_radix(hex, 16).ok())
        .ok_or_else(|| {
            ParseError::at(
                line,
                format!("{kind} {name}: magic '{magic}' is not a 0x-prefixed 64-bit hex number"),
            )
        })?;
    let bits = bits
        .parse::<u8>()
        .ok()
        .filter(|bits| (1..=MAX_BITS).contains(bits))
        .ok_or_else(|| {
            ParseError::at(
                line,
                format!("{kind} {name}: bits '{bits}' is not a number from 1 to {MAX_BITS}"),
            )
        })?;
    if let Some(fixed) = scheme.fixed_bits(kind)
        && bits != fixed
    {
        return Err(ParseError::at(
            line,
            format!(
                "{kind} {name}: the {scheme} scheme uses {fixed} bits for every {kind}, not {bits}"
            ),
        ));
    }
    let mask_bits = relevant_mask(kind, square).count_ones() as u8;
    if scheme == Scheme::Fancy && bits > mask_bits {
        return Err(ParseError::at(
            line,
            format!(
                "{kind} {name}: {bits} bits is more than the mask's {mask_bits}: the table would have empty slots"
            ),
        ));
    }
    let offset = offset
        .parse::<i64>()
        .ok()
        .filter(|offset| offset.unsigned_abs() < 1 << 40)
        .ok_or_else(|| {
            ParseError::at(
                line,
                format!("{kind} {name}: offset '{offset}' is not a whole number"),
            )
        })?;
    Ok((
        kind,
        square,
        Entry {
            magic,
            bits,
            offset,
        },
    ))
}

/// A `.magics` file that could not be read, with the line it went wrong on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The 1-based line, or `None` for a problem with the file as a whole.
    pub line: Option<usize>,
    /// What is wrong, naming the piece and square where there is one.
    pub message: String,
}

impl ParseError {
    fn at(line: usize, message: String) -> Self {
        ParseError {
            line: Some(line),
            message,
        }
    }

    fn whole(message: String) -> Self {
        ParseError {
            line: None,
            message,
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl core::error::Error for ParseError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> MagicSet {
        let rook = core::array::from_fn(|sq| (0x1000 + sq as u64, 12));
        let bishop = core::array::from_fn(|sq| (0x2000 + sq as u64, 9));
        MagicSet::with_dense_offsets(Scheme::Fixed, rook, bishop)
    }

    #[test]
    fn text_round_trips() {
        let set = sample();
        let text = set.to_text(&["made by a test".into()]);
        assert!(text.starts_with("# made by a test\nbitforge-magics 1\nscheme fixed\n"));
        assert_eq!(MagicSet::parse(&text).unwrap(), set);
    }

    #[test]
    fn the_post_mask_line_round_trips_and_is_checked() {
        let mut set = sample();
        set.post_masked = true;
        let text = set.to_text(&[]);
        assert!(text.starts_with("bitforge-magics 1\nscheme fixed\npost-mask yes\n"));
        assert_eq!(MagicSet::parse(&text).unwrap(), set);
        assert_eq!(set.post_mask(SliderKind::Bishop, 0), 0x8040_2010_0804_0200);
        assert_eq!(sample().post_mask(SliderKind::Bishop, 0), u64::MAX);
        let plain = text.replace("post-mask yes", "post-mask no");
        assert_eq!(MagicSet::parse(&plain).unwrap(), sample());
        assert_eq!(
            MagicSet::parse(&text.replace("post-mask yes", "post-mask maybe"))
                .unwrap_err()
                .to_string(),
            "line 3: expected 'post-mask yes' or 'post-mask no', found 'post-mask maybe'"
        );
    }

    #[test]
    fn dense_offsets_follow_the_bits() {
        let set = sample();
        assert_eq!(set.rook[1].offset, 4096);
        assert_eq!(set.bishop[0].offset, 64 * 4096);
    }

    fn error_of(edit: impl Fn(&str) -> String) -> String {
        let text = edit(&sample().to_text(&[]));
        MagicSet::parse(&text).unwrap_err().to_string()
    }

    #[test]
    fn errors_name_the_line_and_square() {
        assert_eq!(
            error_of(|t| t.replace("bitforge-magics 1", "bitforge-magics 2")),
            "line 1: unsupported format 'bitforge-magics 2' (this tool reads 'bitforge-magics 1')"
        );
        assert_eq!(
            error_of(|t| t.replace("scheme fixed", "scheme white")),
            "line 2: unknown scheme 'white' (expected fancy, fixed or black)"
        );
        assert_eq!(
            error_of(|t| t.replace("rook     c1      0x0000000000001002", "rook c1 0x12g4")),
            "line 6: rook c1: magic '0x12g4' is not a 0x-prefixed 64-bit hex number"
        );
        assert_eq!(
            error_of(|t| t.replace(
                "bishop   h8      0x000000000000203f  9 ",
                "bishop h8 0x1 10"
            )),
            "line 131: bishop h8: the fixed scheme uses 9 bits for every bishop, not 10"
        );
        assert_eq!(
            error_of(|t| t.replace("rook     b1 ", "rook     a1 ")),
            "line 5: rook a1: a second entry (the first is on line 4)"
        );
        assert_eq!(
            error_of(|t| t.replace("bishop   e5 ", "queen   e5 ")),
            "line 104: unknown piece 'queen' (expected rook or bishop)"
        );
        assert_eq!(
            error_of(|t| t.replace(
                "rook     d4      0x000000000000101b  12    110592",
                "rook d4"
            )),
            "line 31: expected 'PIECE SQUARE MAGIC BITS OFFSET', found 2 field(s)"
        );
        assert_eq!(
            error_of(|_| String::new()),
            "the file is empty (expected the header)"
        );
        assert_eq!(
            error_of(|t| t.replace("rook     a1 ", "rook     z9 ")),
            "line 4: 'z9' is not a square (a1 to h8)"
        );
    }

    #[test]
    fn comments_and_blank_lines_are_ignored() {
        let text = sample()
            .to_text(&[])
            .replace("scheme fixed", "\n  scheme fixed   # fixed shift\n");
        assert_eq!(MagicSet::parse(&text).unwrap(), sample());
    }
}
