//! What the speed programs share: their rounds, the median of a round's times, the page they
//! write.

use std::path::PathBuf;
use std::time::Duration;

/// The options of a run in interleaved rounds that may write its table as a page.
#[derive(Debug, clap::Args)]
pub struct Rounds {
    /// How many rounds (each one runs everything measured once); the median is reported.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub rounds: u32,
    /// Also write the table (Markdown) to this file.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

impl Rounds {
    /// Writes `page` where `--out` says, if it does: an error names the file.
    pub fn write_page(&self, page: &str) -> Result<(), String> {
        match &self.out {
            Some(path) => std::fs::write(path, page)
                .map_err(|error| format!("cannot write {}: {error}", path.display())),
            None => Ok(()),
        }
    }
}

/// The median of `times` (the upper one of an even count); `times` is sorted.
///
/// # Panics
///
/// If `times` is empty (a run has at least one round).
pub fn median(times: &mut [Duration]) -> Duration {
    times.sort_unstable();
    times[times.len() / 2]
}
