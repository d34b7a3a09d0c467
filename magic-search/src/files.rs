//! Reading magic-set files and writing output without losing anything.

use std::fs;
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};

use bitforge_index::{AttackTable, BINARY_MAGIC, BinaryError, MagicSet, from_binary, verify};

use crate::Failure;

/// Writes `line` and a newline to standard output (see `out!`).
pub(crate) fn print_line(line: std::fmt::Arguments<'_>) -> Result<(), Failure> {
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{line}")
        .and_then(|()| stdout.flush())
        .map_err(|error| Failure::input(format!("cannot write to standard output: {error}")))
}

/// Where a command writes its result.
#[derive(Debug, Clone, Default)]
pub(crate) struct Output {
    pub(crate) path: Option<PathBuf>,
    pub(crate) force: bool,
}

impl Output {
    /// Fails before any work is done when the result could not be written at the end: the
    /// file exists and --force was not given; the path is not a regular file (a directory, a
    /// symbolic link, a FIFO, a device such as `/dev/stdout`: --force replaces only regular
    /// files; leave --out out to write to standard output); or its directory does not take
    /// the temporary file the result is written through.
    pub(crate) fn check_writable(&self) -> Result<(), Failure> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        match fs::symlink_metadata(path) {
            Ok(metadata) if !metadata.file_type().is_file() => {
                return Err(Failure::input(format!(
                    "{} is not a regular file (--out writes regular files only; without --out \
                     the result goes to standard output)",
                    path.display()
                )));
            }
            Ok(_) if !self.force => {
                return Err(Failure::input(format!(
                    "{} already exists (use --force to overwrite it)",
                    path.display()
                )));
            }
            _ => {}
        }
        let temporary = temporary_path(path);
        fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&temporary)
            .and_then(|_| fs::remove_file(&temporary))
            .map_err(|error| Failure::input(format!("cannot write {}: {error}", path.display())))
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
        let temporary = temporary_path(path);
        fs::write(&temporary, text)
            .and_then(|()| fs::rename(&temporary, path))
            .map_err(|error| {
                let _ = fs::remove_file(&temporary);
                Failure::input(format!("cannot write {}: {error}", path.display()))
            })
    }
}

/// Whether two paths name one file: the same absolute path, or (when both exist) the same
/// file behind links and `..`.
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => std::path::absolute(a).ok() == std::path::absolute(b).ok(),
    }
}

/// Where `path`'s new contents are written before a rename puts them in its place.
fn temporary_path(path: &Path) -> PathBuf {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".partial");
    PathBuf::from(temporary)
}

/// The largest file the commands read: a binary export at the table limit is 16 MiB and 4
/// KiB, a hunt state file listing the most magics it may (2^20) about 40 MiB.
const MAX_FILE_BYTES: u64 = 64 << 20;

/// Reads a file of at most [`MAX_FILE_BYTES`], refusing a larger one. The bound is on the
/// bytes read, not on the size the file system reports, which is 0 for a pipe or a device
/// (`/dev/zero`, `/dev/stdin`): reading stops one byte past the bound.
pub(crate) fn read_bytes(path: &Path) -> Result<Vec<u8>, Failure> {
    let cannot =
        |error: std::io::Error| Failure::input(format!("cannot read {}: {error}", path.display()));
    let too_large = || {
        Failure::input(format!(
            "{}: more than the {MAX_FILE_BYTES} bytes a magic-search file holds",
            path.display()
        ))
    };
    let file = fs::File::open(path).map_err(cannot)?;
    if file.metadata().map_err(cannot)?.len() > MAX_FILE_BYTES {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large());
    }
    Ok(bytes)
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
        return from_binary(&bytes).map_err(|error| {
            let message = format!("{}: {error}", path.display());
            match error {
                BinaryError::Malformed(_) => Failure::input(message),
                BinaryError::Invalid(_) => Failure::invalid(message),
            }
        });
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
