//! Arguments that name one square's problem: the piece, the square, a magic, the target.

use core::str::FromStr;

use bitforge_index::geometry::parse_square;
use bitforge_index::{Scheme, SliderKind};
use magic_search::Target;

use crate::Failure;

/// `rook` or `bishop` on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum PieceArg {
    Rook,
    Bishop,
}

impl From<PieceArg> for SliderKind {
    fn from(piece: PieceArg) -> Self {
        match piece {
            PieceArg::Rook => SliderKind::Rook,
            PieceArg::Bishop => SliderKind::Bishop,
        }
    }
}

/// A square name, `a1` to `h8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SquareArg(pub(crate) u8);

impl FromStr for SquareArg {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        parse_square(&text.to_ascii_lowercase())
            .map(SquareArg)
            .ok_or_else(|| format!("'{text}' is not a square (a1 to h8)"))
    }
}

/// A 64-bit number: `0x`-prefixed hexadecimal (underscores allowed) or decimal.
pub(crate) fn parse_magic(text: &str) -> Result<u64, String> {
    parse_number(text)
        .and_then(|n| u64::try_from(n).map_err(|_| format!("'{text}' does not fit in 64 bits")))
}

/// A number up to 2^64 (a range's exclusive end may be 2^64): hexadecimal with `0x`, a power
/// of two as `2^N`, or decimal; underscores allowed.
pub(crate) fn parse_number(text: &str) -> Result<u128, String> {
    let clean = text.replace('_', "");
    let parsed = if let Some(hex) = clean.strip_prefix("0x").or(clean.strip_prefix("0X")) {
        u128::from_str_radix(hex, 16).ok()
    } else if let Some(power) = clean.strip_prefix("2^") {
        power
            .parse::<u32>()
            .ok()
            .filter(|&p| p <= 64)
            .map(|p| 1u128 << p)
    } else {
        clean.parse::<u128>().ok()
    };
    parsed
        .filter(|&n| n <= 1u128 << 64)
        .ok_or_else(|| format!("'{text}' is not a number up to 2^64 (0x hex, 2^N or decimal)"))
}

/// One square's problem with a demanded bit count: what `hunt` and `prove` take.
#[derive(Debug, clap::Args)]
pub(crate) struct TargetArgs {
    /// rook or bishop.
    piece: PieceArg,

    /// The square, a1 to h8.
    square: SquareArg,

    /// Index bits to demand.
    #[arg(long)]
    bits: u8,

    /// Index scheme: fancy, fixed or black (`prove`: fancy or fixed).
    #[arg(long, default_value_t = Scheme::Fancy)]
    scheme: Scheme,
}

impl TargetArgs {
    /// The target, or a clear error.
    pub(crate) fn target(&self) -> Result<Target, Failure> {
        target(
            SliderKind::from(self.piece),
            self.square,
            Some(self.bits),
            self.scheme,
        )
    }
}

/// The target for `kind` on `square` with `bits` index bits (default: the most the square
/// needs) under `scheme`, or a clear error.
pub(crate) fn target(
    kind: SliderKind,
    square: SquareArg,
    bits: Option<u8>,
    scheme: Scheme,
) -> Result<Target, Failure> {
    let bits = bits.unwrap_or_else(|| Target::full_bits(kind, square.0, scheme));
    Target::new(kind, square.0, bits, scheme).map_err(|error| Failure::input(error.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_parse_in_every_notation_and_stop_at_2_to_the_64() {
        assert_eq!(
            parse_magic("0xEBFF_FFB9_FF9F_C526"),
            Ok(0xEBFF_FFB9_FF9F_C526)
        );
        assert_eq!(parse_magic("12345"), Ok(12345));
        assert_eq!(parse_number("2^64"), Ok(1 << 64));
        assert!(parse_magic("2^64").is_err());
        assert!(parse_number("2^65").is_err());
        assert!(parse_number("0x1_0000_0000_0000_0001").is_err());
        assert!(parse_magic("magic").is_err());
        assert_eq!("A8".parse::<SquareArg>(), Ok(SquareArg(56)));
        assert!("i9".parse::<SquareArg>().is_err());
    }
}
