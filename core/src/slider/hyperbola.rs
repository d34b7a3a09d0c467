//! Hyperbola quintessence: `o ^ (o - 2r)` along a line, with a byte swap for the other
//! direction; no large tables.
//!
//! Subtracting twice the slider's bit from the line's occupancy borrows through the empty
//! squares above it up to the first blocker, so `(o - 2r) ^ o` marks the squares up to and
//! including that blocker. The same trick on the byte-swapped board, which mirrors the ranks,
//! gives the downward half. It works on any line with one square per rank: files, diagonals and
//! anti-diagonals. Ranks have all their squares in one byte, so a 512-byte table of first-rank
//! attacks serves them.

use crate::{Bitboard, Square};

use super::{Baseline, Slider};

/// Hyperbola quintessence for files and diagonals, a first-rank table for ranks (2 KiB in
/// all, so it stays in L1 while the magic and PEXT tables do not).
#[derive(Clone, Copy, Debug, Default)]
pub struct Hyperbola;

/// A square's three lines through it, without the square itself.
#[derive(Clone, Copy)]
struct Lines {
    file: u64,
    diagonal: u64,
    anti_diagonal: u64,
}

/// The four lines through `square`, the square itself left out: file, rank, diagonal and
/// anti-diagonal. The diagonals are those through a corner moved by whole ranks (what leaves
/// the board drops off): a few steps where a walk over the board would cost a compile-time
/// interpreter tens of thousands.
pub(super) const fn line_masks(square: usize) -> [u64; 4] {
    const A1_H8: u64 = 0x8040_2010_0804_0201;
    const H1_A8: u64 = 0x0102_0408_1020_4080;
    let (file, rank) = (square % 8, square / 8);
    let bit = 1u64 << square;
    [
        Bitboard::FILES[file].0 ^ bit,
        Bitboard::RANKS[rank].0 ^ bit,
        moved_by_ranks(A1_H8, rank as i32 - file as i32) ^ bit,
        moved_by_ranks(H1_A8, (rank + file) as i32 - 7) ^ bit,
    ]
}

/// `line` moved up (`ranks > 0`) or down by whole ranks.
const fn moved_by_ranks(line: u64, ranks: i32) -> u64 {
    if ranks >= 0 {
        line << (8 * ranks)
    } else {
        line >> (-8 * ranks)
    }
}

const fn lines_of(square: usize) -> Lines {
    let [file, _, diagonal, anti_diagonal] = line_masks(square);
    Lines {
        file,
        diagonal,
        anti_diagonal,
    }
}

static LINES: [Lines; 64] = {
    let mut table = [Lines {
        file: 0,
        diagonal: 0,
        anti_diagonal: 0,
    }; 64];
    let mut square = 0;
    while square < 64 {
        table[square] = lines_of(square);
        square += 1;
    }
    table
};

/// `FIRST_RANK[file][inner]`: the attacks along the first rank of a rook on `file` when the
/// six inner squares (b to g) hold the bits of `inner`; the edge squares never block anything
/// beyond them, so they need no index bit.
pub(super) static FIRST_RANK: [[u8; 64]; 8] = {
    let mut table = [[0u8; 64]; 8];
    let mut file = 0;
    while file < 8 {
        let mut inner = 0;
        while inner < 64 {
            let occupied = (inner << 1) as u8;
            let mut attacks = 0u8;
            let mut to = file + 1;
            while to < 8 {
                attacks |= 1 << to;
                if occupied & (1 << to) != 0 {
                    break;
                }
                to += 1;
            }
            let mut to = file;
            while to > 0 {
                to -= 1;
                attacks |= 1 << to;
                if occupied & (1 << to) != 0 {
                    break;
                }
            }
            table[file][inner] = attacks;
            inner += 1;
        }
        file += 1;
    }
    table
};

/// The attacks along `line` (one square per rank, the slider's square excluded) of the slider
/// whose bit is `slider`.
#[inline(always)]
const fn line_attacks(occupancy: u64, line: u64, slider: u64) -> u64 {
    let on_line = occupancy & line;
    let upward = on_line.wrapping_sub(slider.wrapping_mul(2));
    let downward = on_line
        .swap_bytes()
        .wrapping_sub(slider.swap_bytes().wrapping_mul(2))
        .swap_bytes();
    (upward ^ downward) & line
}

/// The attacks along its rank of a rook on square number `square` (0 to 63).
#[inline(always)]
pub(super) fn rank_attacks(square: usize, occupancy: u64) -> u64 {
    let shift = (square & !7) as u32;
    let inner = (occupancy >> (shift + 1)) as usize & 63;
    u64::from(FIRST_RANK[square & 7][inner]) << shift
}

impl Slider for Hyperbola {
    const NAME: &'static str = "hyperbola";
    const TABLE_BYTES: usize = size_of_val(&LINES) + size_of_val(&FIRST_RANK);
    type Level = Baseline;

    #[inline]
    unsafe fn new_unchecked() -> Self {
        Hyperbola
    }

    #[inline(always)]
    fn rook_attacks(self, square: Square, occupancy: Bitboard) -> Bitboard {
        let slider = square.bitboard().0;
        let file = line_attacks(occupancy.0, LINES[square.index()].file, slider);
        Bitboard(file | rank_attacks(square.index(), occupancy.0))
    }

    #[inline(always)]
    fn bishop_attacks(self, square: Square, occupancy: Bitboard) -> Bitboard {
        let (slider, lines) = (square.bitboard().0, LINES[square.index()]);
        let diagonal = line_attacks(occupancy.0, lines.diagonal, slider);
        let anti_diagonal = line_attacks(occupancy.0, lines.anti_diagonal, slider);
        Bitboard(diagonal | anti_diagonal)
    }
}

#[cfg(test)]
mod tests {
    use super::line_masks;

    /// Each line holds exactly the other squares whose file and rank differences say they are
    /// on it, square by square.
    #[test]
    fn line_masks_hold_the_squares_on_each_line() {
        for square in 0..64 {
            let (file, rank) = ((square % 8) as i32, (square / 8) as i32);
            let lines = line_masks(square);
            for other in 0..64 {
                let (f, r) = ((other % 8) as i32, (other / 8) as i32);
                let on = [
                    f == file,
                    r == rank,
                    f - file == r - rank,
                    f - file == rank - r,
                ];
                for (line, on) in lines.iter().zip(on) {
                    assert_eq!(
                        line >> other & 1 == 1,
                        on && other != square,
                        "{square} {other}"
                    );
                }
            }
        }
    }
}
