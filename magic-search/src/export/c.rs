//! The C exports: a header of declarations and `static inline` lookups, whose tables are
//! defined in the one source file that defines `PREFIX_IMPLEMENTATION` before including it.
//! Every identifier carries the prefix; the code is C99 and C++ alike (no C-style casts).

use std::fmt::Write as _;

use bitforge_index::{AttackTable, MagicSet, PextTables, SliderKind, Syntax};

use super::{ExportOptions, bits, comment_lines, offset_32, rows, write_hex_list};

/// An identity of what a header holds (FNV-1a of `content`, 31 bits so that any preprocessor
/// compares it): a second header with the same prefix but other tables stops the build instead
/// of being skipped by the include guard.
fn identity(content: &[u8]) -> u32 {
    let hash = content.iter().fold(0x811c_9dc5u32, |hash, &byte| {
        (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193)
    });
    hash >> 1
}

/// The provenance as comments and the opening of the include guard; `id` is the content's
/// [`identity`].
fn opening(out: &mut String, options: &ExportOptions, about: &str, id: u32) {
    for line in comment_lines(options) {
        let _ = writeln!(out, "/* {} */", line.replace("*/", "* /"));
    }
    let (p, up) = (options.prefix.as_str(), options.prefix.upper());
    let _ = write!(
        out,
        r#"/*
 * {about}
 * C99 or later, or C++. Include this header wherever the lookups are used. In exactly one
 * source file, define {up}_IMPLEMENTATION before including it: that file defines the tables,
 * which every other file declares, so that a program holds one copy with or without
 * link-time optimization. Every name starts with "{p}_" ("{up}_" for macros), so that exports
 * with different prefixes live in one program.
 */
#if defined({up}_H) && {up}_ID != {id}
#error "two different bitforge exports with one prefix: export one with another --prefix"
#endif
#ifndef {up}_H
#define {up}_H
#define {up}_ID {id}

#include <stdint.h>

/* Alignment of the tables (64 bytes, a cache line) and entries (32 bytes). */
#if defined(__cplusplus) && __cplusplus >= 201103L
#define {up}_ALIGNED(bytes) alignas(bytes)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define {up}_ALIGNED(bytes) _Alignas(bytes)
#elif defined(__GNUC__)
#define {up}_ALIGNED(bytes) __attribute__((aligned(bytes)))
#elif defined(_MSC_VER)
#define {up}_ALIGNED(bytes) __declspec(align(bytes))
#else
#define {up}_ALIGNED(bytes)
#endif

#ifdef __cplusplus
#define {up}_CAST(type, value) static_cast<type>(value)
#else
#define {up}_CAST(type, value) ((type)(value))
#endif
"#
    );
}

/// The table declarations, between C++'s `extern "C"` braces.
fn declarations(out: &mut String, lines: &[String]) {
    out.push_str("\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n");
    for line in lines {
        let _ = writeln!(out, "extern {line};");
    }
    out.push_str("#ifdef __cplusplus\n}\n#endif\n");
}

/// The end of the include guard and the opening of the implementation section.
fn implementation_opening(out: &mut String, up: &str) {
    let _ = write!(
        out,
        "\n#endif /* {up}_H */\n\n#if defined({up}_IMPLEMENTATION) && !defined({up}_IMPLEMENTED)\n#define {up}_IMPLEMENTED\n#ifdef __cplusplus\nextern \"C\" {{\n#endif\n"
    );
}

fn implementation_closing(out: &mut String, up: &str) {
    let _ = write!(
        out,
        "\n#ifdef __cplusplus\n}}\n#endif\n#endif /* {up}_IMPLEMENTATION */\n"
    );
}

/// A magic set's header.
pub(super) fn magics(set: &MagicSet, table: &AttackTable, options: &ExportOptions) -> String {
    let (p, up) = (options.prefix.as_str(), options.prefix.upper());
    let mut out = String::new();
    let about = format!(
        "A bitforge magic set, scheme \"{}\"{}, and its attack table.",
        set.scheme,
        if set.post_masked { ", post-masked" } else { "" }
    );
    let id = identity(set.to_text(&[]).as_bytes());
    opening(&mut out, options, &about, id);
    let formula = set
        .scheme
        .index_source(Syntax::C, "occupancy", "mask", "magic", "shift");
    let scheme = set.scheme.name().to_ascii_uppercase();
    let ((rook_bits, rook_most), (bishop_bits, bishop_most)) =
        (bits(set, SliderKind::Rook), bits(set, SliderKind::Bishop));
    let _ = write!(
        out,
        r#"
/* slot = offset + {formula}; the attacks are the slot ANDed with post_mask. */
#define {up}_SCHEME_FANCY 0
#define {up}_SCHEME_FIXED 1
#define {up}_SCHEME_BLACK 2
#define {up}_SCHEME {up}_SCHEME_{scheme}
/* 1 if the table is combined: a slot is right only ANDed with its square's post_mask. */
#define {up}_POST_MASKED {post_masked}
/* Index bits of every rook (bishop) square, 0 if they vary by square; the most of any. */
#define {up}_ROOK_BITS {rook_bits}
#define {up}_BISHOP_BITS {bishop_bits}
#define {up}_ROOK_MAX_BITS {rook_most}
#define {up}_BISHOP_MAX_BITS {bishop_most}
#define {up}_SLIDER_ATTACKS_LEN {len}

/* One square's lookup, the same struct in every export: 32 bytes, so that no entry of the
   64-byte aligned arrays straddles a cache line. */
typedef struct {{
    {up}_ALIGNED(32) uint64_t mask; /* the relevant occupancy */
    uint64_t magic;
    uint64_t post_mask; /* the empty-board attacks in a post-masked set, all ones otherwise */
    int32_t offset;     /* the slot of index 0 (negative in some packed sets) */
    uint32_t shift;     /* 64 - index bits */
}} {p}_magic;

typedef char {p}_magic_is_32_bytes[sizeof({p}_magic) == 32 ? 1 : -1];
"#,
        post_masked = u8::from(set.post_masked),
        len = table.entries(),
    );
    declarations(
        &mut out,
        &[
            format!("const {p}_magic {p}_rook_magics[64]"),
            format!("const {p}_magic {p}_bishop_magics[64]"),
            format!("const uint64_t {p}_slider_attacks[{up}_SLIDER_ATTACKS_LEN]"),
        ],
    );
    let index = set
        .scheme
        .index_source(Syntax::C, "occupancy", "m->mask", "m->magic", "m->shift");
    let post_mask_and = if set.post_masked {
        " & m->post_mask"
    } else {
        ""
    };
    let _ = write!(
        out,
        r#"
/* The attacks of a slider with entry m for occupancy. */
static inline uint64_t {p}_attacks(const {p}_magic *m, uint64_t occupancy) {{
    const int64_t slot = m->offset + {up}_CAST(int64_t, {index});
    return {p}_slider_attacks[slot]{post_mask_and};
}}

/* Rook attacks from square (0 = a1 .. 63 = h8). */
static inline uint64_t {p}_rook_attacks(unsigned square, uint64_t occupancy) {{
    return {p}_attacks(&{p}_rook_magics[square], occupancy);
}}

/* Bishop attacks from square (0 = a1 .. 63 = h8). */
static inline uint64_t {p}_bishop_attacks(unsigned square, uint64_t occupancy) {{
    return {p}_attacks(&{p}_bishop_magics[square], occupancy);
}}
"#
    );
    implementation_opening(&mut out, &up);
    for kind in SliderKind::ALL {
        let _ = writeln!(
            out,
            "\n{up}_ALIGNED(64) const {p}_magic {p}_{}_magics[64] = {{",
            kind.name()
        );
        for row in rows(set, kind) {
            let _ = writeln!(
                out,
                "    {{ {:#018x}ULL, {:#018x}ULL, {:#018x}ULL, {}, {} }}, /* {} */",
                row.mask,
                row.magic,
                row.post_mask,
                offset_32(row.offset),
                64 - row.bits,
                row.square
            );
        }
        out.push_str("};\n");
    }
    let attacks = format!("const uint64_t {p}_slider_attacks");
    define_table(&mut out, &up, &attacks, &table.attacks, 4, 16, "ULL");
    implementation_closing(&mut out, &up);
    out
}

/// The dense PEXT tables' header.
pub(super) fn pext(tables: &PextTables, options: &ExportOptions) -> String {
    let (p, up) = (options.prefix.as_str(), options.prefix.upper());
    let mut out = String::new();
    opening(
        &mut out,
        options,
        "bitforge's dense PEXT tables: the attack sets at offset + pext(occupancy, mask), and\n * the same sets in 16 bits for pdep(entry, rays).",
        identity(b"bitforge PEXT tables"),
    );
    let _ = write!(
        out,
        r#"
#define {up}_SLIDER_ATTACKS_LEN {len}

/* One square's extraction masks and slice: 32 bytes. */
typedef struct {{
    {up}_ALIGNED(32) uint64_t mask; /* the relevant occupancy, extracted into the index */
    uint64_t rays;   /* the empty-board attacks, into which pdep deposits a 16-bit entry */
    uint32_t offset; /* the slot of index 0 */
}} {p}_pext_entry;

typedef char {p}_pext_entry_is_32_bytes[sizeof({p}_pext_entry) == 32 ? 1 : -1];
"#,
        len = tables.attacks.len()
    );
    declarations(
        &mut out,
        &[
            format!("const {p}_pext_entry {p}_rook_entries[64]"),
            format!("const {p}_pext_entry {p}_bishop_entries[64]"),
            format!("const uint64_t {p}_slider_attacks[{up}_SLIDER_ATTACKS_LEN]"),
            format!("const uint16_t {p}_compressed_attacks[{up}_SLIDER_ATTACKS_LEN]"),
        ],
    );
    let _ = write!(
        out,
        r#"
/* The BMI2 instructions where the compiler targets them (gcc and clang: -mbmi2, or a -march
   with BMI2); otherwise the same results bit by bit, correct everywhere but slow. */
#if defined(__BMI2__)
#include <immintrin.h>
#define {up}_PEXT_INSTRUCTION 1
static inline uint64_t {p}_pext(uint64_t source, uint64_t mask) {{
    return _pext_u64(source, mask);
}}
static inline uint64_t {p}_pdep(uint64_t source, uint64_t mask) {{
    return _pdep_u64(source, mask);
}}
#else
#define {up}_PEXT_INSTRUCTION 0
static inline uint64_t {p}_pext(uint64_t source, uint64_t mask) {{
    uint64_t result = 0, bit = 1;
    for (; mask != 0; mask &= mask - 1, bit <<= 1) {{
        if (source & mask & (0 - mask)) {{
            result |= bit;
        }}
    }}
    return result;
}}
static inline uint64_t {p}_pdep(uint64_t source, uint64_t mask) {{
    uint64_t result = 0, bit = 1;
    for (; mask != 0; mask &= mask - 1, bit <<= 1) {{
        if (source & bit) {{
            result |= mask & (0 - mask);
        }}
    }}
    return result;
}}
#endif

/* The attacks of a slider with entry e for occupancy, from the 64-bit table. */
static inline uint64_t {p}_attacks(const {p}_pext_entry *e, uint64_t occupancy) {{
    return {p}_slider_attacks[e->offset + {p}_pext(occupancy, e->mask)];
}}

/* The same from the 16-bit table (a fifth of the size), expanded by pdep. */
static inline uint64_t {p}_attacks_pdep(const {p}_pext_entry *e, uint64_t occupancy) {{
    return {p}_pdep({p}_compressed_attacks[e->offset + {p}_pext(occupancy, e->mask)], e->rays);
}}

/* Rook and bishop attacks from square (0 = a1 .. 63 = h8). */
static inline uint64_t {p}_rook_attacks(unsigned square, uint64_t occupancy) {{
    return {p}_attacks(&{p}_rook_entries[square], occupancy);
}}
static inline uint64_t {p}_bishop_attacks(unsigned square, uint64_t occupancy) {{
    return {p}_attacks(&{p}_bishop_entries[square], occupancy);
}}
static inline uint64_t {p}_rook_attacks_pdep(unsigned square, uint64_t occupancy) {{
    return {p}_attacks_pdep(&{p}_rook_entries[square], occupancy);
}}
static inline uint64_t {p}_bishop_attacks_pdep(unsigned square, uint64_t occupancy) {{
    return {p}_attacks_pdep(&{p}_bishop_entries[square], occupancy);
}}
"#
    );
    implementation_opening(&mut out, &up);
    for (kind, entries) in SliderKind::ALL.into_iter().zip(tables.entries.chunks(64)) {
        let _ = writeln!(
            out,
            "\n{up}_ALIGNED(64) const {p}_pext_entry {p}_{}_entries[64] = {{",
            kind.name()
        );
        for (square, entry) in (0..64u8).zip(entries) {
            let _ = writeln!(
                out,
                "    {{ {:#018x}ULL, {:#018x}ULL, {} }}, /* {} */",
                entry.mask,
                entry.rays,
                entry.offset,
                bitforge_index::geometry::square_name(square)
            );
        }
        out.push_str("};\n");
    }
    let attacks = format!("const uint64_t {p}_slider_attacks");
    define_table(&mut out, &up, &attacks, &tables.attacks, 4, 16, "ULL");
    let compressed = format!("const uint16_t {p}_compressed_attacks");
    define_table(&mut out, &up, &compressed, &tables.compressed, 8, 4, "");
    implementation_closing(&mut out, &up);
    out
}

/// `declaration[PREFIX_SLIDER_ATTACKS_LEN] = { values }`, aligned to a cache line: `per_line`
/// hex numbers of `digits` digits a line, each with `suffix`.
fn define_table<T: Copy + Into<u64>>(
    out: &mut String,
    up: &str,
    declaration: &str,
    values: &[T],
    per_line: usize,
    digits: usize,
    suffix: &str,
) {
    let _ = writeln!(
        out,
        "\n{up}_ALIGNED(64) {declaration}[{up}_SLIDER_ATTACKS_LEN] = {{"
    );
    write_hex_list(out, values, per_line, digits, suffix);
    out.push_str("};\n");
}
