//! Lookup inputs: `(square, occupancy)` pairs, random or taken from real positions.

use bitforge::position::PerftLine;
use bitforge::slider::{KoggeStone, Slider, SliderJob};
use bitforge::{Bitboard, Color, PieceType, Position, Square};

/// How many pairs a lookup benchmark runs per iteration.
pub const PAIRS: usize = 65_536;

/// How many of the random pairs the Callgrind (instruction-count) benchmark looks up.
pub const COUNTED_LOOKUPS: usize = 4_096;

/// The perft suites the real occupancies come from (the same files the perft tests read),
/// read from the workspace when the inputs are made: the benchmarks run in the repository,
/// and the crate builds from its own package (`cargo package`) without them.
fn suites() -> Vec<String> {
    ["standard.epd", "roce.epd", "chess960.epd"]
        .map(|name| {
            let path =
                concat!(env!("CARGO_MANIFEST_DIR"), "/../core/tests/perft/").to_owned() + name;
            std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"))
        })
        .to_vec()
}

/// SplitMix64: the next value of the stream whose state is `state`.
pub fn split_mix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The slider whose attacks are looked up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LookupPiece {
    /// Rook attacks (queens use them too).
    Rook,
    /// Bishop attacks (queens use them too).
    Bishop,
}

impl LookupPiece {
    /// Both pieces, rook first.
    pub const ALL: [LookupPiece; 2] = [LookupPiece::Rook, LookupPiece::Bishop];

    /// The name used in benchmark ids and results.
    pub const fn name(self) -> &'static str {
        match self {
            LookupPiece::Rook => "rook",
            LookupPiece::Bishop => "bishop",
        }
    }
}

/// [`PAIRS`] random pairs (SplitMix64, fixed seed): any square, occupancy `random & random`
/// (about 25% of the board).
pub fn random_pairs() -> Vec<(Square, Bitboard)> {
    let mut state = 0x0B17_F06E;
    let mut next = move || split_mix(&mut state);
    (0..PAIRS)
        .map(|_| {
            (
                Square::ALL[(next() % 64) as usize],
                Bitboard(next() & next()),
            )
        })
        .collect()
}

/// Gigantua's Chess_Movegen workload: occupancies and, for each, twelve squares to look a
/// queen up from, generated beforehand and streamed through once per run.
pub struct StreamedQueen {
    /// `random & random` occupancies (each square occupied with probability 1/4).
    pub occupancies: Vec<Bitboard>,
    /// Twelve random squares per occupancy, occupancy by occupancy.
    pub squares: Vec<[Square; 12]>,
}

/// How many occupancies [`streamed_queen`] makes: 5,000,000, as Gigantua's benchmark does.
pub const STREAMED_OCCUPANCIES: usize = 5_000_000;

/// The streamed queen workload ([`StreamedQueen`]) with `occupancies` occupancies (SplitMix64,
/// fixed seed).
pub fn streamed_queen(occupancies: usize) -> StreamedQueen {
    let mut state = 0x5EED_C0DE;
    let mut next = move || split_mix(&mut state);
    let mut workload = StreamedQueen {
        occupancies: Vec::with_capacity(occupancies),
        squares: Vec::with_capacity(occupancies),
    };
    for _ in 0..occupancies {
        workload.occupancies.push(Bitboard(next() & next()));
        let random = next();
        // Twelve six-bit fields of one random word, a square each; the last shift (66) wraps
        // at 64 and re-reads bits 2 to 7, as release builds always did (the workload measured
        // since), where debug builds refused it with an overflow.
        workload.squares.push(core::array::from_fn(|i| {
            Square::ALL[random.wrapping_shr(6 * i as u32) as usize & 63]
        }));
    }
    workload
}

impl StreamedQueen {
    /// Every queen lookup of the workload, XOR-accumulated.
    #[inline(always)]
    pub fn run<S: Slider>(&self, slider: S) -> u64 {
        let mut checksum = 0u64;
        for (&occupancy, squares) in self.occupancies.iter().zip(&self.squares) {
            for &square in squares {
                checksum ^= slider.queen_attacks(square, occupancy).0;
            }
        }
        checksum
    }

    /// How many lookups [`run`](Self::run) makes.
    pub fn lookups(&self) -> usize {
        12 * self.occupancies.len()
    }
}

/// The streamed queen workload as an engine author writes a job: `run` is the plain loop
/// ([`StreamedQueen::run`], always inlined), no `within`, no attribute, for
/// [`Backend::run`](bitforge::slider::Backend::run) to compile for the backend's level.
pub struct PlainQueens<'a>(pub &'a StreamedQueen);

impl SliderJob for PlainQueens<'_> {
    type Output = u64;

    fn run<S: Slider>(self, slider: S) -> u64 {
        self.0.run(slider)
    }
}

/// [`PAIRS`] pairs a legal move generator asks for in real positions: every position of the
/// perft suites (standard, ROCE, Chess960) and every position up to two moves later, queried
/// from each slider of `piece`'s kind (queens included) and from both kings (pins and checks),
/// with the position's occupancy. The queries of one position stay together, as in a
/// generator; positions are taken at an even stride so that every suite is represented.
pub fn real_pairs(piece: LookupPiece) -> Vec<(Square, Bitboard)> {
    let per_position = suite_queries(piece);
    let total: usize = per_position.iter().map(Vec::len).sum();
    let stride = (total / PAIRS).max(1);
    let pairs: Vec<_> = per_position
        .iter()
        .step_by(stride)
        .flatten()
        .copied()
        .take(PAIRS)
        .collect();
    assert_eq!(pairs.len(), PAIRS, "the suites give enough positions");
    pairs
}

/// The queries of every position of the suites and of every position up to two moves later,
/// one list per position, in the order a depth-first walk meets them.
fn suite_queries(piece: LookupPiece) -> Vec<Vec<(Square, Bitboard)>> {
    let slider = KoggeStone::new().expect("Kogge-Stone runs everywhere");
    let mut per_position = Vec::new();
    for line in suites().iter().flat_map(|suite| suite.lines()) {
        let fen = PerftLine::parse(line)
            .expect("the suites hold perft lines")
            .fen;
        let mut root = Position::from_fen(fen, slider).expect("the suites hold valid FENs");
        walk(&mut root, 2, piece, &mut per_position);
    }
    per_position
}

/// Adds the queries of `position` and of every position up to `depth` moves later.
fn walk(
    position: &mut Position<KoggeStone>,
    depth: u32,
    piece: LookupPiece,
    per_position: &mut Vec<Vec<(Square, Bitboard)>>,
) {
    per_position.push(queries(position, piece));
    if depth == 0 {
        return;
    }
    for &m in position.legal_moves().iter() {
        position.do_move(m);
        walk(position, depth - 1, piece, per_position);
        position.undo_move();
    }
}

/// The lookups for `piece` that a move generator makes in `position`.
fn queries(position: &Position<KoggeStone>, piece: LookupPiece) -> Vec<(Square, Bitboard)> {
    let occupancy = position.occupied();
    let sliders = match piece {
        LookupPiece::Rook => position.pieces(PieceType::Rook),
        LookupPiece::Bishop => position.pieces(PieceType::Bishop),
    } | position.pieces(PieceType::Queen);
    let kings = [Color::White, Color::Black].map(|color| position.king_square(color));
    sliders
        .into_iter()
        .chain(kings)
        .map(|square| (square, occupancy))
        .collect()
}
