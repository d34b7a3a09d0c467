//! The full-width search's two cheap tests, the top-byte filter and the killer pairs, and the
//! drawing of its candidates in eight lanes of one stream (`Block`): in AVX-512 or AVX2
//! instructions where the CPU has them, one candidate at a time otherwise ([`Path`], chosen at
//! run time). Every path decides alike: the search's result does not depend on the CPU.

use super::Vectors;
#[cfg(target_arch = "x86_64")]
use super::stream_jump::{Modulus, Poly, jump, step};
#[cfg(target_arch = "x86_64")]
use std::sync::OnceLock;

/// Which of the implementations below a search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Path {
    /// [`Scalar`], compiled for the baseline CPU.
    Scalar,
    /// [`Avx2`].
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    Avx2,
    /// [`Avx512`].
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    Avx512,
}

impl Path {
    /// The widest path this CPU has within `limit`.
    pub(crate) fn choose(limit: Vectors) -> Path {
        #[cfg(target_arch = "x86_64")]
        {
            if limit == Vectors::Widest && Avx512::available() {
                return Path::Avx512;
            }
            if limit >= Vectors::Avx2 && Avx2::available() {
                return Path::Avx2;
            }
        }
        let _ = limit;
        Path::Scalar
    }
}

/// Candidates the full-width search draws at a time.
pub(crate) const BATCH: usize = 64;

/// How many recently colliding key pairs the AVX-512 path tries before the table: successive
/// candidates tend to fail on the same pairs, and eight pairs take two multiplications.
pub(crate) const KILLERS: usize = 32;

/// How many of them the scalar and AVX2 paths try (the most recent), where a pair costs two
/// multiplications, each three 32-bit ones in AVX2 (results/analysis.md, issues 19 and 38, has
/// the measurements behind the counts).
const RECENT_KILLERS: usize = 8;

/// The killer pairs, pair `i` being `(first[i], second[i])`: all of them for the AVX-512
/// path, the most recent for the others.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Killers {
    first: [u64; KILLERS],
    second: [u64; KILLERS],
    next: usize,
    recent_first: [u64; RECENT_KILLERS],
    recent_second: [u64; RECENT_KILLERS],
    next_recent: usize,
}

impl Killers {
    /// No pairs yet: equal keys never collide destructively, so the empty pairs reject nothing.
    pub(crate) fn new() -> Self {
        Killers {
            first: [0; KILLERS],
            second: [0; KILLERS],
            next: 0,
            recent_first: [0; RECENT_KILLERS],
            recent_second: [0; RECENT_KILLERS],
            next_recent: 0,
        }
    }

    /// Keeps `(first, second)`, replacing the oldest pair.
    pub(crate) fn remember(&mut self, first: u64, second: u64) {
        self.first[self.next] = first;
        self.second[self.next] = second;
        self.next = (self.next + 1) % KILLERS;
        self.recent_first[self.next_recent] = first;
        self.recent_second[self.next_recent] = second;
        self.next_recent = (self.next_recent + 1) % RECENT_KILLERS;
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

/// Lanes that also draw the candidates, a [`Block`] at a time.
#[cfg(target_arch = "x86_64")]
pub(crate) trait Blocks: Lanes {
    /// Draws `block`'s candidates and marks those that pass the top-byte filter for `mask`
    /// (all of them if not `filter`); computes where the next block starts.
    ///
    /// # Safety
    /// As for [`Lanes::keep`].
    unsafe fn draw(block: &mut Block, mask: u64, filter: bool);
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
        (killers.recent_first.iter().zip(&killers.recent_second))
            .any(|(&a, &b)| a != b && index(a) == index(b))
    }
}

/// Four pairs or four candidates per instruction: AVX2, which has no 64-bit multiplication,
/// rotation or population count (each is a few instructions here). The batches' filter stays
/// scalar: a stage's first pause interval, mostly.
#[cfg(target_arch = "x86_64")]
pub(crate) struct Avx2;

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// Whether this CPU has the instructions.
    pub(crate) fn available() -> bool {
        std::arch::is_x86_feature_detected!("avx2")
    }
}

#[cfg(target_arch = "x86_64")]
impl Lanes for Avx2 {
    #[inline(always)]
    unsafe fn keep(
        mask: u64,
        filter: bool,
        candidates: &[u64; BATCH],
        count: usize,
        kept: &mut [u64; BATCH],
        numbers: &mut [u64; BATCH],
    ) -> usize {
        // SAFETY: the scalar path runs on every CPU.
        unsafe { Scalar::keep(mask, filter, candidates, count, kept, numbers) }
    }

    #[inline(always)]
    unsafe fn killed(killers: &Killers, magic: u64, shift: u32) -> bool {
        use std::arch::x86_64::*;
        // SAFETY: the caller guarantees AVX2; each load reads four keys at `start`, a multiple
        // of 4 below RECENT_KILLERS (a multiple of 4).
        unsafe {
            let magic = Multiplier::new(magic);
            let shift = _mm_cvtsi64_si128(i64::from(shift));
            let mut hit = _mm256_setzero_si256();
            for start in (0..RECENT_KILLERS).step_by(4) {
                let first = _mm256_loadu_si256(killers.recent_first.as_ptr().add(start).cast());
                let second = _mm256_loadu_si256(killers.recent_second.as_ptr().add(start).cast());
                let first_index = _mm256_srl_epi64(magic.times(first), shift);
                let second_index = _mm256_srl_epi64(magic.times(second), shift);
                let same_index = _mm256_cmpeq_epi64(first_index, second_index);
                let same_key = _mm256_cmpeq_epi64(first, second);
                hit = _mm256_or_si256(hit, _mm256_andnot_si256(same_key, same_index));
            }
            _mm256_testz_si256(hit, hit) == 0
        }
    }
}

#[cfg(target_arch = "x86_64")]
impl Blocks for Avx2 {
    #[inline(always)]
    unsafe fn draw(block: &mut Block, mask: u64, filter: bool) {
        // SAFETY: the caller guarantees AVX2.
        unsafe { Self::draw_avx2(block, mask, filter) }
    }
}

#[cfg(target_arch = "x86_64")]
impl Avx2 {
    /// [`Blocks::draw`] in AVX2 instructions: lanes 0-3 and 4-7 of each state word in two
    /// registers. AVX2 has no 64-bit rotation, multiplication or population count: a rotation
    /// is two shifts, the low 64 bits of a product three 32-bit multiplications, the top
    /// byte's population count two nibble look-ups.
    ///
    /// # Safety
    /// The CPU has AVX2 ([`Avx2::available`]).
    #[inline(always)]
    unsafe fn draw_avx2(block: &mut Block, mask: u64, filter: bool) {
        use std::arch::x86_64::*;
        type Half = [__m256i; 4];
        /// `x` rotated left by `LEFT` bits, given `RIGHT = 64 - LEFT`.
        #[inline(always)]
        unsafe fn rotate_left<const LEFT: i32, const RIGHT: i32>(x: __m256i) -> __m256i {
            // SAFETY: the caller's features include AVX2.
            unsafe { _mm256_or_si256(_mm256_slli_epi64::<LEFT>(x), _mm256_srli_epi64::<RIGHT>(x)) }
        }
        #[inline(always)]
        unsafe fn step(s: &mut Half) {
            // SAFETY: as above.
            unsafe {
                let t = _mm256_slli_epi64::<17>(s[1]);
                s[2] = _mm256_xor_si256(s[2], s[0]);
                s[3] = _mm256_xor_si256(s[3], s[1]);
                s[1] = _mm256_xor_si256(s[1], s[2]);
                s[0] = _mm256_xor_si256(s[0], s[3]);
                s[2] = _mm256_xor_si256(s[2], t);
                s[3] = rotate_left::<45, 19>(s[3]);
            }
        }
        #[inline(always)]
        unsafe fn draw(s: &mut Half) -> __m256i {
            // SAFETY: as above. xoshiro256++'s output, then the state's step.
            unsafe {
                let sum = _mm256_add_epi64(s[0], s[3]);
                let output = _mm256_add_epi64(rotate_left::<23, 41>(sum), s[0]);
                step(s);
                output
            }
        }
        // SAFETY: the caller guarantees AVX2. Loads and stores are of halves of rows of the
        // block's arrays (four u64 each), inside them.
        unsafe {
            #[inline(always)]
            unsafe fn load(row: &[u64; 8], half: usize) -> __m256i {
                // SAFETY: the caller's features include AVX2; four u64 at 0 or 4, in the row.
                unsafe { _mm256_loadu_si256(row.as_ptr().add(4 * half).cast()) }
            }
            let mut low: Half = [0, 1, 2, 3].map(|w| load(&block.starts[w], 0));
            let mut high: Half = [0, 1, 2, 3].map(|w| load(&block.starts[w], 1));
            let spread = Spread::new(mask);
            let mut passed = [0u8; LANE_CANDIDATES];
            for (row, pass) in block.candidates.iter_mut().zip(&mut passed) {
                let (a, b, c) = (draw(&mut low), draw(&mut low), draw(&mut low));
                let first = _mm256_and_si256(_mm256_and_si256(a, b), c);
                let (a, b, c) = (draw(&mut high), draw(&mut high), draw(&mut high));
                let second = _mm256_and_si256(_mm256_and_si256(a, b), c);
                _mm256_storeu_si256(row.as_mut_ptr().cast(), first);
                _mm256_storeu_si256(row.as_mut_ptr().add(4).cast(), second);
                *pass = if filter {
                    (spread.passes(first) | spread.passes(second) << 4) as u8
                } else {
                    0xFF
                };
            }
            // From one byte per row to one bit string per lane: shifted left by 7 - lane, each
            // 16-bit word has the lane's bit of both its bytes at their tops, which
            // `movemask` gathers, 32 rows at a time.
            for (chunk, bytes) in passed.chunks_exact(64).enumerate() {
                let low_rows = _mm256_loadu_si256(bytes.as_ptr().cast());
                let high_rows = _mm256_loadu_si256(bytes.as_ptr().add(32).cast());
                for (lane, bits) in block.passed.iter_mut().enumerate() {
                    let shift = _mm_cvtsi32_si128(7 - lane as i32);
                    let tops = |rows| _mm256_movemask_epi8(_mm256_sll_epi16(rows, shift)) as u32;
                    bits[chunk] = u64::from(tops(low_rows)) | u64::from(tops(high_rows)) << 32;
                }
            }
            // The next block: every lane one block on, summing the states at the jump's terms.
            let mut low: Half = [0, 1, 2, 3].map(|w| load(&block.starts[w], 0));
            let mut high: Half = [0, 1, 2, 3].map(|w| load(&block.starts[w], 1));
            let mut sum_low = [_mm256_setzero_si256(); 4];
            let mut sum_high = [_mm256_setzero_si256(); 4];
            for &lanes in &LaneJumps::get().next_block {
                if lanes != 0 {
                    for w in 0..4 {
                        sum_low[w] = _mm256_xor_si256(sum_low[w], low[w]);
                        sum_high[w] = _mm256_xor_si256(sum_high[w], high[w]);
                    }
                }
                step(&mut low);
                step(&mut high);
            }
            for (row, (low, high)) in block.next.iter_mut().zip(sum_low.into_iter().zip(sum_high)) {
                _mm256_storeu_si256(row.as_mut_ptr().cast(), low);
                _mm256_storeu_si256(row.as_mut_ptr().add(4).cast(), high);
            }
        }
    }
}

/// One 64-bit factor in AVX2 registers: AVX2 multiplies 32-bit halves only, so the low 64
/// bits of a product are three such multiplications.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Multiplier {
    low: std::arch::x86_64::__m256i,
    high: std::arch::x86_64::__m256i,
}

#[cfg(target_arch = "x86_64")]
impl Multiplier {
    /// # Safety
    /// The CPU has AVX2.
    #[inline(always)]
    unsafe fn new(factor: u64) -> Multiplier {
        use std::arch::x86_64::*;
        // SAFETY: the caller guarantees AVX2.
        unsafe {
            Multiplier {
                low: _mm256_set1_epi64x(factor as i64),
                high: _mm256_set1_epi64x((factor >> 32) as i64),
            }
        }
    }

    /// `values * factor` in each lane, wrapping.
    ///
    /// # Safety
    /// The CPU has AVX2.
    #[inline(always)]
    unsafe fn times(self, values: std::arch::x86_64::__m256i) -> std::arch::x86_64::__m256i {
        use std::arch::x86_64::*;
        // SAFETY: the caller guarantees AVX2.
        unsafe {
            // The low halves' product plus the cross products shifted up by 32 (the high
            // halves' product lies beyond bit 63).
            let cross = _mm256_add_epi64(
                _mm256_mul_epu32(_mm256_srli_epi64::<32>(values), self.low),
                _mm256_mul_epu32(values, self.high),
            );
            _mm256_add_epi64(
                _mm256_mul_epu32(values, self.low),
                _mm256_slli_epi64::<32>(cross),
            )
        }
    }
}

/// The top-byte filter for one mask in AVX2 registers.
#[cfg(target_arch = "x86_64")]
struct Spread {
    mask: Multiplier,
    nibble_counts: std::arch::x86_64::__m256i,
}

#[cfg(target_arch = "x86_64")]
impl Spread {
    /// # Safety
    /// The CPU has AVX2.
    #[inline(always)]
    unsafe fn new(mask: u64) -> Spread {
        use std::arch::x86_64::*;
        // SAFETY: the caller guarantees AVX2.
        unsafe {
            Spread {
                mask: Multiplier::new(mask),
                nibble_counts: _mm256_setr_epi8(
                    0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2,
                    2, 3, 2, 3, 3, 4,
                ),
            }
        }
    }

    /// The lanes (bit `i` for lane `i`) whose candidate moves at least six bits of the mask
    /// into the top byte ([`spreads_over_the_top_byte`]).
    ///
    /// # Safety
    /// The CPU has AVX2.
    #[inline(always)]
    unsafe fn passes(&self, candidates: std::arch::x86_64::__m256i) -> i32 {
        use std::arch::x86_64::*;
        // SAFETY: the caller guarantees AVX2.
        unsafe {
            let top = _mm256_srli_epi64::<56>(self.mask.times(candidates));
            let count = _mm256_add_epi64(
                _mm256_shuffle_epi8(
                    self.nibble_counts,
                    _mm256_and_si256(top, _mm256_set1_epi64x(0x0F)),
                ),
                _mm256_shuffle_epi8(self.nibble_counts, _mm256_srli_epi64::<4>(top)),
            );
            _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(
                count,
                _mm256_set1_epi64x(5),
            )))
        }
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

#[cfg(target_arch = "x86_64")]
impl Blocks for Avx512 {
    #[inline(always)]
    unsafe fn draw(block: &mut Block, mask: u64, filter: bool) {
        // SAFETY: the caller guarantees the features.
        unsafe { Self::draw_avx512(block, mask, filter) }
    }
}

/// Candidates each of the eight lanes draws per [`Block`].
#[cfg(target_arch = "x86_64")]
pub(crate) const LANE_CANDIDATES: usize = 512;

/// Candidates per [`Block`]: one pause interval of the search.
#[cfg(target_arch = "x86_64")]
pub(crate) const BLOCK: usize = 8 * LANE_CANDIDATES;

/// Draws per sparse candidate.
#[cfg(target_arch = "x86_64")]
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

/// [`BLOCK`] sparse candidates of one stream, drawn in eight lanes: lane `j` draws candidates
/// `j * LANE_CANDIDATES ..` of the block, from a state jumped that far ahead (see
/// [`super::stream_jump`]). The lanes are independent, so they are drawn side by side in
/// vector registers where one stream's draws would wait on each other: the random stream
/// leaves the search's critical path.
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
#[cfg(target_arch = "x86_64")]
pub(crate) struct Passed<'a> {
    block: &'a Block,
    /// Word `lane * 8 + chunk` of the bit strings: candidates `64 * word ..` of the block.
    word: usize,
    /// What is left of that word.
    bits: u64,
}

#[cfg(target_arch = "x86_64")]
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

#[cfg(target_arch = "x86_64")]
impl Avx512 {
    /// [`Blocks::draw`] in AVX-512 instructions.
    ///
    /// # Safety
    /// The CPU has AVX-512 F, DQ, BW and VPOPCNTDQ ([`Avx512::available`]).
    #[inline(always)]
    unsafe fn draw_avx512(block: &mut Block, mask: u64, filter: bool) {
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
    #[cfg(target_arch = "x86_64")]
    use rand_xoshiro::Xoshiro256PlusPlus;
    #[cfg(target_arch = "x86_64")]
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
            assert_eq!(scalar, age <= RECENT_KILLERS, "pair of age {age}");
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
    /// candidates, pairs that often share an index), every batch length: `L` keeps the
    /// candidates the scalar path keeps, and finds a collision among the killer pairs it tries
    /// exactly where `collides` finds one.
    #[cfg(target_arch = "x86_64")]
    fn decides_as_the_scalar_path<L: Lanes>(collides: fn(&Killers, u64, u32) -> bool) {
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
            // SAFETY: the callers check L's features.
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
                    L::keep(mask, filter, &candidates, count, &mut got.0, &mut got.1),
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
                let expected = collides(&killers, magic, shift);
                hits += usize::from(expected);
                // SAFETY: as above.
                assert_eq!(unsafe { L::killed(&killers, magic, shift) }, expected);
            }
        }
        // The pairs must collide often enough for the comparison to mean something.
        assert!(hits > 1_000, "{hits}");
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn avx2_decides_as_the_scalar_path() {
        if !Avx2::available() {
            eprintln!("no AVX2 here: only the scalar path ran");
            return;
        }
        // SAFETY: the scalar path runs on every CPU.
        decides_as_the_scalar_path::<Avx2>(|killers, magic, shift| unsafe {
            Scalar::killed(killers, magic, shift)
        });
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn avx512_decides_as_the_scalar_path() {
        if !Avx512::available() {
            eprintln!("no AVX-512 (F, DQ, VPOPCNTDQ) here: only the scalar path ran");
            return;
        }
        decides_as_the_scalar_path::<Avx512>(any_pair_collides);
    }

    /// Three blocks in a row, drawn by `draw`, hold the stream's own sparse candidates in its
    /// order, mark those that pass the filter, and give back the stream after any candidate
    /// and after the block.
    #[cfg(target_arch = "x86_64")]
    fn blocks_draw_the_stream_in_order(draw: impl Fn(&mut Block, u64, bool)) {
        let words = |rng: &Xoshiro256PlusPlus| -> [u64; 4] {
            let bytes = rng.state();
            core::array::from_fn(|i| u64::from_le_bytes(bytes[8 * i..][..8].try_into().unwrap()))
        };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mask = 0x0001_0101_0101_017E;
        let mut block = Block::new(words(&rng));
        for round in 0..3 {
            let filter = round != 1;
            draw(&mut block, mask, filter);
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

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn avx2_blocks_draw_the_stream_in_order() {
        if !Avx2::available() {
            eprintln!("no AVX2 here: its blocks are not drawn");
            return;
        }
        // SAFETY: AVX2 is here (checked above).
        blocks_draw_the_stream_in_order(|block, mask, filter| unsafe {
            Avx2::draw(block, mask, filter)
        });
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn avx512_blocks_draw_the_stream_in_order() {
        if !Avx512::available() {
            eprintln!("no AVX-512 (F, DQ, BW, VPOPCNTDQ) here: its blocks are not drawn");
            return;
        }
        // SAFETY: the features are here (checked above).
        blocks_draw_the_stream_in_order(|block, mask, filter| unsafe {
            Avx512::draw(block, mask, filter)
        });
    }
}
