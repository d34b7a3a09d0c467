//! What the benchmarks share: the inputs they measure on, the same on every run, and (with the
//! `peers` feature) the adapters that run the same work on other move generators.

pub mod c_twins;
pub mod engine_path;
pub mod inputs;
pub mod kernels;
pub mod machine;
#[cfg(feature = "peers")]
pub mod peers;
pub mod runs;

pub use inputs::{
    COUNTED_LOOKUPS, LookupPiece, PAIRS, PlainQueens, STREAMED_OCCUPANCIES, StreamedQueen,
    random_pairs, real_pairs, split_mix, streamed_queen,
};
