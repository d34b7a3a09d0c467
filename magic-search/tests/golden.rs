//! The same commands give the same files: a find, a reduced-bit find, a black find, two packs
//! and a reduce with fixed seeds, compared byte for byte with what the tool wrote before the
//! crates were split by audience (`tests/golden/`, written by the command in each file's
//! header, run in that directory). A change that alters a search's stream, a packing's order or
//! the file format shows here.

use std::path::Path;
use std::process::Command;

/// Each golden file and the arguments that wrote it (inputs first: later commands read the
/// files earlier ones wrote).
const RUNS: [(&str, &[&str]); 6] = [
    (
        "find.magics",
        &[
            "find",
            "--seed",
            "7",
            "--threads",
            "1",
            "--out",
            "find.magics",
        ],
    ),
    (
        "black.magics",
        &[
            "find",
            "--scheme",
            "black",
            "--seed",
            "3",
            "--threads",
            "1",
            "--out",
            "black.magics",
        ],
    ),
    (
        "packed.magics",
        &[
            "pack",
            "black.magics",
            "--tries",
            "8",
            "--anneal",
            "50",
            "--seed",
            "5",
            "--out",
            "packed.magics",
        ],
    ),
    (
        "combined.magics",
        &[
            "pack",
            "black.magics",
            "--stack",
            "--post-mask",
            "--tries",
            "4",
            "--seed",
            "2",
            "--out",
            "combined.magics",
        ],
    ),
    (
        "minus1.magics",
        &[
            "find",
            "--bits",
            "-1",
            "--attempts",
            "200000",
            "--seed",
            "11",
            "--out",
            "minus1.magics",
        ],
    ),
    (
        "reduced.magics",
        &[
            "reduce",
            "find.magics",
            "--attempts",
            "100000",
            "--rounds",
            "1",
            "--seed",
            "4",
            "--out",
            "reduced.magics",
        ],
    ),
];

#[test]
fn find_pack_and_reduce_write_the_golden_files() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("golden");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    for (file, args) in RUNS {
        let output = Command::new(env!("CARGO_BIN_EXE_magic-search"))
            .args(args)
            .current_dir(&dir)
            .output()
            .expect("the binary runs");
        assert!(
            output.status.success(),
            "{}: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr)
        );
        let written = std::fs::read_to_string(dir.join(file)).unwrap();
        let expected = std::fs::read_to_string(golden.join(file)).unwrap();
        assert!(
            written == expected,
            "magic-search {} wrote another {file} than tests/golden/{file}",
            args.join(" ")
        );
    }
}
