//! Lookup tables computed at build time by `bitforge-macros` and embedded as literal constants
//! and statics: no run-time initialisation.
//!
//! Small tables (masks) are `const`; large ones are `static`, so that there is one copy in the
//! binary. Each comes with an accessor function; the arrays are public for engines that want
//! to index them directly.

mod distance;
mod lines;
mod masks;
mod pseudo;
mod slider_tables;
mod step;

pub use distance::{DISTANCE, distance, file_distance, rank_distance};
pub use lines::{BETWEEN, CHECK_BLOCK, LINE, aligned, between, check_block, line};
pub use masks::{FILE_BB, RANK_BB, SQUARE_BB};
pub use pseudo::{PSEUDO_ATTACKS, pseudo_attacks};
pub use slider_tables::{black, fancy, fancy_combined, pext};
pub use step::{STEP_ATTACKS, king_attacks, knight_attacks, pawn_attacks, step_attacks};
