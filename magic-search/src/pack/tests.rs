//! Tests of packing.

use std::sync::Mutex;
use std::sync::atomic::AtomicU64;

use super::choose::*;
use super::slices::*;
use super::stacking::*;
use super::*;
use crate::{SearchConfig, find_set};
use bitforge_index::{Entry, Scheme, SlotDemand};

fn pack_quietly(set: &MagicSet, tries: u32, anneal_steps: u64) -> Result<Packed, VerifyError> {
    let effort = PackEffort {
        tries,
        anneal_steps,
        ..PackEffort::default()
    };
    pack(set, &effort, &|_| {}, &AtomicBool::new(false))
}

pub(super) fn black_set() -> MagicSet {
    let config = SearchConfig {
        scheme: Scheme::Black,
        ..SearchConfig::default()
    };
    find_set(&config, 2, &|_| {}).0
}

#[test]
fn packing_a_fixed_set_shrinks_it_and_still_verifies() {
    let config = SearchConfig {
        scheme: Scheme::Fixed,
        ..SearchConfig::default()
    };
    let (set, _) = find_set(&config, 2, &|_| {});
    let packed = pack_quietly(&set, 2, 0).unwrap();
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
    let set = black_set();
    let plain = pack_quietly(&set, 0, 0).unwrap();
    let combined = pack_quietly(
        &MagicSet {
            post_masked: true,
            ..set
        },
        0,
        0,
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
    assert!(pack_quietly(&set, 0, 0).is_err());
    assert!(pack_quietly(&set, 0, 8).is_err());
}

#[test]
fn annealing_keeps_the_best_order_it_meets_and_repeats_with_its_seed() {
    let set = black_set();
    let tried = pack_quietly(&set, 4, 0).unwrap();
    let heard = Mutex::new(Vec::new());
    let effort = PackEffort {
        tries: 4,
        anneal_steps: 24,
        ..PackEffort::default()
    };
    let never = AtomicBool::new(false);
    let annealed = pack(&set, &effort, &|p| heard.lock().unwrap().push(p), &never).unwrap();
    let heard = heard.into_inner().unwrap();
    // It starts from the tries' best order, so it is never worse than they are.
    assert!(annealed.entries <= tried.entries);
    assert!(!annealed.stopped);
    assert_eq!(verify(&annealed.set).unwrap().entries(), annealed.entries);
    // Every order placed is reported, the best never grows, and the last is the result.
    assert_eq!(heard.len(), 28);
    assert!(
        heard
            .windows(2)
            .all(|w| w[1].best_entries <= w[0].best_entries)
    );
    assert_eq!(heard.last().unwrap().best_entries, annealed.entries);
    assert_eq!(heard.last().unwrap().orders, 28);
    let again = pack(&set, &effort, &|_| {}, &never).unwrap();
    assert_eq!(again, annealed);
}

#[test]
fn chains_give_the_smallest_of_their_seeds_and_the_first_on_a_tie() {
    let set = black_set();
    let never = AtomicBool::new(false);
    let single = |seed| {
        let effort = PackEffort {
            tries: 2,
            anneal_steps: 6,
            seed,
            ..PackEffort::default()
        };
        pack(&set, &effort, &|_| {}, &never).unwrap()
    };
    let alone: Vec<Packed> = (5..8).map(single).collect();
    let orders = AtomicU64::new(0);
    let effort = PackEffort {
        tries: 2,
        anneal_steps: 6,
        seed: 5,
        chains: 3,
        ..PackEffort::default()
    };
    let chained = pack(
        &set,
        &effort,
        &|p| {
            orders.fetch_max(p.orders, Ordering::Relaxed);
        },
        &never,
    )
    .unwrap();
    let smallest = alone.iter().map(|p| p.entries).min().unwrap();
    let first_smallest = alone.iter().find(|p| p.entries == smallest).unwrap();
    assert_eq!(&chained, first_smallest);
    assert_eq!(orders.into_inner(), 3 * 8);
}

#[test]
fn a_stopped_packing_returns_the_best_arrangement_so_far() {
    let set = black_set();
    let effort = PackEffort {
        tries: 100,
        anneal_steps: 100,
        ..PackEffort::default()
    };
    let stop = AtomicBool::new(false);
    let orders = AtomicU64::new(0);
    let packed = pack(
        &set,
        &effort,
        &|p| {
            orders.store(p.orders, Ordering::Relaxed);
            if p.orders == 3 {
                stop.store(true, Ordering::Relaxed);
            }
        },
        &stop,
    )
    .unwrap();
    assert!(packed.stopped);
    assert_eq!(orders.into_inner(), 3);
    assert!(packed.entries < packed.entries_before);
    assert_eq!(verify(&packed.set).unwrap().entries(), packed.entries);
}

/// Comb magics for rook b8 and g8 (black, 12 bits): each uses three or two neighbouring
/// slots of every eight over nearly the whole 4,096.
const COMB_B8: u64 = 0x0000_8002_0104_400a;
const COMB_G8: u64 = 0x8a00_0028_0200_7004;

/// `set` with rook b8's and g8's magics replaced by the combs, slices laid end to end.
fn with_combs(set: &MagicSet) -> MagicSet {
    let pairs = |entries: &[Entry; 64]| entries.map(|entry| (entry.magic, entry.bits));
    let mut rook = pairs(&set.rook);
    (rook[57].0, rook[62].0) = (COMB_B8, COMB_G8);
    let combs = MagicSet::with_dense_offsets(set.scheme, rook, pairs(&set.bishop));
    verify(&combs).expect("the combs are valid magics");
    combs
}

/// A slice alone, at least [`FILL_MIN_SPAN`] long, stacks into another's holes when it
/// fits them whole (here a host whose holes are its used slots, 300 slots in), even
/// sticking out a little; not when one slot of it meets the host's.
#[test]
fn a_long_slice_that_fits_another_whole_stacks_into_it() {
    let set = black_set();
    let guest = square_slice(&set, SliderKind::Rook, 27, set.rook[27].magic);
    assert!(guest.span() >= FILL_MIN_SPAN);
    let host_with_holes = |at: usize, span: usize| {
        let mut bits = vec![u64::MAX; span.div_ceil(64)];
        if !span.is_multiple_of(64) {
            *bits.last_mut().unwrap() = (1 << (span % 64)) - 1;
        }
        for slot in guest
            .used()
            .map(|slot| at + slot)
            .filter(|&slot| slot < span)
        {
            bits[slot / 64] &= !(1 << (slot % 64));
        }
        Slice {
            members: vec![Member {
                kind: SliderKind::Rook,
                square: 0,
                lowest: 0,
                at: 0,
            }],
            demands: vec![SlotDemand::default(); span],
            bits,
            plain: true,
        }
    };
    let host = host_with_holes(300, guest.span() + 600);
    let stacked = stack(vec![host.clone(), guest.clone()]);
    assert_eq!(stacked.len(), 1);
    assert_eq!(stacked[0].span(), host.span());
    assert_eq!(
        stacked[0].used_slots(),
        host.used_slots() + guest.used_slots()
    );
    // Sticking out by 40 slots: the stack is 40 longer.
    let short = host_with_holes(0, guest.span() - 40);
    let out = stack(vec![guest.clone(), short.clone()]);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].span(), short.span() + 40);
    // One of its slots taken: it stays apart.
    let mut blocked = host.clone();
    let first = guest.used().next().unwrap() + 300;
    blocked.bits[first / 64] |= 1 << (first % 64);
    assert_eq!(stack(vec![blocked, guest.clone()]).len(), 2);
}

#[test]
fn two_combs_of_one_period_stack_into_one_span() {
    let combs = with_combs(&black_set());
    let slices = slices_of(&combs);
    let (b8, g8) = (&slices[57], &slices[62]);
    assert!(is_comb(b8) && is_comb(g8));
    // They interleave, one sticking out by less than a period.
    let stacking = best_stacking(b8, g8).expect("they interleave");
    let shorter = b8.span().min(g8.span());
    assert!(stacking.saving + 8 > shorter, "{stacking:?}");
    let (host, guest) = if stacking.host_first {
        (b8, g8)
    } else {
        (g8, b8)
    };
    let merged = merge(host, guest, stacking.shift);
    assert_eq!(merged.span(), b8.span() + g8.span() - stacking.saving);
    assert_eq!(merged.used_slots(), b8.used_slots() + g8.used_slots());

    // Stacked alone, they become one slice of both.
    let stacked = stack(vec![b8.clone(), g8.clone()]);
    assert_eq!(stacked.len(), 1);
    assert_eq!(stacked[0].span(), merged.span());
    let squares: Vec<u8> = stacked[0].members.iter().map(|m| m.square).collect();
    assert_eq!(squares.len(), 2);
    assert!(squares.contains(&57) && squares.contains(&62));

    // A set packed with stacking verifies.
    let effort = PackEffort {
        tries: 2,
        stack: true,
        ..PackEffort::default()
    };
    let packed = pack(&combs, &effort, &|_| {}, &AtomicBool::new(false)).unwrap();
    assert_eq!(verify(&packed.set).unwrap().entries(), packed.entries);
    assert!(packed.entries < packed.entries_before);
}

#[test]
fn choosing_among_alternatives_takes_the_combs_that_pack_smaller() {
    let set = black_set();
    let combs = with_combs(&set);
    let effort = PackEffort {
        tries: 0,
        stack: true,
        ..PackEffort::default()
    };
    let never = AtomicBool::new(false);
    let alone = pack(&set, &effort, &|_| {}, &never).unwrap();
    // No alternatives: what `pack` gives.
    assert_eq!(
        pack_choosing(&set, &[], &effort, &|_| {}, &never),
        Ok(alone.clone())
    );

    let heard = Mutex::new(Vec::new());
    let chosen = pack_choosing(
        &set,
        std::slice::from_ref(&combs),
        &effort,
        &|p| heard.lock().unwrap().push(p),
        &never,
    )
    .unwrap();
    assert_eq!(verify(&chosen.set).unwrap().entries(), chosen.entries);
    assert!(
        chosen.entries < alone.entries,
        "{} {}",
        chosen.entries,
        alone.entries
    );
    assert_eq!(chosen.magics_changed, 2);
    assert_eq!(chosen.set.rook[57].magic, COMB_B8);
    assert_eq!(chosen.set.rook[62].magic, COMB_G8);
    assert_eq!(chosen.entries_before, alone.entries_before);
    // Two options tried in the first round, both kept; the second round tries none.
    let heard = heard.into_inner().unwrap();
    assert_eq!(heard.iter().map(|p| p.choices).max(), Some(2));
    assert_eq!(heard.last().unwrap().best_entries, chosen.entries);
    let again =
        pack_choosing(&set, std::slice::from_ref(&combs), &effort, &|_| {}, &never).unwrap();
    assert_eq!(again, chosen);

    // Alternatives must verify and match the scheme and bits.
    let mut broken = combs.clone();
    broken.rook[57].magic = 1;
    assert!(matches!(
        pack_choosing(&set, &[combs.clone(), broken], &effort, &|_| {}, &never),
        Err(ChooseError::Invalid {
            alternative: Some(1),
            ..
        })
    ));
    let fixed = MagicSet {
        scheme: Scheme::Fixed,
        ..find_set(
            &SearchConfig {
                scheme: Scheme::Fixed,
                ..SearchConfig::default()
            },
            2,
            &|_| {},
        )
        .0
    };
    let error = pack_choosing(&set, &[fixed], &effort, &|_| {}, &never).unwrap_err();
    assert_eq!(
        error.to_string(),
        "alternative 1: its scheme is fixed, the set's black"
    );
}

#[test]
fn packing_a_packed_set_never_makes_it_larger() {
    let packed = pack_quietly(&black_set(), 64, 0).unwrap();
    let never = AtomicBool::new(false);
    let quick = PackEffort {
        tries: 0,
        ..PackEffort::default()
    };
    // The largest-first order alone does worse than the 64 tries did...
    let raw = arrange(&packed.set, packed.entries, (0, 0), &quick, &|_| {}, &never).unwrap();
    assert!(
        raw.entries > packed.entries,
        "{} {}",
        raw.entries,
        packed.entries
    );
    // ...so the packed set comes back as it was.
    let again = pack(&packed.set, &quick, &|_| {}, &never).unwrap();
    assert_eq!(again.set, packed.set);
    assert_eq!(
        (again.entries, again.entries_before),
        (packed.entries, packed.entries)
    );
}

/// The descent's rounds: measured several at a time, they take what one at a time takes;
/// two combs that stack whole are offered as a pair.
#[test]
fn the_descent_takes_what_one_at_a_time_takes_and_pairs_stacking_combs() {
    let set = black_set();
    let combs = with_combs(&set);
    let other = find_set(
        &SearchConfig {
            scheme: Scheme::Black,
            seed: 9,
            ..SearchConfig::default()
        },
        2,
        &|_| {},
    )
    .0;
    let effort = PackEffort {
        tries: 2,
        stack: true,
        ..PackEffort::default()
    };
    let never = AtomicBool::new(false);
    let descent = || {
        let slices = slices_of(&set);
        Descent {
            chosen: set.clone(),
            smallest: quick_entries(&slices, &effort),
            slices,
            choices: 0,
            effort: &effort,
            progress: &|_| {},
            stop: &never,
        }
    };
    // Every fourth rook square's magic from `other`, then b8 and g8 from `combs`.
    let candidates: Vec<Vec<Change>> = (0..64u8)
        .step_by(4)
        .map(|square| {
            (
                usize::from(square),
                SliderKind::Rook,
                square,
                other.rook[usize::from(square)].magic,
            )
        })
        .chain([57u8, 62].map(|square| {
            (
                usize::from(square),
                SliderKind::Rook,
                square,
                combs.rook[usize::from(square)].magic,
            )
        }))
        .map(|change| vec![change])
        .collect();
    let mut batched = descent();
    assert!(batched.take_better(candidates.clone()));
    let mut one_at_a_time = descent();
    for candidate in &candidates {
        let entries = one_at_a_time.entries_with(candidate);
        if entries < one_at_a_time.smallest {
            one_at_a_time.smallest = entries;
            for &(i, kind, square, magic) in candidate {
                one_at_a_time.chosen.entries_mut(kind)[square as usize].magic = magic;
                one_at_a_time.slices[i] = square_slice(&set, kind, square, magic);
            }
        }
    }
    assert_eq!(batched.chosen, one_at_a_time.chosen);
    assert_eq!(batched.smallest, one_at_a_time.smallest);

    // The two combs, neither chosen, come as a pair.
    let options: Vec<(usize, SliderKind, u8, Vec<u64>)> = squares()
        .enumerate()
        .map(|(i, (kind, square))| {
            let magic = combs.entries(kind)[square as usize].magic;
            (i, kind, square, vec![magic])
        })
        .collect();
    let pairs = descent().pairs(&options);
    let b8_g8 = vec![
        (57, SliderKind::Rook, 57, COMB_B8),
        (62, SliderKind::Rook, 62, COMB_G8),
    ];
    assert!(pairs.contains(&b8_g8), "{pairs:?}");
}
