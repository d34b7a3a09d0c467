//! One module per subcommand.

pub(crate) mod export;
pub(crate) mod find;
pub(crate) mod pack;
pub(crate) mod verify;
