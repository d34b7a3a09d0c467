//! The position's invariants: incremental keys and bitboards equal a recomputation after any
//! sequence of moves, undo restores everything, the single-move predicates agree with the move
//! generator, and FEN reads and writes what it should.

use bitforge::position::START_FEN;
use bitforge::slider::{FancyMagic, KoggeStone};
use bitforge::{
    CastlingRights, Color, FenErrorKind, Move, MoveKind, MoveList, Piece, PieceType, Position,
    Rank, Setup, Square,
};

mod common;
use common::{SplitMix, suite_fens_every};

/// Every suite position (FEN only).
fn suite_fens() -> impl Iterator<Item = &'static str> {
    suite_fens_every(1)
}

const GAMES_PER_POSITION: usize = if cfg!(miri) { 1 } else { 6 };
const PLIES_PER_GAME: usize = if cfg!(miri) { 6 } else { 120 };

/// Plays random games from every suite position. After each move the incremental state must
/// equal a recomputation (keys, bitboards, counts, checkers) and the position read back from
/// its own FEN; `gives_check` must predict the check; undoing everything must restore the
/// start, key included.
#[test]
fn random_games_keep_every_invariant() {
    let mut random = SplitMix(0x5EED);
    let fens: Vec<&str> = if cfg!(miri) {
        suite_fens().take(3).collect()
    } else {
        suite_fens().collect()
    };
    for fen in fens {
        let root = Position::from_fen(fen, FancyMagic).unwrap();
        for _ in 0..GAMES_PER_POSITION {
            let mut position = root.clone();
            let mut played = Vec::new();
            for _ in 0..PLIES_PER_GAME {
                let moves = position.legal_moves();
                assert_eq!(moves.len() as u64, position.count_legal_moves(), "{fen}");
                if moves.is_empty() {
                    break;
                }
                let m = moves[(random.next() % moves.len() as u64) as usize];
                let gives_check = position.gives_check(m);
                let captured = match m.kind() {
                    MoveKind::Normal | MoveKind::Promotion => position.piece_on(m.to()),
                    MoveKind::EnPassant => Piece::new(!position.side_to_move(), PieceType::Pawn),
                    MoveKind::Castling => Piece::None,
                };
                position.do_move(m);
                assert_eq!(
                    position.captured_piece(),
                    captured,
                    "{fen} after {played:?} {m}"
                );
                played.push(m);
                common::assert_rebuilds(&position);
                assert_eq!(position.in_check(), gives_check, "{fen} after {played:?}");
                let text = position.fen().to_string();
                let reread = if position.is_chess960() {
                    Position::from_fen_chess960(&text, FancyMagic)
                } else {
                    Position::from_fen(&text, FancyMagic)
                }
                .unwrap_or_else(|error| panic!("{text}: {error}"));
                assert_eq!(reread.key(), position.key(), "{text}");
                assert_eq!(reread.pawn_key(), position.pawn_key(), "{text}");
                assert_eq!(reread.material_key(), position.material_key(), "{text}");
                assert_eq!(reread.fen().to_string(), text);
            }
            while let Some(m) = played.pop() {
                assert_eq!(position.undo_move(), Some(m));
                common::assert_rebuilds(&position);
            }
            assert_eq!(position.undo_move(), None);
            assert_eq!(position, root);
            assert_eq!(position.key(), root.key());
            assert_eq!(position.fen().to_string(), root.fen().to_string());
        }
    }
}

/// `is_legal` (pseudo-legal and legal) holds for exactly the generated moves, among random
/// 16-bit values and every generated move's variations.
#[test]
fn is_legal_agrees_with_the_generator() {
    let mut random = SplitMix(0x1E6A1);
    let tries = if cfg!(miri) { 40 } else { 4_000 };
    let fens: Vec<&str> = if cfg!(miri) {
        suite_fens().skip(1).take(1).collect()
    } else {
        suite_fens().collect()
    };
    for fen in fens {
        let position = Position::from_fen(fen, KoggeStone).unwrap();
        let moves = position.legal_moves();
        for &m in moves.iter() {
            assert!(position.is_legal(m), "{fen}: {m}");
            // The same squares with another kind are legal only if generated.
            for kind in 0..4u16 {
                let variant = Move((m.0 & 0x3FFF) | (kind << 14));
                assert_eq!(
                    position.is_legal(variant),
                    moves.contains(&variant),
                    "{fen}: {variant:?}"
                );
            }
        }
        for _ in 0..tries {
            let m = Move(random.next() as u16);
            assert_eq!(position.is_legal(m), moves.contains(&m), "{fen}: {m:?}");
        }
        assert!(!position.is_legal(Move::NONE));
        assert!(!position.is_legal(Move::NULL));
    }
}

#[test]
fn null_move_passes_and_undoes() {
    let mut position = Position::start(FancyMagic);
    let key = position.key();
    assert!(position.do_null_move());
    assert_eq!(position.side_to_move(), Color::Black);
    assert_ne!(position.key(), key);
    common::assert_rebuilds(&position);
    assert_eq!(position.undo_move(), Some(Move::NULL));
    assert_eq!(position.key(), key);

    let in_check = Position::from_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", FancyMagic).unwrap();
    let mut copy = in_check.clone();
    assert!(!copy.do_null_move());
    assert_eq!(copy, in_check);
}

#[test]
fn repetition_is_detected() {
    let mut position = Position::start(FancyMagic);
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    for text in shuffle {
        assert!(!position.has_repeated());
        let m = position.parse_uci_move(text).unwrap();
        position.do_move(m);
    }
    // The start again, four plies later: a repetition within a search line of 5 plies.
    assert!(position.has_repeated());
    assert!(position.is_repetition(5));
    assert!(!position.is_repetition(4));
    assert!(position.is_draw(5));
    for text in shuffle {
        let m = position.parse_uci_move(text).unwrap();
        position.do_move(m);
    }
    // A third occurrence is a draw however short the line.
    assert!(position.is_repetition(1));

    // A repetition cannot span a null move: the start again, but not found.
    let mut position = Position::start(FancyMagic);
    let start_key = position.key();
    position.do_move(position.parse_uci_move("g1f3").unwrap());
    assert!(position.do_null_move());
    position.do_move(position.parse_uci_move("f3g1").unwrap());
    assert!(position.do_null_move());
    assert_eq!(position.key(), start_key);
    assert!(!position.has_repeated());
}

/// A game of 1,000 plies (knights shuffling after a pawn move) undoes back to its start, key
/// included; a repetition is found across a long stretch of quiet moves, as far back as the
/// fifty-move counter allows, and not past the pawn move that reset it.
#[test]
fn a_thousand_ply_game_undoes_to_the_start() {
    let start = Position::start(FancyMagic);
    let mut position = start.clone();
    let opening = ["e2e4", "e7e5"];
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let plies = if cfg!(miri) { 60 } else { 1_000 };
    let mut played = Vec::new();
    for text in opening.iter().chain(shuffle.iter().cycle()).take(plies) {
        let m = position.parse_uci_move(text).unwrap();
        assert!(position.do_move(m));
        played.push(m);
        if played.len() == 6 {
            // Four plies after the pawn moves: the position after e7e5 again.
            assert!(position.has_repeated());
        }
    }
    assert_eq!(position.undoable_plies(), plies);
    assert_eq!(position.game_ply() as usize, plies);
    assert!(position.rule50() as usize >= plies - 2);
    assert!(position.is_repetition(1));
    while let Some(m) = played.pop() {
        assert_eq!(position.undo_move(), Some(m));
    }
    assert_eq!(position.undo_move(), None);
    assert_eq!(position, start);
    assert_eq!(position.key(), start.key());
    assert_eq!(position.fen().to_string(), START_FEN);
}

/// Copy-make on the public board (`play`, and `play_into` over a stale board) and do/undo on the
/// position give the same boards, keys included, at every ply of random games from every suite
/// position (Chess960 among them); undo returns through the very same boards. A list refilled
/// at every ply (`legal_moves_into`) holds what `legal_moves` returns.
#[test]
fn copy_make_and_do_undo_agree() {
    let mut random = SplitMix(0xC0_FFEE);
    let fens: Vec<&str> = if cfg!(miri) {
        suite_fens().take(2).collect()
    } else {
        suite_fens().collect()
    };
    for fen in fens {
        let mut position = Position::from_fen(fen, KoggeStone).unwrap();
        let rules = *position.rules();
        let mut boards = vec![*position.board()];
        // One list refilled at every ply: what it held before must not stay.
        let mut refilled = MoveList::new();
        for _ in 0..PLIES_PER_GAME {
            let board = *boards.last().unwrap();
            let moves = board.legal_moves(&rules);
            assert_eq!(moves.len(), position.legal_moves().len(), "{fen}");
            board.legal_moves_into(&rules, &mut refilled);
            assert_eq!(&refilled[..], &moves[..], "{fen}");
            position.legal_moves_into(&mut refilled);
            assert_eq!(&refilled[..], &moves[..], "{fen}");
            if moves.is_empty() {
                break;
            }
            let m = moves[(random.next() % moves.len() as u64) as usize];
            let child = board.play(m, &rules);
            let mut into = boards[0];
            board.play_into(m, &rules, &mut into);
            assert_eq!(into, child, "{fen}: {m}");
            assert_eq!(
                child.count_legal_moves(&rules),
                child.legal_moves(&rules).len() as u64
            );
            position.do_move(m);
            assert_eq!(position.board(), &child, "{fen}: {m}");
            boards.push(child);
        }
        while position.undo_move().is_some() {
            boards.pop();
            assert_eq!(Some(position.board()), boards.last(), "{fen}");
        }
        assert_eq!(boards.len(), 1);
    }
}

/// A position set up field by field equals the one its FEN gives; bad setups are refused with
/// the fault named, never a panic.
#[test]
fn setups_build_what_fen_builds() {
    let fen = "1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 3 9";
    let read = Position::from_fen(fen, KoggeStone).unwrap();
    let mut setup = Setup::EMPTY;
    for square in Square::ALL {
        setup.board[square.index()] = read.piece_on(square);
    }
    setup.castling_rooks = Square::B1 | Square::F1 | Square::B8 | Square::F8;
    setup.rule50 = 3;
    setup.fullmove_number = 9;
    let built = Position::from_setup(&setup, KoggeStone).unwrap();
    assert!(
        built.is_chess960(),
        "rooks off the corners switch Chess960 on"
    );
    assert_eq!(built, read);
    assert_eq!(built.fen().to_string(), fen);

    let mut bad = setup.clone();
    bad.castling_rooks |= Square::C1; // a queen
    assert_eq!(
        Position::from_setup(&bad, KoggeStone).unwrap_err(),
        FenErrorKind::InvalidCastlingRook(Square::C1)
    );
    let mut bad = setup.clone();
    bad.board[Square::E8.index()] = Piece::None;
    assert_eq!(
        Position::from_setup(&bad, KoggeStone).unwrap_err(),
        FenErrorKind::KingCount(Color::Black, 0)
    );
    let mut bad = setup.clone();
    bad.en_passant = Some(Square::E3);
    assert_eq!(
        Position::from_setup(&bad, KoggeStone).unwrap_err(),
        FenErrorKind::EnPassantWrongRank(Square::E3)
    );
    let mut bad = setup;
    bad.fullmove_number = 1_000_000_001;
    assert_eq!(
        Position::from_setup(&bad, KoggeStone).unwrap_err(),
        FenErrorKind::InvalidFullmoveNumber
    );
}

#[test]
fn fifty_move_rule_draws_unless_mated() {
    let quiet = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w - - 100 80", FancyMagic).unwrap();
    assert!(quiet.is_draw(0));
    let mated = Position::from_fen("R3k3/8/4K3/8/8/8/8/8 b - - 100 80", FancyMagic).unwrap();
    assert!(mated.in_check() && mated.legal_moves().is_empty());
    assert!(!mated.is_draw(0));
}

#[test]
fn en_passant_square_only_when_a_capture_is_legal() {
    let mut position = Position::start(FancyMagic);
    position.do_move(position.parse_uci_move("e2e4").unwrap());
    assert_eq!(position.en_passant(), None);
    assert!(position.fen().to_string().contains(" b KQkq - "));

    // A black pawn on d4 can take e3.
    let mut position = Position::from_fen("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", FancyMagic).unwrap();
    position.do_move(position.parse_uci_move("e2e4").unwrap());
    assert_eq!(position.en_passant(), Some(Square::E3));
    let ep = Move::en_passant(Square::D4, Square::E3);
    assert!(position.legal_moves().contains(&ep));

    // The same capture would expose the black king on the fourth rank to the rook.
    let mut position = Position::from_fen("8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1", FancyMagic).unwrap();
    position.do_move(position.parse_uci_move("e2e4").unwrap());
    assert_eq!(position.en_passant(), None);

    // A FEN naming an impossible capture drops the square (same key as without it).
    let with = Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1", FancyMagic).unwrap();
    let without = Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1", FancyMagic).unwrap();
    assert_eq!(with.en_passant(), None);
    assert_eq!(with.key(), without.key());
}

#[test]
fn castling_in_uci_and_chess960_notation() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let standard = Position::from_fen(fen, FancyMagic).unwrap();
    assert!(!standard.is_chess960());
    let castle = Move::castling(Square::E1, Square::H1);
    assert_eq!(standard.parse_uci_move("e1g1"), Ok(castle));
    assert!(standard.parse_uci_move("e1h1").is_err());
    assert_eq!(castle.uci(standard.is_chess960()).to_string(), "e1g1");

    let chess960 = Position::from_fen_chess960(fen, FancyMagic).unwrap();
    assert!(chess960.is_chess960());
    assert_eq!(chess960.parse_uci_move("e1h1"), Ok(castle));
    assert_eq!(
        chess960.fen().to_string(),
        "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1"
    );

    // Shredder letters imply Chess960; so do a king and rooks off the standard squares.
    let shredder =
        Position::from_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", FancyMagic).unwrap();
    assert!(shredder.is_chess960());
    let xfen = Position::from_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1", FancyMagic).unwrap();
    assert!(xfen.is_chess960());
    assert_eq!(xfen.fen().to_string(), shredder.fen().to_string());
    assert_eq!(xfen.key(), shredder.key());
    assert_eq!(
        shredder
            .castling_info()
            .rook_square(Color::White, bitforge::CastlingSide::Queen),
        Some(Square::B1)
    );
}

#[test]
fn chess960_castling_moves_the_king_and_rook_home() {
    // King b1, rook a1: queen-side castling puts the king on c1 and the rook on d1.
    let mut position = Position::from_fen("1k6/8/8/8/8/8/8/RK6 w A - 0 1", FancyMagic).unwrap();
    let m = position.parse_uci_move("b1a1").unwrap();
    assert_eq!(m.kind(), MoveKind::Castling);
    position.do_move(m);
    assert_eq!(position.piece_on(Square::C1), Piece::WhiteKing);
    assert_eq!(position.piece_on(Square::D1), Piece::WhiteRook);
    assert_eq!(position.castling_rights(), CastlingRights::NONE);
    common::assert_rebuilds(&position);
    position.undo_move();
    assert_eq!(position.piece_on(Square::B1), Piece::WhiteKing);
    assert_eq!(position.piece_on(Square::A1), Piece::WhiteRook);
}

#[test]
fn the_218_move_position_fits() {
    let position = Position::from_fen(
        "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
        FancyMagic,
    )
    .unwrap();
    assert_eq!(position.legal_moves().len(), 218);
    assert_eq!(position.count_legal_moves(), 218);
}

#[test]
fn accessors_describe_the_position() {
    let position = Position::from_fen(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 3 17",
        FancyMagic,
    )
    .unwrap();
    assert_eq!(position.rule50(), 3);
    assert_eq!(position.fullmove_number(), 17);
    assert_eq!(position.game_ply(), 32);
    assert_eq!(position.king_square(Color::Black), Square::E8);
    assert_eq!(position.count(Piece::WhitePawn), 8);
    assert_eq!(
        position.colored(Color::White, PieceType::Knight),
        Square::E5 | Square::C3
    );
    assert_eq!(position.castling_rights(), CastlingRights::ANY);
    assert!(!position.in_check());
    // No black slider has exactly one white piece between it and the white king.
    assert_eq!(position.pinned(), bitforge::Bitboard::EMPTY);

    let pinned = Position::from_fen("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", FancyMagic).unwrap();
    assert_eq!(pinned.pinned(), Square::E2.bitboard());
    assert_eq!(pinned.pinners(Color::Black), Square::E7.bitboard());
    // A pinned bishop on a file cannot move at all.
    assert!(pinned.legal_moves().iter().all(|m| m.from() == Square::E1));
}

#[test]
fn fen_round_trips_every_suite_position() {
    // Under Miri, every tenth (each is slow there): still each suite.
    for fen in suite_fens_every(if cfg!(miri) { 10 } else { 1 }) {
        let position = Position::from_fen(fen, FancyMagic).unwrap();
        let written = position.fen().to_string();
        let reread = Position::from_fen(&written, FancyMagic).unwrap();
        assert_eq!(reread, position, "{fen}");
        assert_eq!(reread.fen().to_string(), written);
        // The suites write every field; only an en passant square with no legal capture
        // would be dropped, and these have none. Chess960 castling letters come back in
        // the order white king side, white queen side, black.
        if !position.is_chess960() {
            assert_eq!(written, fen, "{fen}");
        }
    }
}

/// Each malformed FEN names its fault and the column where it is.
#[test]
fn malformed_fens_say_what_and_where() {
    use FenErrorKind as K;
    let cases: &[(&str, FenErrorKind, usize)] = &[
        ("", K::Empty, 0),
        ("   ", K::Empty, 3),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
            K::MissingSideToMove,
            43,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x",
            K::InvalidSideToMove,
            44,
        ),
        (
            "rnbqkbnr/pppxpppp/8/8/8/8/PPPPPPPP/RNBQKBNR w",
            K::InvalidPlacementCharacter('x'),
            12,
        ),
        (
            "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w",
            K::RankTooLong(Rank::R7),
            17,
        ),
        (
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w",
            K::RankTooShort(Rank::R7),
            16,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w",
            K::TooFewRanks,
            41,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w",
            K::TooManyRanks,
            36,
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w",
            K::KingCount(Color::White, 0),
            0,
        ),
        (
            "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w",
            K::KingCount(Color::Black, 0),
            0,
        ),
        (
            "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
            K::PawnOnBackRank(Square::A1),
            0,
        ),
        ("4k3/8/8/8/8/8/4r3/4K3 b - - 0 1", K::OpponentInCheck, 0),
        (
            "QQQQkQQQ/QQQQQQQQ/8/8/8/8/8/4K3 w - - 0 1",
            K::TooMuchMaterial(Color::White),
            0,
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w KQ - 0 1",
            K::CastlingWithoutRook('K'),
            22,
        ),
        (
            "4k3/8/8/8/8/8/8/R3K2R w KK - 0 1",
            K::DuplicateCastlingRight('K'),
            25,
        ),
        (
            "4k3/8/8/8/8/8/8/R3K2R w KX - 0 1",
            K::InvalidCastlingLetter('X'),
            25,
        ),
        (
            "4k3/8/8/8/8/8/4K3/R6R w K - 0 1",
            K::CastlingWithoutKing(Color::White),
            24,
        ),
        ("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", K::InvalidEnPassant, 24),
        (
            "4k3/8/8/8/8/8/8/4K3 w - e3 0 1",
            K::EnPassantWrongRank(Square::E3),
            24,
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
            K::EnPassantWithoutPawn(Square::E6),
            24,
        ),
        ("4k3/8/8/8/8/8/8/4K3 w - - x 1", K::InvalidHalfmoveClock, 26),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 -1",
            K::InvalidFullmoveNumber,
            28,
        ),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", K::TooManyFields, 30),
    ];
    for &(fen, kind, column) in cases {
        let error = Position::from_fen(fen, FancyMagic).expect_err(fen);
        assert_eq!((error.kind, error.column), (kind, column), "{fen}: {error}");
        // The message names the column (1-based) and says what is wrong.
        assert!(
            error
                .to_string()
                .contains(&format!("column {}", column + 1))
        );
    }
}

#[test]
fn optional_fields_default() {
    let short = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b", FancyMagic).unwrap();
    assert_eq!(short.fen().to_string(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    let zero = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 0", FancyMagic).unwrap();
    assert_eq!(zero.fullmove_number(), 1);
}
