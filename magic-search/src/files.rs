//! Reading magic-set files and writing output without losing anything.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use bitforge_index::{AttackTable, BINARY_MAGIC, MagicSet, from_binary, verify};

use crate::Failure;

/// Where a command writes its result.
#[derive(Debug, Clone, Default)]
pub(crate) struct Output {
    pub(crate) path: Option<PathBuf>,
    pub(crate) force: bool,
}

impl Output {
    /// Fails before any work is done if the file exists and --force was not given.
    pub(crate) fn check_writable(&self) -> Result<(), Failure> {
        match &self.path {
            Some(path) if path.exists() && !self.force => Err(Failure::input(format!(
                "{} already exists (use --force to overwrite it)",
                path.display()
            ))),
            Some(path) if path.is_dir() => {
                Err(Failure::input(format!("{} is a directory", path.display())))
            }
            _ => Ok(()),
        }
    }

    /// Writes `text` to the file (through a temporary file and a rename, so that a failure
    /// never leaves half a file), or to standard output when there is no file.
    pub(crate) fn write(&self, text: &str) -> Result<(), Failure> {
        self.write_bytes(text.as_bytes())
    }

    /// [`write`](Self::write) for bytes.
    pub(crate) fn write_bytes(&self, text: &[u8]) -> Result<(), Failure> {
        let Some(path) = &self.path else {
            let mut stdout = std::io::stdout().lock();
            return stdout
                .write_all(text)
                .and_then(|()| stdout.flush())
                .map_err(|error| {
                    Failure::input(format!("cannot write to standard output: {error}"))
                });
        };
        self.check_writable()?;
        let mut temporary = path.clone().into_os_string();
        temporary.push(".partial");
        let temporary = PathBuf::from(temporary);
        fs::write(&temporary, text)
            .and_then(|()| fs::rename(&temporary, path))
            .map_err(|error| {
                let _ = fs::remove_file(&temporary);
                Failure::input(format!("cannot write {}: {error}", path.display()))
            })
    }
}

/// The largest file the commands read: a binary export at the table limit is 16 MiB and 4
/// KiB, a hunt state file listing the most magics it may (2^20) about 40 MiB.
const MAX_FILE_BYTES: u64 = 64 << 20;

/// Reads a file of at most [`MAX_FILE_BYTES`], refusing a larger one before reading it.
pub(crate) fn read_bytes(path: &Path) -> Result<Vec<u8>, Failure> {
    let cannot =
        |error: std::io::Error| Failure::input(format!("cannot read {}: {error}", path.display()));
    let size = fs::metadata(path).map_err(cannot)?.len();
    if size > MAX_FILE_BYTES {
        return Err(Failure::input(format!(
            "{}: {size} bytes, more than a magic-search file holds ({MAX_FILE_BYTES})",
            path.display()
        )));
    }
    fs::read(path).map_err(cannot)
}

/// Parses the bytes of a `.magics` file read from `path`.
fn parse_set(path: &Path, bytes: Vec<u8>) -> Result<MagicSet, Failure> {
    let text = String::from_utf8(bytes).map_err(|_| {
        Failure::input(format!(
            "{}: not a text file (a .magics file is text)",
            path.display()
        ))
    })?;
    MagicSet::parse(&text).map_err(|error| Failure::input(format!("{}: {error}", path.display())))
}

/// Reads and parses a `.magics` file.
pub(crate) fn read_set(path: &Path) -> Result<MagicSet, Failure> {
    parse_set(path, read_bytes(path)?)
}

/// Reads a `.magics` file, or a binary export (recognised by its first bytes), and verifies it.
pub(crate) fn read_verified(path: &Path) -> Result<(MagicSet, AttackTable), Failure> {
    let bytes = read_bytes(path)?;
    if bytes.starts_with(&BINARY_MAGIC) {
        return from_binary(&bytes)
            .map_err(|error| Failure::invalid(format!("{}: {error}", path.display())));
    }
    let set = parse_set(path, bytes)?;
    let table =
        verify(&set).map_err(|error| Failure::invalid(format!("{}: {error}", path.display())))?;
    Ok((set, table))
}

/// The command line as typed, for the provenance comment of a written file.
pub(crate) fn command_line() -> String {
    let mut words = vec!["magic-search".to_owned()];
    words.extend(std::env::args().skip(1));
    words.join(" ")
}

/// Kibibytes of a table of `entries` 64-bit attack sets.
pub(crate) fn kib(entries: usize) -> f64 {
    entries as f64 * 8.0 / 1024.0
}
