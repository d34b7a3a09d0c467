//! Sets `cfg(bitforge_unoptimized)` when the core is compiled at `opt-level = 0`: the move
//! generator's large functions are then `#[inline]` rather than `#[inline(always)]`, since
//! forcing them into one another multiplies what an unoptimized build compiles (a debug build
//! of a crate calling `perft` spent 2.7 s on it instead of 0.5 s) and buys no speed there.
//! Optimized builds, tests and benchmarks included, keep them forced inline.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(bitforge_unoptimized)");
    println!("cargo::rerun-if-changed=build.rs");
    if std::env::var("OPT_LEVEL").as_deref() == Ok("0") {
        println!("cargo::rustc-cfg=bitforge_unoptimized");
    }
}
