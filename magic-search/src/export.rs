//! Writing a verified set and its attack table for other engines: Rust, C, JSON or binary.

use core::fmt;
use core::str::FromStr;
use std::fmt::Write as _;

use bitforge_index::AttackTable;
use bitforge_index::MagicSet;
use bitforge_index::SliderKind;
use bitforge_index::Syntax;
use bitforge_index::geometry::{relevant_mask, square_name};

/// An export format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A Rust module: `Magic` entries, the attack table as a `static`, and lookup functions.
    Rust,
    /// A C99 header with `static const` tables and `static inline` lookups.
    C,
    /// JSON, with 64-bit numbers as `"0x..."` strings (JSON numbers lose precision past 2^53).
    Json,
    /// Little-endian bytes behind a versioned header ([`crate::binary`]), for
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

/// Writes `set` with its verified `table` in `format`. `provenance` lines become comments (JSON
/// has no comments: they go into a `"provenance"` array; the binary format has no place for
/// them).
pub fn export(
    set: &MagicSet,
    table: &AttackTable,
    format: Format,
    provenance: &[String],
) -> Vec<u8> {
    match format {
        Format::Rust => rust(set, table, provenance).into_bytes(),
        Format::C => c(set, table, provenance).into_bytes(),
        Format::Json => json(set, table, provenance).into_bytes(),
        Format::Bin => bitforge_index::to_binary(set, table),
    }
}

fn rust(set: &MagicSet, table: &AttackTable, provenance: &[String]) -> String {
    let mut out = String::new();
    for line in provenance {
        let _ = writeln!(out, "// {line}");
    }
    let formula = set
        .scheme
        .index_source(Syntax::Rust, "occupancy", "mask", "magic", "shift");
    let index = set
        .scheme
        .index_source(Syntax::Rust, "occupancy", "m.mask", "m.magic", "m.shift");
    // A post-masked set's lookups AND the entry with the square's empty-board attacks.
    let (post_mask_field, post_mask_and, post_mask_rule) = if set.post_masked {
        (
            "\n    /// ANDed with the table entry: the square's empty-board attacks.\n    pub post_mask: u64,",
            " & m.post_mask",
            " Lookups AND the entry with `post_mask`.",
        )
    } else {
        ("", "", "")
    };
    let _ = write!(
        out,
        r#"// Scheme "{scheme}": slot = offset + {formula}.{post_mask_rule}

/// One square's magic lookup.
#[derive(Clone, Copy, Debug)]
pub struct Magic {{
    /// Relevant-occupancy mask.
    pub mask: u64,
    /// The magic multiplier.
    pub magic: u64,
    /// `64 - bits`.
    pub shift: u32,
    /// Where the square's slice of `SLIDER_ATTACKS` starts (index 0 lands here).
    pub offset: isize,{post_mask_field}
}}

/// The attacks of a slider with entry `m` for `occupancy`.
#[inline]
pub fn attacks(m: &Magic, occupancy: u64) -> u64 {{
    let index = {index} as isize;
    SLIDER_ATTACKS[(m.offset + index) as usize]{post_mask_and}
}}

/// Rook attacks from `square` (0 = a1 .. 63 = h8).
#[inline]
pub fn rook_attacks(square: usize, occupancy: u64) -> u64 {{
    attacks(&ROOK_MAGICS[square], occupancy)
}}

/// Bishop attacks from `square` (0 = a1 .. 63 = h8).
#[inline]
pub fn bishop_attacks(square: usize, occupancy: u64) -> u64 {{
    attacks(&BISHOP_MAGICS[square], occupancy)
}}
"#,
        scheme = set.scheme
    );
    for kind in SliderKind::ALL {
        let name = kind.name().to_uppercase();
        let _ = writeln!(
            out,
            "\n/// {kind} magics by square.\npub static {name}_MAGICS: [Magic; 64] = ["
        );
        for row in rows(set, kind) {
            let post_mask = if set.post_masked {
                format!(", post_mask: {:#018x}", row.post_mask)
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "    Magic {{ mask: {:#018x}, magic: {:#018x}, shift: {}, offset: {}{post_mask} }}, // {}",
                row.mask,
                row.magic,
                64 - row.bits,
                row.offset,
                row.square
            );
        }
        out.push_str("];\n");
    }
    let _ = writeln!(
        out,
        "\n/// Attack sets by slot; {} entries.",
        table.entries()
    );
    let _ = writeln!(
        out,
        "pub static SLIDER_ATTACKS: [u64; {}] = [",
        table.entries()
    );
    write_hex_list(&mut out, &table.attacks, "    ", "");
    out.push_str("];\n");
    out
}

fn c(set: &MagicSet, table: &AttackTable, provenance: &[String]) -> String {
    let mut out = String::new();
    for line in provenance {
        let _ = writeln!(out, "/* {} */", line.replace("*/", "* /"));
    }
    let (post_mask_field, post_mask_and, post_mask_rule) = if set.post_masked {
        (
            "\n    uint64_t post_mask;",
            " & m->post_mask",
            " Lookups AND the entry with post_mask.",
        )
    } else {
        ("", "", "")
    };
    let _ = write!(
        out,
        r#"#ifndef BITFORGE_MAGICS_H
#define BITFORGE_MAGICS_H
/* Scheme "{scheme}": slot = offset + {formula}.{post_mask_rule} */
#include <stddef.h>
#include <stdint.h>

typedef struct {{
    uint64_t mask;
    uint64_t magic;
    unsigned shift;
    ptrdiff_t offset;{post_mask_field}
}} bitforge_magic;

#define BITFORGE_SLIDER_ATTACKS_LEN {len}
"#,
        scheme = set.scheme,
        formula = set
            .scheme
            .index_source(Syntax::C, "occupancy", "mask", "magic", "shift"),
        len = table.entries()
    );
    for kind in SliderKind::ALL {
        let _ = writeln!(
            out,
            "\nstatic const bitforge_magic bitforge_{}_magics[64] = {{",
            kind.name()
        );
        for row in rows(set, kind) {
            let post_mask = if set.post_masked {
                format!(", {:#018x}ULL", row.post_mask)
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "    {{ {:#018x}ULL, {:#018x}ULL, {}, {}{post_mask} }}, /* {} */",
                row.mask,
                row.magic,
                64 - row.bits,
                row.offset,
                row.square
            );
        }
        out.push_str("};\n");
    }
    out.push_str(
        "\nstatic const uint64_t bitforge_slider_attacks[BITFORGE_SLIDER_ATTACKS_LEN] = {\n",
    );
    write_hex_list(&mut out, &table.attacks, "    ", "ULL");
    let _ = write!(
        out,
        r#"}};

static inline uint64_t bitforge_attacks(const bitforge_magic *m, uint64_t occupancy) {{
    return bitforge_slider_attacks[m->offset + (ptrdiff_t){index}]{post_mask_and};
}}

static inline uint64_t bitforge_rook_attacks(unsigned square, uint64_t occupancy) {{
    return bitforge_attacks(&bitforge_rook_magics[square], occupancy);
}}

static inline uint64_t bitforge_bishop_attacks(unsigned square, uint64_t occupancy) {{
    return bitforge_attacks(&bitforge_bishop_magics[square], occupancy);
}}

#endif
"#,
        index = set
            .scheme
            .index_source(Syntax::C, "occupancy", "m->mask", "m->magic", "m->shift"),
    );
    out
}

fn json(set: &MagicSet, table: &AttackTable, provenance: &[String]) -> String {
    let mut out = String::from("{\n  \"format\": \"bitforge-magics\",\n  \"version\": 1,\n");
    let quoted: Vec<String> = provenance.iter().map(|line| json_string(line)).collect();
    let _ = writeln!(out, "  \"provenance\": [{}],", quoted.join(", "));
    let _ = writeln!(out, "  \"scheme\": \"{}\",", set.scheme);
    let _ = writeln!(out, "  \"post_masked\": {},", set.post_masked);
    for kind in SliderKind::ALL {
        let _ = writeln!(out, "  \"{}\": [", kind.name());
        let entries: Vec<String> = rows(set, kind)
            .map(|row| {
                format!(
                    "    {{\"square\": \"{}\", \"mask\": \"{:#018x}\", \"magic\": \"{:#018x}\", \"bits\": {}, \"offset\": {}, \"post_mask\": \"{:#018x}\"}}",
                    row.square, row.mask, row.magic, row.bits, row.offset, row.post_mask
                )
            })
            .collect();
        let _ = writeln!(out, "{}\n  ],", entries.join(",\n"));
    }
    out.push_str("  \"attacks\": [\n");
    let hex: Vec<String> = table
        .attacks
        .iter()
        .map(|a| format!("\"{a:#018x}\""))
        .collect();
    for (i, chunk) in hex.chunks(4).enumerate() {
        let separator = if (i + 1) * 4 < hex.len() { "," } else { "" };
        let _ = writeln!(out, "    {}{separator}", chunk.join(", "));
    }
    out.push_str("  ]\n}\n");
    out
}

fn json_string(text: &str) -> String {
    let mut quoted = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(quoted, "\\u{:04x}", c as u32);
            }
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// Four numbers a line, each `0x`-prefixed and followed by `suffix` and a comma.
fn write_hex_list(out: &mut String, values: &[u64], indent: &str, suffix: &str) {
    for chunk in values.chunks(4) {
        out.push_str(indent);
        let cells: Vec<String> = chunk
            .iter()
            .map(|v| format!("{v:#018x}{suffix},"))
            .collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
}
