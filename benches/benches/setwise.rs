//! Set-wise attacks: every square attacked by a side's rooks (and queens) and bishops (and
//! queens) at once, over 4,096 random positions (occupancy at about 25% density, two to three
//! orthogonal and two to three diagonal sliders among the occupied squares). The SIMD fills do
//! it in one pass; the table backends loop over the pieces.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

use bitforge::Bitboard;
use bitforge::slider::{
    KoggeStoneAvx2, KoggeStoneAvx512, PextPdep, Slider, kogge_stone_bishops, kogge_stone_rooks,
};
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

fn setwise(c: &mut Criterion) {
    let positions = random_positions();
    let mut group = c.benchmark_group("setwise");
    group.throughput(Throughput::Elements(POSITIONS as u64));
    let mut bench = |name: &str, attacks: &dyn Fn(Sides) -> Bitboard| {
        group.bench_function(name, |b| {
            b.iter(|| {
                black_box(&positions)
                    .iter()
                    .fold(0u64, |sum, &sides| sum.wrapping_add(attacks(sides).0))
            })
        });
    };
    bench("kogge-stone", &|(rooks, bishops, occupancy)| {
        kogge_stone_rooks(rooks, occupancy) | kogge_stone_bishops(bishops, occupancy)
    });
    if let Some(simd) = KoggeStoneAvx2::new() {
        bench("kogge-stone-avx2", &move |(rooks, bishops, occupancy)| {
            let (rook, bishop) = simd.attacks_of_sets(rooks, bishops, occupancy);
            rook | bishop
        });
    }
    if let Some(simd) = KoggeStoneAvx512::new() {
        bench("kogge-stone-avx512", &move |(rooks, bishops, occupancy)| {
            let (rook, bishop) = simd.attacks_of_sets(rooks, bishops, occupancy);
            rook | bishop
        });
    }
    if let Some(table) = PextPdep::new() {
        bench("pext-pdep-per-piece", &move |sides| {
            loop_over_pieces(table, sides)
        });
    }
    group.finish();
}

criterion_group!(benches, setwise);
criterion_main!(benches);
