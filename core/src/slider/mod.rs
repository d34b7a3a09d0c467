//! Sliding-piece attacks: one [`Slider`] trait, one type per method.
//!
//! Every backend answers the same question, "which squares does a rook (bishop, queen) on this
//! square attack with these squares occupied", with a different trade of table size, instruction
//! set and speed:
//!
//! | backend | method | tables |
//! | --- | --- | --- |
//! | [`Reference`] | walks each ray square by square: the oracle | none |
//! | [`KoggeStone`] | occluded fills, three doubling steps per direction | none |
//! | [`KoggeStoneAvx2`], [`KoggeStoneAvx512`] | the same fills, directions in SIMD lanes | none |
//! | [`Hyperbola`] | `o ^ (o - 2r)` with byte swaps; a first-rank table for ranks | 2 KiB |
//! | [`HyperbolaAvx2`], [`HyperbolaGfni`] | the same on all four lines at once, in AVX2 lanes, with a full bit reversal | 2 KiB |
//! | [`FancyMagic`] | `((occ & mask) * magic) >> shift`, variable shift, dense | 841 KiB |
//! | [`BlackMagic`] | `((occ \| !mask) * magic) >> 52/55`, one overlapped table | see [`BlackMagic`] |
//! | [`Pext`] | BMI2 `pext(occ, mask)` as the index, dense | 841 KiB |
//! | [`PextPdep`] | `pext` index into `u16` entries, expanded by `pdep` | 210 KiB |
//!
//! A value of a backend type is proof that the CPU can run it: [`Slider::new`] checks, and
//! [`Slider::new_unchecked`] trusts the caller. Choose once, at the entry of the work (a search,
//! perft), and run the whole job monomorphised for that backend with [`Backend::run`]; never
//! dispatch per lookup.
//!
//! ```
//! use bitforge::slider::{Backend, FancyMagic, Slider};
//! use bitforge::{Bitboard, Square, bitboard};
//!
//! let fancy = FancyMagic::new().expect("table backends run everywhere");
//! let blockers = Square::D6 | Square::F4;
//! assert_eq!(fancy.rook_attacks(Square::D4, blockers), bitboard! {
//!     . . . . . . . .
//!     . . . . . . . .
//!     . . . X . . . .
//!     . . . X . . . .
//!     X X X . X X . .
//!     . . . X . . . .
//!     . . . X . . . .
//!     . . . X . . . .
//! });
//!
//! // The best backend for this CPU, chosen once.
//! let backend = Backend::best();
//! assert!(backend.is_available());
//! ```

mod backend;
mod bmi2;
mod compiled_for;
mod cpu;
mod hyperbola;
mod hyperbola_avx2;
mod kogge_stone;
mod kogge_stone_simd;
mod magic;
mod pext;
mod pext_pdep;
mod reference;

pub use backend::{Backend, BackendError, SliderJob};
pub use hyperbola::Hyperbola;
pub use hyperbola_avx2::{HyperbolaAvx2, HyperbolaGfni};
pub use kogge_stone::{KoggeStone, kogge_stone_bishops, kogge_stone_rooks};
pub use kogge_stone_simd::{KoggeStoneAvx2, KoggeStoneAvx512};
pub use magic::{BlackMagic, FancyMagic};
pub use pext::Pext;
pub use pext_pdep::PextPdep;
pub use reference::Reference;

use crate::{Bitboard, Square};

/// Sliding-piece attacks from a square through an occupancy.
///
/// Implementations are zero-sized tokens: holding one proves its instructions exist on this
/// CPU, which is what makes the lookups safe to call.
pub trait Slider: Copy + Send + Sync + 'static {
    /// The backend's name on the command line and in benchmarks.
    const NAME: &'static str;

    /// The bytes of lookup tables the backend reads (0 for computed attacks).
    const TABLE_BYTES: usize;

    /// Whether this CPU (and this build) can run the backend.
    fn is_available() -> bool;

    /// The backend, if this CPU can run it.
    #[inline]
    fn new() -> Option<Self> {
        // SAFETY: `is_available` just confirmed the instructions exist.
        Self::is_available().then(|| unsafe { Self::new_unchecked() })
    }

    /// The backend without checking the CPU.
    ///
    /// # Safety
    ///
    /// The CPU must support the backend's instructions ([`Slider::is_available`] would say
    /// `true`); otherwise lookups execute illegal instructions.
    unsafe fn new_unchecked() -> Self;

    /// The squares a rook on `square` attacks: each ray up to and including its first occupied
    /// square.
    fn rook_attacks(self, square: Square, occupancy: Bitboard) -> Bitboard;

    /// The squares a bishop on `square` attacks.
    fn bishop_attacks(self, square: Square, occupancy: Bitboard) -> Bitboard;

    /// The squares a queen on `square` attacks: rook and bishop together.
    #[inline(always)]
    fn queen_attacks(self, square: Square, occupancy: Bitboard) -> Bitboard {
        self.rook_attacks(square, occupancy) | self.bishop_attacks(square, occupancy)
    }

    /// Rook attacks for many `(square, occupancy)` queries: `attacks[i]` for `queries[i]`, as
    /// far as the shorter slice goes. Backends that answer several queries per instruction
    /// override it ([`KoggeStoneAvx512`]: eight per pass); the others loop.
    ///
    /// ```
    /// use bitforge::slider::{Hyperbola, Reference, Slider};
    /// use bitforge::{Bitboard, Square};
    ///
    /// let queries = [(Square::A1, Bitboard::EMPTY), (Square::D4, Square::D6.bitboard())];
    /// let mut attacks = [Bitboard::EMPTY; 2];
    /// Hyperbola.rook_attacks_batch(&queries, &mut attacks);
    /// assert_eq!(attacks[1], Reference.rook_attacks(Square::D4, Square::D6.bitboard()));
    /// ```
    #[inline]
    fn rook_attacks_batch(self, queries: &[(Square, Bitboard)], attacks: &mut [Bitboard]) {
        for (attack, &(square, occupancy)) in attacks.iter_mut().zip(queries) {
            *attack = self.rook_attacks(square, occupancy);
        }
    }

    /// Bishop attacks for many queries (see [`rook_attacks_batch`](Self::rook_attacks_batch)).
    #[inline]
    fn bishop_attacks_batch(self, queries: &[(Square, Bitboard)], attacks: &mut [Bitboard]) {
        for (attack, &(square, occupancy)) in attacks.iter_mut().zip(queries) {
            *attack = self.bishop_attacks(square, occupancy);
        }
    }

    /// Runs `job` with this backend. Backends whose instructions need a target feature that the
    /// build does not enable override this to run the whole job inside a function compiled
    /// with that feature, so that every lookup inlines.
    #[inline]
    fn run<J: SliderJob>(self, job: J) -> J::Output {
        job.run(self)
    }
}
