//! The cheap tests and the block draws in AVX2 registers.

use super::block::{LANE_CANDIDATES, LaneJumps};
use super::{BATCH, Block, Blocks, Killers, Lanes, RECENT_KILLERS, Scalar};

/// Four pairs or four candidates per instruction: AVX2, which has no 64-bit multiplication,
/// rotation or population count (each is a few instructions here). The batches' filter stays
/// scalar: a stage's first pause interval, mostly.
pub(crate) struct Avx2;

impl Avx2 {
    /// Whether this CPU has the instructions.
    pub(crate) fn available() -> bool {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("popcnt")
    }
}

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

impl Blocks for Avx2 {
    #[inline(always)]
    unsafe fn draw(block: &mut Block, mask: u64, filter: bool) {
        // SAFETY: the caller guarantees AVX2.
        unsafe { Self::draw_avx2(block, mask, filter) }
    }
}

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
#[derive(Clone, Copy)]
struct Multiplier {
    low: std::arch::x86_64::__m256i,
    high: std::arch::x86_64::__m256i,
}

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
struct Spread {
    mask: Multiplier,
    nibble_counts: std::arch::x86_64::__m256i,
}

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
