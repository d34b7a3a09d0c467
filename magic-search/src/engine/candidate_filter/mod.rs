//! The full-width search's two cheap tests, the top-byte filter and the killer pairs, and the
//! drawing of its candidates in eight lanes of one stream (`Block`): in AVX-512 or AVX2
//! instructions where the CPU has them, one candidate at a time otherwise ([`Path`], chosen at
//! run time). Every path decides alike: the search's result does not depend on the CPU.

use super::Vectors;

/// Which implementation of the cheap tests a search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Path {
    /// [`Scalar`], compiled for the baseline CPU.
    Scalar,
    /// [`Scalar`] compiled with POPCNT: the top-byte filter's count in one instruction instead
    /// of a few multiplications.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    Popcnt,
    /// [`Avx2`].
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    Avx2,
    /// [`Avx512`].
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    Avx512,
}

impl Path {
    /// The fastest path this CPU has within `limit`: the widest, except where a 256-bit
    /// instruction runs as two 128-bit halves ([`halves_256_bit_vectors`]): there plain code
    /// with POPCNT is the faster (results/analysis.md, issue 38).
    pub(crate) fn choose(limit: Vectors) -> Path {
        #[cfg(target_arch = "x86_64")]
        {
            if limit == Vectors::Widest && Avx512::available() {
                return Path::Avx512;
            }
            if limit >= Vectors::Avx2 && Avx2::available() && !halves_256_bit_vectors() {
                return Path::Avx2;
            }
            if std::arch::is_x86_feature_detected!("popcnt") {
                return Path::Popcnt;
            }
        }
        let _ = limit;
        Path::Scalar
    }

    /// Every path this CPU can run, whether or not [`choose`](Self::choose) would pick it.
    #[cfg(test)]
    pub(crate) fn runnable() -> Vec<Path> {
        let mut paths = vec![Path::Scalar];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("popcnt") {
                paths.push(Path::Popcnt);
            }
            if Avx2::available() {
                paths.push(Path::Avx2);
            }
            if Avx512::available() {
                paths.push(Path::Avx512);
            }
        }
        paths
    }
}

/// Whether this CPU runs a 256-bit AVX2 instruction as two 128-bit halves: AMD's Zen 1 and
/// Zen+ (family 0x17 below model 0x30; Zen 2 has 256-bit units). There the AVX2 path's
/// multiplications, three 32-bit ones each, cost twice over. Read once a process: every square
/// search asks, and in a virtual machine each `CPUID` exits to the hypervisor.
#[cfg(target_arch = "x86_64")]
fn halves_256_bit_vectors() -> bool {
    static HALVES: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *HALVES.get_or_init(|| {
        bitforge_index::cpu::signature()
            .is_some_and(|cpu| cpu.is_amd() && cpu.family == 0x17 && cpu.model < 0x30)
    })
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

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "x86_64")]
mod block;
#[cfg(test)]
mod tests;

#[cfg(target_arch = "x86_64")]
pub(crate) use avx2::Avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) use avx512::Avx512;
#[cfg(target_arch = "x86_64")]
pub(crate) use block::{BLOCK, Block};
