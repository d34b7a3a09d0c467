//! What this CPU can do: its x86 features, and whether its `PEXT` is fast.

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

/// Whether this CPU has an x86 feature: compiled in (`-C target-cpu` or `-C target-feature`),
/// or, with the `std` feature, detected at run time.
macro_rules! has {
    ($feature:tt) => {
        cfg!(all(target_arch = "x86_64", target_feature = $feature))
            || $crate::slider::cpu::detected!($feature)
    };
}
pub(crate) use {detected, has};

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
