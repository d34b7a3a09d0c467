//! Every kept set under `results/magics/` verifies (every occupancy of every square against
//! the reference walker) and has the table size its page lists: a record stands only while
//! its set verifies.

use std::path::Path;

use bitforge_index::{MagicSet, verify};

/// The number in a Markdown table cell such as " 87,506 ".
fn cell_number(cell: &str) -> Option<usize> {
    cell.trim().replace(',', "").parse().ok()
}

#[test]
fn every_kept_set_verifies_with_the_size_its_page_lists() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/magics");
    let page = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|ext| ext != "magics") {
            continue;
        }
        let name = path.file_name().unwrap().to_str().unwrap();
        let set = MagicSet::parse(&std::fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|error| panic!("{name}: {error}"));
        let table = verify(&set).unwrap_or_else(|error| panic!("{name}: {error}"));
        let row = page
            .lines()
            .find(|line| line.starts_with(&format!("| {name} |")))
            .unwrap_or_else(|| panic!("{name} is not listed in results/magics/README.md"));
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
        (57_337, "fancy-reduced-neighbours-combined-annealed.magics"),
    ] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let entries = verify(&MagicSet::parse(&text).unwrap()).unwrap().entries();
        assert_eq!(entries, record, "{name}");
    }
}

/// Every kept proof under `results/proofs/` reads, covers every root of its tree and found no
/// magic; the bishop ones (seconds to replay) recheck.
#[test]
fn every_kept_proof_covers_its_tree_and_the_small_ones_recheck() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/proofs");
    let page = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|ext| ext != "proof") {
            continue;
        }
        let name = path.file_name().unwrap().to_str().unwrap();
        let proof = magic_search::ProofReport::parse(&std::fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|error| panic!("{name}: {error}"));
        assert!(proof.is_whole_space() && proof.proves_none(), "{name}");
        assert!(
            page.contains(&format!("| {name} |")),
            "{name} is not listed"
        );
        if proof.target.kind() == bitforge_index::SliderKind::Bishop {
            assert_eq!(proof.recheck(2), Ok(()), "{name}");
        }
        checked += 1;
    }
    assert_eq!(checked, 5, "the kept proofs were found");
}
