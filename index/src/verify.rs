//! Checking a magic set against the reference walker, and building its attack table.

use alloc::vec::Vec;
use core::fmt;

use crate::SliderKind;
use crate::geometry::{ray_attacks, relevant_mask, square_name};
use crate::magic_set::MagicSet;
use crate::pext_tables::PextTables;
use crate::subsets::Subsets;

/// One use of a table slot: which slider, on which square, with which occupancy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlotUse {
    /// The slider kind.
    pub kind: SliderKind,
    /// The square, `0..64`.
    pub square: u8,
    /// The occupancy (a subset of the square's relevant mask).
    pub occupancy: u64,
}

impl fmt::Display for SlotUse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} with occupancy {:#018x}",
            self.kind,
            square_name(self.square),
            self.occupancy
        )
    }
}

/// Why a magic set is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VerifyError {
    /// Two occupancies with different attack sets land on the same slot. Occupancies with the
    /// same attacks may share a slot (a constructive collision); these may not.
    Collision {
        /// The table slot both select.
        slot: i64,
        /// The use that filled the slot first.
        first: SlotUse,
        /// The use that found it holding different attacks.
        second: SlotUse,
    },
    /// A square's slice starts before the table does.
    NegativeSlot {
        /// The use whose slot is negative.
        at: SlotUse,
        /// Its slot.
        slot: i64,
    },
    /// A square's slice would end past [`MAX_TABLE_ENTRIES`]: refused before anything is
    /// allocated.
    TableTooLarge {
        /// The square's first occupancy (the empty one), naming the entry.
        at: SlotUse,
        /// The slot just past the end of its slice: `offset + 2^bits`.
        end: i64,
    },
}

/// The most entries a magic set's attack table may have: 2,097,152 (16 MiB of attack sets).
/// Dense fancy sets have 107,648, unpacked fixed-shift ones 294,912; an offset that puts a
/// slice past this is a mistake (or a corrupt file), refused before verification allocates.
pub const MAX_TABLE_ENTRIES: usize = 1 << 21;

impl VerifyError {
    /// The square whose entry is at fault (the one that found the slot taken).
    pub fn culprit(&self) -> SlotUse {
        match *self {
            VerifyError::Collision { second, .. } => second,
            VerifyError::NegativeSlot { at, .. } => at,
            VerifyError::TableTooLarge { at, .. } => at,
        }
    }
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::Collision {
                slot,
                first,
                second,
            } if first.kind == second.kind && first.square == second.square => {
                write!(
                    f,
                    "{} {}: occupancies {:#018x} and {:#018x} collide at table slot {slot} with different attacks",
                    second.kind,
                    square_name(second.square),
                    first.occupancy,
                    second.occupancy
                )
            }
            VerifyError::Collision {
                slot,
                first,
                second,
            } => write!(
                f,
                "{second} overlaps {first} at table slot {slot} with different attacks"
            ),
            VerifyError::NegativeSlot { at, slot } => {
                write!(
                    f,
                    "{at} selects table slot {slot}, before the start of the table"
                )
            }
            VerifyError::TableTooLarge { at, end } => write!(
                f,
                "{} {}: its slice would end at table slot {end}, past the limit of \
                 {MAX_TABLE_ENTRIES} entries (is the offset right?)",
                at.kind,
                square_name(at.square)
            ),
        }
    }
}

impl core::error::Error for VerifyError {}

/// What one table slot must hold for every lookup that reads it to be right.
///
/// A lookup that expects `attacks` and ANDs what it reads with `post_mask` (every square when
/// the set has no post mask) is right when the slot holds every square of `attacks` and none of
/// `post_mask & !attacks`. The slot holds the union of what its lookups expect; it serves them
/// all while that union has none of the squares any of them forbids. Without post masks this
/// is plain equality.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SlotDemand {
    /// What the slot holds: the union of the attacks its lookups expect.
    pub held: u64,
    /// The squares that some lookup's post mask keeps but its attacks do not have.
    pub forbidden: u64,
}

impl SlotDemand {
    /// What one lookup expecting `attacks` through `post_mask` demands.
    #[inline]
    pub fn of(attacks: u64, post_mask: u64) -> SlotDemand {
        SlotDemand {
            held: attacks,
            forbidden: post_mask & !attacks,
        }
    }

    /// Whether one more lookup expecting `attacks` through `post_mask` can read this slot.
    #[inline]
    pub fn admits(self, attacks: u64, post_mask: u64) -> bool {
        self.joins(SlotDemand::of(attacks, post_mask))
    }

    /// The demand with that lookup added.
    #[inline]
    pub fn with(self, attacks: u64, post_mask: u64) -> SlotDemand {
        self.union(SlotDemand::of(attacks, post_mask))
    }

    /// Whether one slot can serve the lookups of both demands.
    #[inline]
    pub fn joins(self, other: SlotDemand) -> bool {
        let both = self.union(other);
        both.held & both.forbidden == 0
    }

    /// What a slot serving the lookups of both demands must hold and must not.
    #[inline]
    pub fn union(self, other: SlotDemand) -> SlotDemand {
        SlotDemand {
            held: self.held | other.held,
            forbidden: self.forbidden | other.forbidden,
        }
    }
}

/// The attack table of a verified magic set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttackTable {
    /// Attack sets by slot; unused slots hold 0. In a post-masked set a slot holds the union
    /// of what the lookups reading it expect (see [`MagicSet::post_masked`]).
    pub attacks: Vec<u64>,
    /// How many slots some occupancy selects.
    pub used_slots: usize,
}

impl AttackTable {
    /// The number of entries (the largest slot used, plus one).
    pub fn entries(&self) -> usize {
        self.attacks.len()
    }
}

/// Every relevant occupancy of a square with its reference attacks.
pub fn occupancies_with_attacks(kind: SliderKind, square: u8) -> impl Iterator<Item = (u64, u64)> {
    Subsets::new(relevant_mask(kind, square))
        .map(move |occupancy| (occupancy, ray_attacks(kind, square, occupancy)))
}

/// Refuses a set whose table would have more than [`MAX_TABLE_ENTRIES`] entries, naming the
/// first entry whose slice ends past it; nothing is allocated before this.
fn check_table_size(set: &MagicSet) -> Result<(), VerifyError> {
    for kind in SliderKind::ALL {
        for (square, entry) in (0..64u8).zip(set.entries(kind)) {
            let end = entry.offset.saturating_add(1i64 << entry.bits.min(62));
            if end > MAX_TABLE_ENTRIES as i64 {
                let at = SlotUse {
                    kind,
                    square,
                    occupancy: 0,
                };
                return Err(VerifyError::TableTooLarge { at, end });
            }
        }
    }
    Ok(())
}

/// Checks every relevant occupancy of every square against the reference walker and builds the
/// shared attack table, or names the first two uses of a slot that disagree.
pub fn verify(set: &MagicSet) -> Result<AttackTable, VerifyError> {
    verify_by(set, |kind, square, _| {
        occupancies_with_attacks(kind, square).map(|(_, attacks)| attacks)
    })
}

/// [`verify`], the reference attacks read from `reference` instead of walked again: the same
/// answer, for a caller that checks several sets (`bitforge-macros` embeds three, and the
/// `PEXT` tables are those attacks).
///
/// ```
/// use bitforge_index::{MagicSet, PextTables, verify, verify_against};
///
/// let text = std::fs::read_to_string("../core/magics/fancy.magics").unwrap();
/// let set = MagicSet::parse(&text).unwrap();
/// let reference = PextTables::build();
/// assert_eq!(verify_against(&set, &reference), verify(&set));
/// ```
pub fn verify_against(set: &MagicSet, reference: &PextTables) -> Result<AttackTable, VerifyError> {
    verify_by(set, |kind, square, occupancies| {
        let offset = reference.entry(kind, square).offset;
        reference.attacks[offset..offset + occupancies]
            .iter()
            .copied()
    })
}

/// The check itself, the reference attacks of each square's occupancies (in [`Subsets`] order,
/// `count` of them) given by `reference`. Written for unoptimized builds too (a user's debug
/// build runs it in the macros): what depends only on the square is computed once per square.
fn verify_by<A: Iterator<Item = u64>>(
    set: &MagicSet,
    reference: impl Fn(SliderKind, u8, usize) -> A,
) -> Result<AttackTable, VerifyError> {
    check_table_size(set)?;
    let mut attacks: Vec<u64> = Vec::new();
    // Who filled each slot, so that a collision can name both sides.
    let mut owners: Vec<Option<SlotUse>> = Vec::new();
    let mut forbidden: Vec<u64> = Vec::new();
    let mut used_slots = 0;
    for kind in SliderKind::ALL {
        for (square, entry) in (0..64u8).zip(set.entries(kind)) {
            let post_mask = set.post_mask(kind, square);
            let mask = relevant_mask(kind, square);
            let occupancies = Subsets::new(mask);
            let count = 1usize << mask.count_ones();
            for (occupancy, expected) in occupancies.zip(reference(kind, square, count)) {
                let here = || SlotUse {
                    kind,
                    square,
                    occupancy,
                };
                let slot = entry.slot(set.scheme, mask, occupancy);
                let index = usize::try_from(slot)
                    .map_err(|_| VerifyError::NegativeSlot { at: here(), slot })?;
                if index >= attacks.len() {
                    attacks.resize(index + 1, 0);
                    owners.resize(index + 1, None);
                    forbidden.resize(index + 1, 0);
                }
                let demand = SlotDemand {
                    held: attacks[index],
                    forbidden: forbidden[index],
                };
                match owners[index] {
                    Some(first) if !demand.admits(expected, post_mask) => {
                        return Err(VerifyError::Collision {
                            slot,
                            first,
                            second: here(),
                        });
                    }
                    Some(_) => {}
                    None => {
                        owners[index] = Some(here());
                        used_slots += 1;
                    }
                }
                let demand = demand.with(expected, post_mask);
                (attacks[index], forbidden[index]) = (demand.held, demand.forbidden);
            }
        }
    }
    Ok(AttackTable {
        attacks,
        used_slots,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Scheme;
    use alloc::string::ToString;

    #[test]
    fn identity_like_magics_collide_and_say_where() {
        // A magic of 1 keeps only the top bits of the occupancy: rook a1's mask has no bit that
        // high, so every occupancy lands on index 0.
        let set = MagicSet::with_dense_offsets(
            Scheme::Fancy,
            [(1, 12); 64].map(|(m, _)| (m, 12)),
            [(1, 5); 64],
        );
        let error = verify(&set).unwrap_err();
        let culprit = error.culprit();
        assert_eq!((culprit.kind, culprit.square), (SliderKind::Rook, 0));
        assert!(
            error
                .to_string()
                .starts_with("rook a1: occupancies 0x0000000000000000 and 0x0000000000000002")
        );
    }

    #[test]
    fn a_table_past_the_limit_is_refused_before_allocating() {
        // The fuzz finding: rook a1 at offset 2^32 asked for 34 GB and aborted.
        let mut set = MagicSet::with_dense_offsets(Scheme::Fancy, [(1, 12); 64], [(1, 5); 64]);
        set.rook[0].offset = 4_294_967_296;
        let error = verify(&set).unwrap_err();
        assert_eq!(
            error,
            VerifyError::TableTooLarge {
                at: SlotUse {
                    kind: SliderKind::Rook,
                    square: 0,
                    occupancy: 0
                },
                end: 4_294_967_296 + 4096,
            }
        );
        assert!(
            error
                .to_string()
                .starts_with("rook a1: its slice would end")
        );
        assert!(error.to_string().contains("2097152 entries"));
        // The last slot allowed is fine as far as size goes (it then collides: magic 1).
        set.rook[0].offset = (MAX_TABLE_ENTRIES - 4096) as i64;
        assert!(!matches!(
            verify(&set),
            Err(VerifyError::TableTooLarge { .. })
        ));
    }

    #[test]
    fn negative_offsets_are_reported() {
        let mut set = MagicSet::with_dense_offsets(Scheme::Fancy, [(1, 12); 64], [(1, 5); 64]);
        set.rook[0].offset = -1;
        assert!(matches!(
            verify(&set),
            Err(VerifyError::NegativeSlot { slot: -1, .. })
        ));
    }
}
