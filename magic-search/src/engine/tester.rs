//! Testing candidate magics for one square: the collision table and the tester that fails
//! early.

use super::candidate_filter::{Killers, Lanes, Scalar};
use super::problem::*;
use bitforge_index::Scheme;
use bitforge_index::SliderKind;

/// What a candidate must stay below to be worth keeping: the slots its indices span, the
/// distinct slots it uses and its comb cost ([`Limits::NONE`]: anything valid). The comb cost
/// is measured only for valid candidates; the collision test stops at the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Limits {
    pub(crate) span: usize,
    pub(crate) used: usize,
    pub(crate) comb: usize,
}

impl Limits {
    pub(crate) const NONE: Limits = Limits {
        span: usize::MAX,
        used: usize::MAX,
        comb: usize::MAX,
    };
}

/// The reusable collision table. Each slot holds `epoch << 12 | key number`: a new candidate
/// starts on a clean table by bumping the epoch instead of clearing it, and a collision can name
/// the earlier key that holds the slot.
pub(crate) struct CollisionTable {
    pub(crate) slots: Vec<u32>,
    pub(crate) epoch: u32,
}

/// Bits of a slot that hold the key number (a square has at most 4096 keys).
pub(crate) const KEY_BITS: u32 = 12;

impl CollisionTable {
    pub(crate) const EPOCH_LIMIT: u32 = 1 << (32 - KEY_BITS);

    pub(crate) fn new() -> Self {
        CollisionTable {
            slots: Vec::new(),
            epoch: 0,
        }
    }

    /// Maps every key through `magic`: on success, the lowest and highest index used; on a
    /// destructive collision, the numbers of the two keys that collide; with `LIMITED`,
    /// `Err(None)` as soon as the indices span `limits.span` slots or more, or use `limits.used`
    /// distinct slots or more (a compile-time switch: the unlimited search, the common one, pays
    /// nothing for the checks).
    #[inline]
    pub(crate) fn try_magic<const LIMITED: bool>(
        &mut self,
        problem: &Problem,
        magic: u64,
        bits: u8,
        limits: Limits,
    ) -> Result<(usize, usize), Option<(usize, usize)>> {
        let size = 1usize << bits;
        if self.slots.len() < size {
            self.slots.resize(size, 0);
        }
        self.epoch += 1;
        if self.epoch == Self::EPOCH_LIMIT {
            self.slots.fill(0);
            self.epoch = 1;
        }
        let (epoch, stamp) = (self.epoch, self.epoch << KEY_BITS);
        let shift = 64 - u32::from(bits);
        let slots = &mut self.slots[..size];
        let ids = &problem.attack_ids;
        let (mut lowest, mut highest, mut used) = (usize::MAX, 0, 0);
        for (number, (&key, &id)) in problem.keys.iter().zip(ids).enumerate() {
            // The index has `bits` bits already: the mask only shows the compiler that it is
            // in bounds.
            let index = bitforge_index::magic_index(key, magic, shift) & (size - 1);
            let slot = &mut slots[index];
            if *slot >> KEY_BITS != epoch {
                *slot = stamp | number as u32;
                // Only a limited search tracks the span as it goes; otherwise it is measured
                // once, for the rare candidate that passes.
                if LIMITED {
                    lowest = lowest.min(index);
                    highest = highest.max(index);
                    used += 1;
                    if highest - lowest >= limits.span || used >= limits.used {
                        return Err(None);
                    }
                }
            } else {
                let holder = (*slot & ((1 << KEY_BITS) - 1)) as usize;
                if ids.get(holder) != Some(&id) {
                    return Err(Some((holder, number)));
                }
            }
        }
        if !LIMITED {
            (lowest, highest) = problem
                .keys
                .iter()
                .fold((usize::MAX, 0), |(low, high), &key| {
                    let index = bitforge_index::magic_index(key, magic, shift);
                    (low.min(index), high.max(index))
                });
        }
        Ok((lowest, highest))
    }
}

/// How many keys at the front of a problem take turns holding the most recently colliding keys.
pub(crate) const FRONT: usize = 64;

/// Tests candidate magics for one square, failing early: the key pairs that collided last
/// are tried first (killers), and keys that collide move to the front of the order.
pub(crate) struct Tester {
    pub(crate) problem: Problem,
    pub(crate) table: CollisionTable,
    pub(crate) killers: Killers,
    pub(crate) next_front: usize,
}

impl Tester {
    pub(crate) fn new(kind: SliderKind, square: u8, scheme: Scheme) -> Self {
        Tester {
            problem: Problem::new(kind, square, scheme),
            table: CollisionTable::new(),
            killers: Killers::new(),
            next_front: 0,
        }
    }

    /// The square's relevant mask.
    pub(crate) fn mask(&self) -> u64 {
        self.problem.mask
    }

    /// Whether `magic` maps every key to `bits` index bits without two different attack sets
    /// sharing a slot: if so, the lowest and highest index used.
    #[inline]
    pub(crate) fn test(&mut self, magic: u64, bits: u8) -> Option<(usize, usize)> {
        self.test_within(magic, bits, Limits::NONE)
    }

    /// [`test`](Self::test), failing as well when the magic reaches `limits`.
    #[inline]
    pub(crate) fn test_within(
        &mut self,
        magic: u64,
        bits: u8,
        limits: Limits,
    ) -> Option<(usize, usize)> {
        // SAFETY: the scalar path runs on every CPU.
        if unsafe { Scalar::killed(&self.killers, magic, 64 - u32::from(bits)) } {
            return None;
        }
        self.test_table(magic, bits, limits)
    }

    /// How many distinct slots `magic` uses with `bits` index bits.
    pub(crate) fn used_slots(&self, magic: u64, bits: u8) -> usize {
        self.problem.used_slots(magic, bits)
    }

    /// The comb cost of `magic` with `bits` index bits.
    pub(crate) fn comb_cost(&self, magic: u64, bits: u8) -> usize {
        self.problem.comb_cost(magic, bits)
    }

    /// The test after the killers: every key into the collision table.
    #[inline]
    pub(crate) fn test_table(
        &mut self,
        magic: u64,
        bits: u8,
        limits: Limits,
    ) -> Option<(usize, usize)> {
        let tried = if limits == Limits::NONE {
            self.table
                .try_magic::<false>(&self.problem, magic, bits, limits)
        } else {
            self.table
                .try_magic::<true>(&self.problem, magic, bits, limits)
        };
        match tried {
            Ok(span) => Some(span),
            Err(None) => None,
            Err(Some((first, second))) => {
                let keys = &self.problem.keys;
                self.killers.remember(keys[first], keys[second]);
                // Move the colliding keys to the front: the next candidates meet them early.
                let front = self.next_front;
                self.next_front = (self.next_front + 2) % FRONT;
                self.problem.promote(second, front);
                self.problem.promote(first, front + 1);
                None
            }
        }
    }
}
