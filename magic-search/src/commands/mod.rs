//! One module per subcommand.

pub(crate) mod check;
pub(crate) mod export;
pub(crate) mod find;
pub(crate) mod hunt;
pub(crate) mod merge;
pub(crate) mod options;
pub(crate) mod pack;
pub(crate) mod prove;
pub(crate) mod reduce;
pub(crate) mod resumable;
pub(crate) mod square;
pub(crate) mod status;
pub(crate) mod verify;
