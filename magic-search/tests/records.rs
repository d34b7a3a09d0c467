//! Every kept set under `results/magics/` verifies (every occupancy of every square against
//! the reference walker) and has the table size its page lists: a record stands only while
//! its set verifies.

use std::path::Path;

use bitforge_index::{MagicSet, verify};

/// The number in a Markdown table cell such as " 87,506 ".
fn cell_number(cell: &str) -> Option<usize> {
    cell.trim().replace(',', "").parse().ok()
}

/// A file kept under `results/`: its name, its text and its row on the folder's page.
struct Listed {
    name: String,
    text: String,
    row: String,
}

/// Every file ending in `.extension` in `results/folder`, each with its row on the folder's
/// `README.md` (a table whose first cell names the file).
fn listed_files(folder: &str, extension: &str) -> Vec<Listed> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../results")
        .join(folder);
    let page = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let mut listed = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|ext| ext != extension) {
            continue;
        }
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        let row = page
            .lines()
            .find(|line| line.starts_with(&format!("| {name} |")))
            .unwrap_or_else(|| panic!("{name} is not listed in results/{folder}/README.md"))
            .to_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        listed.push(Listed { name, text, row });
    }
    listed
}

#[test]
fn every_kept_set_verifies_with_the_size_its_page_lists() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/magics");
    let mut checked = 0;
    for Listed { name, text, row } in listed_files("magics", "magics") {
        let set = MagicSet::parse(&text).unwrap_or_else(|error| panic!("{name}: {error}"));
        let table = verify(&set).unwrap_or_else(|error| panic!("{name}: {error}"));
        // | file | scheme | table entries | KiB | command |
        let listed = row.split('|').nth(3).and_then(cell_number);
        assert_eq!(listed, Some(table.entries()), "{name}: listed as {row}");
        checked += 1;
    }
    assert!(checked >= 20, "the kept sets were found");
    // The records the page names.
    for (record, name) in [
        (87_506, "black-filled-annealed.magics"),
        (95_424, "fancy-reduced-neighbours.magics"),
        (92_864, "fancy-reduced-proved.magics"),
        (57_337, "fancy-reduced-neighbours-combined-annealed.magics"),
        (56_312, "fancy-reduced-proved-combined-annealed.magics"),
    ] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let entries = verify(&MagicSet::parse(&text).unwrap()).unwrap().entries();
        assert_eq!(entries, record, "{name}");
    }
}

/// The most nodes a kept proof may have for the test to replay it: seven proofs (rook h7's with
/// its magics) take seconds each; the largest take hours (`merge --recheck` replays those).
const SMALL_PROOF_NODES: u64 = 700_000_000;

/// Every kept proof under `results/proofs/` reads and covers every root of its tree; one that
/// its page lists as "no ..." found no magic, one listed with its magics found that many, each
/// valid; the small ones recheck.
#[test]
fn every_kept_proof_covers_its_tree_and_the_small_ones_recheck() {
    let (mut checked, mut rechecked) = (0, 0);
    for Listed { name, text, row } in listed_files("proofs", "proof") {
        let name = name.as_str();
        let proof = magic_search::ProofReport::parse(&text)
            .unwrap_or_else(|error| panic!("{name}: {error}"));
        assert!(proof.is_whole_space(), "{name}");
        // | file | proves | nodes tested | time | command |
        let proves = row.split('|').nth(2).unwrap().trim();
        if proves.starts_with("no ") {
            assert!(proof.proves_none(), "{name}: {row}");
        } else {
            // "exactly 4 10-bit fancy magics for rook h7 (modulo 2^49)"
            let count = proves.split(' ').nth(1).and_then(cell_number);
            assert_eq!(
                count,
                Some(proof.tally.found_count as usize),
                "{name}: {row}"
            );
            assert_found_magics_are_valid(name, &proof);
        }
        if nodes_tested(&proof) <= SMALL_PROOF_NODES {
            assert_eq!(proof.recheck(2), Ok(()), "{name}");
            rechecked += 1;
        }
        checked += 1;
    }
    assert!(checked >= 8 && rechecked >= 7, "the kept proofs were found");
}

/// The nodes a proof tested, every level's summed.
fn nodes_tested(proof: &magic_search::ProofReport) -> u64 {
    proof.tally.levels.iter().map(|level| level.tested).sum()
}

/// Every magic a proof lists is one, with the index range it lists.
fn assert_found_magics_are_valid(name: &str, proof: &magic_search::ProofReport) {
    for found in proof.tally.best.iter().chain(&proof.tally.found) {
        let check = magic_search::check_magic(proof.target, found.magic)
            .unwrap_or_else(|error| panic!("{name}: {:#x}: {error}", found.magic));
        assert_eq!((check.lowest, check.highest), (found.lowest, found.highest));
    }
}

/// Every chunk of a proof under way (`results/proofs/partial/`) reads, has covered a start of
/// its own roots and no more, lists only valid magics, and is listed on its page with the
/// roots it has done, the nodes it tested, the magics it found and its time: the next run
/// resumes from the file, and the page says how far it is.
#[test]
fn every_proof_under_way_reads_and_its_page_says_how_far_it_is() {
    let mut checked = 0;
    for Listed { name, text, row } in listed_files("proofs/partial", "proof") {
        let name = name.as_str();
        let proof = magic_search::ProofReport::parse(&text)
            .unwrap_or_else(|error| panic!("{name}: {error}"));
        assert!(
            proof.roots.start <= proof.done && proof.done <= proof.roots.end,
            "{name}"
        );
        assert_found_magics_are_valid(name, &proof);
        // | file | roots | done | nodes tested | magics found | time |
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        assert_eq!(
            cells[2],
            format!("{:#x}..{:#x}", proof.roots.start, proof.roots.end),
            "{name}: {row}"
        );
        assert_eq!(cells[3], format!("{:#x}", proof.done), "{name}: {row}");
        assert_eq!(
            cell_number(cells[4]),
            usize::try_from(nodes_tested(&proof)).ok(),
            "{name}: {row}"
        );
        assert_eq!(
            cell_number(cells[5]),
            Some(proof.tally.found_count as usize),
            "{name}: {row}"
        );
        // The time in whole seconds, rounded.
        let seconds = (proof.elapsed_ms + 500) / 1000;
        assert_eq!(
            cells[6].strip_suffix(" s").and_then(cell_number),
            usize::try_from(seconds).ok(),
            "{name}: {row}"
        );
        checked += 1;
    }
    assert!(checked >= 1, "the proofs under way were found");
}
