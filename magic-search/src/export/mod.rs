//! Writing a verified set and its attack table for other engines (Rust, C, JSON or binary),
//! and the dense PEXT tables for C and JSON.

use core::fmt;
use core::str::FromStr;

use bitforge_index::geometry::{relevant_mask, square_name};
use bitforge_index::{AttackTable, MagicSet, PextTables, SliderKind};

mod c;
mod json;
mod rust;

/// An export format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A Rust module: `Magic` entries, the attack table as a `static`, and lookup functions.
    Rust,
    /// A C header (C99 or later, or C++): declarations and `static inline` lookups, with the
    /// tables defined in the one file that defines `PREFIX_IMPLEMENTATION`.
    C,
    /// JSON, with 64-bit numbers as `"0x..."` strings (JSON numbers lose precision past 2^53).
    Json,
    /// Little-endian bytes behind a versioned header (`bitforge_index::to_binary`), for
    /// `include_bytes!` or `mmap`.
    Bin,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 4] = [Format::Rust, Format::C, Format::Json, Format::Bin];

    /// The name used on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Rust => "rust",
            Format::C => "c",
            Format::Json => "json",
            Format::Bin => "bin",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        Format::ALL
            .into_iter()
            .find(|format| format.name() == text)
            .ok_or_else(|| format!("unknown format '{text}' (expected rust, c, json or bin)"))
    }
}

/// What starts every identifier of a C export (`PREFIX_magic`, `prefix_rook_attacks`, ...) and,
/// in capitals, its macros and include guard: two exports with different prefixes live in one
/// program. Lowercase ASCII letters, digits and underscores, starting with a letter (so that the
/// capitals of two prefixes differ too), at most 32 characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prefix(String);

impl Prefix {
    /// The prefix of a magic set's export when none is given.
    pub const DEFAULT: &'static str = "bitforge";

    /// The prefix of the PEXT tables' export when none is given (so that it and a magic set's
    /// export with the default prefix live in one program).
    pub const DEFAULT_PEXT: &'static str = "bitforge_pext";

    /// The prefix as written in identifiers.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The prefix in capitals, for macros.
    pub fn upper(&self) -> String {
        self.0.to_ascii_uppercase()
    }
}

impl Default for Prefix {
    fn default() -> Self {
        Prefix(Prefix::DEFAULT.to_owned())
    }
}

impl FromStr for Prefix {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let well_formed = text.len() <= 32
            && text.starts_with(|c: char| c.is_ascii_lowercase())
            && text
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if well_formed {
            Ok(Prefix(text.to_owned()))
        } else {
            Err(format!(
                "'{text}' is not a prefix: lowercase letters, digits and '_', starting with a \
                 letter, at most 32 characters"
            ))
        }
    }
}

impl fmt::Display for Prefix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// How an export is written beyond its format.
#[derive(Clone, Debug, Default)]
pub struct ExportOptions {
    /// Lines written first, as comments (JSON has no comments: they go into a `"provenance"`
    /// array; the binary format has no place for them).
    pub provenance: Vec<String>,
    /// The C export's prefix; the other formats have no global names (a Rust export is a
    /// module the user names).
    pub prefix: Prefix,
}

/// Writes `set` with its verified `table` in `format`.
pub fn export(
    set: &MagicSet,
    table: &AttackTable,
    format: Format,
    options: &ExportOptions,
) -> Vec<u8> {
    match format {
        Format::Rust => rust::magics(set, table, options).into_bytes(),
        Format::C => c::magics(set, table, options).into_bytes(),
        Format::Json => json::magics(set, table, options).into_bytes(),
        Format::Bin => bitforge_index::to_binary(set, table),
    }
}

/// Writes the dense PEXT tables (`bitforge_index::PextTables`: the `u64` table and the `u16`
/// one for `PDEP`) in `format`, or says why that format has no PEXT export.
pub fn export_pext(format: Format, options: &ExportOptions) -> Result<Vec<u8>, String> {
    let tables = PextTables::build();
    match format {
        Format::C => Ok(c::pext(&tables, options).into_bytes()),
        Format::Json => Ok(json::pext(&tables, options).into_bytes()),
        Format::Rust => Err(
            "Rust engines embed the PEXT tables with bitforge_macros::pext_tables! (no export \
             needed)"
                .into(),
        ),
        Format::Bin => Err("the binary format holds magic sets only; use c or json".into()),
    }
}

/// One square's row, as every format writes it.
struct Row {
    square: &'static str,
    mask: u64,
    magic: u64,
    bits: u8,
    offset: i64,
    post_mask: u64,
}

fn rows(set: &MagicSet, kind: SliderKind) -> impl Iterator<Item = Row> + '_ {
    set.entries(kind)
        .iter()
        .enumerate()
        .map(move |(square, entry)| Row {
            square: square_name(square as u8),
            mask: relevant_mask(kind, square as u8),
            magic: entry.magic,
            bits: entry.bits,
            offset: entry.offset,
            post_mask: set.post_mask(kind, square as u8),
        })
}

/// The index bits of every square of `kind` if they are the same, else 0; and the most bits of
/// any square: what the C and Rust exports state as constants.
fn bits(set: &MagicSet, kind: SliderKind) -> (u8, u8) {
    let entries = set.entries(kind);
    let most = entries.iter().map(|entry| entry.bits).max().unwrap_or(0);
    let uniform = entries.iter().all(|entry| entry.bits == most);
    (if uniform { most } else { 0 }, most)
}

/// `options`' provenance lines with control characters (a newline in a file name) made spaces,
/// so that each stays one comment line.
fn comment_lines(options: &ExportOptions) -> impl Iterator<Item = String> + '_ {
    options.provenance.iter().map(|line| {
        line.chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect()
    })
}

/// A verified set's offsets lie within the table or at most one slice before it
/// (`bitforge_index::MAX_TABLE_ENTRIES` is far below 2^31): the 32-bit field of the C and Rust
/// entries holds them.
fn offset_32(offset: i64) -> i32 {
    i32::try_from(offset).expect("a verified set's offsets fit in 32 bits")
}

/// Numbers `per_line` a line as `0x`-prefixed hex of `digits` digits, each followed by
/// `suffix` and a comma.
fn write_hex_list<T: Copy + Into<u64>>(
    out: &mut String,
    values: &[T],
    per_line: usize,
    digits: usize,
    suffix: &str,
) {
    for chunk in values.chunks(per_line) {
        out.push_str("    ");
        let cells: Vec<String> = chunk
            .iter()
            .map(|&v| format!("{:#0width$x}{suffix},", v.into(), width = digits + 2))
            .collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
}
