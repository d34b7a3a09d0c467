//! The full-width search's two cheap tests, the top-byte filter and the killer pairs, on eight
//! candidates or eight pairs at once where the CPU has AVX-512 (chosen at run time), and one at
//! a time otherwise; with AVX-512, the candidates themselves are drawn in eight lanes
//! ([`Block`]). Both paths decide alike: the search's result does not depend on the CPU.

#[cfg(target_arch = "x86_64")]
use super::stream_jump::{Modulus, Poly, jump, step};
#[cfg(target_arch = "x86_64")]
use std::sync::OnceLock;

/// Candidates the full-width search draws at a time.
pub(crate) const BATCH: usize = 64;

/// How many recently colliding key pairs the vector path tries before the table: successive
/// candidates tend to fail on the same pairs, and eight pairs take two multiplications.
pub(crate) const KILLERS: usize = 32;

/// How many of them the scalar path tries (the most recent), where a pair costs two
/// multiplications (results/analysis.md, issue 19, has the measurements behind both counts).
const SCALAR_KILLERS: usize = 8;

/// The killer pairs: all of them as two arrays for the vector path (pair `i` is `(first[i],
/// second[i])`), the most recent as pairs for the scalar one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Killers {
    first: [u64; KILLERS],
    second: [u64; KILLERS],
    next: usize,
    recent: [(u64, u64); SCALAR_KILLERS],
    next_recent: usize,
}

impl Killers {
    /// No pairs yet: equal keys never collide destructively, so the empty pairs reject nothing.
    pub(crate) fn new() -> Self {
        Killers {
            first: [0; KILLERS],
            second: [0; KILLERS],
            next: 0,
            recent: [(0, 0); SCALAR_KILLERS],
            next_recent: 0,
        }
    }

    /// Keeps `(first, second)`, replacing the oldest pair.
    pub(crate) fn remember(&mut self, first: u64, second: u64) {
        self.first[self.next] = first;
        self.second[self.next] = second;
        self.next = (self.next + 1) % KILLERS;
        self.recent[self.next_recent] = (first, second);
        self.next_recent = (self.next_recent + 1) % SCALAR_KILLERS;
    }
}

/// Whether `magic` moves at least 6 bits of `mask` into the top byte: one that moves fewer
/// cannot spread the occupancies over the full index range, so it is rejected before the table.
#[inline]
pub(crate) fn spreads_over_the_top_byte(mask: u64, magic: u64) -> bool {
    (mask.wrapping_mul(magic) >> 56).count_ones() >= 6
}

/// Where the cheap tests run.
pub(crate) trait Lanes {
    /// Copies the candidates among `candidates[..count]` that pass the top-byte filter for
    /// `mask` (all of them if not `filter`) to the front of `kept`, in order, and their numbers
    /// to `numbers`; returns how many.
    ///
    /// # Safety
    /// The CPU has the features of the implementation ([`Avx512::available`]).
    unsafe fn keep(
        mask: u64,
        filter: bool,
        candidates: &[u64; BATCH],
        count: usize,
        kept: &mut [u64; BATCH],
        numbers: &mut [u64; BATCH],
    ) -> usize;

    /// Whether a killer pair of different keys shares an index under `magic` and `shift`.
    ///
    /// # Safety
    /// As for [`keep`](Self::keep).
    unsafe fn killed(killers: &Killers, magic: u64, shift: u32) -> bool;
}

/// One candidate, one pair at a time: every CPU.
pub(crate) struct Scalar;

impl Lanes for Scalar {
    #[inline(always)]
    unsafe fn keep(
        mask: u64,
        filter: bool,
        candidates: &[u64; BATCH],
        count: usize,
        kept: &mut [u64; BATCH],
        numbers: &mut [u64; BATCH],
    ) -> usize {
        // Without a branch per candidate: each is written, and counts only if it passes.
        let mut total = 0;
        for (number, &magic) in candidates[..count].iter().enumerate() {
            kept[total] = magic;
            numbers[total] = number as u64;
            total += usize::from(!filter || spreads_over_the_top_byte(mask, magic));
        }
        total
    }

    #[inline(always)]
    unsafe fn killed(killers: &Killers, magic: u64, shift: u32) -> bool {
        let index = |key: u64| bitforge_index::magic_index(key, magic, shift);
        (killers.recent.iter()).any(|&(a, b)| a != b && index(a) == index(b))
    }
}

/// Eight candidates or eight pairs per instruction: AVX-512 with 64-bit multiplication (DQ),
/// byte masks (BW) and population count (VPOPCNTDQ).
#[cfg(target_arch = "x86_64")]
pub(crate) struct Avx512;

#[cfg(target_arch = "x86_64")]
impl Avx512 {
    /// Whether this CPU has the instructions.
    pub(crate) fn available() -> bool {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512dq")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
    }
}

#[cfg(target_arch = "x86_64")]
impl Lanes for Avx512 {
    #[inline(always)]
    unsafe fn keep(
        mask: u64,
        filter: bool,
        candidates: &[u64; BATCH],
        count: usize,
        kept: &mut [u64; BATCH],
        numbers: &mut [u64; BATCH],
    ) -> usize {
        use std::arch::x86_64::*;
        // SAFETY: the caller guarantees AVX-512F, DQ and VPOPCNTDQ. Each load reads eight
        // values at `start < count <= BATCH`, inside the array (BATCH is a multiple of 8);
        // each compressing store writes as many values as its lanes pass, at most the lanes
        // left of `count` (the mask `valid` excludes the rest), after the `total` already
        // written, so at most `count` values in all.
        unsafe {
            let spread_mask = _mm512_set1_epi64(mask as i64);
            let six = _mm512_set1_epi64(6);
            let mut lane_numbers = _mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0);
            let eight = _mm512_set1_epi64(8);
            let mut total = 0;
            for start in (0..count).step_by(8) {
                let valid: __mmask8 = if count - start >= 8 {
                    0xFF
                } else {
                    (1 << (count - start)) - 1
                };
                let magics = _mm512_loadu_epi64(candidates.as_ptr().add(start).cast());
                let pass = if filter {
                    let top = _mm512_srli_epi64::<56>(_mm512_mullo_epi64(spread_mask, magics));
                    _mm512_mask_cmpge_epu64_mask(valid, _mm512_popcnt_epi64(top), six)
                } else {
                    valid
                };
                _mm512_mask_compressstoreu_epi64(kept.as_mut_ptr().add(total).cast(), pass, magics);
                _mm512_mask_compressstoreu_epi64(
                    numbers.as_mut_ptr().add(total).cast(),
                    pass,
                    lane_numbers,
                );
                total += pass.count_ones() as usize;
                lane_numbers = _mm512_add_epi64(lane_numbers, eight);
            }
            total
        }
    }

    #[inline(always)]
    unsafe fn killed(killers: &Killers, magic: u64, shift: u32) -> bool {
        use std::arch::x86_64::*;
        // SAFETY: the caller guarantees AVX-512F and DQ; each load reads eight keys at
        // `start`, a multiple of 8 below KILLERS (a multiple of 8).
        unsafe {
            let magic = _mm512_set1_epi64(magic as i64);
            let shift = _mm_cvtsi64_si128(i64::from(shift));
            let mut hit = 0;
            for start in (0..KILLERS).step_by(8) {
                let first = _mm512_loadu_epi64(killers.first.as_ptr().add(start).cast());
                let second = _mm512_loadu_epi64(killers.second.as_ptr().add(start).cast());
                let first_index = _mm512_srl_epi64(_mm512_mullo_epi64(first, magic), shift);
                let second_index = _mm512_srl_epi64(_mm512_mullo_epi64(second, magic), shift);
                hit |= _mm512_cmpeq_epi64_mask(first_index, second_index)
                    & _mm512_cmpneq_epi64_mask(first, second);
            }
            hit != 0
        }
    }
}

/// Candidates each of the eight lanes draws per [`Block`].
pub(crate) const LANE_CANDIDATES: usize = 512;

/// Candidates per [`Block`]: one pause interval of the search.
pub(crate) const BLOCK: usize = 8 * LANE_CANDIDATES;

/// Draws per sparse candidate.
const DRAWS: u64 = 3;

/// The jumps a [`Block`] needs, computed once per process.
#[cfg(target_arch = "x86_64")]
struct LaneJumps {
    /// Lane `j` starts `j * LANE_CANDIDATES` candidates into the block.
    lane_starts: [Poly; 8],
    /// Term `i` of the jump by a whole block, as a lane mask: all lanes or none.
    next_block: [u8; 256],
}

#[cfg(target_arch = "x86_64")]
impl LaneJumps {
    fn get() -> &'static LaneJumps {
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

/// [`BLOCK`] sparse candidates of one stream, drawn in eight AVX-512 lanes: lane `j` draws
/// candidates `j * LANE_CANDIDATES ..` of the block, from a state jumped that far ahead (see
/// [`crate::stream_jump`]); one lane alone draws a candidate in a third of the time a scalar
/// draw takes, so eight at once leave the random stream off the search's critical path.
#[cfg(target_arch = "x86_64")]
pub(crate) struct Block {
    /// The lanes' states where this block starts: word `w` of lane `j` at `[w][j]`.
    starts: [[u64; 8]; 4],
    /// The same one block later.
    next: [[u64; 8]; 4],
    /// Lane `j`'s candidate `c` at `[c][j]`.
    candidates: [[u64; 8]; LANE_CANDIDATES],
    /// Bit `c % 64` of `[j][c / 64]`: whether lane `j`'s candidate `c` passed the filter.
    passed: [[u64; LANE_CANDIDATES / 64]; 8],
}

#[cfg(target_arch = "x86_64")]
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
    pub(crate) fn passed(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        (0..8).flat_map(move |lane| {
            (0..LANE_CANDIDATES / 64).flat_map(move |chunk| {
                let mut bits = self.passed[lane][chunk];
                core::iter::from_fn(move || {
                    if bits == 0 {
                        return None;
                    }
                    let candidate = chunk * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    Some((
                        lane * LANE_CANDIDATES + candidate,
                        self.candidates[candidate][lane],
                    ))
                })
            })
        })
    }

    /// Moves on to the next block (drawn by the next [`Avx512::draw`]).
    pub(crate) fn advance(&mut self) {
        self.starts = self.next;
    }
}

#[cfg(target_arch = "x86_64")]
impl Avx512 {
    /// Draws `block`'s candidates and marks those that pass the top-byte filter for `mask`
    /// (all of them if not `filter`); computes where the next block starts.
    ///
    /// # Safety
    /// The CPU has AVX-512 F, DQ, BW and VPOPCNTDQ ([`Avx512::available`]).
    #[inline(always)]
    pub(crate) unsafe fn draw(block: &mut Block, mask: u64, filter: bool) {
        use std::arch::x86_64::*;
        #[inline(always)]
        unsafe fn step(s: &mut [__m512i; 4]) {
            // SAFETY: the caller's features include AVX-512F.
            unsafe {
                let t = _mm512_slli_epi64::<17>(s[1]);
                s[2] = _mm512_xor_si512(s[2], s[0]);
                s[3] = _mm512_xor_si512(s[3], s[1]);
                s[1] = _mm512_xor_si512(s[1], s[2]);
                s[0] = _mm512_xor_si512(s[0], s[3]);
                s[2] = _mm512_xor_si512(s[2], t);
                s[3] = _mm512_rol_epi64::<45>(s[3]);
            }
        }
        #[inline(always)]
        unsafe fn draw(s: &mut [__m512i; 4]) -> __m512i {
            // SAFETY: as above. xoshiro256++'s output, then the state's step.
            unsafe {
                let sum = _mm512_add_epi64(s[0], s[3]);
                let output = _mm512_add_epi64(_mm512_rol_epi64::<23>(sum), s[0]);
                step(s);
                output
            }
        }
        let jumps = LaneJumps::get();
        // SAFETY: the caller guarantees the features. Loads and stores are of whole rows of
        // the block's arrays (eight u64 or 64 bytes each), inside them.
        unsafe {
            let load = |row: &[u64; 8]| _mm512_loadu_epi64(row.as_ptr().cast());
            let mut state = [0, 1, 2, 3].map(|w| load(&block.starts[w]));
            let spread_mask = _mm512_set1_epi64(mask as i64);
            let six = _mm512_set1_epi64(6);
            let mut passed = [0u8; LANE_CANDIDATES];
            for (row, pass) in block.candidates.iter_mut().zip(&mut passed) {
                let (a, b, c) = (draw(&mut state), draw(&mut state), draw(&mut state));
                let candidates = _mm512_ternarylogic_epi64::<0x80>(a, b, c);
                _mm512_storeu_epi64(row.as_mut_ptr().cast(), candidates);
                *pass = if filter {
                    let top = _mm512_srli_epi64::<56>(_mm512_mullo_epi64(spread_mask, candidates));
                    _mm512_cmpge_epu64_mask(_mm512_popcnt_epi64(top), six)
                } else {
                    0xFF
                };
            }
            // From one mask byte per row to one bit string per lane.
            for (chunk, bytes) in passed.chunks_exact(64).enumerate() {
                let bytes = _mm512_loadu_epi8(bytes.as_ptr().cast());
                for (lane, bits) in block.passed.iter_mut().enumerate() {
                    bits[chunk] = _mm512_test_epi8_mask(bytes, _mm512_set1_epi8(1 << lane));
                }
            }
            // The next block: every lane one block on, summing the states at the jump's terms.
            let mut state = [0, 1, 2, 3].map(|w| load(&block.starts[w]));
            let mut sum = [_mm512_setzero_si512(); 4];
            for &lanes in &jumps.next_block {
                for (total, word) in sum.iter_mut().zip(state) {
                    *total = _mm512_mask_xor_epi64(*total, lanes, *total, word);
                }
                step(&mut state);
            }
            for (row, total) in block.next.iter_mut().zip(sum) {
                _mm512_storeu_epi64(row.as_mut_ptr().cast(), total);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_xoshiro::Xoshiro256PlusPlus;
    use rand_xoshiro::rand_core::{Rng, SeedableRng};

    /// Whether any kept pair of different keys shares an index: what the vector path decides.
    fn any_pair_collides(killers: &Killers, magic: u64, shift: u32) -> bool {
        let index = |key: u64| bitforge_index::magic_index(key, magic, shift);
        (killers.first.iter().zip(&killers.second)).any(|(&a, &b)| a != b && index(a) == index(b))
    }

    #[test]
    fn the_scalar_path_tries_the_most_recent_pairs() {
        // Keys 1 and 2 share index 0 under magic 1 and shift 60; keys 1 << 60 and 1 << 61 never
        // share one.
        let (magic, shift) = (1, 60);
        let mut killers = Killers::new();
        killers.remember(1, 2);
        for age in 1..=KILLERS {
            // SAFETY: the scalar path runs on every CPU.
            let scalar = unsafe { Scalar::killed(&killers, magic, shift) };
            assert_eq!(scalar, age <= SCALAR_KILLERS, "pair of age {age}");
            assert!(any_pair_collides(&killers, magic, shift));
            killers.remember(1 << 60, 1 << 61);
        }
        assert!(!any_pair_collides(&killers, magic, shift));
    }

    #[test]
    fn the_scalar_filter_keeps_the_candidates_in_order() {
        let (mut kept, mut numbers) = ([0; BATCH], [0; BATCH]);
        // u64::MAX * u64::MAX = 1 and 0 * u64::MAX = 0: no bit in the top byte, all fail.
        let candidates: [u64; BATCH] =
            core::array::from_fn(|i| if i % 3 == 0 { u64::MAX } else { 0 });
        // SAFETY: the scalar path runs on every CPU.
        let total =
            unsafe { Scalar::keep(u64::MAX, true, &candidates, 10, &mut kept, &mut numbers) };
        assert_eq!(total, 0);
        // 0xFF * spread fills every byte with ones: 8 bits in the top byte.
        let spread = 0x0101_0101_0101_0101;
        let candidates: [u64; BATCH] =
            core::array::from_fn(|i| if i % 3 == 0 { spread } else { 0 });
        // SAFETY: as above.
        let total = unsafe { Scalar::keep(0xFF, true, &candidates, 10, &mut kept, &mut numbers) };
        assert_eq!(numbers[..total], [0, 3, 6, 9]);
        assert_eq!(kept[..total], [spread; 4]);
        // SAFETY: as above.
        let total = unsafe { Scalar::keep(0xFF, false, &candidates, 10, &mut kept, &mut numbers) };
        assert_eq!(total, 10);
        assert_eq!(numbers[..total], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    }

    /// Random candidates, masks and killer pairs of the shapes the search makes (sparse
    /// candidates, pairs that often share an index), every batch length.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn avx512_decides_as_the_scalar_path() {
        if !Avx512::available() {
            eprintln!("no AVX-512 (F, DQ, VPOPCNTDQ) here: only the scalar path ran");
            return;
        }
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(19);
        let mut sparse = || rng.next_u64() & rng.next_u64() & rng.next_u64();
        let mut killers = Killers::new();
        let mut hits = 0;
        for round in 0..2_000 {
            let mask = sparse() | sparse();
            let candidates: [u64; BATCH] = core::array::from_fn(|_| sparse());
            let count = round % (BATCH + 1);
            let filter = round % 3 != 0;
            let mut expected = ([0; BATCH], [0; BATCH]);
            let mut got = ([0; BATCH], [0; BATCH]);
            // SAFETY: AVX-512 F, DQ and VPOPCNTDQ are here (checked above).
            let (a, b) = unsafe {
                (
                    Scalar::keep(
                        mask,
                        filter,
                        &candidates,
                        count,
                        &mut expected.0,
                        &mut expected.1,
                    ),
                    Avx512::keep(mask, filter, &candidates, count, &mut got.0, &mut got.1),
                )
            };
            assert_eq!(a, b);
            assert_eq!(expected.0[..a], got.0[..b]);
            assert_eq!(expected.1[..a], got.1[..b]);

            // Every other pair differs in one bit only: such keys often share an index.
            let first = sparse();
            let second = if round % 2 == 0 {
                first ^ (1 << (round * 7 % 64))
            } else {
                sparse()
            };
            killers.remember(first, second);
            for magic in candidates {
                let shift = 52 + (magic % 8) as u32;
                let expected = any_pair_collides(&killers, magic, shift);
                hits += usize::from(expected);
                // SAFETY: as above.
                assert_eq!(unsafe { Avx512::killed(&killers, magic, shift) }, expected);
            }
        }
        // The pairs must collide often enough for the comparison to mean something.
        assert!(hits > 1_000, "{hits}");
    }

    /// Three blocks in a row hold the stream's own sparse candidates in its order, mark those
    /// that pass the filter, and give back the stream after any candidate and after the block.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn a_block_draws_the_stream_in_order() {
        if !Avx512::available() {
            eprintln!("no AVX-512 (F, DQ, BW, VPOPCNTDQ) here: blocks are not drawn");
            return;
        }
        let words = |rng: &Xoshiro256PlusPlus| -> [u64; 4] {
            let bytes = rng.state();
            core::array::from_fn(|i| u64::from_le_bytes(bytes[8 * i..][..8].try_into().unwrap()))
        };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mask = 0x0001_0101_0101_017E;
        let mut block = Block::new(words(&rng));
        for round in 0..3 {
            let filter = round != 1;
            // SAFETY: the features are here (checked above).
            unsafe { Avx512::draw(&mut block, mask, filter) };
            assert_eq!(block.stream(), words(&rng));
            let mut expected = Vec::new();
            for number in 0..BLOCK {
                let candidate = rng.next_u64() & rng.next_u64() & rng.next_u64();
                if !filter || spreads_over_the_top_byte(mask, candidate) {
                    expected.push((number, candidate));
                }
                if number % 1_000 == 999 || number == BLOCK - 1 {
                    assert_eq!(block.stream_after(number), words(&rng), "{number}");
                }
            }
            let passed: Vec<_> = block.passed().collect();
            assert_eq!(passed, expected, "round {round}");
            assert!(filter == (passed.len() < BLOCK / 4), "{}", passed.len());
            block.advance();
        }
        assert_eq!(block.stream(), words(&rng));
    }
}
