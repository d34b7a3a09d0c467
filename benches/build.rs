//! Builds the C version of Stockfish's magic search that `search-speed` times magic-search
//! against, with Stockfish's usual optimisation and the POPCNT instruction its x86-64 builds
//! assume.

fn main() {
    println!("cargo::rerun-if-changed=c/stockfish_magics.c");
    println!("cargo::rerun-if-changed=c/rays.h");
    let mut build = cc::Build::new();
    build.file("c/stockfish_magics.c").opt_level(3);
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("x86_64") {
        build.flag("-mpopcnt");
    }
    build.compile("stockfish_magics");
}
