//! Enumeration of every subset of a bitboard (the "carry-rippler").

/// Iterates over every subset of `mask`, starting with the empty set and ending with `mask`
/// itself: `2^popcount(mask)` sets in all.
///
/// ```
/// let subsets: Vec<u64> = bitforge_index::Subsets::new(0b1010).collect();
/// assert_eq!(subsets, [0b0000, 0b0010, 0b1000, 0b1010]);
/// ```
#[derive(Clone, Debug)]
pub struct Subsets {
    mask: u64,
    next: Option<u64>,
}

impl Subsets {
    /// All subsets of `mask`.
    pub const fn new(mask: u64) -> Self {
        Subsets {
            mask,
            next: Some(0),
        }
    }
}

impl Iterator for Subsets {
    type Item = u64;

    #[inline]
    fn next(&mut self) -> Option<u64> {
        let current = self.next?;
        // Subtracting the mask borrows through the unset bits, which counts up in mask space.
        let following = current.wrapping_sub(self.mask) & self.mask;
        self.next = (following != 0).then_some(following);
        Some(current)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self.next {
            None => (0, Some(0)),
            Some(_) => {
                // An upper bound is enough here; callers that need exact counts use the mask.
                let total = 1usize
                    .checked_shl(self.mask.count_ones())
                    .unwrap_or(usize::MAX);
                (1, Some(total))
            }
        }
    }
}

// Once past the whole set, `next` stays `None`.
impl core::iter::FusedIterator for Subsets {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    #[test]
    fn counts_and_uniqueness() {
        let mask = 0x0001_0101_0101_017E;
        let all: Vec<u64> = Subsets::new(mask).collect();
        assert_eq!(all.len(), 1 << 12);
        assert!(all.iter().all(|&s| s & !mask == 0));
        let mut sorted = all.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), all.len());
    }

    #[test]
    fn empty_mask_has_one_subset() {
        assert_eq!(Subsets::new(0).collect::<Vec<_>>(), [0]);
    }
}
