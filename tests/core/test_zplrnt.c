/**
 * @file test_zplrnt.c
 * @brief tila_core_zplrnt: a tile is the same sub-block of the one random matrix of a seed.
 * @precisions normal z -> c d s
 *
 * What it proves: the tile generated at offset (i0, j0) holds, to the bit, the sub-block
 * (i0 .., j0 ..) of the 40 x 30 matrix generated at (0, 0) in one call, for tiles in the
 * middle, on the edges, 1 x 1, the whole matrix, m != n and lda > m (rows below m not
 * written) and empty tiles (nothing written); far from the origin, two overlapping tiles
 * agree where they overlap; the entries lie in [-0.5, 0.5) (both parts in complex), and
 * another seed gives another matrix.  Bad arguments return -i.
 *
 * Why it suffices: the distributed generators call this kernel on every tile with the
 * tile's offset, so position independence is what makes a matrix the same whatever its
 * tiling and distribution, and it is exact by construction (a hash of (seed, i, j)), so
 * bit equality is the check.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <complex.h>
#include <math.h>
#include <stdlib.h>

#include "core_z.h"
#include "kerneltests_z.h"

#define PREC TILA_COMPLEX64
#define NAME "core_plrnt"
#define BM 40
#define BN 30

/* Entries in [-0.5, 0.5); another seed changes (almost) every entry. */
static void run_range(const tila_complex64_t *G, unsigned long long seed)
{
    tila_complex64_t *H = kernel_alloc(PREC, BM, BN);
    int rc = tila_core_zplrnt(BM, BN, H, BM, 0, 0, seed + 1), in_range = 1, same = 0;
    for (size_t e = 0; e < (size_t)BM * BN; e++) {
        double re = creal(G[e]);
        in_range &= re >= -0.5 && re < 0.5;
#if defined(COMPLEX)
        in_range &= cimag(G[e]) >= -0.5 && cimag(G[e]) < 0.5;
#endif
        same += G[e] == H[e];
    }
    kernel_check(rc == 0 && in_range && same < BM * BN / 100, NAME, kernel_prec_letter(PREC), 0,
                 "%dx%d entries in [-0.5,0.5): %s; entries equal for seeds %llu and %llu: %d", BM,
                 BN, in_range ? "yes" : "no", seed, seed + 1, same);
    free(H);
}

/* Far from the origin: tiles at (i0, j0) and (i0 + 3, j0 + 2) agree on their overlap. */
static void run_far(unsigned long long seed)
{
    int i0 = 100000, j0 = 70000, m = 8, n = 6;
    tila_complex64_t *A = kernel_alloc(PREC, m, n), *B = kernel_alloc(PREC, m, n);
    int rc = tila_core_zplrnt(m, n, A, m, i0, j0, seed);
    rc |= tila_core_zplrnt(m, n, B, m, i0 + 3, j0 + 2, seed);
    int ok = rc == 0 && kernel_equal(PREC, m - 3, n - 2, A + 3 + 2 * m, m, B, m);
    kernel_check(ok, NAME, kernel_prec_letter(PREC), 0,
                 "overlapping tiles at (%d,%d) and (%d,%d) m=%d n=%d", i0, j0, i0 + 3, j0 + 2, m,
                 n);
    free(A);
    free(B);
}

static void run_errors(void)
{
    tila_complex64_t a[4] = { 0 };
    int got[] = {
        tila_core_zplrnt(-1, 1, a, 1, 0, 0, 1), tila_core_zplrnt(1, -1, a, 1, 0, 0, 1),
        tila_core_zplrnt(2, 1, a, 1, 0, 0, 1),  tila_core_zplrnt(1, 1, a, 1, -1, 0, 1),
        tila_core_zplrnt(1, 1, a, 1, 0, -1, 1), tila_core_zplrnt(0, 1, a, 1, 0, 0, 1),
    };
    static const int want[] = { -1, -2, -4, -5, -6, 0 };
    KERNEL_CHECK_CODES(NAME, kernel_prec_letter(PREC), got, want);
}

void tila_test_zplrnt_core(const kernel_opts_t *o)
{
    /* i0, j0, m, n within the BM x BN matrix. */
    static const int tiles[][4] = { { 0, 0, BM, BN }, { 5, 7, 9, 11 },  { 31, 0, 9, 30 },
                                    { 0, 29, 40, 1 }, { 17, 13, 1, 1 }, { 39, 29, 1, 1 },
                                    { 3, 4, 0, 5 },   { 3, 4, 5, 0 } };
    tila_complex64_t *G = kernel_alloc(PREC, BM, BN);
    int rc = tila_core_zplrnt(BM, BN, G, BM, 0, 0, o->seed);
    kernel_check(rc == 0, NAME, kernel_prec_letter(PREC), 0, "whole %dx%d rc=%d", BM, BN, rc);
    tila_test_zgen_tiles(NAME, tila_core_zplrnt, G, BM, BN, tiles,
                         (int)(sizeof tiles / sizeof tiles[0]), o->seed);
    run_range(G, o->seed);
    run_far(o->seed);
    run_errors();
    free(G);
}
