//! The two sliding pieces whose attacks magic numbers index.

/// The two kinds of sliding piece whose attacks magic numbers index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SliderKind {
    /// Orthogonal rays: files and ranks.
    Rook,
    /// Diagonal rays.
    Bishop,
}

impl SliderKind {
    /// Both kinds, rook first (the order of every table and file).
    pub const ALL: [SliderKind; 2] = [SliderKind::Rook, SliderKind::Bishop];

    /// The lower-case name used in magic-set files and messages.
    pub const fn name(self) -> &'static str {
        match self {
            SliderKind::Rook => "rook",
            SliderKind::Bishop => "bishop",
        }
    }

    /// The (file, rank) steps of the four rays.
    pub const fn steps(self) -> [(i8, i8); 4] {
        match self {
            SliderKind::Rook => [(0, 1), (1, 0), (0, -1), (-1, 0)],
            SliderKind::Bishop => [(1, 1), (1, -1), (-1, -1), (-1, 1)],
        }
    }
}

impl core::fmt::Display for SliderKind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
