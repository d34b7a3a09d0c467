//! The board's small fields, packed in one word.

use core::fmt;

use crate::{CastlingRights, Color, Square};

/// The side to move, the castling rights, the en passant square and the fifty-move counter in
/// one word, a byte lane each (the counter two): a move rewrites them in a register and stores
/// them once, where four fields took a store each and a copy of the padding between them
/// (results/analysis.md, issue 37).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct State(u64);

/// Where each field's lane starts.
const EN_PASSANT: u32 = 0;
const CASTLING: u32 = 8;
const SIDE: u32 = 16;
const RULE50: u32 = 48;

/// The en passant lane's value for no square: the first index past the board.
const NO_SQUARE: u64 = 64;

impl State {
    /// The fields as given.
    #[inline(always)]
    pub(crate) const fn new(
        side_to_move: Color,
        castling: CastlingRights,
        en_passant: Option<Square>,
        rule50: u16,
    ) -> State {
        let square = match en_passant {
            Some(square) => square as u64,
            None => NO_SQUARE,
        };
        State(
            square << EN_PASSANT
                | (castling.0 as u64) << CASTLING
                | (side_to_move as u64) << SIDE
                | (rule50 as u64) << RULE50,
        )
    }

    /// The side to move.
    #[inline(always)]
    pub(crate) const fn side_to_move(self) -> Color {
        if self.0 >> SIDE & 1 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The castling rights.
    #[inline(always)]
    pub(crate) const fn castling(self) -> CastlingRights {
        CastlingRights((self.0 >> CASTLING) as u8)
    }

    /// The en passant square.
    #[inline(always)]
    pub(crate) const fn en_passant(self) -> Option<Square> {
        Square::from_index((self.0 >> EN_PASSANT) as u8)
    }

    /// The fifty-move counter.
    #[inline(always)]
    pub(crate) const fn rule50(self) -> u16 {
        (self.0 >> RULE50) as u16
    }

    /// The other side to move, and no en passant square.
    #[inline(always)]
    pub(crate) fn pass(&mut self) {
        self.0 = (self.0 ^ 1 << SIDE) & !(0xFF << EN_PASSANT) | NO_SQUARE << EN_PASSANT;
    }

    /// One more ply on the fifty-move counter (which stops at its largest value).
    #[inline(always)]
    pub(crate) fn count_ply(&mut self) {
        self.0 += u64::from(self.rule50() != u16::MAX) << RULE50;
    }

    /// The fifty-move counter back to zero.
    #[inline(always)]
    pub(crate) fn reset_rule50(&mut self) {
        self.0 &= !(0xFFFF << RULE50);
    }

    /// Sets the castling rights.
    #[inline(always)]
    pub(crate) fn set_castling(&mut self, rights: CastlingRights) {
        self.0 = self.0 & !(0xFF << CASTLING) | u64::from(rights.0) << CASTLING;
    }

    /// Sets the en passant square.
    #[inline(always)]
    pub(crate) fn set_en_passant(&mut self, square: Square) {
        self.0 = self.0 & !(0xFF << EN_PASSANT) | (square as u64) << EN_PASSANT;
    }
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("State")
            .field("side_to_move", &self.side_to_move())
            .field("castling", &self.castling())
            .field("en_passant", &self.en_passant())
            .field("rule50", &self.rule50())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_read_back_as_written() {
        for side in Color::ALL {
            for rights in [0, 5, 15] {
                for square in [None, Some(Square::A3), Some(Square::H6)] {
                    for rule50 in [0, 99, u16::MAX] {
                        let state = State::new(side, CastlingRights(rights), square, rule50);
                        assert_eq!(state.side_to_move(), side);
                        assert_eq!(state.castling(), CastlingRights(rights));
                        assert_eq!(state.en_passant(), square);
                        assert_eq!(state.rule50(), rule50);
                    }
                }
            }
        }
    }

    #[test]
    fn each_change_touches_its_own_field() {
        let mut state = State::new(Color::White, CastlingRights::ANY, Some(Square::E3), 7);
        state.pass();
        assert_eq!(
            state,
            State::new(Color::Black, CastlingRights::ANY, None, 7)
        );
        state.set_en_passant(Square::D6);
        state.set_castling(CastlingRights::WHITE);
        state.count_ply();
        assert_eq!(
            state,
            State::new(Color::Black, CastlingRights::WHITE, Some(Square::D6), 8)
        );
        state.reset_rule50();
        assert_eq!(state.rule50(), 0);
        assert_eq!(state.castling(), CastlingRights::WHITE);
        let mut full = State::new(Color::White, CastlingRights::NONE, None, u16::MAX);
        full.count_ply();
        assert_eq!(full.rule50(), u16::MAX);
        assert_eq!(full.side_to_move(), Color::White);
    }
}
