//! The tables' contents, computed from the reference geometry of `bitforge-index`.

use bitforge_index::SliderKind;
use bitforge_index::geometry::{
    between, distance, king_attacks, knight_attacks, pawn_attacks, ray_attacks,
};

/// Piece codes, as `bitforge` encodes them: `color << 3 | type`.
const PAWN: usize = 1;
const KNIGHT: usize = 2;
const BISHOP: usize = 3;
const ROOK: usize = 4;
const QUEEN: usize = 5;
const KING: usize = 6;
const BLACK: usize = 8;

pub(crate) fn square_masks() -> Vec<u64> {
    (0..64).map(|square| 1u64 << square).collect()
}

pub(crate) fn file_masks() -> Vec<u64> {
    (0..8)
        .map(|file| 0x0101_0101_0101_0101u64 << file)
        .collect()
}

pub(crate) fn rank_masks() -> Vec<u64> {
    (0..8).map(|rank| 0xFFu64 << (8 * rank)).collect()
}

fn by_square(attacks: impl Fn(u8) -> u64) -> Vec<u64> {
    (0..64).map(attacks).collect()
}

pub(crate) fn step_attacks() -> Vec<Vec<u64>> {
    let mut table = vec![vec![0; 64]; 16];
    for color in [0, BLACK] {
        table[color | PAWN] = by_square(|square| pawn_attacks(color == 0, square));
        table[color | KNIGHT] = by_square(knight_attacks);
        table[color | KING] = by_square(king_attacks);
    }
    table
}

pub(crate) fn pseudo_attacks() -> Vec<Vec<u64>> {
    let mut table = vec![vec![0; 64]; 8];
    let bishop = |square| ray_attacks(SliderKind::Bishop, square, 0);
    let rook = |square| ray_attacks(SliderKind::Rook, square, 0);
    table[KNIGHT] = by_square(knight_attacks);
    table[BISHOP] = by_square(bishop);
    table[ROOK] = by_square(rook);
    table[QUEEN] = by_square(|square| bishop(square) | rook(square));
    table[KING] = by_square(king_attacks);
    table
}

pub(crate) fn check_block(king: u8, checker: u8) -> u64 {
    between(king, checker) | (1 << checker)
}

pub(crate) fn pairs(of: impl Fn(u8, u8) -> u64) -> Vec<Vec<u64>> {
    (0..64).map(|a| by_square(|b| of(a, b))).collect()
}

pub(crate) fn distances() -> Vec<Vec<u8>> {
    (0..64)
        .map(|a| (0..64).map(|b| distance(a, b)).collect())
        .collect()
}
