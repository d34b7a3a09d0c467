//! The dense tables of the `PEXT` method, built once for every user: `bitforge-macros`
//! embeds them in Rust and `magic-search export --pext` writes them for other languages.

use alloc::vec::Vec;

use crate::SliderKind;
use crate::formula::pext;
use crate::geometry::{ray_attacks, relevant_mask};
use crate::subsets::Subsets;

/// One square's extraction masks and slice in [`PextTables`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PextEntry {
    /// The relevant occupancy, whose bits `PEXT` extracts into the index.
    pub mask: u64,
    /// The empty-board attacks, into which `PDEP` deposits a compressed entry.
    pub rays: u64,
    /// The slot of index 0.
    pub offset: usize,
}

/// Both `PEXT` tables in one layout: rook a1 .. h8, then bishop a1 .. h8, each square's slice
/// `2^popcount(mask)` long, with no gaps (107,648 slots).
///
/// ```
/// use bitforge_index::{PextTables, SliderKind, geometry, pdep, pext};
///
/// let tables = PextTables::build();
/// assert_eq!(tables.attacks.len(), 107_648);
/// let entry = tables.entry(SliderKind::Bishop, 27); // d4
/// let occupancy = 1 << 45; // f6
/// let slot = entry.offset + pext(occupancy, entry.mask) as usize;
/// let attacks = geometry::ray_attacks(SliderKind::Bishop, 27, occupancy);
/// assert_eq!(tables.attacks[slot], attacks);
/// assert_eq!(pdep(u64::from(tables.compressed[slot]), entry.rays), attacks);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PextTables {
    /// Rook entries by square, then bishop entries by square.
    pub entries: Vec<PextEntry>,
    /// Attack sets at `offset + pext(occupancy, mask)`.
    pub attacks: Vec<u64>,
    /// The same sets reduced to their rays' bits, `pext(attacks, rays)`: a slider attacks at
    /// most 14 squares, so 16 bits hold them; `pdep(entry, rays)` gives the set back.
    pub compressed: Vec<u16>,
}

impl PextTables {
    /// Walks every square's every relevant occupancy with the reference walker.
    pub fn build() -> PextTables {
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
                    let set = ray_attacks(kind, square, occupancy);
                    attacks[slot] = set;
                    // At most 14 bits: the empty-board rays of a rook hold 14 squares.
                    compressed[slot] = pext(set, rays) as u16;
                }
                entries.push(PextEntry { mask, rays, offset });
            }
        }
        PextTables {
            entries,
            attacks,
            compressed,
        }
    }

    /// The entry of a `kind` on `square` (`a1 = 0`, `h8 = 63`).
    pub fn entry(&self, kind: SliderKind, square: u8) -> PextEntry {
        let first = match kind {
            SliderKind::Rook => 0,
            SliderKind::Bishop => 64,
        };
        self.entries[first + usize::from(square & 63)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::pdep;

    #[test]
    fn the_layout_is_dense_and_every_compressed_set_expands_back() {
        let tables = PextTables::build();
        assert_eq!(tables.attacks.len(), 107_648);
        assert_eq!(tables.entry(SliderKind::Bishop, 0).offset, 102_400);
        for entry in &tables.entries {
            let slice = 1usize << entry.mask.count_ones();
            for slot in entry.offset..entry.offset + slice {
                assert_eq!(
                    pdep(u64::from(tables.compressed[slot]), entry.rays),
                    tables.attacks[slot]
                );
            }
        }
    }
}
