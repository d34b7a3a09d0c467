//! Every export describes the same table as the library's verified one.

use super::*;
use bitforge_index::{MagicSet, SliderKind, verify};

/// A set found with `scheme` (packed into a combined, post-masked table if `post_mask`),
/// its verified table, and its export in `format`.
fn exported(scheme: &str, format: &str, post_mask: bool) -> (MagicSet, Vec<u64>, String) {
    let dir = scratch(&format!("export_{scheme}_{format}_{post_mask}"));
    let set_path = dir.join("set.magics");
    assert!(
        magic_search(&["find", "--scheme", scheme, "--out", path_str(&set_path)])
            .status
            .success()
    );
    if post_mask {
        let found = dir.join("found.magics");
        std::fs::rename(&set_path, &found).unwrap();
        let packed = magic_search(&[
            "pack",
            path_str(&found),
            "--post-mask",
            "--tries",
            "0",
            "--out",
            path_str(&set_path),
        ]);
        assert!(packed.status.success(), "{}", stderr(&packed));
        assert!(stderr(&packed).contains("post-masked (one combined table)"));
    }
    let output = magic_search(&["export", path_str(&set_path), "--format", format]);
    assert!(output.status.success(), "{}", stderr(&output));
    let set = MagicSet::parse(&std::fs::read_to_string(&set_path).unwrap()).unwrap();
    let table = verify(&set).unwrap().attacks;
    (set, table, stdout(&output))
}

#[test]
fn json_round_trips() {
    let (set, table, text) = exported("black", "json", true);
    let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    assert_eq!(json["scheme"], "black");
    assert_eq!(json["post_masked"], true);
    let hex =
        |value: &serde_json::Value| u64::from_str_radix(&value.as_str().unwrap()[2..], 16).unwrap();
    let attacks: Vec<u64> = json["attacks"]
        .as_array()
        .unwrap()
        .iter()
        .map(hex)
        .collect();
    assert_eq!(attacks, table);
    for (square, entry) in json["rook"].as_array().unwrap().iter().enumerate() {
        assert_eq!(hex(&entry["magic"]), set.rook[square].magic);
        assert_eq!(entry["offset"].as_i64(), Some(set.rook[square].offset));
        assert_eq!(
            hex(&entry["post_mask"]),
            set.post_mask(SliderKind::Rook, square as u8)
        );
    }
}

/// One of the sets the core embeds.
pub(crate) fn embedded_set(file: &str) -> MagicSet {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../core/magics")
        .join(file);
    MagicSet::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Sums attacks over a fixed pseudo-random walk of squares and occupancies; the programs
/// built from the exports walk the same way (`CHECKSUM_LOOP`).
fn reference_checksum() -> u64 {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut sum = 0u64;
    for _ in 0..100_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let kind = SliderKind::ALL[(state & 1) as usize];
        let square = ((state >> 1) & 63) as u8;
        let attacks = bitforge_index::geometry::ray_attacks(kind, square, state);
        sum = sum.wrapping_mul(31).wrapping_add(attacks);
    }
    sum
}

const CHECKSUM_LOOP: &str = "state ^= state << 13; state ^= state >> 7; state ^= state << 17;";

/// Writes the export and a program using it into a scratch directory, compiles the program
/// with `compiler` and `flags` (which must not tolerate warnings), runs it and compares its
/// output with the reference checksum.
fn build_and_check(
    name: &str,
    export: (&str, String),
    program: (&str, String),
    compiler: &str,
    flags: &[&str],
) {
    let dir = scratch(name);
    std::fs::write(dir.join(export.0), export.1).unwrap();
    let source = dir.join(program.0);
    std::fs::write(&source, program.1).unwrap();
    let binary = dir.join("check");
    let compiled = Command::new(compiler)
        .args(flags)
        .args(["-o", path_str(&binary), path_str(&source)])
        .output()
        .unwrap_or_else(|error| panic!("{compiler} runs: {error}"));
    assert!(compiled.status.success(), "{}", stderr(&compiled));
    let run = Command::new(&binary).output().unwrap();
    assert_eq!(stdout(&run).trim(), reference_checksum().to_string());
}

#[test]
fn c_header_compiles_with_warnings_as_errors_and_matches() {
    for (scheme, post_mask) in [("fancy", false), ("black", true)] {
        c_header_matches(scheme, post_mask);
    }
}

fn c_header_matches(scheme: &str, post_mask: bool) {
    let (_, _, header) = exported(scheme, "c", post_mask);
    assert!(header.contains(&format!(
        "#define BITFORGE_POST_MASKED {}",
        u8::from(post_mask)
    )));
    let program = format!(
        "#include <stdio.h>\n#define BITFORGE_IMPLEMENTATION\n#include \"magics.h\"\nint main(void) {{\n  uint64_t state = 0x9E3779B97F4A7C15ULL, sum = 0;\n  for (int i = 0; i < 100000; i++) {{\n    {CHECKSUM_LOOP}\n    unsigned kind = state & 1, square = (state >> 1) & 63;\n    uint64_t attacks = kind ? bitforge_bishop_attacks(square, state) : bitforge_rook_attacks(square, state);\n    sum = sum * 31 + attacks;\n  }}\n  printf(\"%llu\\n\", (unsigned long long)sum);\n  return 0;\n}}\n"
    );
    let flags = [
        "-std=c99",
        "-pedantic",
        "-O1",
        "-Wall",
        "-Wextra",
        "-Werror",
    ];
    build_and_check(
        &format!("export_c_build_{scheme}_{post_mask}"),
        ("magics.h", header),
        ("main.c", program),
        "gcc",
        &flags,
    );
}

/// The struct and lookups' text of a header, the prefix and the set's own lines left out.
fn c_interface(header: &str) -> Vec<&str> {
    let start = header.find("typedef struct").unwrap();
    let end = header.find("/* The attacks of a slider").unwrap();
    header[start..end].lines().collect()
}

#[test]
fn c_headers_share_one_entry_struct_and_name_their_scheme() {
    let header = |file: &str| {
        let set = embedded_set(file);
        let options = magic_search::ExportOptions {
            provenance: vec![],
            prefix: "mine".parse().unwrap(),
        };
        let table = verify(&set).unwrap();
        String::from_utf8(magic_search::export(
            &set,
            &table,
            magic_search::Format::C,
            &options,
        ))
        .unwrap()
    };
    let plain = header("black-packed.magics");
    let combined = header("fancy-combined.magics");
    // One struct, post mask included, whatever the set; the macros say what differs.
    assert_eq!(c_interface(&plain), c_interface(&combined));
    assert!(plain.contains("    uint64_t post_mask;"));
    for (text, scheme, post_masked, rook_bits) in
        [(&plain, "BLACK", 0, "12"), (&combined, "FANCY", 1, "0")]
    {
        assert!(text.contains(&format!("#define MINE_SCHEME MINE_SCHEME_{scheme}\n")));
        assert!(text.contains(&format!("#define MINE_POST_MASKED {post_masked}\n")));
        assert!(text.contains(&format!("#define MINE_ROOK_BITS {rook_bits}\n")));
        assert!(text.contains("#ifndef MINE_H\n"));
        assert!(
            !text.contains("bitforge_"),
            "every identifier carries the prefix"
        );
    }
    // Two different sets under one prefix stop the build; one header included twice does not.
    let dir = scratch("export_c_same_prefix");
    std::fs::write(dir.join("plain.h"), &plain).unwrap();
    std::fs::write(dir.join("combined.h"), &combined).unwrap();
    let compile = |includes: &str| {
        let source = dir.join("main.c");
        std::fs::write(
            &source,
            format!("{includes}\nint main(void) {{ return 0; }}\n"),
        )
        .unwrap();
        Command::new("gcc")
            .args([
                "-std=c99",
                "-Wall",
                "-Werror",
                "-fsyntax-only",
                path_str(&source),
            ])
            .output()
            .expect("gcc runs")
    };
    let twice = compile("#include \"plain.h\"\n#include \"plain.h\"");
    assert!(twice.status.success(), "{}", stderr(&twice));
    let clash = compile("#include \"plain.h\"\n#include \"combined.h\"");
    assert!(!clash.status.success());
    assert!(
        stderr(&clash).contains("export one with another --prefix"),
        "{}",
        stderr(&clash)
    );
    // The table is aligned and the plain set's entries hold all-ones post masks.
    assert!(plain.contains("MINE_ALIGNED(64) const uint64_t mine_slider_attacks"));
    assert!(plain.contains("0xffffffffffffffffULL, "));
}

#[test]
fn an_export_names_the_file_not_its_path() {
    let dir = scratch("export_provenance");
    let nested = dir.join("somewhere").join("deeper");
    std::fs::create_dir_all(&nested).unwrap();
    let set = nested.join("mine.magics");
    std::fs::write(&set, good_set_text()).unwrap();
    for format in ["c", "rust", "json"] {
        let output = magic_search(&["export", path_str(&set), "--format", format]);
        assert!(output.status.success(), "{}", stderr(&output));
        let text = stdout(&output);
        assert!(text.contains("from mine.magics"), "{format}");
        assert!(!text.contains("somewhere"), "{format}: {}", &text[..200]);
    }
    // A newline in the name stays inside the comment.
    let odd = nested.join("two\nlines.magics");
    std::fs::write(&odd, good_set_text()).unwrap();
    for format in ["c", "rust"] {
        let output = magic_search(&["export", path_str(&odd), "--format", format]);
        assert!(output.status.success(), "{}", stderr(&output));
        assert!(
            stdout(&output).contains("from two lines.magics"),
            "{format}"
        );
    }
}

#[test]
fn prefixes_are_for_c_and_the_pext_tables_for_c_and_json() {
    let set = scratch("export_refusals").join("set.magics");
    std::fs::write(&set, good_set_text()).unwrap();
    let file = path_str(&set);
    let refused: [(&[&str], &str); 5] = [
        (
            &[file, "--format", "rust", "--prefix", "mine"],
            "no global names",
        ),
        (
            &[file, "--format", "c", "--prefix", "Mine"],
            "is not a prefix",
        ),
        (
            &[file, "--format", "c", "--prefix", "9lives"],
            "is not a prefix",
        ),
        (&["--pext", "--format", "rust"], "pext_tables!"),
        (&["--pext", "--format", "bin"], "magic sets only"),
    ];
    for (args, expected) in refused {
        let output = magic_search(&[&["export"], args].concat());
        assert_fails(&output, 2, expected, &args.join(" "));
    }
    let both = magic_search(&["export", file, "--pext", "--format", "c"]);
    assert_fails(&both, 2, "cannot be used with", "a file and --pext");
}

#[test]
fn pext_json_matches_the_shared_tables() {
    let output = magic_search(&["export", "--pext", "--format", "json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("valid JSON");
    let tables = bitforge_index::PextTables::build();
    assert_eq!(json["format"], "bitforge-pext");
    let compressed: Vec<u64> = json["compressed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|value| value.as_u64().unwrap())
        .collect();
    assert_eq!(compressed.len(), tables.compressed.len());
    assert!(
        compressed
            .iter()
            .zip(&tables.compressed)
            .all(|(&a, &b)| a == u64::from(b))
    );
    let attacks = json["attacks"].as_array().unwrap();
    assert_eq!(
        attacks[12_345].as_str().unwrap(),
        format!("{:#018x}", tables.attacks[12_345])
    );
    assert_eq!(json["bishop"][0]["offset"], 102_400);
}

#[test]
fn rust_module_compiles_and_matches() {
    for post_mask in [false, true] {
        rust_module_matches(post_mask);
    }
}

fn rust_module_matches(post_mask: bool) {
    let (_, _, module) = exported("black", "rust", post_mask);
    assert!(module.contains(&format!("pub const POST_MASKED: bool = {post_mask};")));
    let program = format!(
        "mod magics;\nfn main() {{\n  let mut state = 0x9E37_79B9_7F4A_7C15u64;\n  let mut sum = 0u64;\n  for _ in 0..100_000 {{\n    {CHECKSUM_LOOP}\n    let square = ((state >> 1) & 63) as usize;\n    let attacks = if state & 1 == 1 {{ magics::bishop_attacks(square, state) }} else {{ magics::rook_attacks(square, state) }};\n    sum = sum.wrapping_mul(31).wrapping_add(attacks);\n  }}\n  println!(\"{{sum}}\");\n}}\n"
    );
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let flags = ["--edition", "2024", "-D", "warnings", "-A", "dead_code"];
    build_and_check(
        &format!("export_rust_build_{post_mask}"),
        ("magics.rs", module),
        ("main.rs", program),
        &rustc,
        &flags,
    );
}
