//! `pext_tables!`: dense tables indexed by parallel bit extraction (BMI2 `PEXT`).

use bitforge_index::{PextEntry, PextTables};
use proc_macro::TokenStream;

use crate::emit::{fill, packed_array};
use crate::parse::{self, ModuleHeader, Tokens};

/// `#[attrs] VIS mod NAME`
pub(crate) struct PextInput(ModuleHeader);

impl PextInput {
    pub(crate) fn parse(input: TokenStream) -> parse::Result<Self> {
        let mut tokens = Tokens::new(input);
        let header = tokens.module_header()?;
        tokens.optional_punct(';');
        tokens.end("expected nothing after the module name")?;
        Ok(PextInput(header))
    }
}

/// The module's source.
pub(crate) fn expand(input: PextInput) -> String {
    let PextInput(ModuleHeader {
        attrs,
        visibility,
        name,
    }) = input;
    let PextTables {
        entries,
        attacks,
        compressed,
    } = crate::reference_attacks();
    let literals = |entries: &[PextEntry]| {
        let literals: Vec<String> = entries
            .iter()
            .map(|entry| {
                format!(
                    "Entry {{ mask: {:#x}u64, rays: {:#x}u64, offset: {}usize }}",
                    entry.mask, entry.rays, entry.offset
                )
            })
            .collect();
        literals.join(", ")
    };
    let length = attacks.len().to_string();
    fill(
        "$attrs
        $visibility mod $name {
            #[doc = \"Slots in each table: $length.\"]
            pub const ENTRIES: usize = $length;

            /// One square's extraction masks and slice.
            #[derive(Clone, Copy, Debug, PartialEq, Eq)]
            pub struct Entry {
                /// The relevant occupancy, whose bits `PEXT` extracts into the index.
                pub mask: u64,
                /// The empty-board attacks, into which `PDEP` deposits a [`COMPRESSED`] entry.
                pub rays: u64,
                /// The slot of index 0.
                pub offset: usize,
            }

            /// Rook entries by square (`a1 = 0`, `h8 = 63`).
            pub static ROOK: [Entry; 64] = [$rook];

            /// Bishop entries by square.
            pub static BISHOP: [Entry; 64] = [$bishop];

            /// Attack sets at `offset + pext(occupancy, mask)`.
            pub static ATTACKS: [u64; ENTRIES] = $attacks;

            /// The same attack sets compressed to their rays' bits: `pext(attacks, rays)`;
            /// `pdep(entry, rays)` gives the set back.
            pub static COMPRESSED: [u16; ENTRIES] = $compressed;
        }",
        &[
            ("attrs", &attrs),
            ("visibility", &visibility),
            ("name", &name),
            ("length", &length),
            ("rook", &literals(&entries[..64])),
            ("bishop", &literals(&entries[64..])),
            ("attacks", &packed_array(attacks)),
            ("compressed", &packed_array(compressed)),
        ],
    )
}
