//! The cheap tests and the block draws in AVX-512 registers.

use super::block::{LANE_CANDIDATES, LaneJumps};
use super::{BATCH, Block, Blocks, KILLERS, Killers, Lanes};

/// Eight candidates or eight pairs per instruction: AVX-512 with 64-bit multiplication (DQ),
/// byte masks (BW) and population count (VPOPCNTDQ).
pub(crate) struct Avx512;

impl Avx512 {
    /// Whether this CPU has the instructions.
    pub(crate) fn available() -> bool {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512dq")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
    }
}

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

impl Blocks for Avx512 {
    #[inline(always)]
    unsafe fn draw(block: &mut Block, mask: u64, filter: bool) {
        // SAFETY: the caller guarantees the features.
        unsafe { Self::draw_avx512(block, mask, filter) }
    }
}

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
