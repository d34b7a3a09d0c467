//! `pext_tables!`: dense tables indexed by parallel bit extraction (BMI2 `PEXT`).

use bitforge_index::{PextEntry, PextTables};
use proc_macro2::{Literal, TokenStream};
use quote::quote;

use crate::emit::packed_array;
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

pub(crate) fn expand(input: PextInput) -> TokenStream {
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
    let literal = |entry: &PextEntry| {
        let mask = Literal::u64_suffixed(entry.mask);
        let rays = Literal::u64_suffixed(entry.rays);
        let offset = Literal::usize_suffixed(entry.offset);
        quote!(Entry { mask: #mask, rays: #rays, offset: #offset })
    };
    let rook = entries[..64].iter().map(literal);
    let bishop = entries[64..].iter().map(literal);
    let length = attacks.len();
    let entries_doc = format!("Slots in each table: {length}.");
    let attacks = packed_array(attacks);
    let compressed = packed_array(compressed);

    quote! {
        #attrs
        #visibility mod #name {
            #[doc = #entries_doc]
            pub const ENTRIES: usize = #length;

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
            pub static ROOK: [Entry; 64] = [#(#rook),*];

            /// Bishop entries by square.
            pub static BISHOP: [Entry; 64] = [#(#bishop),*];

            /// Attack sets at `offset + pext(occupancy, mask)`.
            pub static ATTACKS: [u64; ENTRIES] = #attacks;

            /// The same attack sets compressed to their rays' bits: `pext(attacks, rays)`;
            /// `pdep(entry, rays)` gives the set back.
            pub static COMPRESSED: [u16; ENTRIES] = #compressed;
        }
    }
}
