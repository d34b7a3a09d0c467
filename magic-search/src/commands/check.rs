//! `magic-search check`: one magic on one square.

use bitforge_index::geometry::square_name;
use bitforge_index::{Scheme, SliderKind, VerifyError};
use clap::Args;
use magic_search::check_magic;

use crate::Failure;
use crate::commands::square::{PieceArg, SquareArg, parse_magic, target};

/// Check one magic on one square against the reference ray walker.
///
/// Valid: prints the index span used (lowest and highest slot), the slots used and the
/// constructive collisions, and exits with 0. Invalid: names the two occupancies that collide
/// and exits with 1.
#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// rook or bishop.
    piece: PieceArg,

    /// The square, a1 to h8.
    square: SquareArg,

    /// The magic: 0x-prefixed hexadecimal or decimal.
    #[arg(value_parser = parse_magic)]
    magic: u64,

    /// Index bits [default: the mask's bit count, or 12/9 for fixed and black].
    #[arg(long)]
    bits: Option<u8>,

    /// Index scheme: fancy, fixed or black.
    #[arg(long, default_value_t = Scheme::Fancy)]
    scheme: Scheme,
}

pub(crate) fn run(args: &CheckArgs) -> Result<(), Failure> {
    let kind = SliderKind::from(args.piece);
    let target = target(kind, args.square, args.bits, args.scheme)?;
    let name = square_name(target.square());
    match check_magic(target, args.magic) {
        Ok(check) => {
            out!("{target}: {:#018x} is valid", args.magic);
            out!(
                "index span: {} to {} ({} slots)",
                check.lowest,
                check.highest,
                check.highest - check.lowest + 1
            );
            out!(
                "used slots: {} of {}",
                check.used_slots,
                1usize << target.bits()
            );
            out!(
                "occupancies: {} ({} constructive collisions)",
                check.occupancies,
                check.constructive
            );
            Ok(())
        }
        Err(VerifyError::Collision {
            slot,
            first,
            second,
        }) => Err(Failure::invalid(format!(
            "{kind} {name}: {:#018x} is not a {}-bit {} magic: occupancies {:#018x} and \
             {:#018x} both give index {slot} but attack different squares",
            args.magic,
            target.bits(),
            target.scheme(),
            first.occupancy,
            second.occupancy
        ))),
        Err(other) => Err(Failure::invalid(other.to_string())),
    }
}
