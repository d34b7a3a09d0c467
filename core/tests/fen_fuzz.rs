//! FEN reading never panics: random text, FEN-alphabet text and mutated real FENs. Whatever is
//! accepted is a consistent position that writes itself back and generates moves.
//!
//! `PROPTEST_CASES` sets the inputs per test (default 10,000; the million-input run is
//! `PROPTEST_CASES=1000000 cargo test --release -p bitforge --test fen_fuzz`).

mod common;

use bitforge::Position;
use bitforge::position::PerftLine;
use bitforge::slider::FancyMagic;
use proptest::prelude::*;

fn config() -> ProptestConfig {
    let default = 10_000;
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(default);
    ProptestConfig {
        // Under Miri each input costs seconds: a couple per strategy show the code is sound.
        cases: if cfg!(miri) { cases.min(2) } else { cases },
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// The FEN of the suites' `index`-th line (modulo their length; only that line is parsed).
fn suite_fen(index: usize) -> &'static str {
    let line = common::suite_lines().nth(index % common::suite_lines().count());
    PerftLine::parse(line.unwrap()).unwrap().fen
}

/// Reads `text`; an accepted position must be sound.
fn check(text: &str) {
    let Ok(mut position) = Position::from_fen(text, FancyMagic) else {
        return;
    };
    common::assert_rebuilds(&position);
    let written = position.fen().to_string();
    let reread = Position::from_fen(&written, FancyMagic).expect("own FEN reads back");
    assert_eq!(reread, position, "{text} -> {written}");
    let moves = position.legal_moves();
    assert_eq!(moves.len() as u64, position.count_legal_moves());
    // Under Miri, every eighth move (each is slow there).
    for &m in moves.iter().step_by(if cfg!(miri) { 8 } else { 1 }) {
        position.do_move(m);
        common::assert_rebuilds(&position);
        position.undo_move();
    }
}

/// One edit of a FEN: replace, insert or delete a character.
#[derive(Clone, Debug)]
enum Edit {
    Replace(usize, char),
    Insert(usize, char),
    Delete(usize),
}

fn fen_char() -> impl Strategy<Value = char> {
    prop::sample::select(
        "pnbrqkPNBRQK0123456789/ -wbKQkqABCDEFGHabcdefgh\u{e9}\t"
            .chars()
            .collect::<Vec<_>>(),
    )
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), fen_char()).prop_map(|(at, c)| Edit::Replace(at, c)),
        (any::<usize>(), fen_char()).prop_map(|(at, c)| Edit::Insert(at, c)),
        any::<usize>().prop_map(Edit::Delete),
    ]
}

fn apply(fen: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = fen.chars().collect();
    for edit in edits {
        let len = chars.len().max(1);
        match *edit {
            Edit::Replace(at, c) if !chars.is_empty() => chars[at % len] = c,
            Edit::Insert(at, c) => chars.insert(at % (chars.len() + 1), c),
            Edit::Delete(at) if !chars.is_empty() => {
                chars.remove(at % len);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn arbitrary_text(text in common::any_text(100)) {
        check(&text);
    }

    #[test]
    fn fen_alphabet_text(chars in prop::collection::vec(fen_char(), 0..100)) {
        check(&chars.into_iter().collect::<String>());
    }

    #[test]
    fn mutated_real_fens(index in any::<usize>(), edits in prop::collection::vec(edit(), 1..4)) {
        check(&apply(suite_fen(index), &edits));
    }
}
