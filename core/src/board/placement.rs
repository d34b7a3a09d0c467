//! Where the pieces stand, as bitboards by type and by colour, and the attack questions those
//! answer: the part of a [`Board`](super::Board) that move generation reads most.

use crate::slider::Slider;
use crate::tables::{king_attacks, knight_attacks, pawn_attacks};
use crate::{Bitboard, Color, Piece, PieceType, Square};

/// The pieces as bitboards, by type and by colour. The union of all pieces is not kept: it is
/// one OR of the colours, and a board without it copies a word less per move
/// (results/analysis.md, issue 37).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Placement {
    /// By piece type, pawn first: the set of a type is at its [`slot`].
    by_type: [Bitboard; 6],
    by_color: [Bitboard; 2],
}

/// Where `piece_type`'s set is in [`Placement::by_type`]: out of range for `PieceType::None`
/// (the union of all pieces, not kept), so a lookup of it answers `None`.
#[inline(always)]
const fn slot(piece_type: PieceType) -> usize {
    piece_type.index().wrapping_sub(1)
}

impl Placement {
    pub(crate) const EMPTY: Placement = Placement {
        by_type: [Bitboard::EMPTY; 6],
        by_color: [Bitboard::EMPTY; 2],
    };

    /// Every occupied square.
    #[inline(always)]
    pub(crate) fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The pieces of `color`.
    #[inline(always)]
    pub(crate) fn pieces_of(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The pieces of `piece_type`, both colours ([`PieceType::ALL`]: every piece).
    #[inline(always)]
    pub(crate) fn pieces(&self, piece_type: PieceType) -> Bitboard {
        match self.by_type.get(slot(piece_type)) {
            Some(&set) => set,
            None => self.occupied(),
        }
    }

    /// The pieces of `piece_type` and `color`.
    #[inline(always)]
    pub(crate) fn colored(&self, color: Color, piece_type: PieceType) -> Bitboard {
        self.by_color[color.index()] & self.pieces(piece_type)
    }

    /// The square of `color`'s king.
    #[inline(always)]
    pub(crate) fn king_square(&self, color: Color) -> Square {
        self.colored(color, PieceType::King).lsb()
    }

    /// The type of the piece on `square` (`PieceType::None` if empty), without a branch: a
    /// type's code has three bits, and each bit is set for three types, so three unions of
    /// sets answer it.
    #[inline(always)]
    pub(crate) fn piece_type_on(&self, square: Square) -> PieceType {
        let set = |piece_type: PieceType| self.pieces(piece_type).0;
        let bit = |union: u64| ((union >> square.index()) & 1) as u8;
        let (pawn, knight, bishop) = (
            set(PieceType::Pawn),
            set(PieceType::Knight),
            set(PieceType::Bishop),
        );
        let (rook, queen, king) = (
            set(PieceType::Rook),
            set(PieceType::Queen),
            set(PieceType::King),
        );
        let code = bit(pawn | bishop | queen)
            | bit(knight | bishop | king) << 1
            | bit(rook | queen | king) << 2;
        PieceType::from_code(code)
    }

    /// Rooks and queens of both colours.
    #[inline(always)]
    pub(crate) fn rook_movers(&self) -> Bitboard {
        self.pieces(PieceType::Rook) | self.pieces(PieceType::Queen)
    }

    /// Bishops and queens of both colours.
    #[inline(always)]
    pub(crate) fn bishop_movers(&self) -> Bitboard {
        self.pieces(PieceType::Bishop) | self.pieces(PieceType::Queen)
    }

    /// Flips every square of `squares` in the set of `piece_type` (not in a colour's set),
    /// rewriting every type's set, masked, rather than storing at an index computed from
    /// `piece_type`: such a store keeps a board being made in memory, and copying it on from
    /// there waits for its stores (results/analysis.md, issue 16).
    #[inline(always)]
    pub(crate) fn toggle_type_masked(&mut self, piece_type: PieceType, squares: Bitboard) {
        for (index, set) in self.by_type.iter_mut().enumerate() {
            let chosen = u64::from(index == slot(piece_type)).wrapping_neg();
            *set ^= Bitboard(squares.0 & chosen);
        }
    }

    /// Flips every square of `squares` in the set of `piece_type` (nothing for
    /// `PieceType::None`), stored at its slot: for boards consumed where they are made.
    #[inline(always)]
    pub(crate) fn toggle_type_at_slot(&mut self, piece_type: PieceType, squares: Bitboard) {
        if let Some(set) = self.by_type.get_mut(slot(piece_type)) {
            *set ^= squares;
        }
    }

    /// Flips every square of `squares` in `color`'s set.
    #[inline(always)]
    pub(crate) fn toggle_color(&mut self, color: Color, squares: Bitboard) {
        self.by_color[color.index()] ^= squares;
    }

    /// Takes `color`'s piece off `target`, whatever its type but a king (which is never
    /// captured): clearing the square in five sets costs less than asking which.
    #[inline(always)]
    pub(crate) fn clear_captured(&mut self, color: Color, target: Bitboard) {
        for set in &mut self.by_type[slot(PieceType::Pawn)..=slot(PieceType::Queen)] {
            *set -= target;
        }
        self.by_color[color.index()] -= target;
    }

    /// Flips `piece` on every square of `squares`: puts it on an empty square, takes it off
    /// its own, or (with two squares) moves it.
    #[inline(always)]
    pub(crate) fn toggle(&mut self, piece: Piece, squares: Bitboard) {
        self.toggle_type_at_slot(piece.piece_type(), squares);
        self.toggle_color(piece.color(), squares);
    }

    /// Every piece, of either colour, that attacks `square` when `occupancy` is occupied.
    #[inline(always)]
    pub(crate) fn attackers_to<S: Slider>(
        &self,
        square: Square,
        occupancy: Bitboard,
        slider: S,
    ) -> Bitboard {
        (pawn_attacks(Color::Black, square) & self.colored(Color::White, PieceType::Pawn))
            | (pawn_attacks(Color::White, square) & self.colored(Color::Black, PieceType::Pawn))
            | (knight_attacks(square) & self.pieces(PieceType::Knight))
            | (slider.rook_attacks(square, occupancy) & self.rook_movers())
            | (slider.bishop_attacks(square, occupancy) & self.bishop_movers())
            | (king_attacks(square) & self.pieces(PieceType::King))
    }

    /// The pieces of `color` but its king that attack `square` when `occupancy` is occupied:
    /// the checkers, when `square` holds the other side's king (a king never gives check).
    #[inline(always)]
    pub(crate) fn checkers_of<S: Slider>(
        &self,
        color: Color,
        square: Square,
        occupancy: Bitboard,
        slider: S,
    ) -> Bitboard {
        ((slider.rook_attacks(square, occupancy) & self.rook_movers())
            | (slider.bishop_attacks(square, occupancy) & self.bishop_movers()))
            & self.pieces_of(color)
            | (knight_attacks(square) & self.colored(color, PieceType::Knight))
            | (pawn_attacks(!color, square) & self.colored(color, PieceType::Pawn))
    }

    /// Whether any piece of `color` attacks `square` when `occupancy` is occupied. Kept apart
    /// from [`attackers_to`](Self::attackers_to) because it stops at the first attacker
    /// (results/analysis.md, issue 6).
    #[inline(always)]
    pub(crate) fn attacked_by<S: Slider>(
        &self,
        color: Color,
        square: Square,
        occupancy: Bitboard,
        slider: S,
    ) -> bool {
        let them = self.pieces_of(color);
        !(pawn_attacks(!color, square) & self.pieces(PieceType::Pawn) & them).is_empty()
            || !(knight_attacks(square) & self.pieces(PieceType::Knight) & them).is_empty()
            || !(king_attacks(square) & self.pieces(PieceType::King) & them).is_empty()
            || !(slider.rook_attacks(square, occupancy) & self.rook_movers() & them).is_empty()
            || !(slider.bishop_attacks(square, occupancy) & self.bishop_movers() & them).is_empty()
    }
}
