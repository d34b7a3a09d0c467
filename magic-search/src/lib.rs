//! Find, verify, pack and export magic numbers for chess slider attack tables.
//!
//! This library is bitforge's single source of geometric truth: the reference ray walker,
//! relevant-occupancy masks and subset enumeration live here, and `bitforge-macros` calls them
//! at expansion time to embed every table in the core. It builds without the command line's
//! dependencies (`default-features = false`).
//!
//! ```
//! use magic_search::{SearchConfig, find_set, verify};
//!
//! let (set, _stats) = find_set(&SearchConfig::default(), 1, &|_| {});
//! let table = verify(&set).expect("found magics verify");
//! assert_eq!(table.entries(), 107_648);
//! ```

pub mod binary;
pub mod export;
pub mod find;
pub mod find_file;
pub mod geometry;
pub mod hunt;
pub mod hunt_file;
mod lanes;
pub mod magic_set;
pub mod pack;
pub mod reduce;
pub mod scheme;
pub mod search;
pub mod state_file;
mod stream_jump;
pub mod subsets;
pub mod tune;
mod tuned_streams;
pub mod verify;

pub use binary::{BINARY_MAGIC, BINARY_VERSION, BinaryError, from_binary, to_binary};
pub use export::{Format, export};
pub use find::{Chunk, FindState, MAX_CHUNKS, find, find_set, search_order};
pub use geometry::SliderKind;
pub use hunt::{Found, HuntReport, MagicCheck, Target, TargetError, check_magic, hunt};
pub use magic_set::{Entry, MagicSet, ParseError};
pub use pack::{
    ChooseError, FINAL_TEMPERATURE, IndexSpans, MAX_CHAINS, PackEffort, PackProgress, Packed,
    QUICK_TRIES, index_spans, pack, pack_choosing,
};
pub use reduce::{ReduceEffort, ReduceProgress, Reduced, reduce_set};
pub use scheme::{Scheme, Syntax};
pub use search::{
    BitsTarget, Budget, DEFAULT_SEED, Prefer, SearchConfig, SearchStats, SquareProgress,
    SquareResult, Stage, find_square,
};
pub use state_file::{MergeError, StateFileError};
pub use subsets::Subsets;
pub use tune::{TunedSquare, tune_stream_offsets};
pub use tuned_streams::FANCY_STREAM_OFFSETS;
pub use verify::{AttackTable, MAX_TABLE_ENTRIES, SlotUse, VerifyError, verify};
