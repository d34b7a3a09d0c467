//! Making a move by copy-make: the parent is copied, the copy is changed, the parent stays.
//!
//! Each kind of move has one function, compiled per side to move (`Us`) and per [`Tracking`]:
//! a [`Board`] with [`Keys`] gets its Zobrist keys, fifty-move counter and an en passant square
//! only when the capture is legal, as [`Board::play`] and `Position::do_move` need it. Perft's
//! boards track nothing (`()`): the same piece and castling updates, and an en passant square
//! whenever an enemy pawn attacks it, which its generator tests anyway.

use super::side::{Black, Side, White};
use super::{
    Board, CastlingInfo, KeyChoice, Keys, PositionKey, Rules, castling_destinations, zobrist,
};
use crate::CastlingSide;
use crate::slider::Slider;
use crate::tables::pawn_attacks;
use crate::{Bitboard, CastlingRights, Color, Move, MoveKind, Piece, PieceType, Square};

/// What a board keeps up to date beside its pieces, told of every change a move makes.
pub(crate) trait Tracking: Copy {
    /// Whether the board keeps keys: then a capture asks which piece it takes, and the en
    /// passant square is kept only when the capture is legal (equal positions, equal keys).
    const KEYED: bool;
    /// The move passes to the other side; `en_passant` was the square before. (The board
    /// counts the fifty-move plies itself, when `KEYED`.)
    fn passed(&mut self, en_passant: Option<Square>);
    /// A `piece_type` of `color` moves from `from` to the empty `to`. (Colour and type apart,
    /// not a [`Piece`]: its index is then arithmetic, not a table's answer that the key's
    /// load would wait for.)
    fn moved(&mut self, color: Color, piece_type: PieceType, from: Square, to: Square);
    /// A `piece_type` of `color`, the `count`-th of its kind counted from zero, comes off
    /// `square`, or goes on.
    fn toggled(&mut self, color: Color, piece_type: PieceType, square: Square, count: u8);
    /// The castling rights change from `old` to `new`.
    fn castling_changed(&mut self, old: CastlingRights, new: CastlingRights);
    /// The en passant square is set.
    fn en_passant_set(&mut self, square: Square);
}

impl Tracking for () {
    const KEYED: bool = false;
    #[inline(always)]
    fn passed(&mut self, _: Option<Square>) {}
    #[inline(always)]
    fn moved(&mut self, _: Color, _: PieceType, _: Square, _: Square) {}
    #[inline(always)]
    fn toggled(&mut self, _: Color, _: PieceType, _: Square, _: u8) {}
    #[inline(always)]
    fn castling_changed(&mut self, _: CastlingRights, _: CastlingRights) {}
    #[inline(always)]
    fn en_passant_set(&mut self, _: Square) {}
}

impl Tracking for PositionKey {
    const KEYED: bool = true;

    #[inline(always)]
    fn passed(&mut self, en_passant: Option<Square>) {
        self.key ^= zobrist::side();
        if let Some(square) = en_passant {
            self.key ^= zobrist::en_passant(square);
        }
    }

    #[inline(always)]
    fn moved(&mut self, color: Color, piece_type: PieceType, from: Square, to: Square) {
        self.key ^= zobrist::piece_square(color, piece_type, from)
            ^ zobrist::piece_square(color, piece_type, to);
    }

    #[inline(always)]
    fn toggled(&mut self, color: Color, piece_type: PieceType, square: Square, _: u8) {
        self.key ^= zobrist::piece_square(color, piece_type, square);
    }

    #[inline(always)]
    fn castling_changed(&mut self, old: CastlingRights, new: CastlingRights) {
        self.key ^= zobrist::castling(old) ^ zobrist::castling(new);
    }

    #[inline(always)]
    fn en_passant_set(&mut self, square: Square) {
        self.key ^= zobrist::en_passant(square);
    }
}

/// The position's key as [`PositionKey`] keeps it, and the pawns' and the material's.
impl Tracking for Keys {
    const KEYED: bool = true;

    #[inline(always)]
    fn passed(&mut self, en_passant: Option<Square>) {
        self.position.passed(en_passant);
    }

    #[inline(always)]
    fn moved(&mut self, color: Color, piece_type: PieceType, from: Square, to: Square) {
        self.position.moved(color, piece_type, from, to);
        if piece_type == PieceType::Pawn {
            self.pawn_key ^= zobrist::piece_square(color, piece_type, from)
                ^ zobrist::piece_square(color, piece_type, to);
        }
    }

    #[inline(always)]
    fn toggled(&mut self, color: Color, piece_type: PieceType, square: Square, count: u8) {
        self.position.toggled(color, piece_type, square, count);
        if piece_type == PieceType::Pawn {
            self.pawn_key ^= zobrist::piece_square(color, piece_type, square);
        }
        self.material_key ^= zobrist::material(color, piece_type, count);
    }

    #[inline(always)]
    fn castling_changed(&mut self, old: CastlingRights, new: CastlingRights) {
        self.position.castling_changed(old, new);
    }

    #[inline(always)]
    fn en_passant_set(&mut self, square: Square) {
        self.position.en_passant_set(square);
    }
}

impl<T: KeyChoice> Board<T> {
    /// The board after the legal move `m` (from [`legal_moves`](Board::legal_moves), or
    /// checked by [`Position::is_legal`](crate::Position::is_legal)); `self` is unchanged. An
    /// illegal move gives a meaningless board, never undefined behaviour.
    #[inline]
    pub fn play<S: Slider>(&self, m: Move, rules: &Rules<S>) -> Board<T> {
        self.play_then(m, rules, |child| child)
    }

    /// Writes the board after the legal move `m` into `child` (`*child = self.play(m, rules)`),
    /// for a search that keeps one board per ply in an array. (The assignment measured faster
    /// than storing each kind of move's child into `child` on its own path: results/analysis.md,
    /// issue 37.) In a loop over a parent's moves, play from a copy of the parent (`let parent
    /// = stack[ply];`) rather than from the array: the call that searches each child could
    /// change the array, as far as the compiler knows, so it would read the parent again and
    /// redo, for every move, what all its children share.
    ///
    /// ```
    /// use bitforge::Position;
    /// use bitforge::board::Board;
    /// use bitforge::slider::FancyMagic;
    ///
    /// let position = Position::start(FancyMagic);
    /// let rules = position.rules();
    /// let mut stack = [*position.board(); 2];
    /// let (parent, child) = stack.split_at_mut(1);
    /// let m = parent[0].legal_moves(rules)[0];
    /// parent[0].play_into(m, rules, &mut child[0]);
    /// assert_eq!(child[0], parent[0].play(m, rules));
    /// ```
    #[inline]
    pub fn play_into<S: Slider>(&self, m: Move, rules: &Rules<S>, child: &mut Board<T>) {
        *child = self.play(m, rules);
    }

    /// Makes the child as [`play`](Self::play) does and hands it to `keep`, called on each
    /// kind of move's path apart: a child made in registers is stored once, where `keep` puts
    /// it, rather than first in one place every path writes to and then copied from there (a
    /// copy that waits for the stores that made it: results/analysis.md, issue 37).
    #[inline(always)]
    pub(crate) fn play_then<S: Slider, R>(
        &self,
        m: Move,
        rules: &Rules<S>,
        keep: impl FnOnce(Board<T>) -> R,
    ) -> R {
        match self.side_to_move() {
            Color::White => self.play_as::<White, S, R>(m, rules, keep),
            Color::Black => self.play_as::<Black, S, R>(m, rules, keep),
        }
    }

    #[inline(always)]
    fn play_as<Us: Side, S: Slider, R>(
        &self,
        m: Move,
        rules: &Rules<S>,
        keep: impl FnOnce(Board<T>) -> R,
    ) -> R {
        let (from, to) = (m.from(), m.to());
        let castling = &rules.castling;
        if m.kind() != MoveKind::Normal {
            return keep(self.play_special::<Us>(m, castling));
        }
        let piece = self.piece_type_on(from);
        if piece == PieceType::Pawn && from.index() ^ to.index() == 16 {
            keep(self.pushed_twice::<Us, S>(from, to, rules.slider))
        } else if self.pieces_of(Us::Other::COLOR).contains(to) {
            keep(self.moved::<Us, true>(piece, from, to, castling))
        } else {
            keep(self.moved::<Us, false>(piece, from, to, castling))
        }
    }

    /// Promotions, en passant and castling, apart from the normal moves' path: a jump through
    /// a table of the four kinds cost more than this call on the few moves that take it
    /// (results/analysis.md, issue 37).
    #[cold]
    #[inline(never)]
    fn play_special<Us: Side>(&self, m: Move, castling: &CastlingInfo) -> Board<T> {
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            MoveKind::Promotion => self.promoted::<Us>(from, to, m.promotion_type(), castling),
            MoveKind::EnPassant => self.captured_en_passant::<Us>(from, to),
            // Castling: `play_as` keeps the normal moves.
            _ => self.castled::<Us>(from, to),
        }
    }

    /// The board with the move passed to the opponent (a null move, for null-move pruning; not
    /// for a side in check).
    #[inline]
    pub fn null_move(&self) -> Board<T> {
        let mut child = *self;
        child.pass();
        child
    }
}

// The trait is the crate's own, and so is every method here.
#[allow(private_bounds)]
impl<T: Tracking> Board<T> {
    /// What every move does first to the copy it is made on: the other side to move, no en
    /// passant square.
    #[inline(always)]
    fn pass(&mut self) {
        self.tracked.passed(self.en_passant());
        self.state.pass();
        if T::KEYED {
            self.state.count_ply();
        }
    }

    /// A capture or a pawn move: the fifty-move count starts again.
    #[inline(always)]
    fn reset_rule50(&mut self) {
        if T::KEYED {
            self.state.reset_rule50();
        }
    }

    /// Flips `squares` in the set of `piece_type`. A keyed board is copied on after it is made
    /// (into a history, or wherever its caller keeps it), so it is made in registers: every
    /// set rewritten, masked. Perft consumes its boards where they are made, where the plain
    /// store at the type's index is the faster (results/analysis.md, issue 16).
    #[inline(always)]
    fn toggle_type(&mut self, piece_type: PieceType, squares: Bitboard) {
        if T::KEYED {
            self.pieces.toggle_type_masked(piece_type, squares);
        } else {
            self.pieces.toggle_type_at_slot(piece_type, squares);
        }
    }

    /// Sets the castling rights.
    #[inline(always)]
    fn set_castling(&mut self, rights: CastlingRights) {
        self.tracked
            .castling_changed(self.castling_rights(), rights);
        self.state.set_castling(rights);
    }

    /// After `Us` moves its `piece` from `from` to `to`: every move but castling, en passant,
    /// double pushes and promotions. With `CAPTURE`, whatever enemy piece stands on `to` is
    /// removed (none is fine: promotions pass `true` for pushes too); without, `to` must be
    /// empty.
    #[inline(always)]
    pub(crate) fn moved<Us: Side, const CAPTURE: bool>(
        &self,
        piece: PieceType,
        from: Square,
        to: Square,
        castling: &CastlingInfo,
    ) -> Board<T> {
        let mut child = *self;
        child.pass();
        let target = to.bitboard();
        let from_to = from.bitboard() | target;
        child.tracked.moved(Us::COLOR, piece, from, to);
        if piece == PieceType::Pawn {
            child.reset_rule50();
        }
        // Only a board that tracks keys asks what was captured.
        if CAPTURE && T::KEYED {
            let captured = self.piece_type_on(to);
            if captured != PieceType::None {
                let them = Us::Other::COLOR;
                let count = self.count_of(them, captured) - 1;
                child.tracked.toggled(them, captured, to, count);
                child.reset_rule50();
            }
        }
        // The captured piece goes without asking what it was. Callers know which targets are
        // captures (perft plays them in a loop of their own), so a quiet move clears nothing.
        if CAPTURE {
            child.pieces.clear_captured(Us::Other::COLOR, target);
        }
        child.toggle_type(piece, from_to);
        child.pieces.toggle_color(Us::COLOR, from_to);
        // A right stands only while its king and rook are home, so only they, leaving, or a
        // capture of that rook take one away.
        let may_remove = CAPTURE || matches!(piece, PieceType::King | PieceType::Rook);
        if may_remove && !child.castling_rights().is_empty() {
            let rights =
                child.castling_rights() & !(castling.removed_by(from) | castling.removed_by(to));
            child.set_castling(rights);
        }
        child
    }

    /// After a pawn of `Us` pushes two squares. The en passant square is kept when an enemy
    /// pawn attacks it and, on a board that tracks keys, only when one may legally capture.
    #[inline(always)]
    pub(crate) fn pushed_twice<Us: Side, S: Slider>(
        &self,
        from: Square,
        to: Square,
        slider: S,
    ) -> Board<T> {
        let mut child = *self;
        child.pass();
        let pawn = Piece::new(Us::COLOR, PieceType::Pawn);
        child.pieces.toggle(pawn, from | to);
        child.tracked.moved(Us::COLOR, PieceType::Pawn, from, to);
        child.reset_rule50();
        let over = Square::from_index_masked(((from as u8) + (to as u8)) / 2);
        let their_pawns = self.pieces.colored(Us::Other::COLOR, PieceType::Pawn);
        // The check reads a copy: the child itself stays in registers until it is kept.
        let probe = child;
        if !(pawn_attacks(Us::COLOR, over) & their_pawns).is_empty()
            && (!T::KEYED || probe.has_en_passant_capture(over, slider))
        {
            child.state.set_en_passant(over);
            child.tracked.en_passant_set(over);
        }
        child
    }

    /// After a pawn of `Us` moves from `from` to the last rank on `to` (capturing or not) and
    /// becomes a `promoted`.
    #[inline(always)]
    pub(crate) fn promoted<Us: Side>(
        &self,
        from: Square,
        to: Square,
        promoted: PieceType,
        castling: &CastlingInfo,
    ) -> Board<T> {
        let mut child = self.moved::<Us, true>(PieceType::Pawn, from, to, castling);
        child
            .pieces
            .toggle_type_at_slot(PieceType::Pawn, to.bitboard());
        child.toggle_type(promoted, to.bitboard());
        let (us, pawn) = (Us::COLOR, PieceType::Pawn);
        let pawns = self.count_of(us, pawn);
        child.tracked.toggled(us, pawn, to, pawns - 1);
        child
            .tracked
            .toggled(us, promoted, to, self.count_of(us, promoted));
        child
    }

    /// After a pawn of `Us` on `from` captures en passant onto `to`.
    #[inline(always)]
    pub(crate) fn captured_en_passant<Us: Side>(&self, from: Square, to: Square) -> Board<T> {
        let mut child = *self;
        child.pass();
        let captured = Square::new(to.file(), from.rank());
        let ours = Piece::new(Us::COLOR, PieceType::Pawn);
        let theirs = Piece::new(Us::Other::COLOR, PieceType::Pawn);
        child.pieces.toggle(ours, from | to);
        child.pieces.toggle(theirs, captured.bitboard());
        let (us, them, pawn) = (Us::COLOR, Us::Other::COLOR, PieceType::Pawn);
        child.tracked.moved(us, pawn, from, to);
        child.reset_rule50();
        let count = self.count_of(them, pawn) - 1;
        child.tracked.toggled(them, pawn, captured, count);
        child
    }

    /// After `Us` castles, the king on `king` taking its own rook on `rook` (king and rook may
    /// share squares with each other's destinations in Chess960: off first, then on).
    #[inline(always)]
    pub(crate) fn castled<Us: Side>(&self, king: Square, rook: Square) -> Board<T> {
        let (king_to, rook_to) = castling_destinations(Us::COLOR, CastlingSide::of(king, rook));
        let mut child = *self;
        child.pass();
        child.set_castling(child.castling_rights() & !CastlingRights::of(Us::COLOR));
        let our_king = Piece::new(Us::COLOR, PieceType::King);
        let our_rook = Piece::new(Us::COLOR, PieceType::Rook);
        child.pieces.toggle(our_king, king.bitboard());
        child.pieces.toggle(our_rook, rook.bitboard());
        child.pieces.toggle(our_king, king_to.bitboard());
        child.pieces.toggle(our_rook, rook_to.bitboard());
        child
            .tracked
            .moved(Us::COLOR, PieceType::King, king, king_to);
        child
            .tracked
            .moved(Us::COLOR, PieceType::Rook, rook, rook_to);
        child
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::slider::Hyperbola;

    /// The board perft makes for `m` (tracking nothing), whatever kind of move it is.
    fn perft_child<Us: Side>(board: &Board<()>, rules: &Rules<Hyperbola>, m: Move) -> Board<()> {
        let castling = &rules.castling;
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            MoveKind::Castling => board.castled::<Us>(from, to),
            MoveKind::EnPassant => board.captured_en_passant::<Us>(from, to),
            MoveKind::Promotion => board.promoted::<Us>(from, to, m.promotion_type(), castling),
            MoveKind::Normal => {
                let piece = board.piece_type_on(from);
                if piece == PieceType::Pawn && from.index().abs_diff(to.index()) == 16 {
                    board.pushed_twice::<Us, Hyperbola>(from, to, Hyperbola)
                } else if board.piece_on(to) != Piece::None {
                    board.moved::<Us, true>(piece, from, to, castling)
                } else {
                    board.moved::<Us, false>(piece, from, to, castling)
                }
            }
        }
    }

    #[test]
    fn board_sizes() {
        // What a copy-make copies per move (README's board section quotes both).
        assert_eq!(core::mem::size_of::<Board>(), 96);
        assert_eq!(core::mem::size_of::<Board<PositionKey>>(), 80);
        assert_eq!(core::mem::size_of::<Board<()>>(), 72);
    }

    /// Random games from positions rich in castling, en passant and promotions, Chess960
    /// included: after every move, the child's keys equal a recomputation, the board keeping
    /// the position's key alone is the same board with the same key and counter, and perft's
    /// untracked child holds the same pieces and rights (its en passant square may be one whose
    /// capture is illegal).
    #[test]
    fn full_and_perft_children_agree() {
        let starts = [
            (
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                false,
            ),
            (
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                false,
            ),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false),
            (
                "1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9",
                true,
            ),
        ];
        let games = if cfg!(miri) { 1 } else { 100 };
        let mut random = 0x9E37_79B9_7F4A_7C15_u64;
        for (fen, chess960) in starts {
            for _ in 0..games {
                let position = if chess960 {
                    Position::from_fen_chess960(fen, Hyperbola)
                } else {
                    Position::from_fen(fen, Hyperbola)
                }
                .expect("a valid FEN");
                let rules = *position.rules();
                let mut board = *position.board();
                let mut position_key_only: Board<PositionKey> = board.into();
                for _ in 0..60 {
                    let moves = board.legal_moves(&rules);
                    if moves.is_empty() {
                        break;
                    }
                    // xorshift64: any spread of moves will do.
                    random ^= random << 13;
                    random ^= random >> 7;
                    random ^= random << 17;
                    let m = moves[(random % moves.len() as u64) as usize];
                    let untracked = board.keeping(());
                    let lean = match board.side_to_move() {
                        Color::White => perft_child::<White>(&untracked, &rules, m),
                        Color::Black => perft_child::<Black>(&untracked, &rules, m),
                    };
                    let child = board.play(m, &rules);
                    assert_eq!(
                        child.compute_keys(),
                        (child.key(), child.pawn_key(), child.material_key()),
                        "{board:?}, {m}"
                    );
                    assert_eq!(lean.pieces, child.pieces, "{board:?}, {m}");
                    assert_eq!(
                        lean.castling_rights(),
                        child.castling_rights(),
                        "{board:?}, {m}"
                    );
                    assert_eq!(lean.side_to_move(), child.side_to_move(), "{board:?}, {m}");
                    if let Some(square) = child.en_passant() {
                        assert_eq!(lean.en_passant(), Some(square), "{board:?}, {m}");
                    }
                    position_key_only = position_key_only.play(m, &rules);
                    assert_eq!(position_key_only, child.into(), "{board:?}, {m}");
                    assert_eq!(position_key_only.key(), child.key(), "{board:?}, {m}");
                    board = child;
                }
            }
        }
    }
}
