//! A square's search problem: its keys and attack ids, and the comb footprint of a slice.

use bitforge_index::Scheme;
use bitforge_index::SliderKind;
use bitforge_index::Subsets;
use bitforge_index::geometry::{ray, ray_attacks, relevant_mask};

/// A square's occupancies, pre-transformed into the scheme's key, with each attack set replaced
/// by a small id (so that the collision check compares bytes in L1, not 64-bit sets).
pub(crate) struct Problem {
    pub(crate) mask: u64,
    pub(crate) keys: Vec<u64>,
    pub(crate) attack_ids: Vec<u8>,
}

impl Problem {
    pub(crate) fn new(kind: SliderKind, square: u8, scheme: Scheme) -> Self {
        let mask = relevant_mask(kind, square);
        let rays = kind.steps().map(|step| ray(square, step));
        let (keys, attack_ids) = Subsets::new(mask)
            .map(|occupancy| {
                let attacks = ray_attacks(kind, square, occupancy);
                // An attack set is fixed by how far each ray reaches: number it in mixed radix.
                // A rook reaches at most 4 * 3 * 4 * 3 = 144 combinations, a bishop fewer.
                let id = rays.iter().fold(0u32, |id, &ray| {
                    let reach = (attacks & ray).count_ones();
                    id * ray.count_ones().max(1) + reach.saturating_sub(1)
                });
                (
                    scheme.key(occupancy, mask),
                    u8::try_from(id).expect("at most 144 distinct attack sets per square"),
                )
            })
            .unzip();
        Problem {
            mask,
            keys,
            attack_ids,
        }
    }

    /// How many distinct slots `magic` maps the keys to with `bits` index bits.
    pub(crate) fn used_slots(&self, magic: u64, bits: u8) -> usize {
        let shift = 64 - u32::from(bits);
        let mut seen = vec![0u64; (1usize << bits).div_ceil(64)];
        for &key in &self.keys {
            let index = bitforge_index::magic_index(key, magic, shift);
            seen[index / 64] |= 1 << (index % 64);
        }
        seen.iter().map(|word| word.count_ones() as usize).sum()
    }

    /// The comb cost of `magic` with `bits` index bits (see [`Prefer::Comb`]).
    pub(crate) fn comb_cost(&self, magic: u64, bits: u8) -> usize {
        let shift = 64 - u32::from(bits);
        let (mut lowest, mut highest, mut residues) = (usize::MAX, 0, 0u128);
        for &key in &self.keys {
            let index = bitforge_index::magic_index(key, magic, shift);
            lowest = lowest.min(index);
            highest = highest.max(index);
            residues |= 1 << (index % MAX_COMB_PERIOD);
        }
        let span = highest + 1 - lowest;
        comb_footprint(span, residues) + span / COMB_SPAN_SHARE
    }

    /// Moves key `number` to `position` if it is further back (the order of keys is free).
    pub(crate) fn promote(&mut self, number: usize, position: usize) {
        if number > position {
            self.keys.swap(number, position);
            self.attack_ids.swap(number, position);
        }
    }
}

/// The share of a slice's span that [`Prefer::Comb`] adds to its footprint: an eighth.
pub(crate) const COMB_SPAN_SHARE: usize = 8;

/// The longest period [`comb_footprint`] looks at.
pub(crate) const MAX_COMB_PERIOD: usize = 128;

/// The fewest periods a span must hold for [`comb_footprint`] to count it as a comb of that
/// period.
pub(crate) const MIN_TEETH: usize = 8;

/// The slots a slice blocks when other slices may fill its gaps: a slice `span` slots long
/// whose used slots are `residues` modulo [`MAX_COMB_PERIOD`] (a bit per residue). For a
/// period `p` (a power of two, at most [`MAX_COMB_PERIOD`], the span at least [`MIN_TEETH`]
/// periods long), the used residues modulo `p` lie in a circular run of `w` residues (the
/// teeth) and leave the other `p - w` to other slices of the same period: the slice blocks
/// `ceil(span / p) * w` slots. The footprint is the least of these and the span itself (a
/// dense slice's footprint is its span).
pub(crate) fn comb_footprint(span: usize, residues: u128) -> usize {
    let mut footprint = span;
    let (mut period, mut folded) = (MAX_COMB_PERIOD, residues);
    while period >= 2 {
        if span >= MIN_TEETH * period {
            let gap = longest_circular_gap(folded, period);
            footprint = footprint.min(span.div_ceil(period) * (period - gap));
        }
        period /= 2;
        let low = (1u128 << period) - 1;
        folded = (folded & low) | (folded >> period);
    }
    footprint
}

/// The longest circular run of clear bits among the low `period` bits of `residues`.
pub(crate) fn longest_circular_gap(residues: u128, period: usize) -> usize {
    let (mut longest, mut run) = (0, 0);
    for bit in 0..2 * period {
        if residues >> (bit % period) & 1 == 0 {
            run += 1;
            longest = longest.max(run.min(period));
        } else {
            run = 0;
        }
    }
    longest
}
