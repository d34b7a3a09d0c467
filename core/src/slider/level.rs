//! Instruction-set levels that work is compiled for, chosen at run time.
//!
//! A default `cargo build` targets the x86-64 baseline: no `POPCNT`, `TZCNT`, `BLSR`, BMI2 or
//! AVX2. Each [`Slider`](super::Slider) names the [`Level`] its lookups need, and bitforge's
//! entry points (move generation, [`Board::play`](crate::board::Board::play), perft) run their
//! body inside a function compiled for that level ([`Level::within`]), so the generator, the
//! make and the lookups inline into code that uses those instructions whatever the build
//! targets. [`Backend::run`](super::Backend::run) raises a backend to the best level this CPU
//! has ([`Leveled`]), so `cargo build --release` runs what `-C target-cpu=native` would (an
//! unoptimized build runs each backend at its own level: see [`Raise`](super::Raise)).

use core::marker::PhantomData;

use super::{Slider, SliderJob};
use crate::{Bitboard, Square};

/// A set of instructions that code can be compiled for: the build's own baseline, or an x86-64
/// micro-architecture level detected at run time.
///
/// # Safety
///
/// [`is_available`](Self::is_available) may return `true` only on a CPU that executes every
/// instruction [`within`](Self::within) compiles its function for, and [`AVX2`](Self::AVX2) may
/// be `true` only if that set includes AVX2.
pub unsafe trait Level: Copy + Send + Sync + 'static {
    /// The level's name, as in results: `baseline`, `x86-64-v3`, ...
    const NAME: &'static str;

    /// Whether code compiled for this level may use AVX2 (the generator then floods its attack
    /// map in AVX2 lanes).
    const AVX2: bool;

    /// Whether this CPU executes the level's instructions (detected once and cached by std;
    /// without std, only what the build enables).
    fn is_available() -> bool;

    /// Calls `f` inside a function compiled for this level: the closure and whatever inlines
    /// into it use the level's instructions.
    ///
    /// # Safety
    ///
    /// The CPU must support the level ([`is_available`](Self::is_available)).
    unsafe fn within<R>(f: impl FnOnce() -> R) -> R;

    /// Calls `f` inside a function of its own compiled for this level, never inlined where it
    /// is called: for work better called than copied into each of many call sites. Provided as
    /// [`within`](Self::within), which is such a function for the x86-64 levels; a level whose
    /// `within` inlines overrides it, as [`Baseline`] does.
    ///
    /// # Safety
    ///
    /// The CPU must support the level ([`is_available`](Self::is_available)).
    #[inline(always)]
    unsafe fn apart<R>(f: impl FnOnce() -> R) -> R {
        // SAFETY: the caller guarantees the CPU has the level. A level's `within` already
        // calls a function of its own; `Baseline` overrides this.
        unsafe { Self::within(f) }
    }

    /// Runs `job` with `slider` compiled for this level, the job's own loops included however
    /// its `run` is written: what [`Slider::run`] calls.
    ///
    /// # Safety
    ///
    /// The CPU must support the level ([`is_available`](Self::is_available)).
    #[inline(always)]
    unsafe fn run_job<J: SliderJob, S: Slider>(job: J, slider: S) -> J::Output {
        // SAFETY: the caller guarantees the CPU has the level.
        unsafe {
            Self::within(
                #[inline(always)]
                || job.run(slider),
            )
        }
    }
}

/// Whatever the build targets: the x86-64 baseline in a default build, more with
/// `-C target-cpu` or `-C target-feature`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Baseline;

// SAFETY: `within` compiles for nothing beyond the build's own target, which every CPU that
// runs the build has; `AVX2` is true only when the build itself targets AVX2.
unsafe impl Level for Baseline {
    const NAME: &'static str = "baseline";
    const AVX2: bool = cfg!(all(target_arch = "x86_64", target_feature = "avx2"));

    #[inline(always)]
    fn is_available() -> bool {
        true
    }

    #[inline(always)]
    unsafe fn within<R>(f: impl FnOnce() -> R) -> R {
        f()
    }

    #[inline(never)]
    unsafe fn apart<R>(f: impl FnOnce() -> R) -> R {
        f()
    }
}

/// Declares a level as a list of target features: compiled for all of them, available where
/// each is compiled in or detected.
macro_rules! level {
    (
        $(#[$doc:meta])* $level:ident in $module:ident, $name:literal, avx2: $avx2:literal,
        [$($feature:tt),+]
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $level;

        /// The function compiled for the level, as a provided method of a trait that every
        /// closure and every job has: the compiler places each copy with the closure's or the
        /// job's own type, in the code-generation unit of the code it runs, which then inlines
        /// into it as written. A free function of bitforge's lands in a unit of its own, where
        /// the caller's code stayed a call, compiled for the build's baseline.
        mod $module {
            use super::super::{Slider, SliderJob};

            pub(super) trait Compiled<A>: Sized {
                type Output;

                fn call(self, argument: A) -> Self::Output;

                // Never inlined: a recursion through `within` (perft's plies) must not inline
                // into itself, which made the compiler's memory grow without bound.
                #[cfg(target_arch = "x86_64")]
                $(#[target_feature(enable = $feature)])+
                #[inline(never)]
                unsafe fn compiled(self, argument: A) -> Self::Output {
                    self.call(argument)
                }

                #[cfg(not(target_arch = "x86_64"))]
                unsafe fn compiled(self, argument: A) -> Self::Output {
                    self.call(argument)
                }
            }

            impl<R, F: FnOnce() -> R> Compiled<()> for F {
                type Output = R;

                #[inline(always)]
                fn call(self, (): ()) -> R {
                    self()
                }
            }

            impl<J: SliderJob, S: Slider> Compiled<S> for J {
                type Output = J::Output;

                #[inline(always)]
                fn call(self, slider: S) -> J::Output {
                    self.run(slider)
                }
            }
        }

        // SAFETY: `is_available` checks every feature that `within`'s function enables, and
        // `AVX2` is true only for lists that hold "avx2".
        unsafe impl Level for $level {
            const NAME: &'static str = $name;
            const AVX2: bool = $avx2;

            #[inline]
            fn is_available() -> bool {
                cfg!(target_arch = "x86_64") $(&& super::cpu::has!($feature))+
            }

            #[inline]
            unsafe fn within<R>(f: impl FnOnce() -> R) -> R {
                // SAFETY: the caller guarantees the CPU has the level's features.
                unsafe { $module::Compiled::compiled(f, ()) }
            }

            #[inline]
            unsafe fn run_job<J: SliderJob, S: Slider>(job: J, slider: S) -> J::Output {
                // SAFETY: the caller guarantees the CPU has the level's features.
                unsafe { $module::Compiled::compiled(job, slider) }
            }
        }
    };
}

level!(
    /// BMI1, BMI2, `POPCNT` and `LZCNT`: what `PEXT` backends need, on CPUs that may lack AVX2.
    Bmi2 in bmi2,
    "bmi2",
    avx2: false,
    ["popcnt", "lzcnt", "bmi1", "bmi2"]
);

level!(
    /// x86-64-v3 (Haswell, Zen 1 and later): AVX2, FMA, BMI1, BMI2, `POPCNT`, `LZCNT`, `MOVBE`.
    V3 in v3,
    "x86-64-v3",
    avx2: true,
    ["popcnt", "lzcnt", "bmi1", "bmi2", "movbe", "fma", "avx2"]
);

level!(
    /// x86-64-v3 with GFNI (Galois-field byte instructions: Ice Lake, Zen 4 and later).
    V3Gfni in v3_gfni,
    "x86-64-v3+gfni",
    avx2: true,
    ["popcnt", "lzcnt", "bmi1", "bmi2", "movbe", "fma", "avx2", "gfni"]
);

level!(
    /// x86-64-v4 (Skylake-X, Zen 4 and later): x86-64-v3 with AVX-512 F, BW, CD, DQ and VL.
    V4 in v4,
    "x86-64-v4",
    avx2: true,
    [
        "popcnt", "lzcnt", "bmi1", "bmi2", "movbe", "fma", "avx2", "avx512f", "avx512bw",
        "avx512cd", "avx512dq", "avx512vl"
    ]
);

/// Backend `S` with work compiled for level `L`: its lookups are `S`'s, the generator, the
/// make and the job around them use `L`'s instructions. [`Backend::run`](super::Backend::run)
/// builds one with the best level this CPU has; `L` should include what `S` needs.
///
/// ```
/// use bitforge::slider::{FancyMagic, Level, Leveled, Slider, V3};
/// use bitforge::{Bitboard, Square};
///
/// if let Some(fancy) = Leveled::<FancyMagic, V3>::new() {
///     assert_eq!(fancy.rook_attacks(Square::A1, Bitboard::EMPTY).count(), 14);
/// }
/// ```
pub struct Leveled<S, L> {
    slider: S,
    level: PhantomData<L>,
}

impl<S: Clone, L> Clone for Leveled<S, L> {
    #[inline(always)]
    fn clone(&self) -> Self {
        Leveled {
            slider: self.slider.clone(),
            level: PhantomData,
        }
    }
}

impl<S: Copy, L> Copy for Leveled<S, L> {}

impl<S: core::fmt::Debug, L: Level> core::fmt::Debug for Leveled<S, L> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:?} on {}", self.slider, L::NAME)
    }
}

impl<S: Slider, L: Level> Slider for Leveled<S, L> {
    const NAME: &'static str = S::NAME;
    const TABLE_BYTES: usize = S::TABLE_BYTES;
    type Level = L;

    #[inline]
    fn is_available() -> bool {
        S::is_available() && L::is_available()
    }

    #[inline(always)]
    unsafe fn new_unchecked() -> Self {
        Leveled {
            // SAFETY: the caller guarantees what `is_available` checks, `S`'s part included.
            slider: unsafe { S::new_unchecked() },
            level: PhantomData,
        }
    }

    #[inline(always)]
    fn rook_attacks(self, square: Square, occupancy: Bitboard) -> Bitboard {
        self.slider.rook_attacks(square, occupancy)
    }

    #[inline(always)]
    fn bishop_attacks(self, square: Square, occupancy: Bitboard) -> Bitboard {
        self.slider.bishop_attacks(square, occupancy)
    }

    #[inline(always)]
    fn queen_attacks(self, square: Square, occupancy: Bitboard) -> Bitboard {
        self.slider.queen_attacks(square, occupancy)
    }

    #[inline]
    fn rook_attacks_batch(self, queries: &[(Square, Bitboard)], attacks: &mut [Bitboard]) {
        self.slider.rook_attacks_batch(queries, attacks);
    }

    #[inline]
    fn bishop_attacks_batch(self, queries: &[(Square, Bitboard)], attacks: &mut [Bitboard]) {
        self.slider.bishop_attacks_batch(queries, attacks);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each level's availability agrees with std's detection of the features it names, so a
    /// level is never entered on a CPU without them (the qemu and valgrind runs of `.ci/run`
    /// check the other side: no illegal instruction).
    #[cfg(all(target_arch = "x86_64", feature = "std"))]
    #[test]
    fn availability_follows_detection() {
        let v3 = std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("fma");
        assert_eq!(V3::is_available(), v3);
        assert!(!V4::is_available() || V3::is_available());
        assert!(!V3::is_available() || Bmi2::is_available());
        assert!(Baseline::is_available());
    }

    /// Work run inside a level, inline or apart, gives what it gives outside.
    #[test]
    fn within_runs_the_closure() {
        let popcount = |x: u64| x.count_ones();
        if V3::is_available() {
            // SAFETY: just checked.
            let inside = unsafe { V3::within(|| popcount(0xF0F0)) };
            assert_eq!(inside, 8);
            // SAFETY: just checked.
            assert_eq!(unsafe { V3::apart(|| popcount(0x00F0_0F0F)) }, 12);
        }
        // SAFETY: the baseline is always there.
        assert_eq!(unsafe { Baseline::within(|| popcount(0xF0F0)) }, 8);
        // SAFETY: the baseline is always there.
        assert_eq!(unsafe { Baseline::apart(|| popcount(0x00F0_0F0F)) }, 12);
    }
}
