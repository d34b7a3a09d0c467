//! Kogge-Stone occluded fills: attacks computed with shifts and masks, no tables.
//!
//! A fill floods a set of sliders along one direction through the empty squares in three
//! doubling steps (1, 2, 4 squares); shifting the flood one more step gives the attacks,
//! blockers included. It works on any number of sliders at once.

use crate::{Bitboard, Square};

use super::{Baseline, Slider};

/// Attacks from occluded fills; no tables, any CPU.
#[derive(Clone, Copy, Debug, Default)]
pub struct KoggeStone;

const NOT_FILE_A: u64 = !Bitboard::FILE_A.0;
const NOT_FILE_H: u64 = !Bitboard::FILE_H.0;

/// One direction: how far a step moves the bits (left for positive) and which squares a step
/// may land on (not wrapping round to the far file).
#[derive(Clone, Copy)]
struct Ray {
    shift: i8,
    lands: u64,
}

const NORTH: Ray = Ray {
    shift: 8,
    lands: !0,
};
const SOUTH: Ray = Ray {
    shift: -8,
    lands: !0,
};
const EAST: Ray = Ray {
    shift: 1,
    lands: NOT_FILE_A,
};
const WEST: Ray = Ray {
    shift: -1,
    lands: NOT_FILE_H,
};
const NORTH_EAST: Ray = Ray {
    shift: 9,
    lands: NOT_FILE_A,
};
const NORTH_WEST: Ray = Ray {
    shift: 7,
    lands: NOT_FILE_H,
};
const SOUTH_EAST: Ray = Ray {
    shift: -7,
    lands: NOT_FILE_A,
};
const SOUTH_WEST: Ray = Ray {
    shift: -9,
    lands: NOT_FILE_H,
};

#[inline(always)]
const fn step(bits: u64, shift: i8, times: u32) -> u64 {
    if shift > 0 {
        bits << (shift as u32 * times)
    } else {
        bits >> (shift.unsigned_abs() as u32 * times)
    }
}

/// The attacks along `ray` of every slider in `sliders`, stopping at occupied squares.
#[inline(always)]
const fn ray_attacks(sliders: u64, empty: u64, ray: Ray) -> u64 {
    let mut flood = sliders;
    // Squares a flood may pass through: empty, and not wrapping.
    let mut open = empty & ray.lands;
    flood |= open & step(flood, ray.shift, 1);
    open &= step(open, ray.shift, 1);
    flood |= open & step(flood, ray.shift, 2);
    open &= step(open, ray.shift, 2);
    flood |= open & step(flood, ray.shift, 4);
    step(flood, ray.shift, 1) & ray.lands
}

/// Every square attacked by the rooks in `rooks` (any number of them).
///
/// ```
/// use bitforge::slider::kogge_stone_rooks;
/// use bitforge::{Bitboard, Square};
///
/// let both = kogge_stone_rooks(Square::A1 | Square::H8, Bitboard::EMPTY);
/// assert_eq!(both.count(), 14 + 14 - 2); // h1 and a8 are attacked twice
/// ```
#[inline(always)]
pub const fn kogge_stone_rooks(rooks: Bitboard, occupancy: Bitboard) -> Bitboard {
    let empty = !occupancy.0;
    let (r, e) = (rooks.0, empty);
    Bitboard(
        ray_attacks(r, e, NORTH)
            | ray_attacks(r, e, SOUTH)
            | ray_attacks(r, e, EAST)
            | ray_attacks(r, e, WEST),
    )
}

/// Every square attacked by the bishops in `bishops` (any number of them).
#[inline(always)]
pub const fn kogge_stone_bishops(bishops: Bitboard, occupancy: Bitboard) -> Bitboard {
    let empty = !occupancy.0;
    let (b, e) = (bishops.0, empty);
    Bitboard(
        ray_attacks(b, e, NORTH_EAST)
            | ray_attacks(b, e, NORTH_WEST)
            | ray_attacks(b, e, SOUTH_EAST)
            | ray_attacks(b, e, SOUTH_WEST),
    )
}

/// The set of `square`, its bit shifted in rather than read from the table [`Square::bitboard`]
/// reads: a loop of lookups that the compiler vectorises across squares then makes four at
/// once with one shift instead of four loads put together lane by lane (results/analysis.md,
/// issue 37).
#[inline(always)]
const fn shifted_in(square: Square) -> Bitboard {
    Bitboard(1 << square.index())
}

impl Slider for KoggeStone {
    const NAME: &'static str = "kogge-stone";
    const TABLE_BYTES: usize = 0;
    type Level = Baseline;

    #[inline]
    unsafe fn new_unchecked() -> Self {
        KoggeStone
    }

    #[inline(always)]
    fn rook_attacks(self, square: Square, occupancy: Bitboard) -> Bitboard {
        kogge_stone_rooks(shifted_in(square), occupancy)
    }

    #[inline(always)]
    fn bishop_attacks(self, square: Square, occupancy: Bitboard) -> Bitboard {
        kogge_stone_bishops(shifted_in(square), occupancy)
    }
}
