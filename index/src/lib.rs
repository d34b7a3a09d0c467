//! What everything in bitforge that touches a magic number shares, written once: the index
//! formulas, the board geometry and reference ray walker, subset enumeration, the index schemes,
//! the `.magics` text format and the binary export format, and verification of a set against the
//! walker. `magic-search` (the research instrument) searches with it, `bitforge-macros` verifies
//! and embeds sets with it and emits calls to its formulas, and the `bitforge` core computes
//! indices and software PEXT with it at run time: a table built by one is read by another with
//! the same formula, so they cannot drift apart (as `phf_shared` keeps `phf`'s one hash).
//! [`cpu`] reads which CPU this is, for the core's and magic-search's run-time choices of code.
//!
//! The crate is `no_std` and has no dependencies. The formulas, the geometry, the schemes and
//! the subsets need nothing more; the formats and verification need the `alloc` feature (on by
//! default). The core's own reference walker, which checks all of this, stays independent.
//!
//! ```
//! use bitforge_index::{SliderKind, fancy_key, geometry, magic_index, pdep, pext};
//!
//! // A rook on a1 with a piece on a3: the mask keeps a2..a7 and b1..g1.
//! let mask = geometry::relevant_mask(SliderKind::Rook, 0);
//! assert_eq!(mask, 0x0001_0101_0101_017E);
//! let key = fancy_key(1 << 16, mask);
//! assert_eq!(key, 1 << 16);
//! assert!(magic_index(key, 0x0080_0010_2040_0080, 52) < 4096);
//! // a3 is the mask's eighth square (b1..g1, a2, a3): bit 7 of the index.
//! assert_eq!(pext(1 << 16, mask), 1 << 7);
//! assert_eq!(pdep(pext(key, mask), mask), key);
//! ```
//!
//! With `alloc`, a set is parsed, verified and its table built:
//!
//! ```
//! # #[cfg(feature = "alloc")] {
//! use bitforge_index::{MagicSet, SliderKind, verify};
//!
//! let mut text = String::from("bitforge-magics 1\nscheme fixed\n");
//! // A fixed-shift set whose magics are all 1 is well-formed but wrong: verification refuses
//! // it, naming the first square whose occupancies collide.
//! for kind in SliderKind::ALL {
//!     for square in 0..64 {
//!         let name = bitforge_index::geometry::square_name(square);
//!         text.push_str(&format!("{kind} {name} 0x1 {} 0\n", if kind == SliderKind::Rook { 12 } else { 9 }));
//!     }
//! }
//! let set = MagicSet::parse(&text).expect("well-formed");
//! let error = verify(&set).unwrap_err();
//! assert!(error.to_string().contains("rook a1"));
//! # }
//! ```

#![no_std]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(test)]
extern crate std;

#[cfg(feature = "alloc")]
mod binary;
pub mod cpu;
mod formula;
pub mod geometry;
#[cfg(feature = "alloc")]
mod magic_set;
#[cfg(feature = "alloc")]
mod pext_tables;
mod scheme;
mod slider_kind;
mod subsets;
#[cfg(feature = "alloc")]
mod verify;

#[cfg(feature = "alloc")]
pub use binary::{BINARY_MAGIC, BINARY_VERSION, BinaryError, from_binary, to_binary};
pub use formula::{black_key, fancy_key, magic_index, pdep, pext};
#[cfg(feature = "alloc")]
pub use magic_set::{Entry, HEADER, MAX_BITS, MagicSet, ParseError};
#[cfg(feature = "alloc")]
pub use pext_tables::{PextEntry, PextTables};
pub use scheme::Scheme;
#[cfg(feature = "alloc")]
pub use scheme::{Syntax, UnknownScheme};
pub use slider_kind::SliderKind;
pub use subsets::Subsets;
#[cfg(feature = "alloc")]
pub use verify::{
    AttackTable, MAX_TABLE_ENTRIES, SlotDemand, SlotUse, VerifyError, occupancies_with_attacks,
    verify, verify_against,
};
