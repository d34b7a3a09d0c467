//! What this CPU can do: BMI2, and whether its `PEXT` is fast.

/// Run-time detection of an x86 feature (cached by std), where std is there to do it.
#[cfg(all(target_arch = "x86_64", feature = "std"))]
macro_rules! detected {
    ($feature:tt) => {
        std::is_x86_feature_detected!($feature)
    };
}

/// Without std (or off x86-64) nothing is detected at run time: only what the build enables.
#[cfg(not(all(target_arch = "x86_64", feature = "std")))]
macro_rules! detected {
    ($feature:tt) => {
        false
    };
}

/// Whether `PEXT` and `PDEP` exist here: compiled in (`-C target-feature=+bmi2`, or a
/// `target-cpu` that has it), or, with the `std` feature, detected at run time.
#[inline]
pub(crate) fn has_bmi2() -> bool {
    cfg!(all(target_arch = "x86_64", target_feature = "bmi2")) || detected!("bmi2")
}

/// Whether AVX2 exists here, compiled in or detected.
#[inline]
pub(crate) fn has_avx2() -> bool {
    cfg!(all(target_arch = "x86_64", target_feature = "avx2")) || detected!("avx2")
}

/// Whether AVX-512F exists here, compiled in or detected.
#[inline]
pub(crate) fn has_avx512f() -> bool {
    cfg!(all(target_arch = "x86_64", target_feature = "avx512f")) || detected!("avx512f")
}

/// Whether GFNI (Galois-field byte instructions) exists here, compiled in or detected.
#[inline]
pub(crate) fn has_gfni() -> bool {
    cfg!(all(target_arch = "x86_64", target_feature = "gfni")) || detected!("gfni")
}

/// The vendor and display family of this CPU, from `CPUID` leaves 0 and 1.
#[cfg(target_arch = "x86_64")]
pub(crate) fn vendor_and_family() -> ([u8; 12], u32) {
    use core::arch::x86_64::__cpuid;
    let leaf0 = __cpuid(0);
    let mut vendor = [0u8; 12];
    vendor[..4].copy_from_slice(&leaf0.ebx.to_le_bytes());
    vendor[4..8].copy_from_slice(&leaf0.edx.to_le_bytes());
    vendor[8..].copy_from_slice(&leaf0.ecx.to_le_bytes());
    let signature = __cpuid(1).eax;
    let base = (signature >> 8) & 0xF;
    let extended = (signature >> 20) & 0xFF;
    let family = if base == 0xF { base + extended } else { base };
    (vendor, family)
}

/// Whether `PEXT`/`PDEP` are microcoded here: AMD families 0x15 (Bulldozer to Excavator) and
/// 0x17 (Zen 1 and 2) take 18 to 289+ cycles, data-dependent, where a table lookup takes a few.
pub(crate) fn pext_is_microcoded() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        let (vendor, family) = vendor_and_family();
        &vendor == b"AuthenticAMD" && matches!(family, 0x15 | 0x17)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}
