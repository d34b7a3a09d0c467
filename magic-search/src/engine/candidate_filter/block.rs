//! Candidates drawn in eight lanes of one stream, a block at a time.

use std::sync::OnceLock;

use super::super::stream_jump::{Modulus, Poly, jump, step};

/// Candidates each of the eight lanes draws per [`Block`].
pub(crate) const LANE_CANDIDATES: usize = 512;

/// Candidates per [`Block`]: one pause interval of the search.
pub(crate) const BLOCK: usize = 8 * LANE_CANDIDATES;

/// Draws per sparse candidate.
pub(super) const DRAWS: u64 = 3;

/// The jumps a [`Block`] needs, computed once per process.
pub(super) struct LaneJumps {
    /// Lane `j` starts `j * LANE_CANDIDATES` candidates into the block.
    pub(super) lane_starts: [Poly; 8],
    /// Term `i` of the jump by a whole block, as a lane mask: all lanes or none.
    pub(super) next_block: [u8; 256],
}

impl LaneJumps {
    pub(super) fn get() -> &'static LaneJumps {
        static JUMPS: OnceLock<LaneJumps> = OnceLock::new();
        JUMPS.get_or_init(|| {
            let modulus = Modulus::xoshiro256();
            let lane_draws = LANE_CANDIDATES as u64 * DRAWS;
            let block = modulus.power_of_x(8 * lane_draws);
            LaneJumps {
                lane_starts: core::array::from_fn(|j| modulus.power_of_x(j as u64 * lane_draws)),
                next_block: core::array::from_fn(|i| {
                    if block[i / 64] >> (i % 64) & 1 == 1 {
                        0xFF
                    } else {
                        0
                    }
                }),
            }
        })
    }
}

/// [`BLOCK`] sparse candidates of one stream, drawn in eight lanes: lane `j` draws candidates
/// `j * LANE_CANDIDATES ..` of the block, from a state jumped that far ahead (see
/// [`super::stream_jump`]). The lanes are independent, so they are drawn side by side in
/// vector registers where one stream's draws would wait on each other: the random stream
/// leaves the search's critical path.
pub(crate) struct Block {
    /// The lanes' states where this block starts: word `w` of lane `j` at `[w][j]`.
    pub(super) starts: [[u64; 8]; 4],
    /// The same one block later.
    pub(super) next: [[u64; 8]; 4],
    /// Lane `j`'s candidate `c` at `[c][j]`.
    pub(super) candidates: [[u64; 8]; LANE_CANDIDATES],
    /// Bit `c % 64` of `[j][c / 64]`: whether lane `j`'s candidate `c` passed the filter.
    pub(super) passed: [[u64; LANE_CANDIDATES / 64]; 8],
}

impl Block {
    /// The block that starts where `stream` (xoshiro256 state words) stands; nothing drawn yet.
    pub(crate) fn new(stream: [u64; 4]) -> Box<Block> {
        let jumps = LaneJumps::get();
        let lanes: [[u64; 4]; 8] = core::array::from_fn(|j| jump(stream, &jumps.lane_starts[j]));
        Box::new(Block {
            starts: core::array::from_fn(|w| core::array::from_fn(|j| lanes[j][w])),
            next: [[0; 8]; 4],
            candidates: [[0; 8]; LANE_CANDIDATES],
            passed: [[0; LANE_CANDIDATES / 64]; 8],
        })
    }

    /// The stream where this block starts.
    pub(crate) fn stream(&self) -> [u64; 4] {
        core::array::from_fn(|w| self.starts[w][0])
    }

    /// The stream right after candidate `number` of this block.
    pub(crate) fn stream_after(&self, number: usize) -> [u64; 4] {
        let (lane, candidate) = (number / LANE_CANDIDATES, number % LANE_CANDIDATES);
        let mut state = core::array::from_fn(|w| self.starts[w][lane]);
        for _ in 0..(candidate as u64 + 1) * DRAWS {
            step(&mut state);
        }
        state
    }

    /// The candidates that passed the filter, in the stream's order: `(number, candidate)`.
    pub(crate) fn passed(&self) -> Passed<'_> {
        Passed {
            block: self,
            word: 0,
            bits: self.passed[0][0],
        }
    }

    /// Moves on to the next block (drawn by the next [`Blocks::draw`]).
    pub(crate) fn advance(&mut self) {
        self.starts = self.next;
    }
}

/// [`Block::passed`]: the filter's bit strings read word by word (a plain loop: an iterator
/// of nested ranges kept its state in memory, a quarter of the AVX2 search's time).
pub(crate) struct Passed<'a> {
    block: &'a Block,
    /// Word `lane * 8 + chunk` of the bit strings: candidates `64 * word ..` of the block.
    word: usize,
    /// What is left of that word.
    bits: u64,
}

impl Iterator for Passed<'_> {
    type Item = (usize, u64);

    #[inline(always)]
    fn next(&mut self) -> Option<(usize, u64)> {
        const WORDS: usize = LANE_CANDIDATES / 64;
        while self.bits == 0 {
            self.word += 1;
            if self.word == 8 * WORDS {
                return None;
            }
            self.bits = self.block.passed[self.word / WORDS][self.word % WORDS];
        }
        let number = 64 * self.word + self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        let (lane, candidate) = (number / LANE_CANDIDATES, number % LANE_CANDIDATES);
        Some((number, self.block.candidates[candidate][lane]))
    }
}
