//! The ray walk: slow, obviously right, and the oracle every other backend is tested against.

use crate::{Bitboard, Direction, Square};

use super::{Baseline, Slider};

/// Walks each ray square by square until it leaves the board or meets an occupied square.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reference;

/// The squares `directions` reach from `square`, each ray stopping at its first occupied square.
fn walk(square: Square, occupancy: Bitboard, directions: [Direction; 4]) -> Bitboard {
    let mut attacks = Bitboard::EMPTY;
    for direction in directions {
        let mut at = square;
        while let Some(next) = at.offset(direction) {
            attacks |= next;
            if occupancy.contains(next) {
                break;
            }
            at = next;
        }
    }
    attacks
}

impl Slider for Reference {
    const NAME: &'static str = "reference";
    const TABLE_BYTES: usize = 0;
    type Level = Baseline;

    unsafe fn new_unchecked() -> Self {
        Reference
    }

    fn rook_attacks(self, square: Square, occupancy: Bitboard) -> Bitboard {
        use Direction as D;
        walk(square, occupancy, [D::NORTH, D::EAST, D::SOUTH, D::WEST])
    }

    fn bishop_attacks(self, square: Square, occupancy: Bitboard) -> Bitboard {
        use Direction as D;
        let diagonals = [D::NORTH_EAST, D::SOUTH_EAST, D::SOUTH_WEST, D::NORTH_WEST];
        walk(square, occupancy, diagonals)
    }
}
