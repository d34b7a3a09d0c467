//! Packing, stacking and choosing among sets, reductions.

use super::*;
use bitforge_index::{MagicSet, SliderKind, verify};

#[test]
fn pack_shrinks_a_fixed_set_that_still_verifies() {
    let dir = scratch("pack");
    let fixed = dir.join("fixed.magics");
    let packed = dir.join("packed.magics");
    assert!(
        magic_search(&["find", "--scheme", "fixed", "--out", path_str(&fixed)])
            .status
            .success()
    );
    let output = magic_search(&[
        "pack",
        path_str(&fixed),
        "--tries",
        "2",
        "--anneal",
        "3",
        "--chains",
        "2",
        "--out",
        path_str(&packed),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let verified = magic_search(&["verify", path_str(&packed)]);
    assert!(verified.status.success(), "{}", stderr(&verified));
    let entries = |text: &str| -> usize {
        let line = text
            .lines()
            .find(|l| l.starts_with("table entries: "))
            .unwrap();
        line["table entries: ".len()..]
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let before = entries(&stdout(&magic_search(&["verify", path_str(&fixed)])));
    assert!(entries(&stdout(&verified)) < before);
}

#[test]
fn pack_stacks_and_chooses_among_other_sets_of_its_scheme() {
    let dir = scratch("choose");
    let [first, combs, fixed, alternative, packed] =
        ["first", "combs", "fixed", "alternative", "packed"]
            .map(|name| dir.join(format!("{name}.magics")));
    let find = |args: &[&str]| {
        let output = magic_search(&[&["find", "--threads", "2"][..], args].concat());
        assert!(output.status.success(), "{}", stderr(&output));
    };
    find(&["--scheme", "black", "--out", path_str(&first)]);
    find(&["--scheme", "fixed", "--out", path_str(&fixed)]);
    // Narrowing by the comb cost.
    find(&[
        "--scheme",
        "black",
        "--narrow",
        "--prefer",
        "comb",
        "--attempts",
        "2000",
        "--from",
        path_str(&first),
        "--seed",
        "3",
        "--out",
        path_str(&combs),
    ]);
    let verified = magic_search(&["verify", path_str(&combs)]);
    assert!(verified.status.success(), "{}", stderr(&verified));
    // One kind narrowed: the rooks keep the first set's magics.
    let bishops_only = dir.join("bishops-only.magics");
    find(&[
        "--scheme",
        "black",
        "--narrow",
        "--attempts",
        "2000",
        "--from",
        path_str(&first),
        "--kind",
        "bishop",
        "--seed",
        "3",
        "--out",
        path_str(&bishops_only),
    ]);
    let read = |path: &Path| MagicSet::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let rooks = |set: &MagicSet| set.entries(SliderKind::Rook).map(|entry| entry.magic);
    assert_eq!(rooks(&read(&bishops_only)), rooks(&read(&first)));

    // A kept black set (narrow slices, rank 8 without combs), and the same with comb magics
    // on rook b8 and g8 (slices laid end to end) to choose from.
    let embedded = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../results/magics/black-narrow-14-annealed.magics"
    );
    let kept = MagicSet::parse(&std::fs::read_to_string(embedded).unwrap()).unwrap();
    let pairs = |kind| kept.entries(kind).map(|entry| (entry.magic, entry.bits));
    let mut rook = pairs(SliderKind::Rook);
    (rook[57].0, rook[62].0) = (0x0000_8002_0104_400a, 0x8a00_0028_0200_7004);
    let set = MagicSet::with_dense_offsets(kept.scheme, rook, pairs(SliderKind::Bishop));
    std::fs::write(&alternative, set.to_text(&[])).unwrap();
    let output = magic_search(&[
        "pack",
        embedded,
        "--stack",
        "--tries",
        "0",
        "--choose-from",
        path_str(&alternative),
        "--out",
        path_str(&packed),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("magics chosen from the other sets: "),
        "{}",
        stderr(&output)
    );
    let text = std::fs::read_to_string(&packed).unwrap();
    assert!(
        text.contains("# magics chosen from the other sets: "),
        "{text}"
    );
    // A comb is taken where it packs smaller with the others.
    let chosen = MagicSet::parse(&text).unwrap();
    assert!(
        [57, 62]
            .iter()
            .any(|&s| chosen.rook[s].magic == set.rook[s].magic)
    );
    let verified = magic_search(&["verify", path_str(&packed)]);
    assert!(verified.status.success(), "{}", stderr(&verified));

    assert_fails(
        &magic_search(&["pack", path_str(&first), "--choose-from", path_str(&fixed)]),
        2,
        &format!(
            "{}: alternative 1: its scheme is fixed, the set's black",
            fixed.display()
        ),
        "another scheme",
    );
    let broken = dir.join("broken.magics");
    let mut bad = set.clone();
    bad.rook[0].magic = 1;
    std::fs::write(&broken, bad.to_text(&[])).unwrap();
    assert_fails(
        &magic_search(&["pack", path_str(&first), "--choose-from", path_str(&broken)]),
        1,
        &format!("{}: alternative 1: ", broken.display()),
        "an alternative that does not verify",
    );
    assert_fails(
        &magic_search(&["find", "--prefer", "most"]),
        2,
        "span, used or comb",
        "an unknown preference",
    );

    // Filling: a short annealing per attempt, the result verified and reported.
    let filled = dir.join("filled.magics");
    let output = magic_search(&[
        "pack",
        path_str(&first),
        "--stack",
        "--fill",
        "20",
        "--tries",
        "0",
        "--out",
        path_str(&filled),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("magics searched to fit another stack's holes: "),
        "{}",
        stderr(&output)
    );
    let verified = magic_search(&["verify", path_str(&filled)]);
    assert!(verified.status.success(), "{}", stderr(&verified));
    assert_fails(
        &magic_search(&["pack", path_str(&first), "--fill", "20"]),
        2,
        "--stack",
        "--fill without --stack",
    );
}

/// `reduce` writes a smaller fancy set that verifies, says so in the file and the summary,
/// refuses a set of another scheme and both budgets at once, and never overwrites.
#[test]
fn reduce_lowers_bits_and_verifies() {
    let dir = scratch("reduce");
    let (fancy, black) = (dir.join("fancy.magics"), dir.join("black.magics"));
    std::fs::write(&fancy, good_set_text()).unwrap();
    let black_set = find_set(
        &SearchConfig {
            scheme: bitforge_index::Scheme::Black,
            ..SearchConfig::default()
        },
        2,
        &|_| {},
    )
    .0;
    std::fs::write(&black, black_set.to_text(&[])).unwrap();
    let reduced = dir.join("reduced.magics");
    let run = magic_search(&[
        "reduce",
        path_str(&fancy),
        "--attempts",
        "200000",
        "--rounds",
        "1",
        "--out",
        path_str(&reduced),
    ]);
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(
        stderr(&run).contains("bits lost in 1 rounds"),
        "{}",
        stderr(&run)
    );
    let text = std::fs::read_to_string(&reduced).unwrap();
    assert!(text.contains("reduced by magic-search"), "{text}");
    let set = MagicSet::parse(&text).unwrap();
    assert!(verify(&set).unwrap().entries() < 107_648);
    assert!(
        magic_search(&["verify", path_str(&reduced)])
            .status
            .success()
    );

    assert_fails(
        &magic_search(&["reduce", path_str(&black), "--attempts", "10"]),
        2,
        "only fancy sets",
        "reduce a black set",
    );
    assert_fails(
        &magic_search(&[
            "reduce",
            path_str(&fancy),
            "--attempts",
            "10",
            "--time-budget",
            "1s",
        ]),
        2,
        "cannot be used with",
        "two budgets",
    );
    assert_fails(
        &magic_search(&["reduce", path_str(&fancy), "--out", path_str(&reduced)]),
        2,
        "already exists",
        "no overwrite",
    );
}
