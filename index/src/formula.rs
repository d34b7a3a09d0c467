//! The index formulas, in one place: what `magic-search` searches and verifies with, what
//! `bitforge-macros` builds tables with and emits calls to, what the exports write out (through
//! [`Scheme::index_source`](crate::Scheme::index_source), beside them) and what the core computes
//! at run time where it has no instruction for it.

/// The key a fancy (or fixed-shift) magic multiplies: the occupancy under the relevant mask.
#[inline(always)]
pub const fn fancy_key(occupancy: u64, mask: u64) -> u64 {
    occupancy & mask
}

/// The key a black magic multiplies: the occupancy with every square outside the mask set,
/// which gives the multiplication more carries to work with.
#[inline(always)]
pub const fn black_key(occupancy: u64, mask: u64) -> u64 {
    occupancy | !mask
}

/// The index a magic gives a key: the top `64 - shift` bits of the product (`shift` below 64).
#[inline(always)]
pub const fn magic_index(key: u64, magic: u64, shift: u32) -> usize {
    (key.wrapping_mul(magic) >> shift) as usize
}

/// Parallel bit extraction in software (BMI2 `PEXT`): the bits of `value` under `mask`, packed
/// to the bottom in order.
pub const fn pext(value: u64, mut mask: u64) -> u64 {
    let (mut result, mut out) = (0, 0);
    while mask != 0 {
        if value & mask & mask.wrapping_neg() != 0 {
            result |= 1 << out;
        }
        out += 1;
        mask &= mask - 1;
    }
    result
}

/// Parallel bit deposit in software (BMI2 `PDEP`): the low bits of `value` spread, in order,
/// over the set bits of `mask`.
pub const fn pdep(value: u64, mut mask: u64) -> u64 {
    let (mut result, mut from) = (0, 0);
    while mask != 0 {
        if value >> from & 1 != 0 {
            result |= mask & mask.wrapping_neg();
        }
        from += 1;
        mask &= mask - 1;
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pext_packs_the_masked_bits_in_order() {
        assert_eq!(pext(0b1011_0110, 0b1111_0000), 0b1011);
        assert_eq!(pext(0b1011_0110, 0b0101_0101), 0b0110);
        assert_eq!(pext(u64::MAX, 0x8000_0000_0000_0001), 0b11);
        assert_eq!(pext(u64::MAX, 0), 0);
    }

    #[test]
    fn pdep_undoes_pext_under_the_mask() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..10_000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let (value, mask) = (state.rotate_left(17), state.rotate_right(9) & state);
            assert_eq!(pdep(pext(value, mask), mask), value & mask);
            let low = u64::MAX.checked_shr(64 - mask.count_ones()).unwrap_or(0);
            assert_eq!(pext(pdep(value, mask), mask), value & low);
        }
    }

    #[test]
    fn keys_and_indices() {
        assert_eq!(fancy_key(0xFF, 0x0F), 0x0F);
        assert_eq!(black_key(0x10, 0x0F), !0x0F);
        assert_eq!(magic_index(1, 1 << 63, 63), 1);
        assert_eq!(magic_index(u64::MAX, 1, 52), 4095);
    }
}
