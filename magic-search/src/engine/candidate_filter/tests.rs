//! Every path decides as the scalar one does.
use super::*;
#[cfg(target_arch = "x86_64")]
use rand_xoshiro::Xoshiro256PlusPlus;
#[cfg(target_arch = "x86_64")]
use rand_xoshiro::rand_core::{Rng, SeedableRng};

/// Whether any kept pair of different keys shares an index: what the vector path decides.
fn any_pair_collides(killers: &Killers, magic: u64, shift: u32) -> bool {
    let index = |key: u64| bitforge_index::magic_index(key, magic, shift);
    (killers.first.iter().zip(&killers.second)).any(|(&a, &b)| a != b && index(a) == index(b))
}

#[test]
fn the_scalar_path_tries_the_most_recent_pairs() {
    // Keys 1 and 2 share index 0 under magic 1 and shift 60; keys 1 << 60 and 1 << 61 never
    // share one.
    let (magic, shift) = (1, 60);
    let mut killers = Killers::new();
    killers.remember(1, 2);
    for age in 1..=KILLERS {
        // SAFETY: the scalar path runs on every CPU.
        let scalar = unsafe { Scalar::killed(&killers, magic, shift) };
        assert_eq!(scalar, age <= RECENT_KILLERS, "pair of age {age}");
        assert!(any_pair_collides(&killers, magic, shift));
        killers.remember(1 << 60, 1 << 61);
    }
    assert!(!any_pair_collides(&killers, magic, shift));
}

#[test]
fn the_scalar_filter_keeps_the_candidates_in_order() {
    let (mut kept, mut numbers) = ([0; BATCH], [0; BATCH]);
    // u64::MAX * u64::MAX = 1 and 0 * u64::MAX = 0: no bit in the top byte, all fail.
    let candidates: [u64; BATCH] = core::array::from_fn(|i| if i % 3 == 0 { u64::MAX } else { 0 });
    // SAFETY: the scalar path runs on every CPU.
    let total = unsafe { Scalar::keep(u64::MAX, true, &candidates, 10, &mut kept, &mut numbers) };
    assert_eq!(total, 0);
    // 0xFF * spread fills every byte with ones: 8 bits in the top byte.
    let spread = 0x0101_0101_0101_0101;
    let candidates: [u64; BATCH] = core::array::from_fn(|i| if i % 3 == 0 { spread } else { 0 });
    // SAFETY: as above.
    let total = unsafe { Scalar::keep(0xFF, true, &candidates, 10, &mut kept, &mut numbers) };
    assert_eq!(numbers[..total], [0, 3, 6, 9]);
    assert_eq!(kept[..total], [spread; 4]);
    // SAFETY: as above.
    let total = unsafe { Scalar::keep(0xFF, false, &candidates, 10, &mut kept, &mut numbers) };
    assert_eq!(total, 10);
    assert_eq!(numbers[..total], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
}

/// Random candidates, masks and killer pairs of the shapes the search makes (sparse
/// candidates, pairs that often share an index), every batch length: `L` keeps the
/// candidates the scalar path keeps, and finds a collision among the killer pairs it tries
/// exactly where `collides` finds one.
#[cfg(target_arch = "x86_64")]
fn decides_as_the_scalar_path<L: Lanes>(collides: fn(&Killers, u64, u32) -> bool) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(19);
    let mut sparse = || rng.next_u64() & rng.next_u64() & rng.next_u64();
    let mut killers = Killers::new();
    let mut hits = 0;
    for round in 0..2_000 {
        let mask = sparse() | sparse();
        let candidates: [u64; BATCH] = core::array::from_fn(|_| sparse());
        let count = round % (BATCH + 1);
        let filter = round % 3 != 0;
        let mut expected = ([0; BATCH], [0; BATCH]);
        let mut got = ([0; BATCH], [0; BATCH]);
        // SAFETY: the callers check L's features.
        let (a, b) = unsafe {
            (
                Scalar::keep(
                    mask,
                    filter,
                    &candidates,
                    count,
                    &mut expected.0,
                    &mut expected.1,
                ),
                L::keep(mask, filter, &candidates, count, &mut got.0, &mut got.1),
            )
        };
        assert_eq!(a, b);
        assert_eq!(expected.0[..a], got.0[..b]);
        assert_eq!(expected.1[..a], got.1[..b]);

        // Every other pair differs in one bit only: such keys often share an index.
        let first = sparse();
        let second = if round % 2 == 0 {
            first ^ (1 << (round * 7 % 64))
        } else {
            sparse()
        };
        killers.remember(first, second);
        for magic in candidates {
            let shift = 52 + (magic % 8) as u32;
            let expected = collides(&killers, magic, shift);
            hits += usize::from(expected);
            // SAFETY: as above.
            assert_eq!(unsafe { L::killed(&killers, magic, shift) }, expected);
        }
    }
    // The pairs must collide often enough for the comparison to mean something.
    assert!(hits > 1_000, "{hits}");
}

#[test]
#[cfg(target_arch = "x86_64")]
fn avx2_decides_as_the_scalar_path() {
    if !Avx2::available() {
        eprintln!("no AVX2 here: only the scalar path ran");
        return;
    }
    // SAFETY: the scalar path runs on every CPU.
    decides_as_the_scalar_path::<Avx2>(|killers, magic, shift| unsafe {
        Scalar::killed(killers, magic, shift)
    });
}

#[test]
#[cfg(target_arch = "x86_64")]
fn avx512_decides_as_the_scalar_path() {
    if !Avx512::available() {
        eprintln!("no AVX-512 (F, DQ, VPOPCNTDQ) here: only the scalar path ran");
        return;
    }
    decides_as_the_scalar_path::<Avx512>(any_pair_collides);
}

/// Three blocks in a row, drawn by `draw`, hold the stream's own sparse candidates in its
/// order, mark those that pass the filter, and give back the stream after any candidate
/// and after the block.
#[cfg(target_arch = "x86_64")]
fn blocks_draw_the_stream_in_order(draw: impl Fn(&mut Block, u64, bool)) {
    let words = |rng: &Xoshiro256PlusPlus| -> [u64; 4] {
        let bytes = rng.state();
        core::array::from_fn(|i| u64::from_le_bytes(bytes[8 * i..][..8].try_into().unwrap()))
    };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let mask = 0x0001_0101_0101_017E;
    let mut block = Block::new(words(&rng));
    for round in 0..3 {
        let filter = round != 1;
        draw(&mut block, mask, filter);
        assert_eq!(block.stream(), words(&rng));
        let mut expected = Vec::new();
        for number in 0..BLOCK {
            let candidate = rng.next_u64() & rng.next_u64() & rng.next_u64();
            if !filter || spreads_over_the_top_byte(mask, candidate) {
                expected.push((number, candidate));
            }
            if number % 1_000 == 999 || number == BLOCK - 1 {
                assert_eq!(block.stream_after(number), words(&rng), "{number}");
            }
        }
        let passed: Vec<_> = block.passed().collect();
        assert_eq!(passed, expected, "round {round}");
        assert!(filter == (passed.len() < BLOCK / 4), "{}", passed.len());
        block.advance();
    }
    assert_eq!(block.stream(), words(&rng));
}

#[test]
#[cfg(target_arch = "x86_64")]
fn avx2_blocks_draw_the_stream_in_order() {
    if !Avx2::available() {
        eprintln!("no AVX2 here: its blocks are not drawn");
        return;
    }
    // SAFETY: AVX2 is here (checked above).
    blocks_draw_the_stream_in_order(|block, mask, filter| unsafe {
        Avx2::draw(block, mask, filter)
    });
}

#[test]
#[cfg(target_arch = "x86_64")]
fn avx512_blocks_draw_the_stream_in_order() {
    if !Avx512::available() {
        eprintln!("no AVX-512 (F, DQ, BW, VPOPCNTDQ) here: its blocks are not drawn");
        return;
    }
    // SAFETY: the features are here (checked above).
    blocks_draw_the_stream_in_order(|block, mask, filter| unsafe {
        Avx512::draw(block, mask, filter)
    });
}
