//! Chooses each square's random stream for the default fancy search and writes the table the
//! search uses, `magic-search/src/tuned_streams.rs` (see `magic_search::tune`).
//!
//! ```sh
//! cargo run --release -p magic-search --example tune_streams -- 1024
//! ```
//!
//! The argument is how many streams to try per square (default 1024, at most 65,535). After it,
//! regenerate the embedded set with `magic-search find --out core/magics/fancy.magics --force`.

use std::process::ExitCode;

use magic_search::tune_stream_offsets;

const TABLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/tuned_streams.rs");

fn main() -> ExitCode {
    let tries = match std::env::args().nth(1).map(|text| text.parse::<u16>()) {
        None => 1024,
        Some(Ok(tries)) if tries >= 1 => tries,
        Some(_) => {
            eprintln!("error: the number of streams per square must be 1 to 65535");
            return ExitCode::from(2);
        }
    };
    let (mut before, mut after) = (0u64, 0u64);
    let offsets = tune_stream_offsets(tries, &mut |tuned| {
        before += tuned.plain_candidates;
        after += tuned.candidates;
        eprintln!(
            "{:?} {:>2}: stream {:>5}, {:>9} candidates (plain stream {})",
            tuned.kind, tuned.square, tuned.offset, tuned.candidates, tuned.plain_candidates
        );
    });
    eprintln!("candidates for a full set: {after} (plain streams {before})");
    let rows = offsets
        .iter()
        .map(|row| {
            let numbers: Vec<String> = row.iter().map(u16::to_string).collect();
            format!("    [{}],\n", numbers.join(", "))
        })
        .collect::<String>();
    let text = format!(
        "//! Written by `cargo run --release -p magic-search --example tune_streams -- {tries}`; do \
         not edit.\n\n\
         /// Per slider kind (rook, bishop) and square: which of the square's random streams the \
         fancy\n/// search draws from (see [`tune_stream_offsets`](crate::tune_stream_offsets)).\n\
         #[rustfmt::skip]\n\
         pub const FANCY_STREAM_OFFSETS: [[u16; 64]; 2] = [\n{rows}];\n"
    );
    if let Err(error) = std::fs::write(TABLE, text) {
        eprintln!("error: cannot write {TABLE}: {error}");
        return ExitCode::FAILURE;
    }
    eprintln!("wrote {TABLE}");
    ExitCode::SUCCESS
}
