//! Every available backend against the reference ray walk: all relevant-subset pairs (rook
//! 102,400, bishop 5,248) and 1,000,000 random full occupancies per piece.

use bitforge::slider::{
    Backend, Baseline, KoggeStoneAvx2, KoggeStoneAvx512, Level, Reference, Slider, SliderJob,
    kogge_stone_bishops, kogge_stone_rooks,
};
use bitforge::{Bitboard, Square};
use bitforge_index::SliderKind;
use bitforge_index::geometry::relevant_mask;

/// Random occupancies per piece (fewer under Miri, which runs about a million times slower).
const RANDOM_PAIRS: usize = if cfg!(miri) { 100 } else { 1_000_000 };

/// Under Miri, this many subsets of each square's relevant mask (the empty and the full one,
/// the rest at random) instead of all of them: walking every subset to pick a few is slow there.
const MIRI_SUBSETS_PER_SQUARE: usize = 4;

/// The relevant subsets checked: every one, or under Miri [`MIRI_SUBSETS_PER_SQUARE`] per square.
const CHECKED_SUBSETS: usize = if cfg!(miri) {
    2 * 64 * MIRI_SUBSETS_PER_SQUARE
} else {
    102_400 + 5_248
};

/// The subsets of `mask` to check (see [`CHECKED_SUBSETS`]).
fn subsets_to_check(mask: Bitboard, random: &mut SplitMix) -> Vec<Bitboard> {
    if !cfg!(miri) {
        return mask.subsets().collect();
    }
    let mut subsets = vec![Bitboard(0), mask];
    subsets.extend((2..MIRI_SUBSETS_PER_SQUARE).map(|_| Bitboard(random.next()) & mask));
    subsets
}

fn attacks<S: Slider>(
    slider: S,
    kind: SliderKind,
    square: Square,
    occupancy: Bitboard,
) -> Bitboard {
    match kind {
        SliderKind::Rook => slider.rook_attacks(square, occupancy),
        SliderKind::Bishop => slider.bishop_attacks(square, occupancy),
    }
}

mod common;
use common::{Compiled, SplitMix};

/// Compares one backend with `Reference`; returns the number of pairs checked.
struct AgreesWithReference;

impl SliderJob for AgreesWithReference {
    type Output = usize;

    fn run<S: Slider>(self, slider: S) -> usize {
        let mut checked = 0;
        let mut chosen = SplitMix(0x5B5E_7500);
        for kind in SliderKind::ALL {
            for square in Square::ALL {
                let mask = Bitboard(relevant_mask(kind, square.index() as u8));
                for occupancy in subsets_to_check(mask, &mut chosen) {
                    let expected = attacks(Reference, kind, square, occupancy);
                    let got = attacks(slider, kind, square, occupancy);
                    assert_eq!(
                        got,
                        expected,
                        "{} {kind} {square:?} occupancy {:#018x}",
                        S::NAME,
                        occupancy.0
                    );
                    // The bits outside the relevant mask must not matter.
                    let noisy = occupancy | (Bitboard(!mask.0) & Bitboard(0x5A5A_A5A5_0FF0_F00F));
                    assert_eq!(attacks(slider, kind, square, noisy), expected);
                    checked += 1;
                }
            }
            let mut random = SplitMix(0xB17F_06E0 + kind as u64);
            for _ in 0..RANDOM_PAIRS {
                let square = Square::ALL[(random.next() % 64) as usize];
                // About 25% of the squares occupied, as in a middlegame.
                let occupancy = Bitboard(random.next() & random.next());
                let expected = attacks(Reference, kind, square, occupancy);
                assert_eq!(
                    attacks(slider, kind, square, occupancy),
                    expected,
                    "{} {kind} {square:?} occupancy {:#018x}",
                    S::NAME,
                    occupancy.0
                );
                let queen = slider.queen_attacks(square, occupancy);
                assert_eq!(queen, Reference.queen_attacks(square, occupancy));
                checked += 1;
            }
        }
        checked
    }
}

#[test]
fn reference_agrees_with_the_generator_geometry() {
    let mut chosen = SplitMix(0x5B5E_7501);
    for kind in SliderKind::ALL {
        for square in Square::ALL {
            let mask = Bitboard(relevant_mask(kind, square.index() as u8));
            for occupancy in subsets_to_check(mask, &mut chosen) {
                let generator =
                    bitforge_index::geometry::ray_attacks(kind, square.index() as u8, occupancy.0);
                assert_eq!(attacks(Reference, kind, square, occupancy).0, generator);
            }
        }
    }
}

/// Every backend, raised and at its own level, against the reference; a backend this CPU
/// lacks is reported and skipped (the qemu runs in CI check that this happens rather than a
/// fault).
#[test]
fn every_backend_agrees() {
    common::for_every_backend(|backend, compiled| {
        let checked = match compiled {
            Compiled::Raised => backend.run(AgreesWithReference),
            Compiled::Unraised => backend.run_unraised(AgreesWithReference),
        };
        match checked {
            Some(checked) => {
                assert_eq!(checked, CHECKED_SUBSETS + 2 * RANDOM_PAIRS);
            }
            None => {
                assert!(!backend.is_available());
                eprintln!("{backend}: not available on this CPU, skipped");
            }
        }
    });
}

#[test]
fn every_backend_is_in_the_list_once_with_its_name() {
    for (i, backend) in Backend::ALL.into_iter().enumerate() {
        assert_eq!(backend.name().parse::<Backend>(), Ok(backend));
        let name = backend.name();
        assert!(
            !name.is_empty()
                && name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
            "{name:?}: a command-line name"
        );
        assert!(!backend.method().is_empty());
        assert!(
            Backend::ALL[..i].iter().all(|other| other.name() != name),
            "{name} twice"
        );
    }
    assert_eq!(Backend::ALL[0], Backend::Reference, "the oracle first");
}

#[test]
fn unavailable_backends_have_no_value() {
    for backend in Backend::ALL {
        assert_eq!(
            backend.run(AgreesWithNothing).is_some(),
            backend.is_available()
        );
    }
}

struct AgreesWithNothing;

impl SliderJob for AgreesWithNothing {
    type Output = ();
    fn run<S: Slider>(self, _: S) {}
}

#[test]
#[cfg_attr(miri, ignore = "CPUID")]
fn the_automatic_choice_is_available_and_avoids_microcoded_pext() {
    let best = Backend::best();
    assert!(best.is_available());
    assert_eq!(Backend::best(), best, "the choice is remembered");
    let (vendor, family) = cpu_vendor_and_family();
    eprintln!(
        "CPU {} family {family:#x}: best backend {best}",
        String::from_utf8_lossy(&vendor)
    );
    if &vendor == b"AuthenticAMD" && matches!(family, 0x15 | 0x17) {
        assert!(!matches!(best, Backend::Pext | Backend::PextPdep));
    }
    if let Ok(expected) = std::env::var("BITFORGE_EXPECT_BEST") {
        assert_eq!(best.name(), expected);
    }
}

/// The backend's name and level a job runs with.
struct NameAndLevel;

impl SliderJob for NameAndLevel {
    type Output = (&'static str, &'static str);

    fn run<S: Slider>(self, _: S) -> Self::Output {
        (S::NAME, <S::Level as Level>::NAME)
    }
}

/// `run_best` compiles only the backends `best` can choose; it must run the one `best` chose,
/// at the level `run` raises it to. Unoptimized (CI runs this file so too), it compiles one
/// copy, `fancy` at its own level, on every CPU.
#[test]
#[cfg_attr(miri, ignore = "CPUID")]
fn run_best_runs_what_best_chooses_at_the_raised_level() {
    let unoptimized =
        cfg!(bitforge_unoptimized) || std::env::var_os("BITFORGE_EXPECT_UNRAISED").is_some();
    let expected = if unoptimized {
        Backend::FancyMagic.run_unraised(NameAndLevel)
    } else {
        Backend::best().run(NameAndLevel)
    };
    assert_eq!(Some(Backend::run_best(NameAndLevel)), expected);
}

/// `level_name` says what `run` compiles a job for: raised where the build is optimized, at
/// the backend's own level where it is not (CI runs this test unoptimized too, with
/// `BITFORGE_EXPECT_UNRAISED` set).
#[test]
#[cfg_attr(miri, ignore = "CPUID")]
fn run_compiles_for_the_level_it_names() {
    for backend in Backend::ALL {
        let ran = backend.run(NameAndLevel);
        assert_eq!(
            ran.map(|(_, level)| level),
            backend.level_name(),
            "{backend}"
        );
        if let Some((name, level)) = ran {
            assert_eq!(name, backend.name());
            if std::env::var_os("BITFORGE_EXPECT_UNRAISED").is_some() {
                assert_eq!(level, backend.own_level_name(), "{backend}: raised");
            }
        }
    }
}

/// Whether a job runs compiled for a level with AVX2.
struct RunsWithAvx2;

impl SliderJob for RunsWithAvx2 {
    type Output = bool;

    fn run<S: Slider>(self, _: S) -> bool {
        <S::Level as Level>::AVX2
    }
}

/// Where the CPU has x86-64-v3 and the build raises, `run` compiles every backend but the
/// oracle for a level with AVX2: CPUs without AVX-512 (Zen 3, most Intel clients) otherwise
/// ran `kogge-stone` at the baseline and `pext-pdep` with BMI2 alone (results/analysis.md,
/// issue 37).
#[test]
#[cfg_attr(miri, ignore = "CPUID")]
fn run_raises_every_backend_to_avx2_where_the_cpu_has_it() {
    let has_v3 = Backend::Pext
        .level_name()
        .is_some_and(|level| level.starts_with("x86-64"));
    let raises =
        !cfg!(bitforge_unoptimized) && std::env::var_os("BITFORGE_EXPECT_UNRAISED").is_none();
    for backend in Backend::ALL {
        if backend == Backend::Reference {
            continue;
        }
        if let Some(avx2) = backend.run(RunsWithAvx2) {
            assert!(avx2 || !(has_v3 && raises), "{backend}: run without AVX2");
        }
    }
}

/// The same CPUID reading as core's, done here independently.
fn cpu_vendor_and_family() -> ([u8; 12], u32) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::__cpuid;
        let leaf0 = __cpuid(0);
        let mut vendor = [0u8; 12];
        for (chunk, register) in vendor.chunks_mut(4).zip([leaf0.ebx, leaf0.edx, leaf0.ecx]) {
            chunk.copy_from_slice(&register.to_le_bytes());
        }
        let signature = __cpuid(1).eax;
        let base = (signature >> 8) & 0xF;
        let family = if base == 0xF {
            base + ((signature >> 20) & 0xFF)
        } else {
            base
        };
        (vendor, family)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        ([0; 12], 0)
    }
}

/// The union of `Reference` attacks over every piece of `pieces`.
fn union_of(pieces: Bitboard, occupancy: Bitboard, kind: SliderKind) -> Bitboard {
    pieces.into_iter().fold(Bitboard::EMPTY, |union, square| {
        union | attacks(Reference, kind, square, occupancy)
    })
}

#[test]
fn set_wise_fills_equal_the_union_of_single_pieces() {
    let avx2 = KoggeStoneAvx2::new();
    let avx512 = KoggeStoneAvx512::new();
    let mut random = SplitMix(7);
    for _ in 0..RANDOM_PAIRS / 10 {
        let occupancy = Bitboard(random.next() & random.next());
        // A few sliders of each kind, on occupied squares as in a real position.
        let rooks = Bitboard(random.next() & random.next() & random.next()) & occupancy;
        let bishops = Bitboard(random.next() & random.next() & random.next()) & occupancy;
        let expected = (
            union_of(rooks, occupancy, SliderKind::Rook),
            union_of(bishops, occupancy, SliderKind::Bishop),
        );
        let scalar = (
            kogge_stone_rooks(rooks, occupancy),
            kogge_stone_bishops(bishops, occupancy),
        );
        assert_eq!(scalar, expected, "scalar, occupancy {:#018x}", occupancy.0);
        if !cfg!(miri) {
            if let Some(simd) = avx2 {
                assert_eq!(
                    simd.attacks_of_sets(rooks, bishops, occupancy),
                    expected,
                    "avx2"
                );
            }
            if let Some(simd) = avx512 {
                assert_eq!(
                    simd.attacks_of_sets(rooks, bishops, occupancy),
                    expected,
                    "avx512"
                );
            }
        }
    }
}

/// The batched lookups answer every query as single lookups would, for a count that is not a
/// multiple of eight, and stop at the shorter slice.
struct BatchAgrees;

impl SliderJob for BatchAgrees {
    type Output = ();

    fn run<S: Slider>(self, slider: S) {
        let mut random = SplitMix(0xBA7C);
        let count = if cfg!(miri) { 19 } else { 10_003 };
        let queries: Vec<(Square, Bitboard)> = (0..count)
            .map(|_| {
                let square = Square::ALL[(random.next() % 64) as usize];
                (square, Bitboard(random.next() & random.next()))
            })
            .collect();
        let mut rooks = vec![Bitboard::FULL; count];
        let mut bishops = vec![Bitboard::FULL; count];
        slider.rook_attacks_batch(&queries, &mut rooks);
        slider.bishop_attacks_batch(&queries, &mut bishops);
        for (i, &(square, occupancy)) in queries.iter().enumerate() {
            assert_eq!(
                rooks[i],
                Reference.rook_attacks(square, occupancy),
                "{} rook {i}",
                S::NAME
            );
            assert_eq!(
                bishops[i],
                Reference.bishop_attacks(square, occupancy),
                "{} bishop {i}",
                S::NAME
            );
        }
        let mut short = [Bitboard::FULL; 3];
        slider.rook_attacks_batch(&queries, &mut short);
        assert_eq!(short[2], rooks[2]);
        let mut long = vec![Bitboard::FULL; 12];
        slider.bishop_attacks_batch(&queries[..9], &mut long);
        assert_eq!(long[8], bishops[8]);
        assert_eq!(
            long[9],
            Bitboard::FULL,
            "{}: past the queries, untouched",
            S::NAME
        );
    }
}

#[test]
fn batched_lookups_agree() {
    for backend in Backend::ALL {
        // Under Miri, only what the baseline runs (no SIMD intrinsics, no inline assembly).
        let skip = cfg!(miri) && backend.own_level_name() != Baseline::NAME;
        if !skip && backend.run(BatchAgrees).is_none() {
            eprintln!("{backend}: not available on this CPU, skipped");
        }
    }
}
