use core::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A middlegame and an endgame value packed in one `i32`, so that both add and subtract in
/// one instruction: built as `(eg << 16) + mg` with unsigned arithmetic.
///
/// Extraction is sign-correct: the middlegame half is the low 16 bits read as signed, and the
/// endgame half rounds with `+ 0x8000` before shifting, which undoes the borrow a negative
/// middlegame half takes from it.
///
/// ```
/// use bitforge::{Score, make_score};
///
/// let a = make_score(-20, 35);
/// let b = make_score(5, -60);
/// assert_eq!((a + b).mg(), -15);
/// assert_eq!((a + b).eg(), -25);
/// assert_eq!((a * 3).eg(), 105);
/// assert_eq!((-a).mg(), 20);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Score(pub i32);

impl Score {
    /// Both halves zero.
    pub const ZERO: Score = Score(0);

    /// The game phase of a full middlegame (Stockfish's `PHASE_MIDGAME`).
    pub const PHASE_MIDGAME: i32 = 128;

    /// `make_score(mg, eg)`.
    #[inline(always)]
    pub const fn new(mg: i16, eg: i16) -> Score {
        Score(((eg as i32 as u32) << 16).wrapping_add(mg as i32 as u32) as i32)
    }

    /// The middlegame half.
    #[inline(always)]
    pub const fn mg(self) -> i16 {
        self.0 as u16 as i16
    }

    /// The endgame half.
    #[inline(always)]
    pub const fn eg(self) -> i16 {
        ((self.0 as u32).wrapping_add(0x8000) >> 16) as u16 as i16
    }

    /// The value at game `phase`, from 0 (endgame) to [`PHASE_MIDGAME`](Self::PHASE_MIDGAME):
    /// `(mg * phase + eg * (128 - phase)) / 128`, with `phase` clamped to that range.
    ///
    /// ```
    /// # use bitforge::make_score;
    /// let s = make_score(100, -100);
    /// assert_eq!(s.interpolate(128), 100);
    /// assert_eq!(s.interpolate(0), -100);
    /// assert_eq!(s.interpolate(64), 0);
    /// ```
    #[inline]
    pub const fn interpolate(self, phase: i32) -> i32 {
        let phase = if phase < 0 {
            0
        } else if phase > Self::PHASE_MIDGAME {
            Self::PHASE_MIDGAME
        } else {
            phase
        };
        (self.mg() as i32 * phase + self.eg() as i32 * (Self::PHASE_MIDGAME - phase))
            / Self::PHASE_MIDGAME
    }
}

/// `make_score(mg, eg)`.
#[inline(always)]
pub const fn make_score(mg: i16, eg: i16) -> Score {
    Score::new(mg, eg)
}

/// `mg_value(s)`.
#[inline(always)]
pub const fn mg_value(score: Score) -> i16 {
    score.mg()
}

/// `eg_value(s)`.
#[inline(always)]
pub const fn eg_value(score: Score) -> i16 {
    score.eg()
}

impl Add for Score {
    type Output = Score;
    #[inline(always)]
    fn add(self, rhs: Score) -> Score {
        Score(self.0.wrapping_add(rhs.0))
    }
}

impl Sub for Score {
    type Output = Score;
    #[inline(always)]
    fn sub(self, rhs: Score) -> Score {
        Score(self.0.wrapping_sub(rhs.0))
    }
}

impl Neg for Score {
    type Output = Score;
    #[inline(always)]
    fn neg(self) -> Score {
        Score(self.0.wrapping_neg())
    }
}

impl Mul<i32> for Score {
    type Output = Score;
    /// Scales both halves (as vectors do).
    #[inline(always)]
    fn mul(self, rhs: i32) -> Score {
        Score(self.0.wrapping_mul(rhs))
    }
}

impl AddAssign for Score {
    #[inline(always)]
    fn add_assign(&mut self, rhs: Score) {
        *self = *self + rhs;
    }
}

impl SubAssign for Score {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: Score) {
        *self = *self - rhs;
    }
}
