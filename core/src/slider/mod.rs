//! Sliding-piece attacks: one [`Slider`] trait, one type per method.
//!
//! Every backend answers the same question, "which squares does a rook (bishop, queen) on this
//! square attack with these squares occupied", with a different trade of table size, instruction
//! set and speed. They are declared once, in [`Backend`]: its table of methods, its names, sizes,
//! availability and dispatch all come from that one list, so a new backend is its module plus
//! one line there.
//!
//! A value of a backend type is proof that the CPU can run it: [`Slider::new`] checks, and
//! [`Slider::new_unchecked`] trusts the caller. Choose once, at the entry of the work (a search,
//! perft), and run the whole job monomorphised for that backend with [`Backend::run`]; never
//! dispatch per lookup. Each backend names the instruction [`Level`] it needs; bitforge's entry
//! points run compiled for it, and [`Backend::run`] raises a backend to the best level this CPU
//! has ([`Leveled`]), so a default build runs what a native one would.
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
mod cpu;
mod hyperbola;
mod hyperbola_avx2;
mod kogge_stone;
mod kogge_stone_simd;
mod level;
mod magic;
mod pext;
mod pext_pdep;
mod reference;

pub use backend::{Backend, BackendError, Raise, SliderJob};
pub use hyperbola::Hyperbola;
pub use hyperbola_avx2::{HyperbolaAvx2, HyperbolaDual, HyperbolaGfni};
pub use kogge_stone::{KoggeStone, kogge_stone_bishops, kogge_stone_rooks};
pub use kogge_stone_simd::{KoggeStoneAvx2, KoggeStoneAvx512};
pub use level::{Baseline, Bmi2, Level, Leveled, V3, V3Gfni, V4};
pub use magic::{BlackMagic, FancyCombinedMagic, FancyMagic};
pub use pext::Pext;
pub use pext_pdep::PextPdep;
pub use reference::Reference;

use crate::{Bitboard, Square};

/// A rook's and a bishop's attacks in one integer (the rook's in the low half): what the
/// `#[target_feature]` functions that compute both return. LLVM will not inline a function
/// compiled for fewer features (a job's `run`) into one compiled for more (the level's) when it
/// calls a feature function that returns a pair or a vector; an integer it lets through.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct RookAndBishop(u128);

#[cfg(target_arch = "x86_64")]
impl RookAndBishop {
    #[inline(always)]
    pub(crate) fn new(rook: u64, bishop: u64) -> Self {
        RookAndBishop(u128::from(rook) | u128::from(bishop) << 64)
    }

    /// The rook's attacks and the bishop's.
    #[inline(always)]
    pub(crate) fn split(self) -> (Bitboard, Bitboard) {
        (Bitboard(self.0 as u64), Bitboard((self.0 >> 64) as u64))
    }
}

/// `attacks`, hidden from the compiler's auto-vectoriser on targets with AVX-512 (and on
/// AArch64, as before; not measured there): a loop of lookups whose result passes through here
/// stays scalar. Vectorised there, loops of fancy and black magic lookups become AVX-512
/// gathers, slower than the scalar loads they replace (results/analysis.md, issue 17). Without
/// AVX-512 (a default build raises the magic backends to x86-64-v3 at most) LLVM makes no
/// gathers of them but takes four squares a pass with scalar loads, which measured faster
/// for `fancy` and `black` than one square a pass behind the barrier, and slower for
/// `fancy-combined` (results/analysis.md, issue 37); so it is `attacks` as it is. The backends
/// whose vector code wins (hyperbola, kogge-stone) do not use it. No instruction is emitted.
#[inline(always)]
pub(crate) fn kept_scalar(attacks: u64) -> u64 {
    #[cfg(all(
        not(miri),
        any(
            all(target_arch = "x86_64", target_feature = "avx512f"),
            target_arch = "aarch64"
        )
    ))]
    {
        let mut attacks = attacks;
        // SAFETY: the template is a comment: nothing runs, no memory, stack or flag is touched,
        // and the register keeps its value.
        unsafe {
            core::arch::asm!(
                "/* {0} */",
                inout(reg) attacks,
                options(pure, nomem, nostack, preserves_flags)
            );
        }
        attacks
    }
    #[cfg(not(all(
        not(miri),
        any(
            all(target_arch = "x86_64", target_feature = "avx512f"),
            target_arch = "aarch64"
        )
    )))]
    attacks
}

/// Sliding-piece attacks from a square through an occupancy.
///
/// Implementations are zero-sized tokens: holding one proves its instructions exist on this
/// CPU, which is what makes the lookups safe to call.
pub trait Slider: Copy + Send + Sync + 'static {
    /// The backend's name on the command line and in benchmarks.
    const NAME: &'static str;

    /// The bytes of lookup tables the backend reads (0 for computed attacks).
    const TABLE_BYTES: usize;

    /// The instructions the backend's lookups need, and that work holding the backend is
    /// compiled for ([`within`](Self::within)). A value of the backend proves the CPU has them.
    type Level: Level;

    /// Whether this CPU (and this build) can run the backend: by default, whether it has the
    /// backend's [`Level`].
    #[inline]
    fn is_available() -> bool {
        Self::Level::is_available()
    }

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
    /// The CPU must support the backend's instructions and its [`Level`]
    /// ([`Slider::is_available`] would say `true`); otherwise lookups execute illegal
    /// instructions.
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

    /// Runs `job` with this backend, inside a function compiled for the backend's [`Level`]:
    /// the job's own loops are compiled for it too, however its `run` is written.
    #[inline]
    fn run<J: SliderJob>(self, job: J) -> J::Output {
        // SAFETY: a value of the backend proves the CPU has its level.
        unsafe { Self::Level::run_job(job, self) }
    }

    /// Calls `f` inside a function compiled for the backend's [`Level`], so that the closure
    /// and what inlines into it use the level's instructions even in a build for the x86-64
    /// baseline. A [`SliderJob`] needs none: [`run`](Self::run) compiles its `run` for the
    /// level already. This is for loops outside a job, in code that keeps a backend in its own
    /// state. Entering costs a call: wrap a whole search or loop, not one lookup.
    ///
    /// ```
    /// use bitforge::slider::{FancyMagic, Slider};
    /// use bitforge::{Bitboard, Square};
    ///
    /// struct Engine<S> {
    ///     slider: S,
    /// }
    ///
    /// impl<S: Slider> Engine<S> {
    ///     fn mobility(&self, occupancy: Bitboard) -> u32 {
    ///         let slider = self.slider;
    ///         // `count` compiles to `POPCNT` where the level has it.
    ///         slider.within(|| {
    ///             Square::ALL.iter().map(|&s| slider.queen_attacks(s, occupancy).count()).sum()
    ///         })
    ///     }
    /// }
    ///
    /// let engine = Engine { slider: FancyMagic::new().expect("tables run everywhere") };
    /// assert_eq!(engine.mobility(Bitboard::EMPTY), 1456);
    /// ```
    #[inline(always)]
    fn within<R>(self, f: impl FnOnce() -> R) -> R {
        // SAFETY: a value of the backend proves the CPU has its level.
        unsafe { Self::Level::within(f) }
    }
}
