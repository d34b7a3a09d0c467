//! The full-width stage's candidate loop, the hot path of every search: candidates drawn a
//! batch at a time, or a block at a time in vector lanes where the CPU has them.

use std::time::Instant;

use super::Found;
use super::candidate_filter::{BATCH, Lanes, Path, Scalar};
#[cfg(target_arch = "x86_64")]
use super::candidate_filter::{BLOCK, Block, Blocks};
#[cfg(target_arch = "x86_64")]
use super::square::stream_words;
use super::square::{PAUSE_CHECK, SquareSearch, Step, sparse_candidate, stream_from_words};
use super::tester::Limits;

impl SquareSearch {
    /// [`next_magic`](Self::next_magic) for a full-width stage (no budget, sparse candidates,
    /// no limits), the hot path of every search: the same candidates in the same order and
    /// the same result, but drawn [`BATCH`] at a time, with no branch per candidate for the
    /// nine in ten that the top-byte filter rejects. On the AVX2 and AVX-512 paths
    /// ([`Path::choose`]), the cheap tests run in vector lanes and, past a stage's first pause
    /// interval, whole pause intervals are drawn in eight lanes at once (`Block`): a tuned
    /// stream finds most magics in the first interval, sooner than a block is drawn. Without
    /// AVX2, blocks drawn in plain code were slower than batches (results/analysis.md, issue
    /// 38).
    pub(crate) fn next_full_width_magic(
        &mut self,
        bits: u8,
        pause: &mut dyn FnMut() -> bool,
    ) -> Step {
        match self.path {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Path::choose` and `Path::runnable` give `Avx512`
            // only where `Avx512::available()`.
            Path::Avx512 => unsafe { self.full_width_avx512(bits, pause) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Path::choose` and `Path::runnable` give `Avx2` only
            // where `Avx2::available()`.
            Path::Avx2 => unsafe { self.full_width_avx2(bits, pause) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Path::choose` and `Path::runnable` give `Popcnt` only
            // where the CPU has POPCNT.
            Path::Popcnt => unsafe { self.full_width_popcnt(bits, pause) },
            // SAFETY: the scalar path runs on every CPU.
            _ => unsafe { self.full_width::<Scalar>(bits, pause, false) },
        }
    }

    /// The full-width loop in plain code compiled with POPCNT, for [`Path::Popcnt`].
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn full_width_popcnt(&mut self, bits: u8, pause: &mut dyn FnMut() -> bool) -> Step {
        // SAFETY: the scalar path runs on every CPU.
        unsafe { self.full_width::<Scalar>(bits, pause, false) }
    }

    /// The full-width loop compiled with AVX-512, for [`super::candidate_filter::Avx512`].
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vpopcntdq")]
    fn full_width_avx512(&mut self, bits: u8, pause: &mut dyn FnMut() -> bool) -> Step {
        // SAFETY: this function's features are those `Avx512` needs.
        unsafe { self.full_width_lanes::<super::candidate_filter::Avx512>(bits, pause) }
    }

    /// The full-width loop compiled with AVX2, for [`super::candidate_filter::Avx2`], and POPCNT
    /// for its batches' filter, which stays scalar.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt")]
    fn full_width_avx2(&mut self, bits: u8, pause: &mut dyn FnMut() -> bool) -> Step {
        // SAFETY: this function's features are those `Avx2` needs.
        unsafe { self.full_width_lanes::<super::candidate_filter::Avx2>(bits, pause) }
    }

    /// The full-width loop up to the next pause point in batches, then in blocks.
    ///
    /// # Safety
    /// The CPU has the features of `L`.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn full_width_lanes<L: Blocks>(
        &mut self,
        bits: u8,
        pause: &mut dyn FnMut() -> bool,
    ) -> Step {
        let before = self.progress.attempts;
        if before == 0 || !before.is_multiple_of(PAUSE_CHECK) {
            // SAFETY: the caller guarantees L's features.
            match unsafe { self.full_width::<L>(bits, pause, true) } {
                Step::Paused if self.progress.attempts.is_multiple_of(PAUSE_CHECK) => {}
                step => return step,
            }
        }
        // SAFETY: as above.
        unsafe { self.full_width_blocks::<L>(bits, pause, self.progress.attempts == before) }
    }

    /// The full-width loop from a pause point on, one [`Block`] (a pause interval) at a time.
    /// `first`: this call has drawn nothing yet (it does not pause before it has).
    ///
    /// # Safety
    /// The CPU has the features of `L`.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn full_width_blocks<L: Blocks>(
        &mut self,
        bits: u8,
        pause: &mut dyn FnMut() -> bool,
        mut first: bool,
    ) -> Step {
        const _: () = assert!(BLOCK as u64 == PAUSE_CHECK);
        let started = Instant::now();
        let (mut attempts, mut tried) = (self.progress.attempts, self.progress.tried);
        let mask = self.tester.mask();
        let shift = 64 - u32::from(bits);
        let mut block = Block::new(stream_words(&self.rng));
        loop {
            if !first && pause() {
                self.rng = stream_from_words(block.stream());
                self.progress.spent += started.elapsed();
                self.progress.attempts = attempts;
                self.progress.tried = tried;
                return Step::Paused;
            }
            first = false;
            // SAFETY: the caller guarantees L's features.
            unsafe { L::draw(&mut block, mask, self.early_reject) };
            for (number, magic) in block.passed() {
                // SAFETY: as above.
                if unsafe { L::killed(&self.tester.killers, magic, shift) } {
                    continue;
                }
                if let Some((lowest, highest)) = self.tester.test_table(magic, bits, Limits::NONE) {
                    self.rng = stream_from_words(block.stream_after(number));
                    let drawn = number as u64 + 1;
                    self.progress.attempts = attempts + drawn;
                    self.progress.tried = tried + drawn;
                    return Step::Found(Found {
                        magic,
                        lowest,
                        highest,
                    });
                }
            }
            block.advance();
            attempts += PAUSE_CHECK;
            tried += PAUSE_CHECK;
        }
    }

    /// # Safety
    /// The CPU has the features of `L`.
    /// `to_pause_point`: return [`Step::Paused`] at the next pause point without asking
    /// `pause`.
    #[inline(always)]
    pub(crate) unsafe fn full_width<L: Lanes>(
        &mut self,
        bits: u8,
        pause: &mut dyn FnMut() -> bool,
        to_pause_point: bool,
    ) -> Step {
        let started = Instant::now();
        let (mut attempts, mut tried) = (self.progress.attempts, self.progress.tried);
        let mask = self.tester.mask();
        let shift = 64 - u32::from(bits);
        let mut candidates = [0u64; BATCH];
        let (mut kept, mut numbers) = ([0u64; BATCH], [0u64; BATCH]);
        let mut first = true;
        loop {
            if !first && attempts.is_multiple_of(PAUSE_CHECK) && (to_pause_point || pause()) {
                self.progress.spent += started.elapsed();
                self.progress.attempts = attempts;
                self.progress.tried = tried;
                return Step::Paused;
            }
            first = false;
            // A batch ends where the one-at-a-time loop would ask `pause`.
            let count = (PAUSE_CHECK - attempts % PAUSE_CHECK).min(BATCH as u64) as usize;
            let stream_before = self.rng.clone();
            for candidate in &mut candidates[..count] {
                *candidate = sparse_candidate(&mut self.rng);
            }
            // SAFETY: the caller guarantees L's features.
            let total = unsafe {
                L::keep(
                    mask,
                    self.early_reject,
                    &candidates,
                    count,
                    &mut kept,
                    &mut numbers,
                )
            };
            for (&magic, &number) in kept[..total].iter().zip(&numbers[..total]) {
                // SAFETY: as above.
                if unsafe { L::killed(&self.tester.killers, magic, shift) } {
                    continue;
                }
                if let Some((lowest, highest)) = self.tester.test_table(magic, bits, Limits::NONE) {
                    // The stream goes on right after this candidate, as if drawn one by one.
                    self.rng = stream_before;
                    for _ in 0..=number {
                        sparse_candidate(&mut self.rng);
                    }
                    self.progress.attempts = attempts + number + 1;
                    self.progress.tried = tried + number + 1;
                    return Step::Found(Found {
                        magic,
                        lowest,
                        highest,
                    });
                }
            }
            attempts += count as u64;
            tried += count as u64;
        }
    }
}
