/*
 * The C twins of bitforge's slider backends, for `slider-speed --twins-cc`: the streamed queen
 * workload (the same SplitMix64 occupancies and squares as benches/src/inputs.rs) looked up by
 * one plain loop per method, compiled by the C compiler named there with -O3 -march=native,
 * so that each backend is compared with its method in C within one run, on one machine.
 * Written here from the methods' descriptions; the magic backends read bitforge's own magic
 * files, so both sides index the same tables.
 *
 *   slider_twins --occupancies N --one-round CHECKSUM --only NAME,NAME --fancy FILE --black FILE
 *
 * makes the workload's first N occupancies, then prints one `name nanoseconds` line per twin named (names as bitforge's backends; names
 * without a twin are skipped) and fails if a checksum differs from CHECKSUM.
 */
#if defined(__BMI2__) || defined(__AVX2__)
#include <immintrin.h>
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rays.h"

#define SQUARES_PER_OCCUPANCY 12

static size_t occupancy_count;
static uint64_t *occupancies;
static uint8_t (*squares)[SQUARES_PER_OCCUPANCY];

static void *allocate(size_t count, size_t size) {
    void *memory = calloc(count, size);
    if (!memory) {
        fprintf(stderr, "error: out of memory\n");
        exit(1);
    }
    return memory;
}

static uint64_t split_mix(uint64_t *state) {
    *state += 0x9E3779B97F4A7C15ULL;
    uint64_t z = *state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void make_workload(void) {
    occupancies = allocate(occupancy_count, sizeof *occupancies);
    squares = allocate(occupancy_count, sizeof *squares);
    uint64_t state = 0x5EEDC0DE;
    for (size_t i = 0; i < occupancy_count; i++) {
        uint64_t a = split_mix(&state);
        uint64_t b = split_mix(&state);
        occupancies[i] = a & b;
        uint64_t random = split_mix(&state);
        /* The shift wraps at 64, as in the Rust generator: the last square re-reads bits 2
         * to 7. */
        for (int j = 0; j < SQUARES_PER_OCCUPANCY; j++)
            squares[i][j] = (random >> ((6 * j) & 63)) & 63;
    }
}

/* The squares whose occupancy matters: each ray without its last square. */
static uint64_t relevant(const int steps[4][2], int square) {
    uint64_t mask = 0;
    for (int d = 0; d < 4; d++) {
        int file = square % 8 + steps[d][0], rank = square / 8 + steps[d][1];
        while (on_board(file + steps[d][0], rank + steps[d][1])) {
            mask |= 1ULL << (rank * 8 + file);
            file += steps[d][0];
            rank += steps[d][1];
        }
    }
    return mask;
}

/* ---- Table methods: PEXT, fancy and black magics. ---- */

struct entry {
    uint64_t mask;
    uint64_t magic;
    int64_t offset;
    unsigned shift;
};

struct method_table {
    struct entry rook[64], bishop[64];
    uint64_t *table;
};

static struct method_table fancy_tables, black_tables;

#ifdef __BMI2__
static struct method_table pext_tables;

static void fill_pext(void) {
    size_t size = 0;
    for (int piece = 0; piece < 2; piece++)
        for (int square = 0; square < 64; square++)
            size += 1ULL << __builtin_popcountll(relevant(piece ? BISHOP_STEPS : ROOK_STEPS, square));
    pext_tables.table = allocate(size, sizeof(uint64_t));
    int64_t offset = 0;
    for (int piece = 0; piece < 2; piece++)
        for (int square = 0; square < 64; square++) {
            const int(*steps)[2] = piece ? BISHOP_STEPS : ROOK_STEPS;
            struct entry *e = piece ? &pext_tables.bishop[square] : &pext_tables.rook[square];
            e->mask = relevant(steps, square);
            e->offset = offset;
            uint64_t subset = 0;
            do {
                pext_tables.table[offset + _pext_u64(subset, e->mask)] = sliding_attacks(steps, square, subset);
                subset = (subset - e->mask) & e->mask;
            } while (subset);
            offset += 1LL << __builtin_popcountll(e->mask);
        }
}
#endif

/* Reads a `bitforge-magics 1` file and fills its table, every occupancy checked. */
static void fill_magics(struct method_table *t, const char *path, int black) {
    FILE *file = fopen(path, "r");
    if (!file) {
        fprintf(stderr, "error: %s: cannot open\n", path);
        exit(1);
    }
    char line[512];
    int seen = 0;
    int64_t size = 0;
    while (fgets(line, sizeof line, file)) {
        char piece[16], name[8];
        unsigned long long magic;
        unsigned bits;
        long long offset;
        if (sscanf(line, "%15s %7s %llx %u %lld", piece, name, &magic, &bits, &offset) != 5)
            continue;
        int rook = strcmp(piece, "rook") == 0;
        if ((!rook && strcmp(piece, "bishop") != 0) || name[0] < 'a' || name[0] > 'h' ||
            name[1] < '1' || name[1] > '8' || bits == 0 || bits > 32) {
            fprintf(stderr, "error: %s: unreadable line %s", path, line);
            exit(1);
        }
        int square = (name[1] - '1') * 8 + (name[0] - 'a');
        struct entry *e = rook ? &t->rook[square] : &t->bishop[square];
        e->mask = relevant(rook ? ROOK_STEPS : BISHOP_STEPS, square);
        e->magic = magic;
        e->shift = 64 - bits;
        e->offset = offset;
        if (offset + (1LL << bits) > size)
            size = offset + (1LL << bits);
        seen++;
    }
    fclose(file);
    if (seen != 128) {
        fprintf(stderr, "error: %s: %d magics, expected 128\n", path, seen);
        exit(1);
    }
    t->table = allocate((size_t)size, sizeof(uint64_t));
    memset(t->table, 0xFF, size * sizeof(uint64_t));
    for (int piece = 0; piece < 2; piece++)
        for (int square = 0; square < 64; square++) {
            const int(*steps)[2] = piece ? BISHOP_STEPS : ROOK_STEPS;
            const struct entry *e = piece ? &t->bishop[square] : &t->rook[square];
            uint64_t subset = 0;
            do {
                uint64_t index = ((black ? subset | ~e->mask : subset) * e->magic) >> e->shift;
                int64_t slot = e->offset + (int64_t)index;
                uint64_t attacks = sliding_attacks(steps, square, subset);
                if (slot < 0 || slot >= size || (t->table[slot] != ~0ULL && t->table[slot] != attacks)) {
                    fprintf(stderr, "error: %s: square %d's magic collides\n", path, square);
                    exit(1);
                }
                t->table[slot] = attacks;
                subset = (subset - e->mask) & e->mask;
            } while (subset);
        }
}

/* ---- Hyperbola quintessence: files and diagonals by subtraction, ranks from a table. ---- */

struct lines {
    uint64_t file, diagonal, anti_diagonal;
};
static struct lines lines[64];
static uint8_t first_rank[8][64];

static void fill_hyperbola(void) {
    for (int square = 0; square < 64; square++) {
        int file = square % 8, rank = square / 8;
        uint64_t bit = 1ULL << square;
        lines[square].file = 0;
        lines[square].diagonal = 0;
        lines[square].anti_diagonal = 0;
        for (int other = 0; other < 64; other++) {
            int f = other % 8, r = other / 8;
            uint64_t o = 1ULL << other;
            if (f == file)
                lines[square].file |= o;
            if (f - file == r - rank)
                lines[square].diagonal |= o;
            if (f - file == rank - r)
                lines[square].anti_diagonal |= o;
        }
        lines[square].file &= ~bit;
        lines[square].diagonal &= ~bit;
        lines[square].anti_diagonal &= ~bit;
    }
    for (int file = 0; file < 8; file++)
        for (int inner = 0; inner < 64; inner++)
            first_rank[file][inner] = (uint8_t)sliding_attacks(ROOK_STEPS, file, (uint64_t)inner << 1) & 0xFF;
}

static inline uint64_t line_attacks(uint64_t occupied, uint64_t line, uint64_t slider) {
    uint64_t on_line = occupied & line;
    uint64_t upward = on_line - 2 * slider;
    uint64_t downward =
        __builtin_bswap64(__builtin_bswap64(on_line) - 2 * __builtin_bswap64(slider));
    return (upward ^ downward) & line;
}

/* ---- Kogge-Stone: occluded fills, three doublings a direction. ---- */

#define NOT_A 0xFEFEFEFEFEFEFEFEULL
#define NOT_H 0x7F7F7F7F7F7F7F7FULL

static inline uint64_t fill_up(uint64_t gen, uint64_t empty, int shift, uint64_t wrap) {
    empty &= wrap;
    gen |= empty & (gen << shift);
    empty &= empty << shift;
    gen |= empty & (gen << 2 * shift);
    empty &= empty << 2 * shift;
    gen |= empty & (gen << 4 * shift);
    return (gen << shift) & wrap;
}

static inline uint64_t fill_down(uint64_t gen, uint64_t empty, int shift, uint64_t wrap) {
    empty &= wrap;
    gen |= empty & (gen >> shift);
    empty &= empty >> shift;
    gen |= empty & (gen >> 2 * shift);
    empty &= empty >> 2 * shift;
    gen |= empty & (gen >> 4 * shift);
    return (gen >> shift) & wrap;
}

/* ---- The loops, one per method, each timed alone. ---- */

#define QUEEN_LOOP(body)                                                                   \
    uint64_t checksum = 0;                                                                 \
    for (size_t i = 0; i < occupancy_count; i++) {                                         \
        uint64_t occupied = occupancies[i];                                                \
        for (int j = 0; j < SQUARES_PER_OCCUPANCY; j++) {                                  \
            unsigned square = squares[i][j];                                               \
            checksum ^= (body);                                                            \
        }                                                                                  \
    }                                                                                      \
    return checksum;

static inline uint64_t magic_lookup(const struct method_table *t, const struct entry *e,
                                    uint64_t occupied, int black) {
    uint64_t index = ((black ? occupied | ~e->mask : occupied & e->mask) * e->magic) >> e->shift;
    return t->table[e->offset + (int64_t)index];
}

#ifdef __BMI2__
__attribute__((noinline)) static uint64_t run_pext(void) {
    const struct method_table *t = &pext_tables;
    QUEEN_LOOP(t->table[t->rook[square].offset + _pext_u64(occupied, t->rook[square].mask)] |
               t->table[t->bishop[square].offset + _pext_u64(occupied, t->bishop[square].mask)])
}
#endif

__attribute__((noinline)) static uint64_t run_fancy(void) {
    const struct method_table *t = &fancy_tables;
    QUEEN_LOOP(magic_lookup(t, &t->rook[square], occupied, 0) |
               magic_lookup(t, &t->bishop[square], occupied, 0))
}

__attribute__((noinline)) static uint64_t run_black(void) {
    const struct method_table *t = &black_tables;
    QUEEN_LOOP(magic_lookup(t, &t->rook[square], occupied, 1) |
               magic_lookup(t, &t->bishop[square], occupied, 1))
}

__attribute__((noinline)) static uint64_t run_hyperbola(void) {
    QUEEN_LOOP(line_attacks(occupied, lines[square].file, 1ULL << square) |
               ((uint64_t)first_rank[square & 7][(occupied >> ((square & ~7u) + 1)) & 63]
                << (square & ~7u)) |
               line_attacks(occupied, lines[square].diagonal, 1ULL << square) |
               line_attacks(occupied, lines[square].anti_diagonal, 1ULL << square))
}

static inline uint64_t kogge_stone_queen(unsigned square, uint64_t occupied) {
    uint64_t gen = 1ULL << square, empty = ~occupied;
    return fill_up(gen, empty, 8, ~0ULL) | fill_down(gen, empty, 8, ~0ULL) |
           fill_up(gen, empty, 1, NOT_A) | fill_down(gen, empty, 1, NOT_H) |
           fill_up(gen, empty, 9, NOT_A) | fill_up(gen, empty, 7, NOT_H) |
           fill_down(gen, empty, 7, NOT_A) | fill_down(gen, empty, 9, NOT_H);
}

__attribute__((noinline)) static uint64_t run_kogge_stone(void) {
    QUEEN_LOOP(kogge_stone_queen(square, occupied))
}

#ifdef __AVX2__
/* Four directions' occluded fills in the lanes of one AVX2 register, shifted by 1, 7, 8 and 9
 * squares, `up` (left shifts) or down; `wrap` keeps each lane off the files it cannot reach. */
static inline __m256i fill_lanes(__m256i gen, __m256i empty, __m256i wrap, int up) {
    const __m256i shift = _mm256_setr_epi64x(1, 7, 8, 9);
    const __m256i shift2 = _mm256_add_epi64(shift, shift);
    const __m256i shift4 = _mm256_add_epi64(shift2, shift2);
#define STEP(x, by) (up ? _mm256_sllv_epi64((x), (by)) : _mm256_srlv_epi64((x), (by)))
    __m256i e = _mm256_and_si256(empty, wrap);
    gen = _mm256_or_si256(gen, _mm256_and_si256(e, STEP(gen, shift)));
    e = _mm256_and_si256(e, STEP(e, shift));
    gen = _mm256_or_si256(gen, _mm256_and_si256(e, STEP(gen, shift2)));
    e = _mm256_and_si256(e, STEP(e, shift2));
    gen = _mm256_or_si256(gen, _mm256_and_si256(e, STEP(gen, shift4)));
    return _mm256_and_si256(STEP(gen, shift), wrap);
#undef STEP
}

/* The eight directions in two AVX2 registers: left shifts by 1, 7, 8, 9, right by the same. */
static inline uint64_t kogge_stone_avx2_queen(unsigned square, uint64_t occupied) {
    const __m256i wrap_up = _mm256_setr_epi64x(NOT_A, NOT_H, -1, NOT_A);
    const __m256i wrap_down = _mm256_setr_epi64x(NOT_H, NOT_A, -1, NOT_H);
    __m256i gen = _mm256_set1_epi64x((long long)(1ULL << square));
    __m256i empty = _mm256_set1_epi64x((long long)~occupied);
    __m256i up = fill_lanes(gen, empty, wrap_up, 1);
    __m256i down = fill_lanes(gen, empty, wrap_down, 0);
    __m256i both = _mm256_or_si256(up, down);
    __m128i half = _mm_or_si128(_mm256_castsi256_si128(both), _mm256_extracti128_si256(both, 1));
    return (uint64_t)(_mm_cvtsi128_si64(half) | _mm_extract_epi64(half, 1));
}

__attribute__((noinline)) static uint64_t run_kogge_stone_avx2(void) {
    QUEEN_LOOP(kogge_stone_avx2_queen(square, occupied))
}
#endif

struct twin {
    const char *name;
    uint64_t (*run)(void);
};

/* PEXT and the AVX2 fill only where the compiler targets BMI2 and AVX2 (-march=native on a
 * CPU that has them). */
static const struct twin TWINS[] = {
#ifdef __BMI2__
    {"pext", run_pext},
#endif
    {"fancy", run_fancy},
    {"black", run_black},
    {"hyperbola", run_hyperbola},
    {"kogge-stone", run_kogge_stone},
#ifdef __AVX2__
    {"kogge-stone-avx2", run_kogge_stone_avx2},
#endif
};

static int named(const char *list, const char *name) {
    size_t length = strlen(name);
    for (const char *at = list; at && *at;) {
        const char *end = strchr(at, ',');
        size_t item = end ? (size_t)(end - at) : strlen(at);
        if (item == length && strncmp(at, name, length) == 0)
            return 1;
        at = end ? end + 1 : NULL;
    }
    return 0;
}

int main(int argc, char **argv) {
    const char *only = NULL, *fancy = NULL, *black = NULL, *checksum = NULL, *count = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--one-round") == 0)
            checksum = argv[i + 1];
        else if (strcmp(argv[i], "--only") == 0)
            only = argv[i + 1];
        else if (strcmp(argv[i], "--fancy") == 0)
            fancy = argv[i + 1];
        else if (strcmp(argv[i], "--black") == 0)
            black = argv[i + 1];
        else if (strcmp(argv[i], "--occupancies") == 0)
            count = argv[i + 1];
    }
    if (!only || !fancy || !black || !checksum || !count) {
        fprintf(stderr,
                "usage: %s --occupancies N --one-round CHECKSUM --only NAME,NAME --fancy FILE "
                "--black FILE\n",
                argv[0]);
        return 2;
    }
    char *end;
    uint64_t expected = strtoull(checksum, &end, 10);
    if (*checksum == '\0' || *end != '\0') {
        fprintf(stderr, "error: %s: not a checksum\n", checksum);
        return 2;
    }
    unsigned long long parsed = strtoull(count, &end, 10);
    if (*count == '\0' || *end != '\0' || parsed == 0 || parsed > 100000000) {
        fprintf(stderr, "error: %s: not a number of occupancies from 1 to 100000000\n", count);
        return 2;
    }
    occupancy_count = (size_t)parsed;
    make_workload();
#ifdef __BMI2__
    fill_pext();
#endif
    fill_magics(&fancy_tables, fancy, 0);
    fill_magics(&black_tables, black, 1);
    fill_hyperbola();
    for (size_t i = 0; i < sizeof TWINS / sizeof TWINS[0]; i++) {
        if (!named(only, TWINS[i].name))
            continue;
        struct timespec start, stop;
        clock_gettime(CLOCK_MONOTONIC, &start);
        uint64_t sum = TWINS[i].run();
        clock_gettime(CLOCK_MONOTONIC, &stop);
        if (sum != expected) {
            fprintf(stderr, "error: %s: checksum %llu, expected %llu\n", TWINS[i].name,
                    (unsigned long long)sum, (unsigned long long)expected);
            return 1;
        }
        long long nanos = (stop.tv_sec - start.tv_sec) * 1000000000LL + (stop.tv_nsec - start.tv_nsec);
        printf("%s %lld\n", TWINS[i].name, nanos);
    }
    return 0;
}
