//! Jumping a xoshiro256 stream ahead by any number of draws, so that eight vector lanes can
//! each draw their own block of one stream: lane `j` starts `j` blocks ahead of the stream.
//!
//! The state update of xoshiro256 is linear over GF(2): `n` draws multiply the state by `A^n`
//! for a fixed 256 x 256 bit matrix `A`. By Cayley-Hamilton, `A^n = r(A)` where `r(x) = x^n mod
//! p(x)` and `p` is the characteristic polynomial of `A`; so a jump is 256 plain steps of the
//! state, summing (XOR) the states at the terms of `r`. `p` comes from the stream itself: the
//! lowest bit of the first word follows a linear recurrence of order 256, which
//! Berlekamp-Massey recovers from 512 of its values.

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

/// A polynomial over GF(2) of degree below 256: bit `i` of word `i / 64` is the term `x^i`.
pub(crate) type Poly = [u64; 4];

/// One draw's change of a xoshiro256 state (`[s0, s1, s2, s3]`), without the output.
#[inline(always)]
pub(crate) fn step(s: &mut [u64; 4]) {
    let t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = s[3].rotate_left(45);
}

/// The state `r(A) * state`: the state `n` draws later when `r = x^n mod p`.
pub(crate) fn jump(state: [u64; 4], r: &Poly) -> [u64; 4] {
    let (mut sum, mut s) = ([0; 4], state);
    for term in 0..256 {
        if r[term / 64] >> (term % 64) & 1 == 1 {
            for (total, word) in sum.iter_mut().zip(s) {
                *total ^= word;
            }
        }
        step(&mut s);
    }
    sum
}

/// Arithmetic modulo the characteristic polynomial `p` of xoshiro256's state update.
pub(crate) struct Modulus {
    /// `p(x) - x^256`: `p` has degree 256.
    low: Poly,
}

impl Modulus {
    /// `p`, recovered from the stream (any nonzero seed gives the same polynomial).
    pub(crate) fn xoshiro256() -> Modulus {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let bits: Vec<bool> = (0..512)
            .map(|_| {
                let bit = rng.state()[0] & 1 == 1;
                rng.next_u64();
                bit
            })
            .collect();
        let connection = berlekamp_massey(&bits);
        // The recurrence b[n] = sum of c[i] b[n - i], i = 1..=256, has the characteristic
        // polynomial x^256 + sum of c[i] x^(256 - i).
        let mut low = [0; 4];
        for (i, &c) in connection.iter().enumerate().skip(1) {
            if c {
                let degree = 256 - i;
                low[degree / 64] |= 1 << (degree % 64);
            }
        }
        Modulus { low }
    }

    /// `x * a mod p`.
    fn times_x(&self, a: &Poly) -> Poly {
        let carry = a[3] >> 63;
        let mut product = [
            a[0] << 1,
            a[1] << 1 | a[0] >> 63,
            a[2] << 1 | a[1] >> 63,
            a[3] << 1 | a[2] >> 63,
        ];
        if carry == 1 {
            for (word, low) in product.iter_mut().zip(self.low) {
                *word ^= low;
            }
        }
        product
    }

    /// `a * b mod p`.
    fn multiply(&self, a: &Poly, b: &Poly) -> Poly {
        let mut product = [0; 4];
        for term in (0..256).rev() {
            product = self.times_x(&product);
            if a[term / 64] >> (term % 64) & 1 == 1 {
                for (word, b) in product.iter_mut().zip(b) {
                    *word ^= b;
                }
            }
        }
        product
    }

    /// `x^n mod p`: the polynomial that jumps `n` draws ahead.
    pub(crate) fn power_of_x(&self, n: u64) -> Poly {
        let mut power = [1, 0, 0, 0];
        for bit in (0..64 - n.leading_zeros()).rev() {
            power = self.multiply(&power, &power);
            if n >> bit & 1 == 1 {
                power = self.times_x(&power);
            }
        }
        power
    }
}

/// The shortest linear recurrence over GF(2) that `bits` follow: the connection polynomial
/// `c` (`c[0] = 1`), where `bits[n]` is the sum of `c[i] bits[n - i]` for `i = 1..c.len()`.
fn berlekamp_massey(bits: &[bool]) -> Vec<bool> {
    let n = bits.len();
    let (mut c, mut b) = (vec![false; n + 1], vec![false; n + 1]);
    (c[0], b[0]) = (true, true);
    let (mut length, mut shift) = (0, 1);
    for i in 0..n {
        let discrepancy = (1..=length).fold(bits[i], |d, j| d ^ (c[j] & bits[i - j]));
        if !discrepancy {
            shift += 1;
            continue;
        }
        let before = c.clone();
        for j in 0..=n - shift {
            c[j + shift] ^= b[j];
        }
        if 2 * length <= i {
            length = i + 1 - length;
            b = before;
            shift = 1;
        } else {
            shift += 1;
        }
    }
    c.truncate(length + 1);
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(rng: &Xoshiro256PlusPlus) -> [u64; 4] {
        let bytes = rng.state();
        core::array::from_fn(|i| u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().unwrap()))
    }

    #[test]
    fn the_step_is_the_crate_s() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut state = words(&rng);
        for _ in 0..100 {
            rng.next_u64();
            step(&mut state);
            assert_eq!(state, words(&rng));
        }
    }

    #[test]
    fn the_modulus_has_degree_256() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let bits: Vec<bool> = (0..512)
            .map(|_| {
                let bit = rng.state()[0] & 1 == 1;
                rng.next_u64();
                bit
            })
            .collect();
        assert_eq!(berlekamp_massey(&bits).len(), 257);
    }

    /// Jumps equal as many steps, for short and block-sized distances, and the crate's own
    /// jump of 2^128 draws.
    #[test]
    fn a_jump_equals_its_steps() {
        let modulus = Modulus::xoshiro256();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(99);
        rng.next_u64();
        let start = words(&rng);
        for n in [0, 1, 2, 3, 255, 256, 257, 1536, 12_288] {
            let mut stepped = start;
            for _ in 0..n {
                step(&mut stepped);
            }
            assert_eq!(jump(start, &modulus.power_of_x(n)), stepped, "{n}");
        }
        // x^(2^128): x squared 128 times.
        let far = (0..128).fold(modulus.power_of_x(1), |p, _| modulus.multiply(&p, &p));
        rng.jump();
        assert_eq!(jump(start, &far), words(&rng));
    }
}
