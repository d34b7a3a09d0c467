//! Choosing each square's random stream for the default seed, as Stockfish chooses its
//! per-rank seeds: the number of candidates a square needs before its first magic is a
//! geometric variable with a long tail (one rook square took 1.3 million with the plain
//! streams), so the default fancy search draws each square from the stream, among the first
//! `tries`, that reaches a magic soonest. The magics are still found by the search, every run.

use super::{DEFAULT_SEED, SearchConfig, SquareSearch};
use bitforge_index::Scheme;
use bitforge_index::SliderKind;

/// What tuning one square found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TunedSquare {
    /// The slider kind.
    pub kind: SliderKind,
    /// The square.
    pub square: u8,
    /// The chosen stream offset.
    pub offset: u16,
    /// Candidates the search tries with it before its first magic.
    pub candidates: u64,
    /// Candidates with the plain stream (offset 0).
    pub plain_candidates: u64,
}

/// For each square, the offset among `0..tries` whose stream gives the default seed's fancy
/// search its first magic after the fewest candidates. Deterministic (candidates are counted,
/// not timed); `on_square` hears each square as it is done.
pub fn tune_stream_offsets(tries: u16, on_square: &mut dyn FnMut(&TunedSquare)) -> [[u16; 64]; 2] {
    let config = SearchConfig {
        scheme: Scheme::Fancy,
        seed: DEFAULT_SEED,
        ..SearchConfig::default()
    };
    let mut offsets = [[0u16; 64]; 2];
    for kind in SliderKind::ALL {
        for square in 0..64u8 {
            let mut search = SquareSearch::new(kind, square, &config, 0);
            let plain = search
                .candidates_to_first_magic(u64::MAX)
                .expect("a full-width search always ends");
            let (mut best, mut best_offset) = (plain, 0);
            for offset in 1..tries {
                search.restart(offset);
                // Only a stream that beats the best so far needs to run to its end.
                if let Some(candidates) = search.candidates_to_first_magic(best - 1) {
                    (best, best_offset) = (candidates, offset);
                }
            }
            offsets[kind as usize][usize::from(square)] = best_offset;
            on_square(&TunedSquare {
                kind,
                square,
                offset: best_offset,
                candidates: best,
                plain_candidates: plain,
            });
        }
    }
    offsets
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chosen_stream_is_never_worse_than_the_plain_one_and_reproduces_its_count() {
        let config = SearchConfig::default();
        let mut seen = 0;
        tune_stream_offsets(3, &mut |tuned| {
            assert!(tuned.offset < 3);
            assert!(tuned.candidates <= tuned.plain_candidates, "{tuned:?}");
            // A fresh search on the chosen stream counts what the restarted one did.
            let mut fresh = SquareSearch::new(tuned.kind, tuned.square, &config, tuned.offset);
            assert_eq!(
                fresh.candidates_to_first_magic(u64::MAX),
                Some(tuned.candidates),
                "{tuned:?}"
            );
            seen += 1;
        });
        assert_eq!(seen, 128);
    }
}
