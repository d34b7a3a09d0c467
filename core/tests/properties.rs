//! Properties of the tables and the value types, over every square or random values.

use bitforge::tables::{self, BETWEEN, LINE, PSEUDO_ATTACKS};
use bitforge::{
    Bitboard, CastlingRights, Color, Direction, File, Move, MoveKind, Piece, PieceType, Rank,
    Score, Square, UciMove, make_score,
};
use proptest::prelude::*;

mod common;

#[test]
fn between_lies_inside_line() {
    for a in Square::ALL {
        for b in Square::ALL {
            let between = BETWEEN[a.index()][b.index()];
            assert_eq!(
                between - LINE[a.index()][b.index()],
                Bitboard::EMPTY,
                "{a} {b}"
            );
            if LINE[a.index()][b.index()].is_empty() {
                assert!(between.is_empty());
            }
        }
    }
}

/// A piece type's code is its low three bits: each type's own discriminant, `None` for 0 and 7
/// (the board reads a square's type as three bits, and an illegal move may make any three).
#[test]
fn piece_type_codes_read_the_low_three_bits() {
    for code in 0..=u8::MAX {
        let expected = PieceType::LIST
            .into_iter()
            .find(|piece_type| *piece_type as u8 == code & 7)
            .unwrap_or(PieceType::None);
        assert_eq!(PieceType::from_code(code), expected, "code {code}");
    }
}

#[test]
fn line_is_symmetric_and_holds_both_ends() {
    for a in Square::ALL {
        for b in Square::ALL {
            let line = tables::line(a, b);
            assert_eq!(line, tables::line(b, a));
            assert_eq!(tables::between(a, b), tables::between(b, a));
            if !line.is_empty() {
                assert!(line.contains(a) && line.contains(b));
                assert!(line.count() >= 2);
            }
        }
    }
}

#[test]
fn queen_is_rook_or_bishop() {
    for square in Square::ALL {
        let [bishop, rook, queen] = [PieceType::Bishop, PieceType::Rook, PieceType::Queen]
            .map(|piece_type| PSEUDO_ATTACKS[piece_type.index()][square.index()]);
        assert_eq!(queen, rook | bishop);
        assert!((rook & bishop).is_empty());
    }
}

#[test]
fn knight_attack_counts_sum_to_336() {
    let total: u32 = Square::ALL
        .into_iter()
        .map(|square| tables::knight_attacks(square).count())
        .sum();
    assert_eq!(total, 336);
}

#[test]
fn shifts_agree_with_square_offsets() {
    for square in Square::ALL {
        for direction in Direction::ALL {
            let shifted = square.bitboard().shift(direction);
            assert_eq!(
                shifted.first(),
                square.offset(direction),
                "{square} {direction:?}"
            );
            assert!(shifted.count() <= 1);
        }
    }
    assert!(
        tables::king_attacks(Square::E4)
            == Direction::ALL
                .into_iter()
                .fold(Bitboard::EMPTY, |set, d| set
                    | Square::E4.bitboard().shift(d))
    );
}

fn any_square() -> impl Strategy<Value = Square> {
    (0u8..64).prop_map(Square::from_index_masked)
}

fn any_color() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::White), Just(Color::Black)]
}

proptest! {
    #[test]
    fn relative_square_is_an_involution(square in any_square(), color in any_color()) {
        prop_assert_eq!(square.relative(color).relative(color), square);
        prop_assert_eq!(square.flip_rank().flip_rank(), square);
        prop_assert_eq!(bitforge::relative_rank(color, bitforge::relative_rank(color, square.rank())), square.rank());
    }

    #[test]
    fn colour_flip_is_an_involution(code in 0u8..16, color in any_color()) {
        prop_assert_eq!(color.flip().flip(), color);
        if let Some(piece) = Piece::from_code(code) {
            prop_assert_eq!(piece.flip().flip(), piece);
            if piece != Piece::None {
                prop_assert_eq!(piece.flip().color(), piece.color().flip());
                prop_assert_eq!(piece.flip().piece_type(), piece.piece_type());
                prop_assert_eq!(Piece::new(piece.color(), piece.piece_type()), piece);
            }
        }
        prop_assert_eq!(CastlingRights(code).flip().flip(), CastlingRights(code));
    }

    #[test]
    fn score_round_trips_both_halves(mg in any::<i16>(), eg in any::<i16>(), mg2 in -10000i16..10000, eg2 in -10000i16..10000) {
        let score = make_score(mg, eg);
        prop_assert_eq!((score.mg(), score.eg()), (mg, eg));
        let mg = mg / 4;
        let eg = eg / 4;
        let sum = make_score(mg, eg) + make_score(mg2, eg2);
        prop_assert_eq!((sum.mg(), sum.eg()), (mg + mg2, eg + eg2));
        let difference = make_score(mg, eg) - make_score(mg2, eg2);
        prop_assert_eq!((difference.mg(), difference.eg()), (mg - mg2, eg - eg2));
        prop_assert_eq!((-make_score(mg, eg)).eg(), -eg);
        prop_assert_eq!(Score::ZERO + make_score(mg, eg), make_score(mg, eg));
    }

    #[test]
    fn move_round_trips_every_field(from in any_square(), to in any_square(), promotion in 2u8..6, kind in 0u8..4) {
        let piece = PieceType::from_code(promotion);
        let mv = match kind {
            0 => Move::new(from, to),
            1 => Move::promotion(from, to, piece),
            2 => Move::en_passant(from, to),
            _ => Move::castling(from, to),
        };
        prop_assert_eq!(mv.from(), from);
        prop_assert_eq!(mv.to(), to);
        prop_assert_eq!(mv.kind() as u8, kind);
        prop_assert_eq!(mv.is_ok(), from != to);
        if mv.kind() == MoveKind::Promotion {
            prop_assert_eq!(mv.promotion_type(), piece);
        }
        if kind < 2 && from != to {
            let text = mv.to_string();
            let parsed: UciMove = text.parse().unwrap();
            let expected = UciMove::Move { from, to, promotion: (kind == 1).then_some(piece) };
            prop_assert_eq!(parsed, expected);
        }
    }

    #[test]
    fn squares_parse_what_they_print(square in any_square()) {
        prop_assert_eq!(square.to_string().parse::<Square>(), Ok(square));
        prop_assert_eq!(Square::new(square.file(), square.rank()), square);
        prop_assert_eq!(File::from_char(square.file().to_char()), Ok(square.file()));
        prop_assert_eq!(Rank::from_char(square.rank().to_char()), Ok(square.rank()));
    }

    #[test]
    fn parsing_never_panics(text in common::any_text(7)) {
        let _ = text.parse::<Square>();
        let _ = text.parse::<UciMove>();
        let _ = text.parse::<CastlingRights>();
        for c in text.chars() {
            let _ = Piece::from_char(c);
        }
    }

    #[test]
    fn bitboard_iteration_and_counts(bits in any::<u64>()) {
        let set = Bitboard(bits);
        let squares: Vec<Square> = set.into_iter().collect();
        prop_assert_eq!(squares.len() as u32, set.count());
        prop_assert_eq!(squares.iter().fold(Bitboard::EMPTY, |acc, &s| acc | s), set);
        prop_assert!(squares.windows(2).all(|pair| pair[0] < pair[1]));
        prop_assert_eq!(set.more_than_one(), set.count() > 1);
        if !set.is_empty() {
            prop_assert_eq!(set.lsb(), squares[0]);
            prop_assert_eq!(set.msb(), *squares.last().unwrap());
        }
        prop_assert_eq!(Bitboard(bits & 0xFFFF_0000).pawn_attacks(Color::White),
            Bitboard(bits & 0xFFFF_0000).shift(Direction::NORTH_WEST) | Bitboard(bits & 0xFFFF_0000).shift(Direction::NORTH_EAST));
        prop_assert_eq!(!set - set, !set);
        prop_assert_eq!(set ^ set, Bitboard::EMPTY);
    }

    #[test]
    fn subsets_are_all_distinct_subsets(bits in any::<u64>()) {
        let set = Bitboard(bits & 0x0000_0F00_0000_0F0F);
        let subsets: Vec<Bitboard> = set.subsets().collect();
        prop_assert_eq!(subsets.len(), 1 << set.count());
        prop_assert!(subsets.iter().all(|s| (*s - set).is_empty()));
        prop_assert_eq!(*subsets.last().unwrap(), set);
    }
}

#[test]
fn bitboard_prints_as_the_grid_it_parses_from() {
    let set = Square::A1 | Square::H8 | Square::E4;
    let text = set.to_string();
    assert_eq!(text.lines().count(), 8);
    assert_eq!(text.lines().next(), Some(". . . . . . . X"));
    assert_eq!(text.lines().nth(4), Some(". . . . X . . ."));
    assert!(format!("{set:?}").starts_with("Bitboard(0x8000000010000001)\n"));
}

#[test]
fn parse_errors_say_what_is_wrong() {
    assert_eq!(
        "e9".parse::<Square>().unwrap_err().to_string(),
        "'9' is not a rank (1 to 8)"
    );
    assert_eq!(
        "e".parse::<Square>().unwrap_err().to_string(),
        "expected a square such as e4"
    );
    assert_eq!(
        "e7e8x".parse::<UciMove>().unwrap_err().to_string(),
        "'x' is not a promotion (n, b, r or q)"
    );
    assert_eq!(
        "KQkqK".parse::<CastlingRights>().unwrap_err().to_string(),
        "'K' is not allowed in the castling field (KQkq at most once each, or -)"
    );
    assert_eq!(
        Piece::from_char('z').unwrap_err().to_string(),
        "'z' is not a piece letter (PNBRQK or pnbrqk)"
    );
}

#[test]
fn raw_square_encoding() {
    assert_eq!(Square::to_raw(None), 64);
    assert_eq!(Square::to_raw(Some(Square::H8)), 63);
    assert_eq!(Square::from_raw(64), None);
    assert_eq!(Square::from_raw(0), Some(Square::A1));
    assert_eq!(Move::NULL.from(), Square::B1);
    assert_eq!(Move::NULL.to(), Square::B1);
    assert_eq!(Move::NONE.to_string(), "0000");
}
