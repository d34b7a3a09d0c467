//! `PEXT` and `PDEP`, inlinable from any function.
//!
//! The `core::arch` intrinsics are `#[target_feature(enable = "bmi2")]` functions: when the
//! build does not enable BMI2 they cannot inline into the (feature-less) code that calls a
//! backend, and every lookup would pay a call. So a build with BMI2 enabled uses the
//! intrinsics, and any other build emits the instruction with `asm!`, which inlines anywhere.
//! Both are only reached through a [`Pext`](super::Pext) or [`PextPdep`](super::PextPdep)
//! value, whose existence proves the CPU has BMI2. Other architectures get the software loops
//! of `bitforge_index`, never used by the automatic choice, so that the crate builds (and
//! stays correct) there.

/// The bits of `value` under `mask`, packed into the low bits.
///
/// # Safety
///
/// The CPU must support BMI2.
#[inline(always)]
pub(crate) unsafe fn pext(value: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the build enables BMI2 and the caller guarantees the CPU has it.
        unsafe { core::arch::x86_64::_pext_u64(value, mask) }
    }
    #[cfg(all(target_arch = "x86_64", not(target_feature = "bmi2")))]
    {
        let result: u64;
        // SAFETY: the caller guarantees BMI2; the instruction touches only these registers.
        unsafe {
            core::arch::asm!(
                "pext {result}, {value}, {mask}",
                result = lateout(reg) result,
                value = in(reg) value,
                mask = in(reg) mask,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
        result
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        bitforge_index::pext(value, mask)
    }
}

/// The low bits of `value` spread onto the set bits of `mask`, in order.
///
/// # Safety
///
/// The CPU must support BMI2.
#[inline(always)]
pub(crate) unsafe fn pdep(value: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the build enables BMI2 and the caller guarantees the CPU has it.
        unsafe { core::arch::x86_64::_pdep_u64(value, mask) }
    }
    #[cfg(all(target_arch = "x86_64", not(target_feature = "bmi2")))]
    {
        let result: u64;
        // SAFETY: the caller guarantees BMI2; the instruction touches only these registers.
        unsafe {
            core::arch::asm!(
                "pdep {result}, {value}, {mask}",
                result = lateout(reg) result,
                value = in(reg) value,
                mask = in(reg) mask,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
        result
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        bitforge_index::pdep(value, mask)
    }
}
