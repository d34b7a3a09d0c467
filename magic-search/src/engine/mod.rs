//! The search engine: one square's search for a magic (seeded random candidates, a cheap early
//! reject, a collision check that never clears its table), what it is asked for and what it
//! finds. The set searches, hunts and reductions all test candidates through it.

mod candidate_filter;
mod full_width;
mod problem;
mod square;
#[cfg(target_arch = "x86_64")]
mod stream_jump;
mod tester;
mod tune;
mod tuned_streams;

pub(crate) use problem::{MAX_COMB_PERIOD, Problem, comb_footprint};
pub use square::{SquareProgress, Stage};
pub(crate) use square::{SquareSearch, mixed_density_candidate, sparse_candidate};
pub(crate) use tester::Tester;
pub use tune::{TunedSquare, tune_stream_offsets};
pub use tuned_streams::FANCY_STREAM_OFFSETS;

use std::time::Duration;

use bitforge_index::{Scheme, SliderKind};

/// The seed the command line uses when none is given.
pub const DEFAULT_SEED: u64 = 0x0B17_F06E;

/// How many index bits to ask of each square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BitsTarget {
    /// As many bits as the relevant mask has (or the scheme's fixed 12/9): a magic always exists.
    #[default]
    Mask,
    /// `n` fewer bits than the mask on every square ("hard" magics). A square whose budget runs
    /// out keeps the best magic it found.
    Fewer(u8),
    /// As few bits as the budget allows: one fewer at a time, per square, until a level fails.
    Minimise,
}

impl core::fmt::Display for BitsTarget {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            BitsTarget::Mask => f.write_str("mask"),
            BitsTarget::Fewer(n) => write!(f, "-{n}"),
            BitsTarget::Minimise => f.write_str("min"),
        }
    }
}

impl core::str::FromStr for BitsTarget {
    type Err = String;

    /// `mask`, `min` or `-N` with N from 1 to 8.
    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "mask" => Ok(BitsTarget::Mask),
            "min" => Ok(BitsTarget::Minimise),
            _ => match text.strip_prefix('-').map(str::parse::<u8>) {
                Some(Ok(fewer @ 1..=8)) => Ok(BitsTarget::Fewer(fewer)),
                _ => Err(format!(
                    "'{text}' is not mask, min or -N with N from 1 to 8"
                )),
            },
        }
    }
}

/// What makes one valid magic better than another when a fixed or black search chooses among
/// candidates or narrows: what packs the square's slice tighter among the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Prefer {
    /// Fewer slots from the lowest index used to the highest: a short slice.
    #[default]
    Span,
    /// Fewer distinct slots used (more occupancies sharing a slot with the same attacks), then
    /// the shorter span: a slice with more holes, though scattered ones, which packing seldom
    /// fills (results/analysis.md, issue 19).
    Used,
    /// A smaller comb cost: the comb footprint (the span, or for a slice whose used slots
    /// fall into a few neighbouring residues modulo a period, a comb, only its teeth) plus an
    /// eighth of the span, since a comb's gaps are filled only where combs of
    /// its period fit them: a dense slice keeps its span unless a comb is much better. Combs
    /// of one period interleave, two or three in one span, when packed with
    /// [`PackEffort::stack`](crate::PackEffort::stack); the rank-8 rook squares have such
    /// magics and few short ones. Which combs pack best together, no search of one square
    /// sees: [`pack_choosing`](crate::pack_choosing) chooses among several searches' magics.
    Comb,
}

impl core::fmt::Display for Prefer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Prefer::Span => "span",
            Prefer::Used => "used",
            Prefer::Comb => "comb",
        })
    }
}

impl core::str::FromStr for Prefer {
    type Err = String;

    /// `span`, `used` or `comb`.
    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "span" => Ok(Prefer::Span),
            "used" => Ok(Prefer::Used),
            "comb" => Ok(Prefer::Comb),
            _ => Err(format!("'{text}' is not span, used or comb")),
        }
    }
}

/// The widest vector instructions a search may use to draw its candidates and test them
/// cheaply. The result never depends on them (the same candidates in the same order, the same
/// magics): only the speed does, so a narrower choice serves to measure a path that CPUs
/// without the wider instructions run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Vectors {
    /// None: plain code, with POPCNT where the CPU has it.
    Scalar,
    /// AVX2 where the CPU has it, except where plain code is the faster: AMD's Zen 1, which
    /// runs a 256-bit instruction as two halves.
    Avx2,
    /// The widest the CPU has: AVX-512 (F, DQ, BW, VPOPCNTDQ), else AVX2 as above, else none.
    #[default]
    Widest,
}

impl core::fmt::Display for Vectors {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Vectors::Scalar => "scalar",
            Vectors::Avx2 => "avx2",
            Vectors::Widest => "widest",
        })
    }
}

impl core::str::FromStr for Vectors {
    type Err = String;

    /// `scalar`, `avx2` or `widest`.
    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "scalar" => Ok(Vectors::Scalar),
            "avx2" => Ok(Vectors::Avx2),
            "widest" => Ok(Vectors::Widest),
            _ => Err(format!("'{text}' is not scalar, avx2 or widest")),
        }
    }
}

/// When a search for a reduced-bit magic, or for a narrower span, gives up (a full-width magic
/// is always searched to the end). A narrowing search counts from its last improvement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Candidates tried per square and bit level. Deterministic.
    Attempts(u64),
    /// Wall-clock time per square and bit level. Results then depend on the machine's speed.
    Time(Duration),
}

impl core::fmt::Display for Budget {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Budget::Attempts(n) => write!(f, "{n} attempts"),
            Budget::Time(time) => write!(f, "{time:?}"),
        }
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget::Attempts(1 << 24)
    }
}

/// What to search for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// The index formula.
    pub scheme: Scheme,
    /// The seed of every square's random stream.
    pub seed: u64,
    /// Index bits to demand.
    pub bits: BitsTarget,
    /// When reduced-bit and narrowing searches give up.
    pub budget: Budget,
    /// For the fixed and black schemes: among this many valid magics per square, keep the best
    /// by `prefer` (which packs better). 1 keeps the first found.
    pub candidates: u32,
    /// For the fixed and black schemes: after the candidates, keep looking for magics better
    /// by `prefer` than the one kept, until `budget` candidates in a row bring no better one.
    pub narrow: bool,
    /// What makes a magic better for `candidates` and `narrow`.
    pub prefer: Prefer,
    /// The widest vector instructions the search may use. Only its speed depends on them.
    pub vectors: Vectors,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            scheme: Scheme::Fancy,
            seed: DEFAULT_SEED,
            bits: BitsTarget::Mask,
            budget: Budget::default(),
            candidates: 1,
            narrow: false,
            prefer: Prefer::Span,
            vectors: Vectors::Widest,
        }
    }
}

/// The outcome for one square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SquareResult {
    /// The slider kind.
    pub kind: SliderKind,
    /// The square.
    pub square: u8,
    /// The magic found.
    pub magic: u64,
    /// Its index bits.
    pub bits: u8,
    /// Candidate multipliers tried (including those rejected early).
    pub candidates_tried: u64,
}

/// Totals over a whole set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Candidate multipliers tried.
    pub candidates_tried: u64,
    /// Squares searched.
    pub squares: usize,
}

/// A valid magic and the lowest and highest index it uses: what a search keeps, a hunt lists
/// and the state files record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Found {
    /// The magic.
    pub magic: u64,
    /// The lowest index it uses.
    pub lowest: usize,
    /// The highest index it uses.
    pub highest: usize,
}

impl Found {
    /// The slots from the lowest index used to the highest.
    pub fn span(&self) -> usize {
        self.highest - self.lowest + 1
    }
}

/// Finds a magic for one square.
pub fn find_square(kind: SliderKind, square: u8, config: &SearchConfig) -> SquareResult {
    let mut progress = SquareProgress::new(kind, square, config);
    progress.resume(config, &mut || false);
    progress
        .result()
        .expect("a search that never pauses ends with a magic")
}

#[cfg(test)]
mod tests {
    use super::problem::longest_circular_gap;
    use super::square::PAUSE_CHECK;
    use super::*;
    use crate::set_search::find_set;
    use bitforge_index::verify;

    #[test]
    fn a_comb_blocks_its_teeth_and_a_dense_slice_its_span() {
        // Used slots 5, 6, 7 of every 8, over 4,096 slots: teeth 3 wide, 512 of them.
        let residues = (0..128)
            .filter(|r| r % 8 >= 5)
            .fold(0u128, |m, r| m | 1 << r);
        assert_eq!(comb_footprint(4096, residues), 3 * 512);
        // Every residue used: no gap to share, the span.
        assert_eq!(comb_footprint(1024, u128::MAX), 1024);
    }

    #[test]
    fn a_full_fancy_set_verifies_with_the_published_size() {
        let (set, stats) = find_set(&SearchConfig::default(), 1, &|_| {});
        assert_eq!(stats.squares, 128);
        let table = verify(&set).expect("the search only returns valid magics");
        assert_eq!(table.entries(), 107_648);
    }

    #[test]
    fn the_tuned_streams_keep_the_default_fancy_search_short() {
        let (_, stats) = find_set(&SearchConfig::default(), 1, &|_| {});
        // 9,384 with the committed table; the plain streams took 10,249,680.
        assert!(
            stats.candidates_tried < 20_000,
            "{}",
            stats.candidates_tried
        );
    }

    /// Every path this CPU can run ([`Path::runnable`], whether or not `Path::choose` picks
    /// it) finds the first full-width magic after the same candidates as
    /// the one-at-a-time loop, leaving the stream in the same place, whether it pauses at every
    /// chance (batches that end at every pause point) or never (block after block); and whole
    /// searches that choose among candidates end alike.
    #[test]
    fn every_vector_path_searches_alike() {
        use super::candidate_filter::Path;
        use super::square::{Step, full_bits, stream_words};
        use super::tester::Limits;
        let mut most = 0;
        let paths = Path::runnable();
        for scheme in [Scheme::Fancy, Scheme::Black] {
            let config = SearchConfig {
                scheme,
                // The fancy streams are tuned for the default seed: another needs many blocks.
                seed: 1,
                candidates: 3,
                ..SearchConfig::default()
            };
            for (kind, square) in [
                (SliderKind::Rook, 0),
                (SliderKind::Rook, 27),
                (SliderKind::Bishop, 9),
            ] {
                let start = |path| {
                    let mut search =
                        SquareSearch::resume(SquareProgress::new(kind, square, &config), &config);
                    search.path = path;
                    search
                };
                let bits = full_bits(kind, square, scheme);
                let mut plain = start(Path::Scalar);
                let unlimited = Some(Budget::Attempts(u64::MAX));
                let Step::Found(found) =
                    plain.next_magic(bits, unlimited, false, Limits::NONE, &mut || false)
                else {
                    panic!("an unlimited search ends with a magic");
                };
                let expected = (found, plain.progress.tried, stream_words(&plain.rng));
                most = most.max(plain.progress.tried);

                let mut whole_searches = Vec::new();
                for &path in &paths {
                    for pause in [true, false] {
                        let mut search = start(path);
                        let found = loop {
                            match search.next_full_width_magic(bits, &mut || pause) {
                                Step::Found(found) => break found,
                                Step::Paused => assert!(pause),
                                Step::Exhausted => panic!("a full-width stage never runs out"),
                            }
                        };
                        let got = (found, search.progress.tried, stream_words(&search.rng));
                        assert_eq!(got, expected, "{scheme} {kind:?} {square} {path:?}");

                        let mut search = start(path);
                        while !search.progress.is_done() {
                            search.run(&config, &mut || pause);
                        }
                        let progress = search.progress();
                        whole_searches.push((progress.best, progress.tried, progress.stream));
                    }
                }
                assert!(
                    whole_searches
                        .iter()
                        .all(|whole| *whole == whole_searches[0]),
                    "{scheme} {kind:?} {square}: {whole_searches:?}"
                );
            }
        }
        // Past the first pause interval, the paths draw whole blocks: many of them here.
        assert!(most > 10 * PAUSE_CHECK, "{most}");
        eprintln!("paths run here: {paths:?}");
    }

    #[test]
    fn thread_count_does_not_change_the_set() {
        let config = SearchConfig {
            scheme: Scheme::Black,
            ..SearchConfig::default()
        };
        let (one, _) = find_set(&config, 1, &|_| {});
        let (two, _) = find_set(&config, 2, &|_| {});
        assert_eq!(one, two);
        verify(&one).unwrap();
    }

    #[test]
    fn seeds_change_the_set() {
        let other = SearchConfig {
            seed: 7,
            ..SearchConfig::default()
        };
        assert_ne!(
            find_set(&other, 2, &|_| {}).0,
            find_set(&SearchConfig::default(), 2, &|_| {}).0
        );
    }

    #[test]
    fn fewer_bits_with_a_budget_never_loses_the_full_magic() {
        let config = SearchConfig {
            bits: BitsTarget::Fewer(1),
            budget: Budget::Attempts(20_000),
            ..SearchConfig::default()
        };
        let result = find_square(SliderKind::Bishop, 0, &config);
        assert!(result.bits == 5 || result.bits == 6);
        let hard = find_square(SliderKind::Rook, 0, &config);
        assert!(hard.bits <= 12);
    }

    #[test]
    fn the_comb_footprint_counts_teeth_only_where_the_span_holds_enough_periods() {
        let residues_of = |used: &[usize]| used.iter().fold(0u128, |m, &r| m | 1 << r);
        // Residues 7 and 0 modulo 8 are neighbours (the run wraps): teeth 2 wide.
        let wrapping: Vec<usize> = (0..128).filter(|r| r % 8 == 7 || r % 8 == 0).collect();
        assert_eq!(longest_circular_gap(residues_of(&wrapping), 8), 6);
        assert_eq!(comb_footprint(800, residues_of(&wrapping)), 100 * 2);
        // 100 slots hold twelve periods of 8 (counted) but not eight of 16.
        assert_eq!(comb_footprint(100, residues_of(&wrapping)), 13 * 2);
        // Too short for any period: the span.
        assert_eq!(comb_footprint(15, residues_of(&wrapping)), 15);
        // Residues spread out every third: gaps of two, barely below the span.
        let spread: Vec<usize> = (0..128).step_by(3).collect();
        assert_eq!(comb_footprint(4096, residues_of(&spread)), 32 * 126);
        // Teeth of 40 in 128, over 4,096 slots.
        let teeth: Vec<usize> = (10..50).collect();
        assert_eq!(comb_footprint(4096, residues_of(&teeth)), 32 * 40);
    }

    /// Preferring the comb cost: among the same candidates never a higher cost than
    /// preferring the span, and narrowing by it lowers the cost further (rank 8's rooks,
    /// where combs are).
    #[test]
    fn preferring_combs_keeps_the_cheapest_comb() {
        let by_span = SearchConfig {
            scheme: Scheme::Black,
            candidates: 4,
            ..SearchConfig::default()
        };
        let by_comb = SearchConfig {
            prefer: Prefer::Comb,
            ..by_span
        };
        let narrowing = SearchConfig {
            narrow: true,
            budget: Budget::Attempts(20_000),
            ..by_comb
        };
        let mut cheaper = 0;
        for square in [56, 57, 62] {
            let problem = Problem::new(SliderKind::Rook, square, Scheme::Black);
            let cost = |config: &SearchConfig| {
                let found = find_square(SliderKind::Rook, square, config);
                problem.comb_cost(found.magic, found.bits)
            };
            let [span, comb, narrowed] = [by_span, by_comb, narrowing].map(|c| cost(&c));
            assert!(comb <= span, "square {square}: {comb} > {span}");
            assert!(narrowed <= comb, "square {square}: {narrowed} > {comb}");
            cheaper += usize::from(narrowed < span);
        }
        assert!(cheaper > 0);
    }
}
