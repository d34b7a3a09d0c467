//! The perft suites through `Backend::run_best`, as a user's crate runs them: the backend this
//! CPU is given, at the level it is raised to. CI runs this file once more with the core's
//! `perft-inline` feature (the last ply counted inline), which nothing else in `cargo test`
//! builds.

use bitforge::slider::Backend;

mod common;

#[test]
#[cfg_attr(miri, ignore = "CPUID")]
fn the_default_choice() {
    let checked = Backend::run_best(common::Suites {
        max_nodes: common::max_nodes(),
    });
    assert!(checked > 0, "no count was small enough to check");
}
