//! Option values that several subcommands read alike: thread counts, budgets, durations.

use std::time::Duration;

use indicatif::HumanDuration;

use magic_search::Budget;

/// The search threads asked for, or all cores.
pub(crate) fn threads_or_all_cores(threads: Option<u16>) -> usize {
    threads
        .map(usize::from)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// The budget of `--attempts` or `--time-budget` (clap refuses both), or `default`.
pub(crate) fn budget_of(attempts: Option<u64>, time: Option<Duration>, default: Budget) -> Budget {
    match (attempts, time) {
        (_, Some(time)) => Budget::Time(time),
        (Some(attempts), None) => Budget::Attempts(attempts),
        (None, None) => default,
    }
}

/// A duration for `--time-budget` and `--checkpoint-every`: a number followed by `ms`, `s`
/// (or nothing: seconds) or `m`.
pub(crate) fn parse_duration(text: &str) -> Result<Duration, String> {
    let split = text
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let value: f64 = number
        .parse()
        .map_err(|_| format!("'{text}' is not a duration such as 500ms, 2s or 1m"))?;
    let seconds = match unit {
        "ms" => value / 1000.0,
        "s" | "" => value,
        "m" => value * 60.0,
        _ => {
            return Err(format!(
                "unknown unit '{unit}' in '{text}' (use ms, s or m)"
            ));
        }
    };
    Duration::try_from_secs_f64(seconds).map_err(|error| format!("'{text}': {error}"))
}

/// A duration for people, past what `Duration` holds (a 2^63 period at a billion a second is
/// centuries).
pub(crate) fn human(seconds: f64) -> String {
    const YEAR: f64 = 365.25 * 24.0 * 3600.0;
    if seconds >= YEAR {
        format!("{:.1} years", seconds / YEAR)
    } else if seconds < 1.0 {
        "under a second".to_owned()
    } else {
        HumanDuration(Duration::from_secs_f64(seconds.max(0.0))).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse() {
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("2"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_duration("1.5m"), Ok(Duration::from_secs(90)));
        assert!(parse_duration("2h").is_err());
        assert!(parse_duration("fast").is_err());
    }
}
