//! What the speed programs share: their rounds, the median of a round's times, the page they
//! write, and the times another build of the program measured beside them (`--alongside`).

use std::path::{Path, PathBuf};
use std::process::Command;
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

/// The median of `values` (times, or ratios of times; the upper one of an even count);
/// `values` is sorted.
///
/// # Panics
///
/// If `values` is empty (a run has at least one round).
pub fn median<T: Copy + PartialOrd>(values: &mut [T]) -> T {
    values.sort_unstable_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    values[values.len() / 2]
}

/// Runs `program` (another build of the calling speed program) with `args` and reads its
/// `name nanoseconds` lines: the times it measured, by name, in its order. An error names the
/// program and what went wrong (it could not start, it failed, a line does not read).
pub fn times_alongside(program: &Path, args: &[String]) -> Result<Vec<(String, Duration)>, String> {
    let output = Command::new(program)
        .args(args)
        .output()
        .map_err(|error| format!("{}: {error}", program.display()))?;
    if !output.status.success() {
        return Err(format!(
            "{} failed: {}",
            program.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| {
            line.split_once(' ')
                .and_then(|(name, nanos)| {
                    Some((name.to_owned(), Duration::from_nanos(nanos.parse().ok()?)))
                })
                .ok_or_else(|| format!("{}: unreadable line {line:?}", program.display()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The upper middle value of times and of ratios alike.
    #[test]
    fn median_takes_the_upper_middle() {
        let ms = Duration::from_millis;
        assert_eq!(median(&mut [ms(30), ms(10), ms(20)]), ms(20));
        assert_eq!(median(&mut [ms(40), ms(10), ms(20), ms(30)]), ms(30));
        assert_eq!(median(&mut [1.05, 0.95, 1.2, 0.9, 1.0]), 1.0);
    }

    #[cfg(unix)]
    fn shell(script: &str) -> Result<Vec<(String, Duration)>, String> {
        times_alongside(Path::new("/bin/sh"), &["-c".to_owned(), script.to_owned()])
    }

    /// The other build's lines are read in order; a line that does not read, a failing run
    /// and a program that cannot start are errors that name the program.
    #[cfg(unix)]
    #[test]
    fn reads_the_other_builds_times() {
        assert_eq!(
            shell("echo 'pext 1500'; echo 'every-move/board/pext 42'"),
            Ok(vec![
                ("pext".to_owned(), Duration::from_nanos(1500)),
                ("every-move/board/pext".to_owned(), Duration::from_nanos(42)),
            ])
        );
        let unreadable = shell("echo 'pext fast'").unwrap_err();
        assert!(
            unreadable.contains("/bin/sh: unreadable line"),
            "{unreadable}"
        );
        let failed = shell("echo 'no such engine' >&2; exit 1").unwrap_err();
        assert!(failed.contains("failed: no such engine"), "{failed}");
        let missing = times_alongside(Path::new("/nonexistent/perft-speed"), &[]).unwrap_err();
        assert!(
            missing.starts_with("/nonexistent/perft-speed: "),
            "{missing}"
        );
    }
}
