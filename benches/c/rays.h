/*
 * Slider attacks walked square by square along the rays, for the C programs of the benchmarks
 * (stockfish_magics.c, slider_twins.c): what their tables are filled from and checked against.
 */
#ifndef BITFORGE_BENCHES_RAYS_H
#define BITFORGE_BENCHES_RAYS_H

#include <stdint.h>

static const int ROOK_STEPS[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int BISHOP_STEPS[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

static inline int on_board(int file, int rank) {
    return file >= 0 && file < 8 && rank >= 0 && rank < 8;
}

/* The squares a slider moving by `steps` attacks from `square` when `occupied` is occupied. */
static inline uint64_t sliding_attacks(const int steps[4][2], int square, uint64_t occupied) {
    uint64_t attacks = 0;
    for (int d = 0; d < 4; d++) {
        int file = square % 8 + steps[d][0], rank = square / 8 + steps[d][1];
        while (on_board(file, rank)) {
            uint64_t bit = 1ULL << (rank * 8 + file);
            attacks |= bit;
            if (occupied & bit)
                break;
            file += steps[d][0];
            rank += steps[d][1];
        }
    }
    return attacks;
}

#endif
