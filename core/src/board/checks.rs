//! The rules about attacks on a board, each written once: who attacks a square, who checks the
//! king, which pieces shield a king, when capturing en passant exposes the king, when a castling
//! king's path is attacked. The move generator, [`Board::play`] and
//! [`Position`](crate::Position)'s move predicates all call these.

use super::Board;
use crate::slider::Slider;
use crate::tables::{self, between, check_block, pawn_attacks, pseudo_attacks};
use crate::{Bitboard, Color, PieceType, Square};

impl<T> Board<T> {
    /// Every piece, of either colour, that attacks `square` when `occupancy` is occupied.
    #[inline(always)]
    pub fn attackers_to<S: Slider>(
        &self,
        square: Square,
        occupancy: Bitboard,
        slider: S,
    ) -> Bitboard {
        self.pieces.attackers_to(square, occupancy, slider)
    }

    /// Whether any piece of `color` attacks `square` when `occupancy` is occupied (stops at
    /// the first attacker).
    #[inline(always)]
    pub fn attacked_by<S: Slider>(
        &self,
        color: Color,
        square: Square,
        occupancy: Bitboard,
        slider: S,
    ) -> bool {
        self.pieces.attacked_by(color, square, occupancy, slider)
    }

    /// The enemy pieces giving check to the side to move.
    ///
    /// ```
    /// use bitforge::{Position, Square};
    /// use bitforge::slider::Hyperbola;
    ///
    /// let position = Position::from_fen("4k3/8/8/8/8/3n4/8/4K2r w - - 0 1", Hyperbola)?;
    /// assert_eq!(position.board().checkers(Hyperbola), Square::D3 | Square::H1);
    /// # Ok::<(), bitforge::FenError>(())
    /// ```
    #[inline(always)]
    pub fn checkers<S: Slider>(&self, slider: S) -> Bitboard {
        let us = self.side_to_move();
        let king = self.king_square(us);
        self.pieces.checkers_of(!us, king, self.occupied(), slider)
    }

    /// The pieces (of either colour) that alone shield the king of `color` from an enemy
    /// slider, and the enemy sliders doing the pinning: Stockfish's blockers and pinners. A
    /// blocker of `color` is pinned; a blocker of the other colour would give discovered check.
    pub fn king_blockers(&self, color: Color) -> (Bitboard, Bitboard) {
        let king = self.king_square(color);
        let snipers = ((pseudo_attacks(PieceType::Rook, king) & self.pieces.rook_movers())
            | (pseudo_attacks(PieceType::Bishop, king) & self.pieces.bishop_movers()))
            & self.pieces_of(!color);
        let occupancy = self.occupied() ^ snipers;
        let mut blockers = Bitboard::EMPTY;
        let mut pinners = Bitboard::EMPTY;
        for (sniper, _, blocker) in single_blocker_lines(king, snipers, occupancy) {
            blockers |= blocker;
            if !(blocker & self.pieces_of(color)).is_empty() {
                pinners |= sniper;
            }
        }
        (blockers, pinners)
    }

    /// The squares from which a piece of `piece_type` of the side to move would check the
    /// enemy king (empty for a king).
    #[inline]
    pub fn check_squares<S: Slider>(&self, piece_type: PieceType, slider: S) -> Bitboard {
        let them = !self.side_to_move();
        let king = self.king_square(them);
        let occupied = self.occupied();
        match piece_type {
            PieceType::Pawn => tables::pawn_attacks(them, king),
            PieceType::Knight => tables::knight_attacks(king),
            PieceType::Bishop => slider.bishop_attacks(king, occupied),
            PieceType::Rook => slider.rook_attacks(king, occupied),
            PieceType::Queen => slider.queen_attacks(king, occupied),
            PieceType::King | PieceType::None => Bitboard::EMPTY,
        }
    }

    /// Whether `us` capturing en passant from `from` onto `to` opens a line from its king to an
    /// enemy slider. Two pawns leave their rank at once, which no pin mask sees; every other
    /// reason the capture may be illegal (a check it does not answer) is the caller's.
    #[inline(always)]
    pub(crate) fn en_passant_exposes_king<S: Slider>(
        &self,
        us: Color,
        from: Square,
        to: Square,
        slider: S,
    ) -> bool {
        let king = self.king_square(us);
        let captured = Square::new(to.file(), from.rank());
        let occupancy = (self.occupied() ^ from ^ captured) | to;
        let exposed = (slider.rook_attacks(king, occupancy) & self.pieces.rook_movers())
            | (slider.bishop_attacks(king, occupancy) & self.pieces.bishop_movers());
        !(exposed & self.pieces_of(!us)).is_empty()
    }

    /// Whether the side to move may capture en passant from `from` onto `to`: the capture
    /// answers any check (the checker is the pawn taken, or the capture blocks) and exposes the
    /// king to no slider.
    pub(crate) fn en_passant_is_legal<S: Slider>(
        &self,
        from: Square,
        to: Square,
        slider: S,
    ) -> bool {
        let us = self.side_to_move();
        let checkers = self.checkers(slider);
        if let Some(checker) = checkers.first() {
            let captured = Square::new(to.file(), from.rank());
            let answered = check_block(self.king_square(us), checker) & (to | captured);
            if checkers.more_than_one() || answered.is_empty() {
                return false;
            }
        }
        !self.en_passant_exposes_king(us, from, to, slider)
    }

    /// Whether the side to move has any legal en passant capture onto `square`.
    pub(crate) fn has_en_passant_capture<S: Slider>(&self, square: Square, slider: S) -> bool {
        let us = self.side_to_move();
        let capturers = pawn_attacks(!us, square) & self.colored(us, PieceType::Pawn);
        capturers
            .into_iter()
            .any(|from| self.en_passant_is_legal(from, square, slider))
    }

    /// Whether no slider of `us`'s enemy attacks a square of `king_path` (where `us`'s castling
    /// king passes and lands), looked at without the castling `rook`: in Chess960 it may stand
    /// on the path, shielding a square it is about to leave. (The generator knows `us` at
    /// compile time; reading the side from the board there costs every node.)
    #[inline(always)]
    pub(crate) fn castling_path_is_unswept<S: Slider>(
        &self,
        us: Color,
        king_path: Bitboard,
        rook: Square,
        slider: S,
    ) -> bool {
        let occupancy = self.occupied() ^ rook;
        let theirs = self.pieces_of(!us);
        let their_rooks = self.pieces.rook_movers() & theirs;
        let their_bishops = self.pieces.bishop_movers() & theirs;
        king_path.into_iter().all(|square| {
            (slider.rook_attacks(square, occupancy) & their_rooks).is_empty()
                && (slider.bishop_attacks(square, occupancy) & their_bishops).is_empty()
        })
    }

    /// Whether no enemy piece attacks a square of `king_path`, sliders seen without the
    /// castling `rook` (see [`castling_path_is_unswept`](Self::castling_path_is_unswept)).
    pub(crate) fn castling_path_is_safe<S: Slider>(
        &self,
        king_path: Bitboard,
        rook: Square,
        slider: S,
    ) -> bool {
        let them = !self.side_to_move();
        let occupancy = self.occupied() ^ rook;
        king_path
            .into_iter()
            .all(|square| !self.pieces.attacked_by(them, square, occupancy, slider))
    }
}

/// The lines from `king` to each of `snipers` with exactly one piece of `occupancy` strictly
/// between: `(sniper, the squares between, that piece)`. The pins move generation finds and
/// Stockfish's blockers and pinners ([`Board::king_blockers`]) are both read off these lines.
#[inline(always)]
pub(crate) fn single_blocker_lines(
    king: Square,
    snipers: Bitboard,
    occupancy: Bitboard,
) -> impl Iterator<Item = (Square, Bitboard, Bitboard)> {
    snipers.into_iter().filter_map(move |sniper| {
        let line = between(king, sniper);
        let blocker = line & occupancy;
        (!blocker.is_empty() && !blocker.more_than_one()).then_some((sniper, line, blocker))
    })
}
