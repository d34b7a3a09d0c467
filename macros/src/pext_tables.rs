//! `pext_tables!`: dense tables indexed by parallel bit extraction (BMI2 `PEXT`).

use bitforge_index::geometry::{ray_attacks, relevant_mask};
use bitforge_index::pext;
use bitforge_index::{SliderKind, Subsets};
use proc_macro2::{Literal, TokenStream};
use quote::quote;
use syn::Token;
use syn::parse::{Parse, ParseStream};

use crate::emit::packed_array;
use crate::module_header::ModuleHeader;

/// `#[attrs] VIS mod NAME`
pub(crate) struct PextInput(ModuleHeader);

impl Parse for PextInput {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let header = input.parse()?;
        input.parse::<Option<Token![;]>>()?;
        if !input.is_empty() {
            return Err(input.error("expected nothing after the module name"));
        }
        Ok(PextInput(header))
    }
}

/// The layout shared by both tables: rook a1 .. h8, then bishop a1 .. h8, each square's slice
/// `2^popcount(mask)` long.
struct Layout {
    /// (mask, empty-board attacks, offset) per piece and square.
    entries: Vec<(u64, u64, usize)>,
    /// Attack sets by slot.
    attacks: Vec<u64>,
    /// The same sets reduced to their rays' bits: `pext(attacks, rays)`.
    compressed: Vec<u16>,
}

fn layout() -> Layout {
    let mut entries = Vec::with_capacity(128);
    let mut attacks = Vec::new();
    let mut compressed = Vec::new();
    for kind in SliderKind::ALL {
        for square in 0..64 {
            let mask = relevant_mask(kind, square);
            let rays = ray_attacks(kind, square, 0);
            let offset = attacks.len();
            attacks.resize(offset + (1usize << mask.count_ones()), 0);
            compressed.resize(attacks.len(), 0);
            for occupancy in Subsets::new(mask) {
                let slot = offset + pext(occupancy, mask) as usize;
                attacks[slot] = ray_attacks(kind, square, occupancy);
                compressed[slot] = u16::try_from(pext(attacks[slot], rays))
                    .expect("a slider attacks at most 14 squares");
            }
            entries.push((mask, rays, offset));
        }
    }
    Layout {
        entries,
        attacks,
        compressed,
    }
}

pub(crate) fn expand(input: PextInput) -> TokenStream {
    let PextInput(ModuleHeader {
        attrs,
        visibility,
        name,
    }) = input;
    let Layout {
        entries,
        attacks,
        compressed,
    } = layout();
    let literal = |&(mask, rays, offset): &(u64, u64, usize)| {
        let mask = Literal::u64_suffixed(mask);
        let rays = Literal::u64_suffixed(rays);
        let offset = Literal::usize_suffixed(offset);
        quote!(Entry { mask: #mask, rays: #rays, offset: #offset })
    };
    let rook = entries[..64].iter().map(literal);
    let bishop = entries[64..].iter().map(literal);
    let length = attacks.len();
    let entries_doc = format!("Slots in each table: {length}.");
    let attacks = packed_array(&attacks);
    let compressed = packed_array(&compressed);

    quote! {
        #(#attrs)*
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_is_dense_and_107_648_long() {
        let layout = layout();
        assert_eq!(layout.attacks.len(), 107_648);
        assert_eq!(layout.entries[64].2, 102_400);
    }
}
