//! Every embedded table equals what the reference geometry of `magic-search` computes now.

use bitforge::tables::{
    BETWEEN, CHECK_BLOCK, DISTANCE, FILE_BB, LINE, PSEUDO_ATTACKS, RANK_BB, SQUARE_BB, STEP_ATTACKS,
};
use bitforge::{Bitboard, Color, Piece, PieceType, Square};
use magic_search::SliderKind;
use magic_search::geometry as reference;

fn squares() -> impl Iterator<Item = (Square, u8)> {
    Square::ALL.into_iter().map(|square| (square, square as u8))
}

#[test]
fn masks() {
    for (square, raw) in squares() {
        assert_eq!(SQUARE_BB[square.index()], Bitboard(1 << raw));
        assert_eq!(FILE_BB[square.file().index()].0 & (1 << raw), 1 << raw);
        assert_eq!(RANK_BB[square.rank().index()].0 & (1 << raw), 1 << raw);
    }
    assert!(FILE_BB.iter().chain(&RANK_BB).all(|set| set.count() == 8));
}

#[test]
fn step_attacks() {
    for piece_code in 0..16u8 {
        for (square, raw) in squares() {
            let expected = match Piece::from_code(piece_code).map(|p| (p.color(), p.piece_type())) {
                Some((color, PieceType::Pawn)) => {
                    reference::pawn_attacks(color == Color::White, raw)
                }
                Some((_, PieceType::Knight)) => reference::knight_attacks(raw),
                Some((_, PieceType::King)) => reference::king_attacks(raw),
                _ => 0,
            };
            assert_eq!(
                STEP_ATTACKS[piece_code as usize][square.index()].0,
                expected,
                "piece code {piece_code} on {square}"
            );
        }
    }
}

#[test]
fn pseudo_attacks() {
    for (square, raw) in squares() {
        let bishop = reference::ray_attacks(SliderKind::Bishop, raw, 0);
        let rook = reference::ray_attacks(SliderKind::Rook, raw, 0);
        let expected = [
            0,
            0,
            reference::knight_attacks(raw),
            bishop,
            rook,
            bishop | rook,
            reference::king_attacks(raw),
            0,
        ];
        for (piece_type, expected) in expected.into_iter().enumerate() {
            assert_eq!(
                PSEUDO_ATTACKS[piece_type][square.index()].0,
                expected,
                "type {piece_type} on {square}"
            );
        }
    }
}

#[test]
fn lines_betweens_check_blocks_and_distances() {
    for (a, raw_a) in squares() {
        for (b, raw_b) in squares() {
            assert_eq!(
                LINE[a.index()][b.index()].0,
                reference::line(raw_a, raw_b),
                "line {a} {b}"
            );
            assert_eq!(
                BETWEEN[a.index()][b.index()].0,
                reference::between(raw_a, raw_b),
                "between {a} {b}"
            );
            let block = reference::between(raw_a, raw_b) | (1 << raw_b);
            assert_eq!(
                CHECK_BLOCK[a.index()][b.index()].0,
                block,
                "check block {a} {b}"
            );
            assert_eq!(
                DISTANCE[a.index()][b.index()],
                reference::distance(raw_a, raw_b),
                "distance {a} {b}"
            );
        }
    }
}
