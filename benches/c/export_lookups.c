/*
 * Lookups through one of magic-search's C exports (the default prefix): throughput (independent
 * rook and bishop lookups on 65,536 random sparse occupancies) and latency (each rook lookup's
 * occupancy depends on the previous answer), in ns per lookup. Built and run in interleaved
 * rounds by export_lookups.sh, once per header and lookup pair:
 *   -DHEADER='"set.h"' -DROOK=bitforge_rook_attacks -DBISHOP=bitforge_bishop_attacks
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define BITFORGE_IMPLEMENTATION
#include HEADER

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(void) {
    enum { QUERIES = 1 << 16, THROUGHPUT_ROUNDS = 400, LATENCY_ROUNDS = 100 };
    static uint64_t occupancies[QUERIES];
    static unsigned squares[QUERIES];
    uint64_t state = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < QUERIES; i++) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        occupancies[i] = state & (state >> 5) & (state >> 11);
        squares[i] = (unsigned)(state >> 3) & 63;
    }
    uint64_t sum = 0, chained = 0;
    const double start = seconds();
    for (int round = 0; round < THROUGHPUT_ROUNDS; round++) {
        for (int i = 0; i < QUERIES; i++) {
            sum += ROOK(squares[i], occupancies[i]) ^ BISHOP(squares[i], occupancies[i]);
        }
    }
    const double middle = seconds();
    for (int round = 0; round < LATENCY_ROUNDS; round++) {
        for (int i = 0; i < QUERIES; i++) {
            chained = ROOK(squares[i], occupancies[i] ^ (chained & 0xff00ff00ff00ULL));
        }
    }
    const double end = seconds();
    /* The checksum keeps the loops from being optimized away and must agree between builds. */
    printf("%.3f %.3f %llu\n", (middle - start) * 1e9 / (2.0 * THROUGHPUT_ROUNDS * QUERIES),
           (end - middle) * 1e9 / ((double)LATENCY_ROUNDS * QUERIES),
           (unsigned long long)(sum + chained));
    return 0;
}
