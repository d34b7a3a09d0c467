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

/// Whether `PEXT`/`PDEP` are microcoded here: AMD families 0x15 (Bulldozer to Excavator) and
/// 0x17 (Zen 1 and 2) take 18 to 289+ cycles, data-dependent, where a table lookup takes a few.
pub(crate) fn pext_is_microcoded() -> bool {
    bitforge_index::cpu::signature()
        .is_some_and(|cpu| cpu.is_amd() && matches!(cpu.family, 0x15 | 0x17))
}
