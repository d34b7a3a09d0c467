//! `magic-search`: find, verify, pack and export magic numbers from the command line.
//!
//! Run with no arguments, it finds a full fancy set with the default seed, verifies it and prints
//! a summary. `magic-search --help` lists the subcommands.

/// `println!` for the commands' results: a line on standard output, and `?` on a failure to
/// write it (a closed pipe, `| head -1`; a full disk, `> /dev/full`), which ends the program
/// with exit code 2 and a message instead of a panic.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::files::print_line(format_args!($($arg)*))?
    };
}

mod commands;
mod files;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Find, verify, pack and export magic numbers for chess slider attacks.
///
/// With no subcommand: find a full fancy set with the default seed, verify it and print a
/// summary (the same as `magic-search find` without --out).
#[derive(Debug, Parser)]
#[command(version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    Find(commands::find::FindArgs),
    Verify(commands::verify::VerifyArgs),
    Pack(commands::pack::PackArgs),
    Reduce(commands::reduce::ReduceArgs),
    Export(commands::export::ExportArgs),
    Check(commands::check::CheckArgs),
    Hunt(commands::hunt::HuntArgs),
    Prove(commands::prove::ProveArgs),
    Merge(commands::merge::MergeArgs),
    Status(commands::status::StatusArgs),
}

/// A failure that ends the program: the message, and the exit code (1 for a set that does not
/// verify, 2 for bad input or a file that cannot be read or written, 130 when Ctrl-C stopped
/// the work).
#[derive(Debug)]
pub(crate) struct Failure {
    message: String,
    code: u8,
}

impl Failure {
    pub(crate) fn input(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            code: 2,
        }
    }

    pub(crate) fn message(&self) -> &str {
        &self.message
    }

    /// Stopped by Ctrl-C: exit 130.
    pub(crate) fn interrupted(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            code: 130,
        }
    }

    pub(crate) fn invalid(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            code: 1,
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        None => commands::find::run(&commands::find::FindArgs::default()),
        Some(Command::Find(args)) => commands::find::run(&args),
        Some(Command::Verify(args)) => commands::verify::run(&args),
        Some(Command::Pack(args)) => commands::pack::run(&args),
        Some(Command::Reduce(args)) => commands::reduce::run(&args),
        Some(Command::Export(args)) => commands::export::run(&args),
        Some(Command::Check(args)) => commands::check::run(&args),
        Some(Command::Hunt(args)) => commands::hunt::run(&args),
        Some(Command::Prove(args)) => commands::prove::run(&args),
        Some(Command::Merge(args)) => commands::merge::run(&args),
        Some(Command::Status(args)) => commands::status::run(&args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) if failure.code == 130 => {
            eprintln!("{}", failure.message);
            ExitCode::from(failure.code)
        }
        Err(failure) => {
            eprintln!("error: {}", failure.message);
            ExitCode::from(failure.code)
        }
    }
}
