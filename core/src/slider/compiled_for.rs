//! Running a whole job inside a function compiled for a target feature, so that the lookups of
//! a SIMD backend inline into it instead of costing a call each.

#![cfg(target_arch = "x86_64")]

use super::{Slider, SliderJob};

/// Runs `job` inside a function compiled for AVX-512F.
///
/// # Safety
///
/// The CPU must support AVX-512F.
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn run_avx512<J: SliderJob, S: Slider>(job: J, slider: S) -> J::Output {
    job.run(slider)
}

/// Runs `job` inside a function compiled for AVX2.
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn run_avx2<J: SliderJob, S: Slider>(job: J, slider: S) -> J::Output {
    job.run(slider)
}

/// Runs `job` inside a function compiled for AVX2 and GFNI.
///
/// # Safety
///
/// The CPU must support AVX2 and GFNI.
#[target_feature(enable = "avx2,gfni")]
pub(super) unsafe fn run_avx2_gfni<J: SliderJob, S: Slider>(job: J, slider: S) -> J::Output {
    job.run(slider)
}
