//! Every embedded table equals what the reference geometry of `bitforge-index` computes now.

use bitforge::tables::{
    BETWEEN, CHECK_BLOCK, DISTANCE, FILE_BB, LINE, PSEUDO_ATTACKS, RANK_BB, SQUARE_BB, STEP_ATTACKS,
};
use bitforge::{Bitboard, Color, Piece, PieceType, Square};
use bitforge_index::SliderKind;
use bitforge_index::geometry as reference;

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
#[cfg_attr(miri, ignore = "no unsafe code here, and too slow under Miri")]
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

/// An embedded magic set equals its `.magics` file as `bitforge-index` reads and verifies it now.
macro_rules! assert_magic_set_matches {
    ($module:path, $file:literal) => {{
        use $module as embedded;
        let set = bitforge_index::MagicSet::parse(include_str!($file)).expect("the file parses");
        let table = bitforge_index::verify(&set).expect("the file verifies");
        assert_eq!(embedded::SCHEME, set.scheme.name());
        assert_eq!(embedded::ENTRIES, table.entries());
        assert!(embedded::ATTACKS[..] == table.attacks[..], "attack table");
        for (kind, entries) in [
            (SliderKind::Rook, &embedded::ROOK),
            (SliderKind::Bishop, &embedded::BISHOP),
        ] {
            for (raw, (embedded, from_file)) in (0u8..).zip(entries.iter().zip(set.entries(kind))) {
                assert_eq!(embedded.magic, from_file.magic, "{kind} {raw}");
                assert_eq!(
                    embedded.shift,
                    64 - u32::from(from_file.bits),
                    "{kind} {raw}"
                );
                assert_eq!(embedded.offset as i64, from_file.offset, "{kind} {raw}");
                assert_eq!(
                    embedded.mask,
                    reference::relevant_mask(kind, raw),
                    "{kind} {raw}"
                );
            }
        }
    }};
}

#[test]
#[cfg_attr(miri, ignore = "no unsafe code here, and too slow under Miri")]
fn fancy_magic_set() {
    assert_magic_set_matches!(bitforge::tables::fancy, "../magics/fancy.magics");
}

#[test]
#[cfg_attr(miri, ignore = "no unsafe code here, and too slow under Miri")]
fn black_magic_set() {
    assert_magic_set_matches!(bitforge::tables::black, "../magics/black-packed.magics");
}

/// Bit extraction, written out: the bits of `value` under `mask`, packed low.
fn extract(value: u64, mask: u64) -> u64 {
    let mut result = 0;
    for (position, bit) in Bitboard(mask).into_iter().enumerate() {
        result |= u64::from(value & (1 << bit as u8) != 0) << position;
    }
    result
}

/// Bit deposit, written out: the low bits of `value` onto the bits of `mask`, in order.
fn deposit(value: u64, mask: u64) -> u64 {
    let mut result = 0;
    for (position, bit) in Bitboard(mask).into_iter().enumerate() {
        if value >> position & 1 != 0 {
            result |= 1 << bit as u8;
        }
    }
    result
}

#[test]
#[cfg_attr(miri, ignore = "no unsafe code here, and too slow under Miri")]
fn pext_tables() {
    use bitforge::tables::pext;
    let mut next_offset = 0;
    for (kind, entries) in [
        (SliderKind::Rook, &pext::ROOK),
        (SliderKind::Bishop, &pext::BISHOP),
    ] {
        for (raw, entry) in (0u8..).zip(entries) {
            let mask = reference::relevant_mask(kind, raw);
            assert_eq!(entry.mask, mask);
            assert_eq!(entry.rays, reference::ray_attacks(kind, raw, 0));
            assert_eq!(entry.offset, next_offset, "slices are laid end to end");
            next_offset += 1 << mask.count_ones();
            for occupancy in Bitboard(mask).subsets() {
                let expected = reference::ray_attacks(kind, raw, occupancy.0);
                let slot = entry.offset + extract(occupancy.0, mask) as usize;
                assert_eq!(pext::ATTACKS[slot], expected, "{kind} {raw}");
                let expanded = deposit(u64::from(pext::COMPRESSED[slot]), entry.rays);
                assert_eq!(expanded, expected, "{kind} {raw} compressed");
            }
        }
    }
    assert_eq!(next_offset, pext::ENTRIES);
}
