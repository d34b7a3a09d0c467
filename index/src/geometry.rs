//! Board geometry on raw `u64` bitboards: the slow, obviously correct reference code.
//!
//! Everything here is written for clarity, not speed. It is the oracle that the search, the
//! verifier, the compile-time table generator (`bitforge-macros`) and the core's tests all share,
//! so that there is exactly one definition of "the right answer".
//!
//! Squares are `0..64` with bit 0 = a1, bit 7 = h1 and bit 63 = h8 (little-endian rank-file).

use crate::SliderKind;

/// The file (0 = a) of a square.
pub const fn file_of(square: u8) -> u8 {
    square & 7
}

/// The rank (0 = first rank) of a square.
pub const fn rank_of(square: u8) -> u8 {
    square >> 3
}

/// The square on `file` and `rank`, or `None` when either is off the board.
pub const fn square_at(file: i8, rank: i8) -> Option<u8> {
    if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
        Some((rank * 8 + file) as u8)
    } else {
        None
    }
}

/// The algebraic name of a square (`0..64`), such as `"e4"`.
pub const fn square_name(square: u8) -> &'static str {
    const NAMES: [&str; 64] = [
        "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "f2", "g2",
        "h2", "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "a4", "b4", "c4", "d4", "e4", "f4",
        "g4", "h4", "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "a6", "b6", "c6", "d6", "e6",
        "f6", "g6", "h6", "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "a8", "b8", "c8", "d8",
        "e8", "f8", "g8", "h8",
    ];
    NAMES[square as usize & 63]
}

/// Parses an algebraic square name (`"a1"` to `"h8"`, lower-case).
pub fn parse_square(text: &str) -> Option<u8> {
    match text.as_bytes() {
        [file @ b'a'..=b'h', rank @ b'1'..=b'8'] => Some((rank - b'1') * 8 + (file - b'a')),
        _ => None,
    }
}

/// The attacks of a slider on `square`, walking each ray until it leaves the board or hits an
/// occupied square (which is included: it may be a capture).
pub fn ray_attacks(kind: SliderKind, square: u8, occupancy: u64) -> u64 {
    let (file, rank) = (file_of(square) as i8, rank_of(square) as i8);
    let mut attacks = 0;
    for (file_step, rank_step) in kind.steps() {
        let (mut f, mut r) = (file + file_step, rank + rank_step);
        while let Some(target) = square_at(f, r) {
            attacks |= 1 << target;
            if occupancy & (1 << target) != 0 {
                break;
            }
            f += file_step;
            r += rank_step;
        }
    }
    attacks
}

/// The empty-board ray from `square` (excluded) in the direction of one `(file, rank)` step.
pub fn ray(square: u8, (file_step, rank_step): (i8, i8)) -> u64 {
    let (mut file, mut rank) = (
        file_of(square) as i8 + file_step,
        rank_of(square) as i8 + rank_step,
    );
    let mut squares = 0;
    while let Some(target) = square_at(file, rank) {
        squares |= 1 << target;
        file += file_step;
        rank += rank_step;
    }
    squares
}

/// The squares whose occupancy can change a slider's attacks from `square`: the empty-board rays
/// without their last square on each ray (a piece on the edge blocks nothing behind it).
pub fn relevant_mask(kind: SliderKind, square: u8) -> u64 {
    const RANKS_1_8: u64 = 0xFF00_0000_0000_00FF;
    const FILES_A_H: u64 = 0x8181_8181_8181_8181;
    let own_rank = 0xFFu64 << (8 * rank_of(square));
    let own_file = 0x0101_0101_0101_0101u64 << file_of(square);
    let edges = (RANKS_1_8 & !own_rank) | (FILES_A_H & !own_file);
    ray_attacks(kind, square, 0) & !edges
}

/// Squares one step away by each of the `(file, rank)` offsets that stay on the board.
pub fn step_attacks(square: u8, offsets: &[(i8, i8)]) -> u64 {
    let (file, rank) = (file_of(square) as i8, rank_of(square) as i8);
    offsets
        .iter()
        .filter_map(|&(df, dr)| square_at(file + df, rank + dr))
        .fold(0, |set, target| set | (1 << target))
}

/// Knight moves from a square.
pub fn knight_attacks(square: u8) -> u64 {
    const JUMPS: [(i8, i8); 8] = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    step_attacks(square, &JUMPS)
}

/// King moves from a square.
pub fn king_attacks(square: u8) -> u64 {
    const STEPS: [(i8, i8); 8] = [
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-1, 0),
        (-1, 1),
    ];
    step_attacks(square, &STEPS)
}

/// Squares a pawn on `square` attacks: diagonally forward, towards rank 8 for white.
pub fn pawn_attacks(white: bool, square: u8) -> u64 {
    let forward = if white { 1 } else { -1 };
    step_attacks(square, &[(-1, forward), (1, forward)])
}

/// The slider kind whose empty-board rays join `a` and `b`, if they are aligned (and distinct).
pub fn alignment(a: u8, b: u8) -> Option<SliderKind> {
    SliderKind::ALL
        .into_iter()
        .find(|&kind| ray_attacks(kind, a, 0) & (1 << b) != 0)
}

/// The whole edge-to-edge line through `a` and `b`, both included, when they share a rank, file
/// or diagonal; empty otherwise and when `a == b`.
pub fn line(a: u8, b: u8) -> u64 {
    match alignment(a, b) {
        Some(kind) => (ray_attacks(kind, a, 0) & ray_attacks(kind, b, 0)) | (1 << a) | (1 << b),
        None => 0,
    }
}

/// The squares strictly between `a` and `b` when aligned; empty otherwise.
pub fn between(a: u8, b: u8) -> u64 {
    match alignment(a, b) {
        Some(kind) => ray_attacks(kind, a, 1 << b) & ray_attacks(kind, b, 1 << a),
        None => 0,
    }
}

/// Chebyshev (king-move) distance between two squares.
pub fn distance(a: u8, b: u8) -> u8 {
    let files = file_of(a).abs_diff(file_of(b));
    let ranks = rank_of(a).abs_diff(rank_of(b));
    files.max(ranks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rook_on_a1_sees_the_edges() {
        assert_eq!(ray_attacks(SliderKind::Rook, 0, 0), 0x0101_0101_0101_01FE);
        assert_eq!(relevant_mask(SliderKind::Rook, 0), 0x0001_0101_0101_017E);
    }

    #[test]
    fn blockers_stop_rays_and_are_included() {
        // Rook on d4 (27) with blockers on d6 (43) and b4 (25).
        let attacks = ray_attacks(SliderKind::Rook, 27, (1 << 43) | (1 << 25));
        let expected = (1 << 35)
            | (1 << 43)
            | (1 << 19)
            | (1 << 11)
            | (1 << 3)
            | (1 << 26)
            | (1 << 25)
            | (1 << 28)
            | (1 << 29)
            | (1 << 30)
            | (1 << 31);
        assert_eq!(attacks, expected);
    }

    #[test]
    fn mask_sizes_match_the_published_totals() {
        let bits = |kind| (0..64).map(move |sq| 1u64 << relevant_mask(kind, sq).count_ones());
        assert_eq!(bits(SliderKind::Rook).sum::<u64>(), 102_400);
        assert_eq!(bits(SliderKind::Bishop).sum::<u64>(), 5_248);
    }

    #[test]
    fn square_names_round_trip() {
        for sq in 0..64 {
            assert_eq!(parse_square(square_name(sq)), Some(sq));
        }
        assert_eq!(parse_square("i1"), None);
        assert_eq!(parse_square("a9"), None);
        assert_eq!(parse_square("a"), None);
    }

    #[test]
    fn lines_and_betweens() {
        // a1 and h8 share the long diagonal.
        assert_eq!(line(0, 63), 0x8040_2010_0804_0201);
        assert_eq!(between(0, 63), 0x0040_2010_0804_0200);
        // a1 and b3 are not aligned.
        assert_eq!(line(0, 17), 0);
        assert_eq!(between(0, 17), 0);
        assert_eq!(line(5, 5), 0);
        assert_eq!(distance(0, 63), 7);
        assert_eq!(distance(0, 17), 2);
    }

    #[test]
    fn step_attack_counts() {
        let knight: u32 = (0..64).map(|sq| knight_attacks(sq).count_ones()).sum();
        let king: u32 = (0..64).map(|sq| king_attacks(sq).count_ones()).sum();
        assert_eq!(knight, 336);
        assert_eq!(king, 420);
        assert_eq!(pawn_attacks(true, 8), 1 << 17);
        assert_eq!(pawn_attacks(false, 15), 1 << 6);
    }
}
