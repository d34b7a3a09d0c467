//! The magic sets kept under `results/magics/`: their scheme, table size and the command that
//! produced them, each re-verified before it is reported.

use std::fs;
use std::path::Path;

use magic_search::{MagicSet, verify};

/// One kept magic set.
pub(crate) struct Record {
    pub(crate) file: String,
    pub(crate) scheme: String,
    pub(crate) entries: usize,
    pub(crate) command: Option<String>,
}

/// Every `.magics` file in `dir`, verified, sorted by name.
pub(crate) fn load(dir: &Path) -> Result<Vec<Record>, String> {
    let entries = fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut records = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
            .path();
        if path.extension().is_none_or(|ext| ext != "magics") {
            continue;
        }
        let text = fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let set = MagicSet::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let table = verify(&set).map_err(|e| format!("{}: {e}", path.display()))?;
        let command = text
            .lines()
            .find_map(|line| line.strip_prefix("# command:"))
            .map(|command| command.trim().to_owned());
        records.push(Record {
            file: path
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_default(),
            scheme: if set.post_masked {
                format!("{}, post-masked", set.scheme)
            } else {
                set.scheme.to_string()
            },
            entries: table.entries(),
            command,
        });
    }
    records.sort_by(|a, b| a.file.cmp(&b.file));
    Ok(records)
}
