//! Set-wise attacks: every square attacked by a side's rooks (and queens) and bishops (and
//! queens) at once. Two inputs: `setwise/random`, 4,096 random positions (occupancy at about
//! 25% density, two to three orthogonal and two to three diagonal sliders among the occupied
//! squares), and `setwise/roce`, both sides of the 126 positions of the ROCE perft suite. The
//! SIMD fills do it in one pass; the table backends loop over the pieces.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

use bitforge::position::PerftLine;
use bitforge::slider::{
    FancyMagic, KoggeStoneAvx2, KoggeStoneAvx512, Pext, PextPdep, Slider, kogge_stone_bishops,
    kogge_stone_rooks,
};
use bitforge::{Bitboard, Color, PieceType, Position};
use bitforge_benches::split_mix;

const POSITIONS: usize = 4_096;

/// (orthogonal sliders, diagonal sliders, occupancy).
type Sides = (Bitboard, Bitboard, Bitboard);

/// Up to `count` squares of `from` (fewer when a pick repeats), never empty.
fn pick(state: &mut u64, from: Bitboard, count: usize) -> Bitboard {
    let squares: Vec<_> = from.into_iter().collect();
    (0..count).fold(Bitboard::EMPTY, |set, _| {
        set | squares[(split_mix(state) % squares.len() as u64) as usize]
    })
}

fn random_positions() -> Vec<Sides> {
    let mut state = 0x5E7;
    (0..POSITIONS)
        .map(|_| {
            let occupancy = Bitboard(split_mix(&mut state) & split_mix(&mut state) | 1);
            let rooks = pick(&mut state, occupancy, 3);
            let bishops = pick(&mut state, occupancy, 3);
            (rooks, bishops, occupancy)
        })
        .collect()
}

fn loop_over_pieces<S: Slider>(slider: S, (rooks, bishops, occupancy): Sides) -> Bitboard {
    let rook = rooks.into_iter().fold(Bitboard::EMPTY, |union, square| {
        union | slider.rook_attacks(square, occupancy)
    });
    bishops.into_iter().fold(rook, |union, square| {
        union | slider.bishop_attacks(square, occupancy)
    })
}

/// Both sides of every ROCE suite position: the rooks and queens, the bishops and queens, and
/// the occupancy.
fn roce_positions() -> Vec<Sides> {
    let suite = include_str!("../../core/tests/perft/roce.epd");
    let mut sides = Vec::new();
    for line in suite.lines() {
        let fen = PerftLine::parse(line).expect("ROCE line").fen;
        let position = Position::from_fen(fen, FancyMagic).expect("ROCE FEN");
        for color in Color::ALL {
            let queens = position.colored(color, PieceType::Queen);
            sides.push((
                position.colored(color, PieceType::Rook) | queens,
                position.colored(color, PieceType::Bishop) | queens,
                position.occupied(),
            ));
        }
    }
    sides
}

/// One method over every position; generic so that no call is indirect.
fn bench<F: Fn(Sides) -> Bitboard>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    positions: &[Sides],
    name: &str,
    attacks: F,
) {
    group.bench_function(name, |b| {
        b.iter(|| {
            black_box(positions)
                .iter()
                .fold(0u64, |sum, &sides| sum.wrapping_add(attacks(sides).0))
        })
    });
}

fn setwise(c: &mut Criterion) {
    for (input, positions) in [("random", random_positions()), ("roce", roce_positions())] {
        let mut group = c.benchmark_group(format!("setwise/{input}"));
        group.throughput(Throughput::Elements(positions.len() as u64));
        let group = &mut group;
        bench(
            group,
            &positions,
            "kogge-stone",
            |(rooks, bishops, occupancy)| {
                kogge_stone_rooks(rooks, occupancy) | kogge_stone_bishops(bishops, occupancy)
            },
        );
        if let Some(simd) = KoggeStoneAvx2::new() {
            bench(
                group,
                &positions,
                "kogge-stone-avx2",
                |(rooks, bishops, occupancy)| {
                    let (rook, bishop) = simd.attacks_of_sets(rooks, bishops, occupancy);
                    rook | bishop
                },
            );
        }
        if let Some(simd) = KoggeStoneAvx512::new() {
            bench(
                group,
                &positions,
                "kogge-stone-avx512",
                |(rooks, bishops, occupancy)| {
                    let (rook, bishop) = simd.attacks_of_sets(rooks, bishops, occupancy);
                    rook | bishop
                },
            );
        }
        if let Some(table) = Pext::new() {
            bench(group, &positions, "pext-per-piece", |sides| {
                loop_over_pieces(table, sides)
            });
        }
        if let Some(table) = PextPdep::new() {
            bench(group, &positions, "pext-pdep-per-piece", |sides| {
                loop_over_pieces(table, sides)
            });
        }
    }
}

criterion_group!(benches, setwise);
criterion_main!(benches);
