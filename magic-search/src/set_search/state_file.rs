//! The set search's state file: a chunk's checkpoint, its result, and the merge of all chunks.
//!
//! ```text
//! # comments start with '#'
//! bitforge-find 1
//! scheme fancy
//! seed 0xb17f06e
//! bits min                       (mask, -N or min)
//! budget attempts 16777216       (or: budget time-ns 500000000)
//! candidates 1
//! narrow no                      (yes: fixed and black searches look for better magics)
//! prefer span                    (or used, or comb; a file without the line prefers the span)
//! chunk 0/4
//! square rook a1 reduced:2 tried 33554470 attempts 4096 spent-ns 0 stream 0x.. 0x.. 0x.. 0x.. best 0x.. 11 0 2047
//! square bishop b2 full:0 tried 0 attempts 0 spent-ns 0 stream 0x.. 0x.. 0x.. 0x.. best -
//! ```
//!
//! Every square of the chunk has one `square` line: its stage (`full:N`, N full-width magics
//! found; `reduced:N`, looking for a magic N bits below the full width; `narrow`, looking
//! for a better magic than the kept one by `prefer`; `done`), the
//! candidates tried, the current stage's attempts and time, the random stream's state and the
//! magic kept so far with its bits and its lowest and highest index.

use core::str::FromStr;
use std::time::Duration;

use crate::engine::{BitsTarget, Budget, Prefer, SearchConfig, SquareProgress, Stage, Vectors};
use crate::set_search::{Chunk, FindState};
use crate::state_file::{StateFileError, found, number, read_lines, set_once};
use bitforge_index::Scheme;
use bitforge_index::SliderKind;
use bitforge_index::geometry::{parse_square, square_name};

impl FindState {
    /// The format's first line.
    pub const HEADER: &str = "bitforge-find 1";

    /// The state as a set search state file, `comments` first.
    pub fn to_text(&self, comments: &[String]) -> String {
        let c = &self.config;
        let mut lines: Vec<String> = comments.iter().map(|c| format!("# {c}")).collect();
        lines.push(Self::HEADER.to_owned());
        lines.push(format!("scheme {}", c.scheme));
        lines.push(format!("seed {:#x}", c.seed));
        lines.push(format!("bits {}", c.bits));
        lines.push(match c.budget {
            Budget::Attempts(n) => format!("budget attempts {n}"),
            Budget::Time(time) => format!("budget time-ns {}", time.as_nanos()),
        });
        lines.push(format!("candidates {}", c.candidates));
        lines.push(format!("narrow {}", if c.narrow { "yes" } else { "no" }));
        lines.push(format!("prefer {}", c.prefer));
        lines.push(format!("chunk {}", self.chunk));
        for s in &self.squares {
            let stage = match s.stage {
                Stage::Full { found } => format!("full:{found}"),
                Stage::Reduced { fewer } => format!("reduced:{fewer}"),
                Stage::Narrow => "narrow".to_owned(),
                Stage::Done => "done".to_owned(),
            };
            let [a, b, c, d] = s.stream;
            let best = match &s.best {
                Some((found, bits)) => {
                    format!(
                        "{:#x} {bits} {} {}",
                        found.magic, found.lowest, found.highest
                    )
                }
                None => "-".to_owned(),
            };
            lines.push(format!(
                "square {} {} {stage} tried {} attempts {} spent-ns {} stream {a:#x} {b:#x} \
                 {c:#x} {d:#x} best {best}",
                s.kind,
                square_name(s.square),
                s.tried,
                s.attempts,
                s.spent.as_nanos()
            ));
        }
        let mut text = lines.join("\n");
        text.push('\n');
        text
    }

    /// Reads a set search state file, checking that it is a state the search it names can
    /// reach: every square of its chunk once, each at a stage of that search. Whether the
    /// magics kept work is for the caller to check ([`check_magic`](crate::check_magic)).
    pub fn parse(text: &str) -> Result<Self, StateFileError> {
        let mut fields = Fields::default();
        read_lines(
            text,
            Self::HEADER,
            "a set search state file",
            &mut |words| fields.read(words),
        )?;
        fields.finish()
    }
}

/// The fields of a file as they are read.
#[derive(Default)]
struct Fields {
    scheme: Option<Scheme>,
    seed: Option<u64>,
    bits: Option<BitsTarget>,
    budget: Option<Budget>,
    candidates: Option<u32>,
    narrow: Option<bool>,
    prefer: Option<Prefer>,
    chunk: Option<Chunk>,
    squares: Vec<SquareProgress>,
}

fn parse<T: FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("'{text}' is not {what}"))
}

/// The most candidates a square's counts may hold (far more than any search tries, and far
/// from overflowing when a search adds to them or a merge sums 128 of them).
const MAX_COUNT: u64 = 1 << 56;

fn count(text: &str) -> Result<u64, String> {
    parse(text, "a count").and_then(|n: u64| {
        if n > MAX_COUNT {
            Err(format!(
                "{n} candidates: more than the 2^56 a file may count"
            ))
        } else {
            Ok(n)
        }
    })
}

fn word64(text: &str) -> Result<u64, String> {
    number(text).and_then(|n| u64::try_from(n).map_err(|_| format!("{n:#x} exceeds 64 bits")))
}

fn square_line(words: &[&str]) -> Result<SquareProgress, String> {
    let [
        kind,
        square,
        stage,
        "tried",
        tried,
        "attempts",
        attempts,
        "spent-ns",
        spent,
        "stream",
        a,
        b,
        c,
        d,
        "best",
        best @ ..,
    ] = words
    else {
        return Err(
            "expected 'square KIND SQUARE STAGE tried N attempts N spent-ns N stream \
                    W W W W best MAGIC BITS LOWEST HIGHEST' (or 'best -')"
                .to_owned(),
        );
    };
    let kind = match *kind {
        "rook" => SliderKind::Rook,
        "bishop" => SliderKind::Bishop,
        other => return Err(format!("'{other}' is not rook or bishop")),
    };
    let square = parse_square(square).ok_or_else(|| format!("'{square}' is not a square"))?;
    let stage = match stage.split_once(':') {
        None if *stage == "done" => Stage::Done,
        None if *stage == "narrow" => Stage::Narrow,
        Some(("full", n)) => Stage::Full {
            found: parse(n, "a count")?,
        },
        Some(("reduced", n)) => Stage::Reduced {
            fewer: parse(n, "a bit count")?,
        },
        _ => {
            return Err(format!(
                "'{stage}' is not a stage (full:N, reduced:N, narrow or done)"
            ));
        }
    };
    let best = match best {
        ["-"] => None,
        [magic, bits, lowest, highest] => {
            let bits: u8 = parse(bits, "a bit count")?;
            Some((found(&[magic, lowest, highest])?, bits))
        }
        _ => return Err("expected 'best MAGIC BITS LOWEST HIGHEST' or 'best -'".to_owned()),
    };
    Ok(SquareProgress {
        kind,
        square,
        stage,
        stream: [word64(a)?, word64(b)?, word64(c)?, word64(d)?],
        attempts: count(attempts)?,
        spent: Duration::from_nanos(parse(spent, "a count of nanoseconds")?),
        tried: count(tried)?,
        best,
    })
}

impl Fields {
    fn read(&mut self, words: &[&str]) -> Result<(), String> {
        match words {
            ["scheme", scheme] => {
                let scheme = scheme.parse().map_err(|e| format!("{e}"))?;
                set_once(&mut self.scheme, scheme, "scheme")
            }
            ["seed", seed] => set_once(&mut self.seed, word64(seed)?, "seed"),
            ["bits", bits] => set_once(&mut self.bits, bits.parse()?, "bits"),
            ["budget", "attempts", n] => {
                let n: u64 = parse(n, "a count")?;
                if n == 0 {
                    return Err("a budget of 0 attempts".to_owned());
                }
                set_once(&mut self.budget, Budget::Attempts(n), "budget")
            }
            ["budget", "time-ns", n] => {
                let time = Duration::from_nanos(parse(n, "a count of nanoseconds")?);
                set_once(&mut self.budget, Budget::Time(time), "budget")
            }
            ["candidates", n] => {
                let n: u32 = parse(n, "a count")?;
                if n == 0 {
                    return Err("0 candidates (at least 1)".to_owned());
                }
                set_once(&mut self.candidates, n, "candidates")
            }
            ["narrow", narrow] => {
                let narrow = match *narrow {
                    "yes" => true,
                    "no" => false,
                    other => return Err(format!("'{other}' is not yes or no")),
                };
                set_once(&mut self.narrow, narrow, "narrow")
            }
            ["prefer", prefer] => set_once(
                &mut self.prefer,
                parse(prefer, "span, used or comb")?,
                "prefer",
            ),
            ["chunk", chunk] => {
                let bad = || format!("'{chunk}' is not a chunk I/N");
                let (index, count) = chunk.split_once('/').ok_or_else(bad)?;
                let chunk = Chunk::new(parse(index, "a number")?, parse(count, "a number")?)?;
                set_once(&mut self.chunk, chunk, "chunk")
            }
            ["square", rest @ ..] => {
                if self.squares.len() >= 128 {
                    return Err("more than 128 'square' lines".to_owned());
                }
                self.squares.push(square_line(rest)?);
                Ok(())
            }
            [key, ..] => Err(format!(
                "unknown or malformed line '{key} ...' (expected scheme, seed, bits, budget, \
                 candidates, narrow, prefer, chunk or square)"
            )),
            [] => Ok(()),
        }
    }

    fn finish(self) -> Result<FindState, StateFileError> {
        let whole = |message: String| StateFileError { line: 0, message };
        let missing = |key: &str| whole(format!("the '{key}' line is missing"));
        let config = SearchConfig {
            scheme: self.scheme.ok_or_else(|| missing("scheme"))?,
            seed: self.seed.ok_or_else(|| missing("seed"))?,
            bits: self.bits.ok_or_else(|| missing("bits"))?,
            budget: self.budget.ok_or_else(|| missing("budget"))?,
            candidates: self.candidates.ok_or_else(|| missing("candidates"))?,
            narrow: self.narrow.ok_or_else(|| missing("narrow"))?,
            // Files written before the choice existed preferred the span.
            prefer: self.prefer.unwrap_or_default(),
            // Not recorded: only the speed depends on it.
            vectors: Vectors::default(),
        };
        if config.scheme != Scheme::Fancy && config.bits != BitsTarget::Mask {
            return Err(whole(format!(
                "bits {}: only fancy magics take fewer bits than the scheme's",
                config.bits
            )));
        }
        let chunk = self.chunk.ok_or_else(|| missing("chunk"))?;
        let mut squares = Vec::with_capacity(self.squares.len());
        for (kind, square) in chunk.squares() {
            let name = || format!("{kind} {}", square_name(square));
            let mut lines = self
                .squares
                .iter()
                .filter(|s| (s.kind, s.square) == (kind, square));
            let progress = lines
                .next()
                .ok_or_else(|| whole(format!("{}: no 'square' line", name())))?;
            if lines.next().is_some() {
                return Err(whole(format!("{}: two 'square' lines", name())));
            }
            progress
                .fits(&config)
                .map_err(|error| whole(format!("{}: {error}", name())))?;
            squares.push(*progress);
        }
        if squares.len() != self.squares.len() {
            return Err(whole(format!(
                "a 'square' line names a square outside chunk {chunk}"
            )));
        }
        Ok(FindState {
            config,
            chunk,
            squares,
        })
    }
}
