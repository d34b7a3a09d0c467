//! The Rust export: a module with the entries, the table and lookups (name it with `mod`).

use std::fmt::Write as _;

use bitforge_index::{AttackTable, MagicSet, SliderKind, Syntax};

use super::{ExportOptions, bits, comment_lines, offset_32, rows, write_hex_list};

/// A magic set's module.
pub(super) fn magics(set: &MagicSet, table: &AttackTable, options: &ExportOptions) -> String {
    let mut out = String::new();
    for line in comment_lines(options) {
        let _ = writeln!(out, "// {line}");
    }
    let formula = set
        .scheme
        .index_source(Syntax::Rust, "occupancy", "mask", "magic", "shift");
    let index = set
        .scheme
        .index_source(Syntax::Rust, "occupancy", "m.mask", "m.magic", "m.shift");
    let post_mask_and = if set.post_masked {
        " & m.post_mask"
    } else {
        ""
    };
    let ((rook_bits, rook_most), (bishop_bits, bishop_most)) =
        (bits(set, SliderKind::Rook), bits(set, SliderKind::Bishop));
    let _ = write!(
        out,
        r#"// slot = offset + {formula}; the attacks are the slot ANDed with post_mask.

/// The index scheme: "fancy", "fixed" or "black".
pub const SCHEME: &str = "{scheme}";
/// Whether the table is combined: a slot is right only ANDed with its square's `post_mask`.
pub const POST_MASKED: bool = {post_masked};
/// Index bits of every rook square, 0 if they vary by square.
pub const ROOK_BITS: u32 = {rook_bits};
/// Index bits of every bishop square, 0 if they vary by square.
pub const BISHOP_BITS: u32 = {bishop_bits};
/// The most index bits of any rook square.
pub const ROOK_MAX_BITS: u32 = {rook_most};
/// The most index bits of any bishop square.
pub const BISHOP_MAX_BITS: u32 = {bishop_most};
/// Slots in `SLIDER_ATTACKS`.
pub const SLIDER_ATTACKS_LEN: usize = {len};

/// One square's magic lookup, the same struct in every export: 32 bytes, aligned so that no
/// entry straddles a cache line.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
pub struct Magic {{
    /// Relevant-occupancy mask.
    pub mask: u64,
    /// The magic multiplier.
    pub magic: u64,
    /// ANDed with the slot: the empty-board attacks in a post-masked set, all ones otherwise.
    pub post_mask: u64,
    /// Where the square's slice of `SLIDER_ATTACKS` starts (index 0 lands here).
    pub offset: i32,
    /// `64 - bits`.
    pub shift: u32,
}}

/// A table aligned to a cache line.
#[repr(C, align(64))]
pub struct Aligned<T>(pub T);

/// The attacks of a slider with entry `m` for `occupancy`.
#[inline]
pub fn attacks(m: &Magic, occupancy: u64) -> u64 {{
    let index = {index} as isize;
    SLIDER_ATTACKS.0[(m.offset as isize + index) as usize]{post_mask_and}
}}

/// Rook attacks from `square` (0 = a1 .. 63 = h8).
#[inline]
pub fn rook_attacks(square: usize, occupancy: u64) -> u64 {{
    attacks(&ROOK_MAGICS.0[square], occupancy)
}}

/// Bishop attacks from `square` (0 = a1 .. 63 = h8).
#[inline]
pub fn bishop_attacks(square: usize, occupancy: u64) -> u64 {{
    attacks(&BISHOP_MAGICS.0[square], occupancy)
}}
"#,
        scheme = set.scheme,
        post_masked = set.post_masked,
        len = table.entries(),
    );
    for kind in SliderKind::ALL {
        let name = kind.name().to_uppercase();
        let _ = writeln!(
            out,
            "\n/// {kind} magics by square.\npub static {name}_MAGICS: Aligned<[Magic; 64]> = Aligned(["
        );
        for row in rows(set, kind) {
            let _ = writeln!(
                out,
                "    Magic {{ mask: {:#018x}, magic: {:#018x}, post_mask: {:#018x}, offset: {}, shift: {} }}, // {}",
                row.mask,
                row.magic,
                row.post_mask,
                offset_32(row.offset),
                64 - row.bits,
                row.square
            );
        }
        out.push_str("]);\n");
    }
    let _ = writeln!(
        out,
        "\n/// Attack sets by slot.\npub static SLIDER_ATTACKS: Aligned<[u64; SLIDER_ATTACKS_LEN]> = Aligned(["
    );
    write_hex_list(&mut out, &table.attacks, 4, 16, "");
    out.push_str("]);\n");
    out
}
