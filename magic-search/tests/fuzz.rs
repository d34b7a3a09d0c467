//! The readers never panic, abort or allocate without bound: mutated `.magics` files (then
//! verified), mutated hunt state files (then written back and merged), mutated proof files
//! (then written back, merged, resumed and rechecked), mutated set search
//! state files (then written back, resumed and merged) and mutated binary exports. Whatever is
//! accepted is consistent.
//!
//! `PROPTEST_CASES` sets the inputs per test (default 300; the million-input run is
//! `PROPTEST_CASES=1000000 cargo test --release -p magic-search --test fuzz`).

use std::sync::OnceLock;
use std::sync::atomic::AtomicBool;

use bitforge_index::{
    AttackTable, BINARY_VERSION, MAX_TABLE_ENTRIES, MagicSet, Scheme, SliderKind, from_binary,
    to_binary, verify,
};
use magic_search::{
    BitsTarget, Budget, Chunk, FindState, HuntReport, ProofReport, SearchConfig, Target, hunt,
    prove,
};
use proptest::prelude::*;

const SETS: [&str; 2] = [
    include_str!("../../core/magics/fancy.magics"),
    include_str!("../../core/magics/black-packed.magics"),
];

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(300);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Valid binary exports of the fancy set, plain and post-masked, made once.
fn binary(post_masked: bool) -> &'static [u8] {
    static BYTES: OnceLock<[Vec<u8>; 2]> = OnceLock::new();
    &BYTES.get_or_init(|| {
        [false, true].map(|post_masked| {
            let set = MagicSet {
                post_masked,
                ..MagicSet::parse(SETS[0]).unwrap()
            };
            to_binary(&set, &verify(&set).unwrap())
        })
    })[usize::from(post_masked)]
}

/// A hunt state file with magics in it: bishop d8, five bits, a short range.
fn hunt_file() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let target = Target::new(SliderKind::Bishop, 59, 5, Scheme::Fancy).unwrap();
        let start = HuntReport::new(target, 0x20_8000..0x20_9000);
        let report = hunt(start, 1, 4, &|_| {}, &|_| {}, &AtomicBool::new(false));
        assert!(report.found_count > 0);
        report.to_text(&["fuzz seed".to_owned()])
    })
}

/// A proof file with magics in it: bishop d8, five bits, 16 roots; and the proof of the 16
/// roots after them, a part to merge a mutated file with.
fn proof_files() -> &'static (String, ProofReport) {
    static FILES: OnceLock<(String, ProofReport)> = OnceLock::new();
    FILES.get_or_init(|| {
        let target = Target::new(SliderKind::Bishop, 59, 5, Scheme::Fancy).unwrap();
        let walk = |roots| {
            let start = ProofReport::new(target, roots).unwrap();
            prove(start, 1, 4, &|_| {}, &|_| {}, &AtomicBool::new(false)).unwrap()
        };
        let first = walk(0x400..0x410);
        assert!(first.tally.found_count > 0);
        (first.to_text(&["fuzz seed".to_owned()]), walk(0x410..0x420))
    })
}

/// The finished hunt of the range right after [`hunt_file`]'s: a part to merge a mutated file
/// with, so that merging adds the mutated counts to real ones.
fn next_hunt() -> &'static HuntReport {
    static REPORT: OnceLock<HuntReport> = OnceLock::new();
    REPORT.get_or_init(|| {
        let first = HuntReport::parse(hunt_file()).unwrap();
        let start = HuntReport::new(first.target, first.range.end..first.range.end + 0x1000);
        hunt(start, 1, 4, &|_| {}, &|_| {}, &AtomicBool::new(false))
    })
}

/// Set search state files with squares at every stage: done, paused in a reduced level (fancy
/// `--bits min`) or while narrowing (black `--narrow`), not started.
fn find_files() -> &'static [String; 2] {
    static TEXTS: OnceLock<[String; 2]> = OnceLock::new();
    TEXTS.get_or_init(|| {
        let minimising = SearchConfig {
            bits: BitsTarget::Minimise,
            budget: Budget::Attempts(6000),
            ..SearchConfig::default()
        };
        let narrowing = SearchConfig {
            scheme: Scheme::Black,
            narrow: true,
            budget: Budget::Attempts(6000),
            ..SearchConfig::default()
        };
        [minimising, narrowing].map(|config| {
            let mut state = FindState::new(config, Chunk::new(1, 40).unwrap());
            state.squares[0].resume(&config, &mut || false);
            state.squares[1].resume(&config, &mut || true);
            assert!(!state.squares[1].is_done() && state.squares[1].best.is_some());
            state.to_text(&["fuzz seed".to_owned()])
        })
    })
}

/// A table a verified set may have.
fn bounded(table: &AttackTable) {
    assert!(table.entries() <= MAX_TABLE_ENTRIES);
}

/// One edit of a text: replace, insert or delete a character, or put a number in place of a
/// word (offsets, magics, bit counts and ranges are where the limits are).
#[derive(Clone, Debug)]
enum Edit {
    Replace(usize, char),
    Insert(usize, char),
    Delete(usize),
    Number(usize, String),
}

fn text_char() -> impl Strategy<Value = char> {
    prop::sample::select(
        "0123456789abcdefx -#\n\trookbishopa1h8fancyblackfixedtargetrangedonefull:reducednarrowyes/\u{e9}"
            .chars()
            .collect::<Vec<_>>(),
    )
}

fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<u64>().prop_map(|n| n.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| format!("{n:#x}")),
        (0u32..=130).prop_map(|p| format!("{:#x}", 1u128.checked_shl(p).unwrap_or(u128::MAX))),
        prop::sample::select(vec!["0", "-1", "4294967296", "22", "23", "64", "0x0"])
            .prop_map(str::to_owned),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), text_char()).prop_map(|(at, c)| Edit::Replace(at, c)),
        (any::<usize>(), text_char()).prop_map(|(at, c)| Edit::Insert(at, c)),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), number()).prop_map(|(at, n)| Edit::Number(at, n)),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for edit in edits {
        let len = chars.len().max(1);
        match edit {
            Edit::Replace(at, c) if !chars.is_empty() => chars[at % len] = *c,
            Edit::Insert(at, c) => chars.insert(at % (chars.len() + 1), *c),
            Edit::Delete(at) if !chars.is_empty() => {
                chars.remove(at % len);
            }
            Edit::Number(at, number) => {
                // Replace the whitespace-separated word around `at`.
                let at = at % len;
                let is_word = |c: &char| !c.is_whitespace();
                let start = chars[..at.min(chars.len())]
                    .iter()
                    .rposition(|c| !is_word(c))
                    .map_or(0, |p| p + 1);
                let end = chars[start..]
                    .iter()
                    .position(|c| !is_word(c))
                    .map_or(chars.len(), |p| start + p);
                chars.splice(start..end, number.chars());
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// One edit of bytes: a byte, a little-endian word at an offset (header fields and entries
/// are words), or a new length.
#[derive(Clone, Debug)]
enum ByteEdit {
    Byte(usize, u8),
    Word(usize, u64),
    Length(usize),
}

fn byte_edit() -> impl Strategy<Value = ByteEdit> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(at, b)| ByteEdit::Byte(at, b)),
        // Mostly the header and the entries, where the sizes and formulas are.
        (0usize..5184, any::<u64>()).prop_map(|(at, w)| ByteEdit::Word(at, w)),
        (
            0usize..5184,
            prop::sample::select(vec![
                0u64,
                1,
                2,
                3,
                32,
                64,
                128,
                5184,
                1 << 21,
                (1 << 21) + 1,
                u64::MAX
            ])
        )
            .prop_map(|(at, w)| ByteEdit::Word(at & !7, w)),
        any::<usize>().prop_map(ByteEdit::Length),
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn mutated_magics_files(which in 0usize..2, edits in prop::collection::vec(edit(), 1..4)) {
        let text = apply(SETS[which], &edits);
        if let Ok(set) = MagicSet::parse(&text)
            && let Ok(table) = verify(&set)
        {
            bounded(&table);
            // What reads and verifies writes back the same set.
            assert_eq!(MagicSet::parse(&set.to_text(&[])), Ok(set));
        }
    }

    #[test]
    fn mutated_hunt_files(edits in prop::collection::vec(edit(), 1..4)) {
        let text = apply(hunt_file(), &edits);
        if let Ok(report) = HuntReport::parse(&text) {
            assert_eq!(HuntReport::parse(&report.to_text(&[])), Ok(report.clone()));
            // Merged with the next part: a merge either refuses or counts every magic both
            // parts found, so an empty result is never claimed for a range with magics.
            if let Ok(merged) = HuntReport::merge(&[report.clone(), next_hunt().clone()], 16) {
                assert!(merged.found_count >= next_hunt().found_count);
                assert!(merged.found_count >= report.found_count);
            }
            // Resumed: the hunt continues from the file (stopped after its first blocks).
            let resumed = hunt(report.clone(), 1, 16, &|_| {}, &|_| {}, &AtomicBool::new(true));
            assert!(resumed.found_count >= report.found_count && resumed.done >= report.done);
        }
    }

    #[test]
    fn mutated_proof_files(edits in prop::collection::vec(edit(), 1..4)) {
        let (file, next) = proof_files();
        let text = apply(file, &edits);
        if let Ok(report) = ProofReport::parse(&text) {
            assert_eq!(ProofReport::parse(&report.to_text(&[])), Ok(report.clone()));
            if let Ok(merged) = ProofReport::merge(&[report.clone(), next.clone()], 16) {
                assert!(merged.tally.found_count >= next.tally.found_count);
            }
            // Resumed (stopped at once) and rechecked: whatever was accepted is walked or
            // refused, never a panic.
            let stop = AtomicBool::new(true);
            let resumed = prove(report.clone(), 1, 16, &|_| {}, &|_| {}, &stop).unwrap();
            assert!(resumed.done >= report.done);
            // A recheck walks the roots again: a few of the original target's only, since a
            // mutated target's roots (another square, kind or bit count) can take minutes.
            if report.target == next.target && report.roots.end - report.roots.start <= 0x40 {
                let _ = report.recheck(1);
            }
        }
    }

    #[test]
    fn mutated_find_files(which in 0usize..2, edits in prop::collection::vec(edit(), 1..4)) {
        let text = apply(&find_files()[which], &edits);
        if let Ok(mut state) = FindState::parse(&text) {
            assert_eq!(FindState::parse(&state.to_text(&[])), Ok(state.clone()));
            // Every square continues from what the file says, a few thousand candidates each.
            let config = state.config;
            for square in &mut state.squares {
                square.resume(&config, &mut || true);
            }
            let _ = state.stats();
            let _ = FindState::merge(&[state]);
        }
    }

    #[test]
    fn mutated_binary_exports(
        post_masked in any::<bool>(),
        edits in prop::collection::vec(byte_edit(), 1..4),
    ) {
        let mut bytes = binary(post_masked).to_vec();
        for edit in edits {
            match edit {
                ByteEdit::Byte(at, b) => {
                    let len = bytes.len().max(1);
                    if let Some(byte) = bytes.get_mut(at % len) {
                        *byte = b;
                    }
                }
                ByteEdit::Word(at, w) => {
                    if at + 8 <= bytes.len() {
                        bytes[at..at + 8].copy_from_slice(&w.to_le_bytes());
                    }
                }
                ByteEdit::Length(at) => bytes.truncate(at % (bytes.len() + 1)),
            }
        }
        if let Ok((set, table)) = from_binary(&bytes) {
            bounded(&table);
            let written = to_binary(&set, &table);
            if bytes[8..12] == BINARY_VERSION.to_le_bytes() {
                assert_eq!(written, bytes);
            } else {
                assert_eq!(from_binary(&written), Ok((set, table)));
            }
        }
    }
}
