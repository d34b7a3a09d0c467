//! Procedural macros that embed bitforge's lookup tables as literal constants.
//!
//! Every table is computed at expansion time by the reference geometry of `bitforge-index` and
//! emitted as an array literal, so the crate that uses it does no work at run time
//! and no `const fn` evaluation at compile time (which costs seconds for large tables).
//!
//! Each table macro takes an optional path to a tuple-struct constructor that wraps each `u64`
//! (such as `Bitboard`); without one, the elements are plain `u64`s:
//!
//! ```
//! static KNIGHTS: [[u64; 64]; 16] = bitforge_macros::step_attacks!();
//! assert_eq!(KNIGHTS[2][0].count_ones(), 2); // a white knight (piece code 2) on a1
//!
//! #[derive(Clone, Copy, PartialEq, Debug)]
//! struct Bits(u64);
//! const FILES: [Bits; 8] = bitforge_macros::file_masks!(Bits);
//! assert_eq!(FILES[0], Bits(0x0101_0101_0101_0101));
//! ```

mod emit;
mod geometry_tables;
mod magic_set;
mod parse;
mod pext_tables;
mod source_file;

use std::sync::OnceLock;

use bitforge_index::PextTables;
use proc_macro::TokenStream;

/// The reference attacks of every relevant occupancy of every square, walked once per
/// compiler process and shared by every macro that needs them (each magic set's check, the
/// `PEXT` tables, which are these attacks): a user's build runs the macros unoptimized, where
/// walking them is most of an expansion's time (results/analysis.md, issue 36).
fn reference_attacks() -> &'static PextTables {
    static REFERENCE: OnceLock<PextTables> = OnceLock::new();
    REFERENCE.get_or_init(PextTables::build)
}

/// `[W; 64]`: one bit per square, `a1 = 1 << 0`.
#[proc_macro]
pub fn square_masks(input: TokenStream) -> TokenStream {
    emit::table(input, |wrap| {
        emit::list(&geometry_tables::square_masks(), wrap)
    })
}

/// `[W; 8]`: every square of each file, `a` first.
#[proc_macro]
pub fn file_masks(input: TokenStream) -> TokenStream {
    emit::table(input, |wrap| {
        emit::list(&geometry_tables::file_masks(), wrap)
    })
}

/// `[W; 8]`: every square of each rank, the first rank first.
#[proc_macro]
pub fn rank_masks(input: TokenStream) -> TokenStream {
    emit::table(input, |wrap| {
        emit::list(&geometry_tables::rank_masks(), wrap)
    })
}

/// `[[W; 64]; 16]` by piece code (`color << 3 | type`): pawn captures per colour, knight and
/// king moves; empty for every other code.
#[proc_macro]
pub fn step_attacks(input: TokenStream) -> TokenStream {
    emit::table(input, |wrap| {
        emit::grid(&geometry_tables::step_attacks(), wrap)
    })
}

/// `[[W; 64]; 8]` by piece type (`1 = pawn .. 6 = king`): empty-board attacks of knight,
/// bishop, rook, queen and king; empty for pawns and the unused codes.
#[proc_macro]
pub fn pseudo_attacks(input: TokenStream) -> TokenStream {
    emit::table(input, |wrap| {
        emit::grid(&geometry_tables::pseudo_attacks(), wrap)
    })
}

/// `[[W; 64]; 64]`: the edge-to-edge line through two aligned squares, both included; empty
/// when they are not aligned or equal.
#[proc_macro]
pub fn line_table(input: TokenStream) -> TokenStream {
    emit::table(input, |wrap| {
        emit::grid(
            &geometry_tables::pairs(bitforge_index::geometry::line),
            wrap,
        )
    })
}

/// `[[W; 64]; 64]`: the squares strictly between two aligned squares; empty otherwise.
#[proc_macro]
pub fn between_table(input: TokenStream) -> TokenStream {
    emit::table(input, |wrap| {
        emit::grid(
            &geometry_tables::pairs(bitforge_index::geometry::between),
            wrap,
        )
    })
}

/// `[[W; 64]; 64]`: for a king on the first square and a checker on the second, the squares
/// that block or capture: between plus the checker's square; only the checker's square when
/// they are not aligned (a knight or pawn check can only be captured).
#[proc_macro]
pub fn check_block_table(input: TokenStream) -> TokenStream {
    emit::table(input, |wrap| {
        emit::grid(&geometry_tables::pairs(geometry_tables::check_block), wrap)
    })
}

/// `[[u8; 64]; 64]`: Chebyshev (king-move) distance. Takes no arguments.
#[proc_macro]
pub fn distance_table(input: TokenStream) -> TokenStream {
    emit::no_arguments(input, || emit::distances(&geometry_tables::distances()))
}

/// A module with a verified magic set: its per-square entries, its attack table and lookup
/// functions, all literal statics.
///
/// ```ignore
/// bitforge_macros::magic_set! {
///     /// My engine's magics.
///     pub mod magics = "magics/fancy.magics";
/// }
/// let attacks: u64 = magics::rook_attacks(0, 0x0101); // rook a1, a piece on a2
/// ```
///
/// The path is relative to the file that invokes the macro, as for `include_bytes!`. The file
/// is a `.magics` file written by `magic-search`; it is verified at expansion time against the
/// reference ray walker, and a set that fails is a compile error naming the square and the two
/// occupancies that collide. Editing the file rebuilds the crate. The lookups call the index
/// formula of `bitforge-index` (the one `verify` checked), so the invoking crate depends on
/// `bitforge-index` too (with no features: the formulas need none).
///
/// The module holds `SCHEME` (`"fancy"`, `"fixed"` or `"black"`), `ENTRIES`, `POST_MASKED`,
/// the `Entry` type (`mask`, `magic`, `shift`, `offset`, `post_mask`, and `slot(occupancy)`,
/// `attacks(occupancy)`), the statics `ROOK`, `BISHOP` (`[Entry; 64]`), `FIELDS` (both
/// pieces' fields of each square in one cache line, as the lookups read them) and `ATTACKS`
/// (`[u64; ENTRIES]`), and the functions `rook_attacks(square, occupancy)` and
/// `bishop_attacks(square, occupancy)`. A post-masked set (`post-mask yes`, written by
/// `magic-search pack --post-mask`) is one combined table: its lookups AND the slot with the
/// square's empty-board attacks.
/// Its two lookup functions and the table's embedding use `unsafe` inside the expansion, so a
/// crate that forbids `unsafe_code` cannot use it (one that denies it can).
#[proc_macro]
pub fn magic_set(input: TokenStream) -> TokenStream {
    emit::expansion(magic_set::MagicSetInput::parse(input).and_then(magic_set::expand))
}

/// A module with the dense tables of the `PEXT` method: per-square `Entry` (`mask`, `rays`,
/// `offset`), statics `ROOK` and `BISHOP`, `ATTACKS: [u64; ENTRIES]` indexed by
/// `offset + pext(occupancy, mask)`, and `COMPRESSED: [u16; ENTRIES]`, the same sets reduced to
/// their rays' bits for `pdep(entry, rays)`.
///
/// ```ignore
/// bitforge_macros::pext_tables!(pub mod pext);
/// assert_eq!(pext::ENTRIES, 107_648);
/// ```
#[proc_macro]
pub fn pext_tables(input: TokenStream) -> TokenStream {
    emit::expansion(pext_tables::PextInput::parse(input).map(pext_tables::expand))
}
