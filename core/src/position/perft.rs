//! Perft: the number of leaf nodes of the legal move tree, the standard proof that move
//! generation is right. The last ply is counted, not played (bulk counting).

use super::Position;
use crate::Move;
use crate::slider::Slider;

impl<S: Slider> Position<S> {
    /// The number of legal move sequences of `depth` plies from here.
    ///
    /// The tree is walked on the board by copy-make ([`Board::perft`](crate::board::Board::perft)):
    /// no history, the side to move fixed at compile time at every ply.
    ///
    /// ```
    /// use bitforge::Position;
    /// use bitforge::slider::Hyperbola;
    ///
    /// let start = Position::start(Hyperbola);
    /// assert_eq!(start.perft(3), 8_902);
    /// ```
    pub fn perft(&self, depth: u32) -> u64 {
        self.board().perft(&self.rules, depth)
    }

    /// Perft split by root move: `report` receives each legal move with its count (the
    /// "divide" that finds which move a generator gets wrong). Returns the total.
    ///
    /// ```
    /// use bitforge::Position;
    /// use bitforge::slider::KoggeStone;
    ///
    /// let mut start = Position::start(KoggeStone);
    /// let mut lines = Vec::new();
    /// let total = start.divide(2, |m, nodes| lines.push(format!("{m}: {nodes}")));
    /// assert_eq!(total, 400);
    /// assert!(lines.contains(&"e2e4: 20".to_string()));
    /// ```
    pub fn divide(&mut self, depth: u32, mut report: impl FnMut(Move, u64)) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut total = 0;
        for &m in self.legal_moves().iter() {
            self.do_move(m);
            let nodes = self.perft(depth - 1);
            self.undo_move();
            report(m, nodes);
            total += nodes;
        }
        total
    }

    /// The number of legal moves, counted without listing them.
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        self.board().count_legal_moves(&self.rules)
    }
}
