//! Finding and reading a file named by a macro argument, the way `include_bytes!` does.

use std::path::{Path, PathBuf};

use proc_macro::Span;

use crate::parse::{Error, Result};

/// A file name as the invocation gives it, and where (for errors).
pub(crate) struct NamedFile {
    pub(crate) name: String,
    pub(crate) span: Span,
}

/// The file that `file` names, as an absolute path: relative paths are resolved against the
/// directory of the source file that invokes the macro, as `include_bytes!` resolves them, or
/// against the invoking crate's manifest directory when the compiler does not say which file
/// that is.
pub(crate) fn resolve(file: &NamedFile) -> Result<PathBuf> {
    let named = PathBuf::from(&file.name);
    if named.is_absolute() {
        return Ok(named);
    }
    let invoking_file = proc_macro::Span::call_site().local_file();
    let base = match invoking_file.as_deref().and_then(Path::parent) {
        Some(directory) => directory.to_path_buf(),
        None => std::env::var_os("CARGO_MANIFEST_DIR")
            .map(PathBuf::from)
            .ok_or_else(|| {
                Error::new(
                    file.span,
                    "cannot tell which directory a relative path is relative to; use an absolute path",
                )
            })?,
    };
    // The compiler may name the invoking file relative to its working directory, which is
    // also the macro's; `include_bytes!` in the expansion needs the path absolute.
    let joined = base.join(named);
    Ok(std::fs::canonicalize(&joined).unwrap_or(joined))
}

/// The text of the file, or a compile error at the name saying why it cannot be read.
pub(crate) fn read(file: &NamedFile, path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|error| {
        Error::new(
            file.span,
            format!("cannot read {}: {error}", path.display()),
        )
    })
}
