//! The JSON exports, with 64-bit numbers as `"0x..."` strings.

use std::fmt::Write as _;

use bitforge_index::geometry::square_name;
use bitforge_index::{AttackTable, MagicSet, PextTables, SliderKind};

use super::{ExportOptions, rows};

/// The document's first fields: its format, version and provenance.
fn opening(format: &str, options: &ExportOptions) -> String {
    let mut out = format!("{{\n  \"format\": \"{format}\",\n  \"version\": 1,\n");
    let quoted: Vec<String> = options
        .provenance
        .iter()
        .map(|line| json_string(line))
        .collect();
    let _ = writeln!(out, "  \"provenance\": [{}],", quoted.join(", "));
    out
}

/// A magic set.
pub(super) fn magics(set: &MagicSet, table: &AttackTable, options: &ExportOptions) -> String {
    let mut out = opening("bitforge-magics", options);
    let _ = writeln!(out, "  \"scheme\": \"{}\",", set.scheme);
    let _ = writeln!(out, "  \"post_masked\": {},", set.post_masked);
    for kind in SliderKind::ALL {
        let entries: Vec<String> = rows(set, kind)
            .map(|row| {
                format!(
                    "{{\"square\": \"{}\", \"mask\": \"{:#018x}\", \"magic\": \"{:#018x}\", \"bits\": {}, \"offset\": {}, \"post_mask\": \"{:#018x}\"}}",
                    row.square, row.mask, row.magic, row.bits, row.offset, row.post_mask
                )
            })
            .collect();
        write_array(&mut out, kind.name(), &entries, 1, ",");
    }
    let hex: Vec<String> = table
        .attacks
        .iter()
        .map(|a| format!("\"{a:#018x}\""))
        .collect();
    write_array(&mut out, "attacks", &hex, 4, "");
    out.push_str("}\n");
    out
}

/// The dense PEXT tables.
pub(super) fn pext(tables: &PextTables, options: &ExportOptions) -> String {
    let mut out = opening("bitforge-pext", options);
    for (kind, entries) in SliderKind::ALL.into_iter().zip(tables.entries.chunks(64)) {
        let entries: Vec<String> = (0..64u8)
            .zip(entries)
            .map(|(square, entry)| {
                format!(
                    "{{\"square\": \"{}\", \"mask\": \"{:#018x}\", \"rays\": \"{:#018x}\", \"offset\": {}}}",
                    square_name(square),
                    entry.mask,
                    entry.rays,
                    entry.offset
                )
            })
            .collect();
        write_array(&mut out, kind.name(), &entries, 1, ",");
    }
    let hex: Vec<String> = tables
        .attacks
        .iter()
        .map(|a| format!("\"{a:#018x}\""))
        .collect();
    write_array(&mut out, "attacks", &hex, 4, ",");
    let numbers: Vec<String> = tables.compressed.iter().map(u16::to_string).collect();
    write_array(&mut out, "compressed", &numbers, 16, "");
    out.push_str("}\n");
    out
}

/// `"name": [` then the items, `per_line` a line, then `]` and `after`.
fn write_array(out: &mut String, name: &str, items: &[String], per_line: usize, after: &str) {
    let _ = writeln!(out, "  \"{name}\": [");
    let lines: Vec<String> = items
        .chunks(per_line)
        .map(|chunk| format!("    {}", chunk.join(", ")))
        .collect();
    let _ = writeln!(out, "{}\n  ]{after}", lines.join(",\n"));
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
