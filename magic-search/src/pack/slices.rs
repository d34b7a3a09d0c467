//! A square's slice of the table, the squares placed together as one, and index spans.

use super::choose::*;
use crate::engine::{MAX_COMB_PERIOD, comb_footprint};
use bitforge_index::MagicSet;
use bitforge_index::SliderKind;
use bitforge_index::geometry::relevant_mask;
use bitforge_index::{SlotDemand, occupancies_with_attacks};

/// A square whose slice is placed as part of a [`Slice`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Member {
    pub(crate) kind: SliderKind,
    pub(crate) square: u8,
    /// The index of the square's first used slot.
    pub(crate) lowest: usize,
    /// Where that slot lies in the slice, counted from the slice's first used slot.
    pub(crate) at: usize,
}

/// A run of slots placed as one: a square's slice (some slots used, each with what it must
/// hold, some never selected), or several squares' slices stacked into each other's unused
/// slots (see [`stack`]).
#[derive(Clone)]
pub(crate) struct Slice {
    pub(crate) members: Vec<Member>,
    /// What each slot from the first used one to the last must hold (no demand where unused).
    pub(crate) demands: Vec<SlotDemand>,
    /// A bit per slot from the first used one on, set where used.
    pub(crate) bits: Vec<u64>,
    /// Whether every member is read without a post mask: then no slot it uses admits another
    /// square's lookup (different squares' attack sets are never equal).
    pub(crate) plain: bool,
}

impl Slice {
    pub(crate) fn span(&self) -> usize {
        self.demands.len()
    }

    /// How many of its slots are used.
    pub(crate) fn used_slots(&self) -> usize {
        self.bits
            .iter()
            .map(|word| word.count_ones() as usize)
            .sum()
    }

    /// The used slots, counted from the first, in order.
    pub(crate) fn used(&self) -> impl Iterator<Item = usize> + '_ {
        self.bits.iter().enumerate().flat_map(|(k, &word)| {
            let mut rest = word;
            core::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    k * 64 + bit
                })
            })
        })
    }
}

/// The squares' index spans (first used slot to last, inclusive) summed by kind: what a packed
/// table takes when no slice fills another's holes, and what a narrowing search
/// (`find --narrow`) makes shorter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexSpans {
    /// The rook squares' spans, summed.
    pub rook: usize,
    /// The bishop squares' spans, summed.
    pub bishop: usize,
}

/// The index spans of `set` by kind (see [`IndexSpans`]); meaningful for a verified set.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use bitforge_index::Scheme;
/// use magic_search::{PackEffort, SearchConfig, find_set, index_spans, pack};
///
/// let config = SearchConfig { scheme: Scheme::Black, ..SearchConfig::default() };
/// let (set, _) = find_set(&config, 1, &|_| {});
/// let spans = index_spans(&set);
/// // Each slice lies within its square's 4,096 or 512 slots...
/// assert!(spans.rook <= 64 * 4096 && spans.bishop <= 64 * 512);
/// // ...and packing moves the slices, never changes them.
/// let effort = PackEffort { tries: 0, ..PackEffort::default() };
/// let packed = pack(&set, &effort, &|_| {}, &AtomicBool::new(false)).unwrap();
/// assert_eq!(index_spans(&packed.set), spans);
/// ```
pub fn index_spans(set: &MagicSet) -> IndexSpans {
    let mut spans = IndexSpans { rook: 0, bishop: 0 };
    for slice in slices_of(set) {
        match slice.members[0].kind {
            SliderKind::Rook => spans.rook += slice.span(),
            SliderKind::Bishop => spans.bishop += slice.span(),
        }
    }
    spans
}

/// Every square's slice, alone, in [`squares`] order.
pub(crate) fn slices_of(set: &MagicSet) -> Vec<Slice> {
    squares()
        .map(|(kind, square)| {
            let entry = set.entries(kind)[square as usize];
            square_slice(set, kind, square, entry.magic)
        })
        .collect()
}

/// The slice of `square` with `magic` (and the set's bits and post mask).
pub(crate) fn square_slice(set: &MagicSet, kind: SliderKind, square: u8, magic: u64) -> Slice {
    let bits = set.entries(kind)[square as usize].bits;
    let mask = relevant_mask(kind, square);
    let post_mask = set.post_mask(kind, square);
    let mut used: Vec<(usize, u64)> = occupancies_with_attacks(kind, square)
        .map(|(occupancy, attacks)| (set.scheme.index(occupancy, mask, magic, bits), attacks))
        .collect();
    used.sort_unstable();
    used.dedup();
    let lowest = used.first().map_or(0, |&(index, _)| index);
    let span = used.last().map_or(0, |&(index, _)| index + 1 - lowest);
    let mut demands = vec![SlotDemand::default(); span];
    let mut bits = vec![0u64; span.div_ceil(64)];
    for (index, held) in used {
        demands[index - lowest] = SlotDemand::of(held, post_mask);
        bits[(index - lowest) / 64] |= 1 << ((index - lowest) % 64);
    }
    Slice {
        members: vec![Member {
            kind,
            square,
            lowest,
            at: 0,
        }],
        demands,
        bits,
        plain: post_mask == u64::MAX,
    }
}

/// Which slices take part in stacking: combs, whose [`comb_footprint`] is at most three
/// quarters of their span (holes without a period seldom take another slice whole, and
/// measuring every pair of a set of such slices costs seconds).
pub(crate) fn is_comb(slice: &Slice) -> bool {
    let residues = slice.used().fold(0u128, |residues, index| {
        residues | 1 << (index % MAX_COMB_PERIOD)
    });
    4 * comb_footprint(slice.span(), residues) <= 3 * slice.span()
}
