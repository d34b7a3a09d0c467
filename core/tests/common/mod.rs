//! What several test files share.

// Each test file uses a part of it.
#![allow(dead_code)]

/// SplitMix64: a fixed, dependency-free stream of test inputs.
pub(crate) struct SplitMix(pub(crate) u64);

impl SplitMix {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Asserts that `position`'s incremental board (pieces, rights, en passant square, fifty-move
/// counter and all three keys) equals the one built from scratch from its own FEN.
pub(crate) fn assert_rebuilds<S: bitforge::slider::Slider>(position: &bitforge::Position<S>) {
    let text = position.fen().to_string();
    let rebuilt = if position.is_chess960() {
        bitforge::Position::from_fen_chess960(&text, position.slider())
    } else {
        bitforge::Position::from_fen(&text, position.slider())
    }
    .unwrap_or_else(|error| panic!("{text}: {error}"));
    assert_eq!(rebuilt.board(), position.board(), "{text}");
}
