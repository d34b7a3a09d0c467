//! Zobrist keys, generated at compile time from a fixed seed: the same keys in every build, on
//! every target, with nothing to initialise at run time.

use crate::{CastlingRights, Color, PieceType, Square};

/// Stockfish's PRNG (xorshift64*, Vigna) and seed, so that the key stream is a known one.
const SEED: u64 = 1_070_372;

const fn next(state: u64) -> u64 {
    let mut s = state;
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    s
}

const fn output(state: u64) -> u64 {
    state.wrapping_mul(2_685_821_657_736_338_717)
}

/// Every key of one stream, in a fixed order: pieces by square, en passant files, castling
/// rights, side to move, and the pawn key of a pawnless position.
pub(crate) struct ZobristTable {
    pub(crate) piece_square: [[u64; 64]; 16],
    pub(crate) en_passant: [u64; 8],
    pub(crate) castling: [u64; 16],
    pub(crate) side: u64,
    pub(crate) no_pawns: u64,
}

const fn generate() -> ZobristTable {
    let mut keys = ZobristTable {
        piece_square: [[0; 64]; 16],
        en_passant: [0; 8],
        castling: [0; 16],
        side: 0,
        no_pawns: 0,
    };
    let mut state = SEED;
    let mut piece = 0;
    while piece < 16 {
        // Only the twelve real pieces get keys; `None` and the unused codes stay zero so that
        // adding or removing "no piece" changes nothing.
        if matches!(piece, 1..=6 | 9..=14) {
            let mut square = 0;
            while square < 64 {
                state = next(state);
                keys.piece_square[piece][square] = output(state);
                square += 1;
            }
        }
        piece += 1;
    }
    let mut file = 0;
    while file < 8 {
        state = next(state);
        keys.en_passant[file] = output(state);
        file += 1;
    }
    let mut rights = 0;
    while rights < 16 {
        state = next(state);
        keys.castling[rights] = output(state);
        rights += 1;
    }
    state = next(state);
    keys.side = output(state);
    state = next(state);
    keys.no_pawns = output(state);
    keys
}

/// The keys, computed by the compiler.
pub(crate) static KEYS: ZobristTable = generate();

/// The key of a `piece_type` of `color` standing on `square`.
#[inline(always)]
pub(crate) fn piece_square(color: Color, piece_type: PieceType, square: Square) -> u64 {
    KEYS.piece_square[piece_index(color, piece_type)][square.index()]
}

/// The piece's index (`Piece::index`) computed from its colour and type.
#[inline(always)]
fn piece_index(color: Color, piece_type: PieceType) -> usize {
    color.index() << 3 | piece_type.index()
}

/// The material-key term of the `count`-th piece of a kind (counted from zero): the material
/// key hashes how many of each piece there are, whatever their squares.
#[inline(always)]
pub(crate) fn material(color: Color, piece_type: PieceType, count: u8) -> u64 {
    KEYS.piece_square[piece_index(color, piece_type)][usize::from(count & 63)]
}

/// The key of an en passant square's file.
#[inline(always)]
pub(crate) fn en_passant(square: Square) -> u64 {
    KEYS.en_passant[square.file().index()]
}

/// The key of a set of castling rights.
#[inline(always)]
pub(crate) fn castling(rights: CastlingRights) -> u64 {
    KEYS.castling[rights.index()]
}

/// Toggled when the side to move changes.
#[inline(always)]
pub(crate) fn side() -> u64 {
    KEYS.side
}

/// The pawn key's starting value, so that a position without pawns does not hash to zero.
#[inline(always)]
pub(crate) fn no_pawns() -> u64 {
    KEYS.no_pawns
}
