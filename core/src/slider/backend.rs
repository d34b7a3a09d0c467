//! Naming the backends, choosing one, and running a job monomorphised for it.

use core::fmt;
use core::str::FromStr;
use core::sync::atomic::{AtomicU8, Ordering};

use super::{
    BlackMagic, FancyMagic, Hyperbola, HyperbolaAvx2, HyperbolaGfni, KoggeStone, KoggeStoneAvx2,
    KoggeStoneAvx512, Pext, PextPdep, Reference, Slider, cpu,
};

/// Work generic over the backend: [`Backend::run`] calls [`SliderJob::run`] once with the
/// chosen backend, so the whole job is compiled for it and no lookup pays for dispatch.
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

/// A backend by name, for choosing one at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Backend {
    /// [`Reference`]: the ray walk.
    Reference,
    /// [`KoggeStone`]: occluded fills.
    KoggeStone,
    /// [`KoggeStoneAvx2`]: occluded fills, four directions per AVX2 register.
    KoggeStoneAvx2,
    /// [`KoggeStoneAvx512`]: occluded fills, eight directions in one AVX-512 register.
    KoggeStoneAvx512,
    /// [`Hyperbola`]: hyperbola quintessence.
    Hyperbola,
    /// [`HyperbolaAvx2`]: hyperbola quintessence, the four lines in AVX2 lanes.
    HyperbolaAvx2,
    /// [`HyperbolaGfni`]: the same, bits reversed with GFNI.
    HyperbolaGfni,
    /// [`FancyMagic`]: variable-shift magics.
    FancyMagic,
    /// [`BlackMagic`]: fixed-shift black magics, packed.
    BlackMagic,
    /// [`Pext`]: BMI2 extraction into the dense table.
    Pext,
    /// [`PextPdep`]: BMI2 extraction into `u16` entries.
    PextPdep,
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
    /// Every backend, slowest (the oracle) first.
    pub const ALL: [Backend; 11] = [
        Backend::Reference,
        Backend::KoggeStone,
        Backend::KoggeStoneAvx2,
        Backend::KoggeStoneAvx512,
        Backend::Hyperbola,
        Backend::HyperbolaAvx2,
        Backend::HyperbolaGfni,
        Backend::FancyMagic,
        Backend::BlackMagic,
        Backend::Pext,
        Backend::PextPdep,
    ];

    /// The name used on the command line, in benchmarks and in results.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Reference => Reference::NAME,
            Backend::KoggeStone => KoggeStone::NAME,
            Backend::KoggeStoneAvx2 => KoggeStoneAvx2::NAME,
            Backend::KoggeStoneAvx512 => KoggeStoneAvx512::NAME,
            Backend::Hyperbola => Hyperbola::NAME,
            Backend::HyperbolaAvx2 => HyperbolaAvx2::NAME,
            Backend::HyperbolaGfni => HyperbolaGfni::NAME,
            Backend::FancyMagic => FancyMagic::NAME,
            Backend::BlackMagic => BlackMagic::NAME,
            Backend::Pext => Pext::NAME,
            Backend::PextPdep => PextPdep::NAME,
        }
    }

    /// The bytes of tables the backend reads.
    pub const fn table_bytes(self) -> usize {
        match self {
            Backend::Reference => Reference::TABLE_BYTES,
            Backend::KoggeStone => KoggeStone::TABLE_BYTES,
            Backend::KoggeStoneAvx2 => KoggeStoneAvx2::TABLE_BYTES,
            Backend::KoggeStoneAvx512 => KoggeStoneAvx512::TABLE_BYTES,
            Backend::Hyperbola => Hyperbola::TABLE_BYTES,
            Backend::HyperbolaAvx2 => HyperbolaAvx2::TABLE_BYTES,
            Backend::HyperbolaGfni => HyperbolaGfni::TABLE_BYTES,
            Backend::FancyMagic => FancyMagic::TABLE_BYTES,
            Backend::BlackMagic => BlackMagic::TABLE_BYTES,
            Backend::Pext => Pext::TABLE_BYTES,
            Backend::PextPdep => PextPdep::TABLE_BYTES,
        }
    }

    /// Whether this CPU and build can run the backend.
    pub fn is_available(self) -> bool {
        match self {
            Backend::Reference => Reference::is_available(),
            Backend::KoggeStone => KoggeStone::is_available(),
            Backend::KoggeStoneAvx2 => KoggeStoneAvx2::is_available(),
            Backend::KoggeStoneAvx512 => KoggeStoneAvx512::is_available(),
            Backend::Hyperbola => Hyperbola::is_available(),
            Backend::HyperbolaAvx2 => HyperbolaAvx2::is_available(),
            Backend::HyperbolaGfni => HyperbolaGfni::is_available(),
            Backend::FancyMagic => FancyMagic::is_available(),
            Backend::BlackMagic => BlackMagic::is_available(),
            Backend::Pext => Pext::is_available(),
            Backend::PextPdep => PextPdep::is_available(),
        }
    }

    /// The fastest backend this CPU runs well, decided once and remembered.
    ///
    /// `PEXT` where BMI2 is compiled in or (with `std`) detected, except on AMD families 0x15
    /// and 0x17, where it is microcoded; fancy magics everywhere else.
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
        if Pext::is_available() && !cpu::pext_is_microcoded() {
            Backend::Pext
        } else {
            Backend::FancyMagic
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

    /// Runs `job` with this backend, or returns `None` if this CPU cannot run it.
    pub fn run<J: SliderJob>(self, job: J) -> Option<J::Output> {
        match self {
            Backend::Reference => Reference::new().map(|slider| slider.run(job)),
            Backend::KoggeStone => KoggeStone::new().map(|slider| slider.run(job)),
            Backend::KoggeStoneAvx2 => KoggeStoneAvx2::new().map(|slider| slider.run(job)),
            Backend::KoggeStoneAvx512 => KoggeStoneAvx512::new().map(|slider| slider.run(job)),
            Backend::Hyperbola => Hyperbola::new().map(|slider| slider.run(job)),
            Backend::HyperbolaAvx2 => HyperbolaAvx2::new().map(|slider| slider.run(job)),
            Backend::HyperbolaGfni => HyperbolaGfni::new().map(|slider| slider.run(job)),
            Backend::FancyMagic => FancyMagic::new().map(|slider| slider.run(job)),
            Backend::BlackMagic => BlackMagic::new().map(|slider| slider.run(job)),
            Backend::Pext => Pext::new().map(|slider| slider.run(job)),
            Backend::PextPdep => PextPdep::new().map(|slider| slider.run(job)),
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
