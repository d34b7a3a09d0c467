//! Finding the files a benchmark harness saved, anywhere under its directory.

use std::fs;
use std::path::{Path, PathBuf};

/// Every file called `name` under `dir`, at any depth.
pub(crate) fn files_named(dir: &Path, name: &str) -> Result<Vec<PathBuf>, String> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries =
            fs::read_dir(&dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        for entry in entries {
            let path = entry
                .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
                .path();
            if path.is_dir() {
                pending.push(path);
            } else if path.file_name().is_some_and(|file| file == name) {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}
