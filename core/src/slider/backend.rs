//! Naming the backends, choosing one, and running a job monomorphised for it.

use core::fmt;
use core::str::FromStr;
use core::sync::atomic::{AtomicU8, Ordering};

use super::{
    BlackMagic, FancyCombinedMagic, FancyMagic, Hyperbola, HyperbolaAvx2, HyperbolaDual,
    HyperbolaGfni, KoggeStone, KoggeStoneAvx2, KoggeStoneAvx512, Level, Pext, PextPdep, Reference,
    Slider, cpu,
};
// The raised levels: not compiled in where nothing is raised (see [`Raise`]).
#[cfg(not(bitforge_unoptimized))]
use super::{Leveled, V3, V4};

/// Work generic over the backend: [`Backend::run`] calls [`SliderJob::run`] once with the
/// chosen backend, so the whole job is compiled for it and no lookup pays for dispatch.
///
/// `run` is compiled for the backend's instruction level as it is written (no attribute, no
/// [`Slider::within`]), its loops and what inlines into them included. A function it calls
/// that the compiler keeps apart (a large one, or a generic one from another module, which a
/// release build may compile in another code-generation unit) runs at the build's baseline:
/// mark such helpers `#[inline]`, or give them the slider and a `within` of their own.
///
/// ```
/// use bitforge::slider::{Backend, Slider, SliderJob};
/// use bitforge::{Bitboard, Square};
///
/// struct CountRookMoves(Bitboard);
///
/// impl SliderJob for CountRookMoves {
///     type Output = u32;
///     fn run<S: Slider>(self, slider: S) -> u32 {
///         Square::ALL.iter().map(|&s| slider.rook_attacks(s, self.0).count()).sum()
///     }
/// }
///
/// for backend in Backend::ALL.into_iter().filter(|b| b.is_available()) {
///     assert_eq!(backend.run(CountRookMoves(Bitboard::EMPTY)), Some(64 * 14));
/// }
/// ```
pub trait SliderJob {
    /// What the job returns.
    type Output;

    /// Does the work with `slider`.
    fn run<S: Slider>(self, slider: S) -> Self::Output;
}

/// A backend that [`Backend::run`] raises: [`run_raised`](Self::run_raised) runs a job compiled
/// for the best instruction level this CPU has among those the backend gains from (its line in
/// the backend list), or at its own level. Every backend implements it.
///
/// An unoptimized build (`opt-level = 0`, a default `cargo build`) does not raise: the
/// generator's stages stay calls there (`core/build.rs`), so each raised copy of the job would
/// cost compile time and buy no speed. The backend runs at its own level, as
/// [`Backend::level_name`] says.
///
/// ```
/// use bitforge::Position;
/// use bitforge::slider::{FancyMagic, Raise, Slider, SliderJob};
///
/// struct Perft(u32);
///
/// impl SliderJob for Perft {
///     type Output = u64;
///     fn run<S: Slider>(self, slider: S) -> u64 {
///         Position::start(slider).perft(self.0)
///     }
/// }
///
/// // Compiled for FancyMagic's levels only, not once per backend and level.
/// assert_eq!(FancyMagic.run_raised(Perft(3)), 8_902);
/// ```
pub trait Raise: Slider {
    /// Runs `job` with this backend, compiled for the best level this CPU has among the
    /// backend's raised levels, or at its own level.
    fn run_raised<J: SliderJob>(self, job: J) -> J::Output;
}

/// Declares every backend once: the [`Backend`] enum and its table of methods, [`Backend::ALL`],
/// and the matches that name, size, check and run them. Each line gives the backend's type,
/// what it does, and the levels [`Backend::run`] raises it to where the CPU has them, best
/// first (a backend whose own level already is the best it gains from has none). Each level
/// listed is one more compiled copy of every job (build time). Each backend but the oracle
/// whose own level is below x86-64-v3 lists it (CPUs without AVX-512 have it): compiled for
/// the baseline or BMI2 alone, `kogge-stone`'s fills run far slower, and the generator maps
/// enemy sliders without its AVX2 fill. x86-64-v4 only where it measured faster; not for
/// `hyperbola`, whose lookup loops the compiler vectorises there into 512-bit shuffles,
/// slower than the 256-bit ones of x86-64-v3 (results/analysis.md, issues 17 and 37).
macro_rules! backends {
    ($($backend:ident: $method:literal, raised to [$($level:ident),*];)+) => {
        /// A backend by name, for choosing one at run time.
        ///
        /// | backend | method |
        /// | --- | --- |
        $(#[doc = concat!("| [`", stringify!($backend), "`] | ", $method, " |")])+
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(u8)]
        pub enum Backend {
            $(
                #[doc = concat!("[`", stringify!($backend), "`]: ", $method, ".")]
                $backend,
            )+
        }

        impl Backend {
            /// Every backend, slowest (the oracle) first.
            pub const ALL: [Backend; [$(Backend::$backend),+].len()] = [$(Backend::$backend),+];

            /// The name used on the command line, in benchmarks and in results.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Backend::$backend => <$backend as Slider>::NAME,)+
                }
            }

            /// What the backend does, in a few words.
            pub const fn method(self) -> &'static str {
                match self {
                    $(Backend::$backend => $method,)+
                }
            }

            /// The bytes of tables the backend reads.
            pub const fn table_bytes(self) -> usize {
                match self {
                    $(Backend::$backend => <$backend as Slider>::TABLE_BYTES,)+
                }
            }

            /// Whether this CPU and build can run the backend.
            pub fn is_available(self) -> bool {
                match self {
                    $(Backend::$backend => <$backend as Slider>::is_available(),)+
                }
            }

            /// The [`Level`] that [`run`](Self::run) compiles work with this backend for on
            /// this CPU, by name, or `None` if the backend is not available.
            pub fn level_name(self) -> Option<&'static str> {
                match self {
                    $(Backend::$backend => {
                        $(#[cfg(not(bitforge_unoptimized))]
                        if <Leveled<$backend, $level> as Slider>::is_available() {
                            return Some(<$level as Level>::NAME);
                        })*
                        <$backend as Slider>::is_available()
                            .then_some(<<$backend as Slider>::Level as Level>::NAME)
                    })+
                }
            }

            /// The [`Level`] the backend's own instructions need, by name: what
            /// [`run_unraised`](Self::run_unraised) compiles for. Hidden from the
            /// documentation with `run_unraised`: for bitforge's tests and benchmarks.
            #[doc(hidden)]
            pub fn own_level_name(self) -> &'static str {
                match self {
                    $(Backend::$backend => <<$backend as Slider>::Level as Level>::NAME,)+
                }
            }

            /// Runs `job` with this backend, compiled for the best level this CPU has (see
            /// [`level_name`](Self::level_name)), or returns `None` if this CPU cannot run the
            /// backend.
            pub fn run<J: SliderJob>(self, job: J) -> Option<J::Output> {
                match self {
                    $(Backend::$backend => {
                        <$backend as Slider>::new().map(|slider| slider.run_raised(job))
                    })+
                }
            }

            /// Runs `job` with this backend compiled for its own level only, as on a CPU that
            /// has nothing more (a default build on a CPU without x86-64-v3): for tests and
            /// for measuring what the raise buys. Hidden from the documentation: not part of
            /// the API an engine builds on.
            #[doc(hidden)]
            pub fn run_unraised<J: SliderJob>(self, job: J) -> Option<J::Output> {
                match self {
                    $(Backend::$backend => <$backend as Slider>::new().map(|slider| slider.run(job)),)+
                }
            }
        }

        $(impl $backend {
            /// Runs `job` at the best of the backend's raised levels this CPU has, or hands
            /// it back if it has none.
            #[inline]
            fn run_at_a_raised_level<J: SliderJob>(self, job: J) -> Result<J::Output, J> {
                // Unoptimized, the generator's stages stay calls: a raised copy of the job
                // buys no speed and costs one more copy to compile.
                $(#[cfg(not(bitforge_unoptimized))]
                if let Some(slider) = Leveled::<$backend, $level>::new() {
                    return Ok(slider.run(job));
                })*
                Err(job)
            }
        }

        impl Raise for $backend {
            #[inline]
            fn run_raised<J: SliderJob>(self, job: J) -> J::Output {
                self.run_at_a_raised_level(job)
                    .unwrap_or_else(|job| self.run(job))
            }
        })+
    };
}

backends! {
    Reference: "walks each ray square by square: the test oracle", raised to [];
    KoggeStone: "occluded fills, three doubling steps per direction", raised to [V4, V3];
    KoggeStoneAvx2: "the fills, four directions per AVX2 register", raised to [V4];
    KoggeStoneAvx512: "the fills, eight directions in one AVX-512 register", raised to [];
    Hyperbola: "`o ^ (o - 2r)` with byte swaps, a first-rank table for ranks", raised to [V3];
    HyperbolaAvx2: "hyperbola on the four lines at once in AVX2 lanes, full bit reversal", raised to [V4];
    HyperbolaGfni: "the same, each byte's bits reversed by GFNI", raised to [];
    HyperbolaDual: "Stockfish's 2026 slider: hyperbola on file and diagonals in AVX2 lanes with a byte swap, the rank from the first-rank table", raised to [V4];
    FancyMagic: "`((occ & mask) * magic) >> shift`, variable shift, dense table", raised to [V3];
    FancyCombinedMagic: "the fancy magics in one combined table, the slot ANDed with the empty-board attacks", raised to [V3];
    BlackMagic: "`((occ | !mask) * magic) >> 52/55`, one overlapped table", raised to [V3];
    Pext: "BMI2 `pext(occ, mask)` as the index into the dense table", raised to [V4, V3];
    PextPdep: "`pext` index into `u16` entries, expanded by `pdep`", raised to [V4, V3];
}

/// A backend name that could not be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendError {
    /// No backend has this name.
    Unknown,
    /// The backend exists but this CPU (or this build) cannot run it.
    Unavailable(Backend),
}

impl fmt::Display for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BackendError::Unknown => {
                f.write_str("unknown backend (expected one of")?;
                for backend in Backend::ALL {
                    write!(f, " {}", backend.name())?;
                }
                f.write_str(")")
            }
            BackendError::Unavailable(backend) => {
                write!(f, "backend {} is not available on this CPU", backend.name())
            }
        }
    }
}

impl core::error::Error for BackendError {}

/// `Backend::best()`'s answer once computed, as `1 + discriminant` (0: not yet).
static BEST: AtomicU8 = AtomicU8::new(0);

impl Backend {
    /// The fastest backend this CPU runs well, decided once and remembered.
    ///
    /// `PEXT` where x86-64-v3 (BMI2 with AVX2: Haswell, Excavator and later) is compiled in
    /// or (with `std`) detected, except on AMD families 0x15 and 0x17, where `PEXT` is
    /// microcoded; fancy magics everywhere else.
    pub fn best() -> Backend {
        match BEST.load(Ordering::Relaxed) {
            0 => {
                let best = Self::detect_best();
                BEST.store(best as u8 + 1, Ordering::Relaxed);
                best
            }
            stored => Backend::ALL[usize::from(stored - 1)],
        }
    }

    fn detect_best() -> Backend {
        if Pext::is_available() && super::V3::is_available() && !cpu::pext_is_microcoded() {
            Backend::Pext
        } else {
            Backend::FancyMagic
        }
    }

    /// Runs `job` with [`best`](Self::best), raised as [`run`](Self::run) raises it, and
    /// compiles the job only for the backends `best` can choose (`pext` and `fancy`, at their
    /// levels), where `Backend::best().run(job)` compiles it once per backend and level: the
    /// default choice, at a fraction of the build (`results/build-budget.md`).
    ///
    /// An unoptimized build (`opt-level = 0`) compiles one copy: `fancy` at its own level,
    /// which every CPU runs, whatever `best` says. There the generator's speed is set by the
    /// missing optimization, not by the slider, and a second copy would double the job's
    /// share of the build.
    ///
    /// ```
    /// use bitforge::Position;
    /// use bitforge::slider::{Backend, Slider, SliderJob};
    ///
    /// struct Perft(u32);
    ///
    /// impl SliderJob for Perft {
    ///     type Output = u64;
    ///     fn run<S: Slider>(self, slider: S) -> u64 {
    ///         Position::start(slider).perft(self.0)
    ///     }
    /// }
    ///
    /// assert_eq!(Backend::run_best(Perft(3)), 8_902);
    /// ```
    pub fn run_best<J: SliderJob>(job: J) -> J::Output {
        #[cfg(bitforge_unoptimized)]
        return FancyMagic.run(job);
        // The two backends `detect_best` chooses between (a test checks that this runs the
        // one `best().run` would). It chooses `pext` only where x86-64-v3 is, a level `pext`
        // is raised to, so no copy at `pext`'s own level is compiled.
        #[cfg(not(bitforge_unoptimized))]
        match Pext::new().filter(|_| Self::best() == Backend::Pext) {
            Some(pext) => pext
                .run_at_a_raised_level(job)
                .unwrap_or_else(|job| FancyMagic.run_raised(job)),
            None => FancyMagic.run_raised(job),
        }
    }

    /// The backend called `name`, or [`best`](Self::best) when no name is given: the override
    /// for benchmarks and command lines. A name this CPU cannot run is an error, not a fault.
    ///
    /// ```
    /// use bitforge::slider::{Backend, BackendError};
    ///
    /// assert_eq!(Backend::choose(Some("fancy")), Ok(Backend::FancyMagic));
    /// assert_eq!(Backend::choose(None), Ok(Backend::best()));
    /// assert_eq!(Backend::choose(Some("magic")), Err(BackendError::Unknown));
    /// ```
    pub fn choose(name: Option<&str>) -> Result<Backend, BackendError> {
        let Some(name) = name else {
            return Ok(Self::best());
        };
        let backend: Backend = name.parse()?;
        if backend.is_available() {
            Ok(backend)
        } else {
            Err(BackendError::Unavailable(backend))
        }
    }
}

impl FromStr for Backend {
    type Err = BackendError;

    fn from_str(name: &str) -> Result<Backend, BackendError> {
        Backend::ALL
            .into_iter()
            .find(|backend| backend.name() == name)
            .ok_or(BackendError::Unknown)
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
