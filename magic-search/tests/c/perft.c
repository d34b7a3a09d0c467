/*
 * A small legal-move perft in C whose slider attacks come from magic-search's C exports:
 * two magic sets with their own prefixes (a black set, "blk", and a fancy post-masked
 * combined set, "cmb") and the dense PEXT tables ("px"), all in one program. The tables are
 * defined in tables.c; this file only includes the headers.
 *
 * Reads lines "DEPTH FEN" from standard input and prints, for each, the perft count with
 * every attack source in turn, separated by spaces: blk, cmb read through its struct (the
 * way an engine reads table[offset + index] itself), px, px with the 16-bit table and PDEP.
 * Castling is standard chess's only (no Chess960).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "black.h"
#include "combined.h"
#include "pext.h"

enum { PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, PIECE_TYPES };
enum { WHITE, BLACK };
enum { SOURCE_BLK, SOURCE_CMB_STRUCT, SOURCE_PX, SOURCE_PX_PDEP, SOURCES };
enum { QUIET, DOUBLE_PUSH, EN_PASSANT, CASTLE };

static int source;

/* The combined set read directly, as an engine reads its own table: the scheme from the
   header's macro, the post mask from the entry (all ones had the set been plain). */
static uint64_t cmb_direct(const cmb_magic *m, uint64_t occupancy) {
#if CMB_SCHEME == CMB_SCHEME_BLACK
    const uint64_t key = occupancy | ~m->mask;
#else
    const uint64_t key = occupancy & m->mask;
#endif
    const uint64_t index = (key * m->magic) >> m->shift;
    return cmb_slider_attacks[m->offset + (int64_t)index] & m->post_mask;
}

static uint64_t rook_attacks(int square, uint64_t occupancy) {
    switch (source) {
    case SOURCE_BLK:
        return blk_rook_attacks((unsigned)square, occupancy);
    case SOURCE_CMB_STRUCT:
        return cmb_direct(&cmb_rook_magics[square], occupancy);
    case SOURCE_PX:
        return px_rook_attacks((unsigned)square, occupancy);
    default:
        return px_rook_attacks_pdep((unsigned)square, occupancy);
    }
}

static uint64_t bishop_attacks(int square, uint64_t occupancy) {
    switch (source) {
    case SOURCE_BLK:
        return blk_bishop_attacks((unsigned)square, occupancy);
    case SOURCE_CMB_STRUCT:
        return cmb_direct(&cmb_bishop_magics[square], occupancy);
    case SOURCE_PX:
        return px_bishop_attacks((unsigned)square, occupancy);
    default:
        return px_bishop_attacks_pdep((unsigned)square, occupancy);
    }
}

static uint64_t knight_steps[64], king_steps[64], pawn_captures[2][64];

static uint64_t steps(int square, const int (*deltas)[2], int count) {
    uint64_t targets = 0;
    for (int i = 0; i < count; i++) {
        const int file = square % 8 + deltas[i][0], rank = square / 8 + deltas[i][1];
        if (file >= 0 && file < 8 && rank >= 0 && rank < 8) {
            targets |= 1ULL << (rank * 8 + file);
        }
    }
    return targets;
}

static void init_steps(void) {
    static const int knight[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2},
                                     {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int king[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1},
                                   {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static const int white_pawn[2][2] = {{-1, 1}, {1, 1}};
    static const int black_pawn[2][2] = {{-1, -1}, {1, -1}};
    for (int square = 0; square < 64; square++) {
        knight_steps[square] = steps(square, knight, 8);
        king_steps[square] = steps(square, king, 8);
        pawn_captures[WHITE][square] = steps(square, white_pawn, 2);
        pawn_captures[BLACK][square] = steps(square, black_pawn, 2);
    }
}

typedef struct {
    uint64_t pieces[2][PIECE_TYPES];
    uint64_t colours[2];
    int side;       /* to move */
    int castling;   /* 1 K, 2 Q, 4 k, 8 q */
    int en_passant; /* the square a capturing pawn lands on, or -1 */
} board;

typedef struct {
    int from, to, promotion, kind; /* promotion: a piece type, or 0 */
} move;

static int lowest(uint64_t set) { return __builtin_ctzll(set); }

static uint64_t occupied(const board *b) { return b->colours[WHITE] | b->colours[BLACK]; }

static int attacked(const board *b, int square, int by) {
    const uint64_t *their = b->pieces[by];
    const uint64_t occupancy = occupied(b);
    return (knight_steps[square] & their[KNIGHT]) || (king_steps[square] & their[KING]) ||
           (pawn_captures[!by][square] & their[PAWN]) ||
           (bishop_attacks(square, occupancy) & (their[BISHOP] | their[QUEEN])) ||
           (rook_attacks(square, occupancy) & (their[ROOK] | their[QUEEN]));
}

static void put(board *b, int colour, int type, int square) {
    b->pieces[colour][type] |= 1ULL << square;
    b->colours[colour] |= 1ULL << square;
}

static void clear(board *b, int square) {
    const uint64_t bit = 1ULL << square;
    for (int colour = 0; colour < 2; colour++) {
        b->colours[colour] &= ~bit;
        for (int type = 0; type < PIECE_TYPES; type++) {
            b->pieces[colour][type] &= ~bit;
        }
    }
}

static int type_on(const board *b, int colour, int square) {
    for (int type = 0; type < PIECE_TYPES; type++) {
        if (b->pieces[colour][type] >> square & 1) {
            return type;
        }
    }
    return -1;
}

/* The castling rights a move from or to a square keeps. */
static int keeps(int square) {
    switch (square) {
    case 0: return ~2;
    case 4: return ~3;
    case 7: return ~1;
    case 56: return ~8;
    case 60: return ~12;
    case 63: return ~4;
    default: return ~0;
    }
}

/* The board after m; 0 if it leaves the mover's king attacked. */
static int make(const board *b, move m, board *next) {
    const int us = b->side, them = !us;
    const int type = type_on(b, us, m.from);
    *next = *b;
    clear(next, m.from);
    clear(next, m.to);
    put(next, us, m.promotion ? m.promotion : type, m.to);
    if (m.kind == EN_PASSANT) {
        clear(next, us == WHITE ? m.to - 8 : m.to + 8);
    } else if (m.kind == CASTLE) {
        const int rook_from = m.to > m.from ? m.from + 3 : m.from - 4;
        const int rook_to = m.to > m.from ? m.from + 1 : m.from - 1;
        clear(next, rook_from);
        put(next, us, ROOK, rook_to);
    }
    next->en_passant = m.kind == DOUBLE_PUSH ? (m.from + m.to) / 2 : -1;
    next->castling &= keeps(m.from) & keeps(m.to);
    next->side = them;
    return !attacked(next, lowest(next->pieces[us][KING]), them);
}

static int add(move *moves, int count, int from, int to, int promotion, int kind) {
    moves[count].from = from;
    moves[count].to = to;
    moves[count].promotion = promotion;
    moves[count].kind = kind;
    return count + 1;
}

static int add_pawn(move *moves, int count, int from, int to) {
    if (to >= 56 || to < 8) {
        for (int promotion = KNIGHT; promotion <= QUEEN; promotion++) {
            count = add(moves, count, from, to, promotion, QUIET);
        }
        return count;
    }
    return add(moves, count, from, to, 0, QUIET);
}

/* Every pseudo-legal move of the side to move. */
static int generate(const board *b, move *moves) {
    const int us = b->side, them = !us;
    const uint64_t occupancy = occupied(b), own = b->colours[us];
    const int forward = us == WHITE ? 8 : -8;
    int count = 0;
    for (uint64_t pawns = b->pieces[us][PAWN]; pawns; pawns &= pawns - 1) {
        const int from = lowest(pawns), to = from + forward;
        if (!(occupancy >> to & 1)) {
            count = add_pawn(moves, count, from, to);
            const int start_rank = us == WHITE ? 1 : 6;
            if (from / 8 == start_rank && !(occupancy >> (to + forward) & 1)) {
                count = add(moves, count, from, to + forward, 0, DOUBLE_PUSH);
            }
        }
        for (uint64_t captures = pawn_captures[us][from] & b->colours[them]; captures;
             captures &= captures - 1) {
            count = add_pawn(moves, count, from, lowest(captures));
        }
        if (b->en_passant >= 0 && (pawn_captures[us][from] >> b->en_passant & 1)) {
            count = add(moves, count, from, b->en_passant, 0, EN_PASSANT);
        }
    }
    for (int type = KNIGHT; type <= KING; type++) {
        for (uint64_t pieces = b->pieces[us][type]; pieces; pieces &= pieces - 1) {
            const int from = lowest(pieces);
            uint64_t targets = type == KNIGHT ? knight_steps[from]
                               : type == KING ? king_steps[from]
                                              : 0;
            if (type == BISHOP || type == QUEEN) {
                targets |= bishop_attacks(from, occupancy);
            }
            if (type == ROOK || type == QUEEN) {
                targets |= rook_attacks(from, occupancy);
            }
            for (targets &= ~own; targets; targets &= targets - 1) {
                count = add(moves, count, from, lowest(targets), 0, QUIET);
            }
        }
    }
    const int home = us == WHITE ? 4 : 60, rights = us == WHITE ? b->castling : b->castling >> 2;
    if ((rights & 1) && !(occupancy & (3ULL << (home + 1))) && !attacked(b, home, them) &&
        !attacked(b, home + 1, them)) {
        count = add(moves, count, home, home + 2, 0, CASTLE);
    }
    if ((rights & 2) && !(occupancy & (7ULL << (home - 3))) && !attacked(b, home, them) &&
        !attacked(b, home - 1, them)) {
        count = add(moves, count, home, home - 2, 0, CASTLE);
    }
    return count;
}

static uint64_t perft(const board *b, int depth) {
    move moves[256];
    const int count = generate(b, moves);
    uint64_t nodes = 0;
    for (int i = 0; i < count; i++) {
        board next;
        if (make(b, moves[i], &next)) {
            nodes += depth == 1 ? 1 : perft(&next, depth - 1);
        }
    }
    return nodes;
}

/* Reads the placement, side, castling and en passant fields; 0 if they are malformed. */
static int parse_fen(const char *fen, board *b) {
    static const char letters[] = "pnbrqk";
    char placement[128], side[8], castling[8], en_passant[8];
    memset(b, 0, sizeof *b);
    if (sscanf(fen, "%127s %7s %7s %7s", placement, side, castling, en_passant) != 4) {
        return 0;
    }
    int rank = 7, file = 0;
    for (const char *c = placement; *c; c++) {
        const char *letter = strchr(letters, *c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
        if (*c == '/') {
            rank--;
            file = 0;
        } else if (*c >= '1' && *c <= '8') {
            file += *c - '0';
        } else if (letter && *letter && rank >= 0 && file < 8) {
            put(b, *c >= 'a' ? BLACK : WHITE, (int)(letter - letters), rank * 8 + file);
            file++;
        } else {
            return 0;
        }
    }
    b->side = side[0] == 'b' ? BLACK : WHITE;
    for (const char *c = castling; *c; c++) {
        const char *right = strchr("KQkq", *c);
        if (right && *right) {
            b->castling |= 1 << (right - "KQkq");
        }
    }
    b->en_passant = en_passant[0] == '-' ? -1 : (en_passant[1] - '1') * 8 + en_passant[0] - 'a';
    return b->pieces[WHITE][KING] && b->pieces[BLACK][KING];
}

int main(void) {
    char line[256];
    init_steps();
    while (fgets(line, sizeof line, stdin)) {
        int depth, consumed;
        board b;
        if (sscanf(line, "%d %n", &depth, &consumed) != 1 || depth < 1 ||
            !parse_fen(line + consumed, &b)) {
            fprintf(stderr, "not a \"DEPTH FEN\" line: %s", line);
            return 2;
        }
        for (source = 0; source < SOURCES; source++) {
            printf("%s%" PRIu64, source ? " " : "", perft(&b, depth));
        }
        printf("\n");
    }
    return 0;
}
