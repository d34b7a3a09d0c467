//! Stacking slices into each other before placement: comb pairs and whole fits.

use std::collections::HashMap;

use super::arrange::*;
use super::slices::*;
use super::*;

/// How two slices stack: the guest's first used slot `shift` slots after the host's (before
/// it when negative), which makes their joint span `saving` slots shorter than the two spans'
/// sum.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stacking {
    pub(crate) host_first: bool,
    pub(crate) shift: isize,
    pub(crate) saving: usize,
}

/// Stacks comb slices ([`is_comb`]) into each other, greedily: the pair whose stacking saves
/// the most slots first, again and again, as long as some pair saves at least half the shorter
/// one's span. Each stack is then placed as one slice. First-fit alone places a comb wherever
/// its teeth first fit, usually across other slices' holes, and leaves its own gaps empty;
/// stacked, two or three combs of the same period fill one span. A slice alone and at least
/// [`FILL_MIN_SPAN`] long that fits whole into another stack's holes (sticking out at most
/// [`FILL_OVERHANG`] slots) is stacked there too, as it saves its span: what filling
/// ([`PackEffort::fill_steps`]) searches magics for.
pub(crate) fn stack(mut slices: Vec<Slice>) -> Vec<Slice> {
    // Each slice has an id for the pairs already measured, and whether it is a comb; a stack
    // gets a new id.
    let mut ids: Vec<usize> = (0..slices.len()).collect();
    let mut comb: Vec<bool> = slices.iter().map(is_comb).collect();
    let mut next_id = slices.len();
    let mut measured: HashMap<(usize, usize), Option<Stacking>> = HashMap::new();
    let mut measured_whole: HashMap<(usize, usize), Option<Stacking>> = HashMap::new();
    loop {
        let combs: Vec<usize> = (0..slices.len()).filter(|&i| comb[i]).collect();
        let mut best: Option<(usize, usize, Stacking)> = None;
        let mut consider = |i: usize, j: usize, stacking: Option<Stacking>| {
            if let Some(stacking) = stacking
                && best.is_none_or(|(_, _, kept)| stacking.saving > kept.saving)
            {
                best = Some((i, j, stacking));
            }
        };
        for (n, &i) in combs.iter().enumerate() {
            for &j in &combs[n + 1..] {
                let stacking = *measured
                    .entry((ids[i], ids[j]))
                    .or_insert_with(|| best_stacking(&slices[i], &slices[j]));
                consider(i, j, stacking);
            }
        }
        for (guest, slice) in slices.iter().enumerate() {
            if slice.members.len() > 1 || slice.span() < FILL_MIN_SPAN {
                continue;
            }
            for (host, other) in slices.iter().enumerate() {
                if host == guest || other.span() - other.used_slots() < slice.used_slots() {
                    continue;
                }
                let stacking = *measured_whole
                    .entry((ids[host], ids[guest]))
                    .or_insert_with(|| whole_stacking(other, slice));
                // `host_first` is relative to the pair's order, as for the combs.
                let (i, j) = (host.min(guest), host.max(guest));
                consider(
                    i,
                    j,
                    stacking.map(|stacking| Stacking {
                        host_first: host < guest,
                        ..stacking
                    }),
                );
            }
        }
        let Some((i, j, stacking)) = best else {
            return slices;
        };
        let (host, guest) = if stacking.host_first { (i, j) } else { (j, i) };
        let merged = merge(&slices[host], &slices[guest], stacking.shift);
        // `i < j`: remove `j` first, so that `i` still names its slice.
        for k in [j, i] {
            slices.swap_remove(k);
            ids.swap_remove(k);
            comb.swap_remove(k);
        }
        comb.push(is_comb(&merged));
        slices.push(merged);
        ids.push(next_id);
        next_id += 1;
    }
}

/// The stacking of `a` and `b` that saves the most slots, if one saves at least half the
/// shorter span: the shorter slice (the guest) inside the longer one (the host), see
/// [`stack_into`].
pub(crate) fn best_stacking(a: &Slice, b: &Slice) -> Option<Stacking> {
    let host_first = a.span() >= b.span();
    let (host, guest) = if host_first { (a, b) } else { (b, a) };
    stack_into(host, guest, guest.span() / 2).map(|stacking| Stacking {
        host_first,
        ..stacking
    })
}

/// How `guest` stacks into `host`'s holes whole, if it does, sticking out at most
/// [`FILL_OVERHANG`] slots: see [`stack_into`].
pub(crate) fn whole_stacking(host: &Slice, guest: &Slice) -> Option<Stacking> {
    stack_into(host, guest, FILL_OVERHANG)
}

/// Where `guest` goes into `host` sticking out the fewest slots, at most `most_out` in all:
/// inside the host's span if it fits anywhere there (the lowest shift first), else one slot
/// more out at either end, then two, and so on. A guest longer than its host sticks out by
/// the difference at least.
pub(crate) fn stack_into(host: &Slice, guest: &Slice, most_out: usize) -> Option<Stacking> {
    let room = host.span() as isize - guest.span() as isize;
    let (lowest, highest) = (room.min(0), room.max(0));
    let least_out = (-room).max(0) as usize;
    // The host's first used slot at `base`, so that every shift is a start >= 0.
    let base = guest.span() + most_out;
    let mut table = Table::default();
    table.add(host, base);
    let fits = |shift: isize| table.fits(guest, (base as isize + shift) as usize);
    let found = |shift: isize, out: usize| Stacking {
        host_first: true,
        shift,
        saving: guest.span() - out,
    };
    if least_out > most_out {
        return None;
    }
    if let Some(shift) = (lowest..=highest).find(|&shift| fits(shift)) {
        return Some(found(shift, least_out));
    }
    (1..=(most_out - least_out) as isize).find_map(|more| {
        [lowest - more, highest + more]
            .into_iter()
            .find(|&shift| fits(shift))
            .map(|shift| found(shift, least_out + more as usize))
    })
}

/// `guest` stacked into `host` with its first used slot `shift` slots after the host's.
pub(crate) fn merge(host: &Slice, guest: &Slice, shift: isize) -> Slice {
    let host_at = shift.min(0).unsigned_abs();
    let guest_at = (host_at as isize + shift) as usize;
    // A table holding both is the stack: its demands and filled bits, from the first used slot.
    let mut table = Table::default();
    let mut members = Vec::with_capacity(host.members.len() + guest.members.len());
    for (part, at) in [(host, host_at), (guest, guest_at)] {
        table.add(part, at);
        members.extend(part.members.iter().map(|member| Member {
            at: member.at + at,
            ..*member
        }));
    }
    Slice {
        members,
        demands: table.demands,
        bits: table.filled,
        plain: host.plain && guest.plain,
    }
}
