//! The index formulas that turn an occupancy into a table slot.

use core::fmt;
#[cfg(feature = "alloc")]
use core::str::FromStr;

#[cfg(feature = "alloc")]
use alloc::{borrow::ToOwned, format, string::String};

/// How a magic number maps an occupancy to an index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Scheme {
    /// `((occ & mask) * magic) >> (64 - bits)`, with as few bits per square as the mask allows
    /// (or fewer): variable shift, one dense table.
    #[default]
    Fancy,
    /// The fancy formula with a fixed shift: 12 bits for every rook square, 9 for every bishop
    /// square. The per-square tables leave gaps that `magic-search pack` overlaps.
    Fixed,
    /// "Black" magics: `((occ | !mask) * magic) >> (64 - bits)`, fixed 12/9 bits. Setting the
    /// bits outside the mask gives the multiplication more to work with, and tables that pack
    /// more tightly.
    Black,
}

impl Scheme {
    /// Every scheme, in the order of the command line's help.
    pub const ALL: [Scheme; 3] = [Scheme::Fancy, Scheme::Fixed, Scheme::Black];

    /// The name used in files and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Scheme::Fancy => "fancy",
            Scheme::Fixed => "fixed",
            Scheme::Black => "black",
        }
    }

    /// What the magic multiplies: the occupancy under the mask, or for black magics the
    /// occupancy with every square outside the mask set (`bitforge_index`'s formulas).
    #[inline(always)]
    pub const fn key(self, occupancy: u64, mask: u64) -> u64 {
        match self {
            Scheme::Fancy | Scheme::Fixed => crate::fancy_key(occupancy, mask),
            Scheme::Black => crate::black_key(occupancy, mask),
        }
    }

    /// The index of `occupancy` for a square with this `mask`, `magic` and `bits`.
    #[inline(always)]
    pub const fn index(self, occupancy: u64, mask: u64, magic: u64, bits: u8) -> usize {
        crate::magic_index(self.key(occupancy, mask), magic, 64 - bits as u32)
    }

    /// [`index`](Self::index) written out as source code, for what is generated from a set
    /// (`bitforge-macros`' tables, the Rust and C exports): each argument is the expression to
    /// use for that part, `shift` being `64 - bits`.
    #[cfg(feature = "alloc")]
    pub fn index_source(
        self,
        syntax: Syntax,
        occupancy: &str,
        mask: &str,
        magic: &str,
        shift: &str,
    ) -> String {
        let not = match syntax {
            Syntax::Rust => "!",
            Syntax::C => "~",
        };
        let key = match self {
            Scheme::Fancy | Scheme::Fixed => format!("{occupancy} & {mask}"),
            Scheme::Black => format!("{occupancy} | {not}{mask}"),
        };
        match syntax {
            Syntax::Rust => format!("(({key}).wrapping_mul({magic}) >> {shift})"),
            Syntax::C => format!("((({key}) * {magic}) >> {shift})"),
        }
    }

    /// The number of index bits this scheme fixes for a slider kind, if it fixes one.
    pub const fn fixed_bits(self, kind: crate::SliderKind) -> Option<u8> {
        match (self, kind) {
            (Scheme::Fancy, _) => None,
            (_, crate::SliderKind::Rook) => Some(12),
            (_, crate::SliderKind::Bishop) => Some(9),
        }
    }
}

/// A language [`Scheme::index_source`] writes.
#[cfg(feature = "alloc")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// Rust: `!` for not, `wrapping_mul`.
    Rust,
    /// C: `~` for not, `uint64_t` multiplication (which wraps).
    C,
}

impl fmt::Display for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A scheme name that is not `fancy`, `fixed` or `black`.
#[cfg(feature = "alloc")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownScheme(pub String);

#[cfg(feature = "alloc")]
impl fmt::Display for UnknownScheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown scheme '{}' (expected fancy, fixed or black)",
            self.0
        )
    }
}

#[cfg(feature = "alloc")]
impl core::error::Error for UnknownScheme {}

#[cfg(feature = "alloc")]
impl FromStr for Scheme {
    type Err = UnknownScheme;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Scheme::ALL
            .into_iter()
            .find(|scheme| scheme.name() == text)
            .ok_or_else(|| UnknownScheme(text.to_owned()))
    }
}

#[cfg(all(test, feature = "alloc"))]
mod tests {
    use super::*;

    #[test]
    fn the_formula_is_written_in_each_syntax() {
        assert_eq!(
            Scheme::Fancy.index_source(Syntax::Rust, "o", "m", "k", "s"),
            "((o & m).wrapping_mul(k) >> s)"
        );
        assert_eq!(
            Scheme::Black.index_source(Syntax::C, "o", "m", "k", "s"),
            "(((o | ~m) * k) >> s)"
        );
        // The generated tables and the exports are checked against the reference walker by
        // the core's and the command line's tests.
    }
}
