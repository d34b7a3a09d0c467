//! Overlapping the squares' slices into one shared table.
//!
//! A square's slice is a run of slots, some used (each with the attack set it must hold) and
//! some never selected. Two slices may overlap wherever one of them leaves a slot unused or both
//! want the same attack set there; in a post-masked set, wherever each lookup's mask recovers
//! its own attacks from the union of what the slot holds. Finding the smallest arrangement is
//! NP-complete, so this is a first-fit heuristic: place slices one by one, largest first, each
//! at the lowest offset where it fits, and keep the best of several orders.

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use crate::geometry::SliderKind;
use crate::magic_set::MagicSet;
use crate::verify::{SlotDemand, VerifyError, occupancies_with_attacks, verify};

/// A square's used slots: `(index, attacks)` sorted by index, without repeats.
struct Slice {
    kind: SliderKind,
    square: u8,
    used: Vec<(usize, u64)>,
    post_mask: u64,
}

impl Slice {
    fn lowest(&self) -> usize {
        self.used.first().map_or(0, |&(index, _)| index)
    }

    fn span(&self) -> usize {
        self.used.last().map_or(0, |&(index, _)| index) - self.lowest() + 1
    }
}

/// What packing achieved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packed {
    /// The same magics with new offsets.
    pub set: MagicSet,
    /// Entries of the packed table.
    pub entries: usize,
    /// Entries before packing.
    pub entries_before: usize,
}

/// Packs `set`, trying the largest-first order and then `extra_orders` seeded random
/// perturbations of it, and keeps the smallest table. The input must verify. A post-masked set
/// ([`MagicSet::post_masked`]) packs into one combined table, its slices sharing slots wherever
/// their masks allow.
pub fn pack(set: &MagicSet, extra_orders: u32, seed: u64) -> Result<Packed, VerifyError> {
    let entries_before = verify(set)?.entries();
    let slices = slices_of(set);

    let mut order: Vec<usize> = (0..slices.len()).collect();
    order.sort_by_key(|&i| {
        (
            core::cmp::Reverse(slices[i].used.len()),
            core::cmp::Reverse(slices[i].span()),
        )
    });
    let mut best = place(&slices, &order);

    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for _ in 0..extra_orders {
        // Swap a few neighbours: big slices stay early, which first-fit needs.
        let mut perturbed = order.clone();
        for _ in 0..8 {
            let i = (rng.next_u64() % (perturbed.len() as u64 - 1)) as usize;
            perturbed.swap(i, i + 1);
        }
        let candidate = place(&slices, &perturbed);
        if candidate.0 < best.0 {
            best = candidate;
            order = perturbed;
        }
    }

    let (entries, offsets) = best;
    let mut packed = set.clone();
    for (slice, offset) in slices.iter().zip(offsets) {
        packed.entries_mut(slice.kind)[slice.square as usize].offset = offset;
    }
    // The packer is a heuristic over hand-written bookkeeping: prove the result.
    let check = verify(&packed)?;
    debug_assert_eq!(check.entries(), entries);
    Ok(Packed {
        set: packed,
        entries: check.entries(),
        entries_before,
    })
}

fn slices_of(set: &MagicSet) -> Vec<Slice> {
    let mut slices = Vec::with_capacity(128);
    for kind in SliderKind::ALL {
        for square in 0..64u8 {
            let base = set.entries(kind)[square as usize].offset;
            let mut used: Vec<(usize, u64)> = occupancies_with_attacks(kind, square)
                .map(|(occupancy, attacks)| {
                    ((set.slot(kind, square, occupancy) - base) as usize, attacks)
                })
                .collect();
            used.sort_unstable();
            used.dedup();
            slices.push(Slice {
                kind,
                square,
                used,
                post_mask: set.post_mask(kind, square),
            });
        }
    }
    slices
}

/// First-fit placement in the given order: the table length and each slice's offset (in the
/// slices' own order).
fn place(slices: &[Slice], order: &[usize]) -> (usize, Vec<i64>) {
    let mut table: Vec<SlotDemand> = Vec::new();
    let mut offsets = vec![0i64; slices.len()];
    for &i in order {
        let slice = &slices[i];
        let lowest = slice.lowest() as i64;
        // The slice's first used slot goes at `start`; its offset is `start - lowest`.
        let mut start = 0i64;
        loop {
            let offset = start - lowest;
            let fits = slice.used.iter().all(|&(index, attacks)| {
                table
                    .get((offset + index as i64) as usize)
                    .is_none_or(|demand| demand.admits(attacks, slice.post_mask))
            });
            if fits {
                for &(index, attacks) in &slice.used {
                    let slot = (offset + index as i64) as usize;
                    if slot >= table.len() {
                        table.resize(slot + 1, SlotDemand::default());
                    }
                    table[slot] = table[slot].with(attacks, slice.post_mask);
                }
                offsets[i] = offset;
                break;
            }
            start += 1;
        }
    }
    (table.len(), offsets)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Scheme, SearchConfig, find_set};

    #[test]
    fn packing_a_fixed_set_shrinks_it_and_still_verifies() {
        let config = SearchConfig {
            scheme: Scheme::Fixed,
            ..SearchConfig::default()
        };
        let (set, _) = find_set(&config, 2, &|_| {});
        let packed = pack(&set, 2, 1).unwrap();
        // Unpacked, every slice is 4096 or 512 slots long (the last may stop short of its end).
        assert!(packed.entries_before > 64 * 4096 + 63 * 512);
        // Random fixed-shift magics scatter their indices, which limits overlap; a fifth saved
        // is what first-fit reliably reaches on them.
        assert!(
            packed.entries * 5 < packed.entries_before * 4,
            "{}",
            packed.entries
        );
        assert_eq!(verify(&packed.set).unwrap().entries(), packed.entries);
    }

    #[test]
    fn a_post_masked_set_packs_both_pieces_into_one_table() {
        let config = SearchConfig {
            scheme: Scheme::Black,
            ..SearchConfig::default()
        };
        let (set, _) = find_set(&config, 2, &|_| {});
        let plain = pack(&set, 0, 1).unwrap();
        let combined = pack(
            &MagicSet {
                post_masked: true,
                ..set
            },
            0,
            1,
        )
        .unwrap();
        assert!(combined.set.post_masked);
        assert_eq!(verify(&combined.set).unwrap().entries(), combined.entries);
        // The bishops' slices, at least, fit inside the rooks' (their rays never meet on one
        // square).
        let bishops: usize = (0..64)
            .map(|square| 1usize << set.bishop[square].bits)
            .sum();
        assert!(
            combined.entries + bishops / 2 < plain.entries,
            "combined {} vs plain {}",
            combined.entries,
            plain.entries
        );
        // Without the post mask the combined layout collides.
        let unmasked = MagicSet {
            post_masked: false,
            ..combined.set
        };
        assert!(matches!(
            verify(&unmasked),
            Err(VerifyError::Collision { .. })
        ));
    }

    #[test]
    fn packing_a_bad_set_reports_the_collision() {
        let set = MagicSet::with_dense_offsets(Scheme::Fixed, [(1, 12); 64], [(1, 9); 64]);
        assert!(pack(&set, 0, 0).is_err());
    }
}
