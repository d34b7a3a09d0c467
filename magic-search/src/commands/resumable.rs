//! What the long commands (`find`, `hunt`) share: chunk arguments, a throttled checkpoint file
//! and a Ctrl-C that stops the work after saving it.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::ProgressBar;

use magic_search::{Found, Target, check_magic};

use crate::Failure;
use crate::commands::options::parse_duration;
use crate::files::{Output, command_line, read_bytes};

/// The options of long work (`find`, `hunt`): which part to do, and where to keep the progress.
#[derive(Debug, Args)]
pub(crate) struct WorkArgs {
    /// Do only chunk I of N parts (I from 0 to N-1), such as `3/40`: a batch scheduler's array
    /// index. The chunk's result is its --checkpoint file; `magic-search merge` combines the
    /// chunks' files into the whole result.
    #[arg(long, value_parser = parse_chunk, default_value = "0/1")]
    pub(crate) chunk: (u32, u32),

    /// Keep the progress in this file and resume from it if it exists (the same command and
    /// chunk): a stopped run (Ctrl-C, a reboot, a batch job's time limit) continues where it
    /// stopped and ends with the same result.
    #[arg(long)]
    pub(crate) checkpoint: Option<PathBuf>,

    /// How often to write the checkpoint, such as `30s` or `5m`.
    #[arg(long, default_value = "30s", value_parser = parse_duration)]
    pub(crate) checkpoint_every: Duration,
}

impl Default for WorkArgs {
    fn default() -> Self {
        WorkArgs {
            chunk: (0, 1),
            checkpoint: None,
            checkpoint_every: Duration::from_secs(30),
        }
    }
}

impl WorkArgs {
    /// The checkpoint file, if one was asked for.
    pub(crate) fn checkpoint(&self) -> Option<Checkpoint> {
        self.checkpoint
            .as_ref()
            .map(|path| Checkpoint::new(path, self.checkpoint_every))
    }
}

/// `I/N`: part I (from 0) of N.
pub(crate) fn parse_chunk(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("'{text}' is not a chunk I/N with I from 0 to N-1");
    let (index, count) = text.split_once('/').ok_or_else(bad)?;
    let (index, count): (u32, u32) = (
        index.parse().map_err(|_| bad())?,
        count.parse().map_err(|_| bad())?,
    );
    if count == 0 || index >= count {
        return Err(bad());
    }
    Ok((index, count))
}

/// A second signal this soon after the first is the same stop delivered twice (`timeout` and
/// shells signal the process and its group; a scheduler may signal every process of a job),
/// not someone asking to quit at once.
const SAME_STOP: Duration = Duration::from_millis(500);

/// Set by the first Ctrl-C or SIGTERM; a second one, at least [`SAME_STOP`] later, ends the
/// program at once. The handler is installed by the first call.
pub(crate) fn interrupted() -> &'static AtomicBool {
    static FLAG: AtomicBool = AtomicBool::new(false);
    static FIRST: OnceLock<Instant> = OnceLock::new();
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        let installed = ctrlc::set_handler(|| {
            let first = *FIRST.get_or_init(Instant::now);
            if FLAG.swap(true, Ordering::Relaxed) {
                if first.elapsed() >= SAME_STOP {
                    std::process::exit(130);
                }
                return;
            }
            eprintln!("\nstopping: saving the progress (Ctrl-C or SIGTERM again to quit at once)");
        });
        if let Err(error) = installed {
            eprintln!("warning: Ctrl-C and SIGTERM will end the program without saving: {error}");
        }
    });
    &FLAG
}

/// The failure a command stopped by Ctrl-C ends with (exit 130, as a shell reports SIGINT).
pub(crate) fn stopped(saved: Option<&Path>) -> Failure {
    Failure::interrupted(match saved {
        Some(path) => format!(
            "stopped: the progress is in {}; the same command resumes it",
            path.display()
        ),
        None => {
            "stopped: nothing was saved (give --checkpoint FILE to keep the progress)".to_owned()
        }
    })
}

/// A state file written at most every `every` (and whenever asked with `write_now`).
pub(crate) struct Checkpoint {
    path: PathBuf,
    every: Duration,
    last: Mutex<Instant>,
}

impl Checkpoint {
    pub(crate) fn new(path: &Path, every: Duration) -> Self {
        Checkpoint {
            path: path.to_owned(),
            every,
            last: Mutex::new(Instant::now()),
        }
    }

    /// Writes `text` now (through a temporary file and a rename: never half a file).
    pub(crate) fn write_now(&self, text: &str) -> Result<(), Failure> {
        let file = Output {
            path: Some(self.path.clone()),
            force: true,
        };
        file.write(text)
    }

    /// Writes `text()` if the last write is at least the interval old. A failed write (a full
    /// disk) is reported and the work goes on: its result is printed at the end whatever
    /// happens to the file.
    pub(crate) fn save(&self, text: impl FnOnce() -> String, progress: &ProgressBar) {
        let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
        if last.elapsed() >= self.every {
            *last = Instant::now();
            if let Err(failure) = self.write_now(&text()) {
                progress.suspend(|| eprintln!("warning: {}", failure.message()));
            }
        }
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

/// How a long command ends. Stopped (`complete` false): `so_far` says what is covered, the
/// checkpoint gets `text` and the command exits 130. Finished: `result` is printed first (a
/// final write that fails then loses nothing), then the checkpoint written.
pub(crate) fn conclude(
    checkpoint: Option<&Checkpoint>,
    text: &str,
    complete: bool,
    so_far: impl FnOnce() -> Result<(), Failure>,
    result: impl FnOnce() -> Result<(), Failure>,
) -> Result<(), Failure> {
    if !complete {
        so_far()?;
        if let Some(file) = checkpoint {
            file.write_now(text)?;
        }
        return Err(stopped(checkpoint.map(Checkpoint::path)));
    }
    result()?;
    if let Some(file) = checkpoint {
        file.write_now(text)?;
        out!("written: {}", file.path().display());
    }
    Ok(())
}

/// A state file's first comment lines: what wrote it and how.
pub(crate) fn state_comments(what: &str) -> [String; 2] {
    [
        format!("bitforge {what}, written by magic-search"),
        format!("command: {}", command_line()),
    ]
}

/// A state file's text.
pub(crate) fn read_text(path: &Path, what: &str) -> Result<String, Failure> {
    String::from_utf8(read_bytes(path)?)
        .map_err(|_| Failure::input(format!("{}: not {what} (not text)", path.display())))
}

/// The first line of `text` that is neither blank nor a comment: a state file's header.
pub(crate) fn header(text: &str) -> &str {
    text.lines()
        .map(|line| line.split('#').next().unwrap_or("").trim())
        .find(|line| !line.is_empty())
        .unwrap_or("")
}

/// Checks a magic a state file keeps (a file can be edited): it must be a magic for `target`
/// with the indices the file gives.
pub(crate) fn check_kept(path: &Path, target: Target, found: &Found) -> Result<(), Failure> {
    let valid = check_magic(target, found.magic)
        .is_ok_and(|c| (c.lowest, c.highest) == (found.lowest, found.highest));
    if valid {
        return Ok(());
    }
    Err(Failure::invalid(format!(
        "{}: {:#x} is not a magic for {target} with indices {} to {}",
        path.display(),
        found.magic,
        found.lowest,
        found.highest
    )))
}
