//! Find, verify, pack and export magic numbers for chess slider attack tables.
//!
//! The research instrument: seeded, reproducible searches for magic sets (full, reduced-bit,
//! narrowed), packing into overlapped and combined tables, reductions, exhaustive hunts over
//! one square's candidates, resumable state files, and exports for other languages. What it
//! finds is read, verified and embedded through `bitforge-index` (the formats, the geometry,
//! the formulas and `verify`), which the engine's side (`bitforge-macros`, `bitforge`) uses
//! without this crate. It builds without the command line's dependencies
//! (`default-features = false`).
//!
//! ```
//! use bitforge_index::verify;
//! use magic_search::{SearchConfig, find_set};
//!
//! let (set, _stats) = find_set(&SearchConfig::default(), 1, &|_| {});
//! let table = verify(&set).expect("found magics verify");
//! assert_eq!(table.entries(), 107_648);
//! ```

mod blocks;
mod engine;
mod export;
mod hunt;
mod pack;
mod prove;
mod reduce;
mod set_search;
mod state_file;

pub use engine::{
    BitsTarget, Budget, DEFAULT_SEED, FANCY_STREAM_OFFSETS, Found, Prefer, SearchConfig,
    SearchStats, SquareProgress, SquareResult, Stage, TunedSquare, Vectors, find_square,
    tune_stream_offsets,
};
pub use export::{ExportOptions, Format, Prefix, export, export_pext};
pub use hunt::{HuntReport, HuntStatus, MagicCheck, Target, TargetError, check_magic, hunt};
pub use pack::{
    ChooseError, IndexSpans, MAX_CHAINS, PackEffort, PackProgress, Packed, index_spans, pack,
    pack_choosing,
};
pub use prove::{
    LevelCount, ProofReport, ProveError, RecheckError, Tally, TimedWalk, TreeEstimate, TreeShape,
    estimate_tree, prove,
};
pub use reduce::{ReduceEffort, ReduceProgress, Reduced, counting_floor, reduce_set};
pub use set_search::{Chunk, FindState, MAX_CHUNKS, find, find_set, search_order};
pub use state_file::{MergeError, StateFileError};
