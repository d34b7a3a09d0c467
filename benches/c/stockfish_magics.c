/*
 * Stockfish's magic search (its init_magics: fancy magics, a sparse random candidate per try,
 * the top-byte filter, then every occupancy into an epoch-stamped table), written here for
 * timing magic-search against it in one run. Untuned, every square's generator starts from
 * the same seed; tuned, from Stockfish's seed for the square's rank (its 64-bit table), which
 * Stockfish chose so that each rank's squares find their magics after few candidates.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "rays.h"

/* Stockfish's generator: xorshift64star. */
static uint64_t next_random(uint64_t *state) {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ULL;
}

#define ROOK_ENTRIES 102400
#define BISHOP_ENTRIES 5248

static uint64_t table[ROOK_ENTRIES + BISHOP_ENTRIES];
static uint64_t occupancy[4096], reference[4096];
static int epoch[4096];

/* Stockfish's per-rank seeds for 64-bit builds. */
static const uint64_t RANK_SEEDS[8] = {728, 10316, 55013, 32803, 12281, 15100, 16645, 255};

/* Finds a fancy magic for every rook square, then every bishop square (magics[0..64] rooks,
 * magics[64..128] bishops), filling the attack table as Stockfish does: from `seed` on every
 * square (not 0), or from Stockfish's seed for the square's rank if `seed` is 0. Returns the
 * number of candidates tried. */
uint64_t stockfish_find_magics(uint64_t seed, uint64_t magics[128]) {
    uint64_t tried = 0;
    uint64_t *slice = table;
    /* The stamps count from zero again in every call. */
    int count = 0;
    memset(epoch, 0, sizeof epoch);
    for (int piece = 0; piece < 2; piece++) {
        const int (*steps)[2] = piece == 0 ? ROOK_STEPS : BISHOP_STEPS;
        for (int square = 0; square < 64; square++) {
            uint64_t rank_edges = 0xFF000000000000FFULL & ~(0xFFULL << (square / 8 * 8));
            uint64_t file_edges = 0x8181818181818181ULL & ~(0x0101010101010101ULL << (square % 8));
            uint64_t mask = sliding_attacks(steps, square, 0) & ~(rank_edges | file_edges);
            int bits = __builtin_popcountll(mask);
            int shift = 64 - bits;

            /* Every subset of the mask (carry-rippler) and its attacks. */
            int size = 0;
            uint64_t subset = 0;
            do {
                occupancy[size] = subset;
                reference[size] = sliding_attacks(steps, square, subset);
                size++;
                subset = (subset - mask) & mask;
            } while (subset);

            uint64_t state = seed ? seed : RANK_SEEDS[square / 8], magic;
            for (int i = 0; i < size;) {
                do {
                    magic = next_random(&state) & next_random(&state) & next_random(&state);
                    tried++;
                } while (__builtin_popcountll((mask * magic) >> 56) < 6);
                /* A stamp per attempt instead of clearing the table. */
                for (++count, i = 0; i < size; ++i) {
                    unsigned index = (unsigned)((occupancy[i] * magic) >> shift);
                    if (epoch[index] < count) {
                        epoch[index] = count;
                        slice[index] = reference[i];
                    } else if (slice[index] != reference[i])
                        break;
                }
            }
            magics[piece * 64 + square] = magic;
            slice += (size_t)1 << bits;
        }
    }
    return tried;
}

/* The filled table's entry `index` (rooks' slices first), for checking the search's result. */
uint64_t stockfish_table_entry(size_t index) {
    return index < ROOK_ENTRIES + BISHOP_ENTRIES ? table[index] : 0;
}
