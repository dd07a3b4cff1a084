/**
 * @file test_zplghe.c
 * @brief tila_core_zplghe: Hermitian, bump on the diagonal, position independent.
 * @precisions normal z -> c d s
 *
 * What it proves: the 37 x 37 matrix generated at (0, 0) is, to the bit, plrnt's random
 * matrix of the same seed below the diagonal, its conjugate transpose above (symmetric in
 * real arithmetic), and Re(plrnt's diagonal) + bump on the diagonal with a zero imaginary
 * part; a tile at any offset (below, above or across the diagonal, 1 x 1, m != n, lda > m,
 * empty) is the same sub-block of it; far from the origin, the tile at (a, b) is the
 * conjugate transpose of the tile at (b, a).  Bad arguments return -i.
 *
 * Why it suffices: this is the whole documented definition of the matrix, checked entry by
 * entry; it is exact by construction, so bit equality is the check.  The diagonal shift
 * by bump is what makes the matrix positive definite for the Cholesky tests.
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
#define NAME "core_plghe"
#define BN 37
#define BUMP 5.25

/* The whole matrix against plrnt's and against its own transpose. */
static void run_definition(const tila_complex64_t *G, unsigned long long seed)
{
    tila_complex64_t *R = kernel_alloc(PREC, BN, BN);
    int rc = tila_core_zplrnt(BN, BN, R, BN, 0, 0, seed), bad = 0, bi = -1, bj = -1;
    for (int j = 0; j < BN; j++)
        for (int i = 0; i < BN; i++) {
            tila_complex64_t g = G[(size_t)j * BN + i], r = R[(size_t)j * BN + i];
            tila_complex64_t diag = creal(r) + (double)BUMP;
            int ok = i > j   ? g == r
                     : i < j ? g == tila_test_zconj(G[(size_t)i * BN + j])
                             : g == diag;
#if defined(COMPLEX)
            ok = ok && (i != j || cimag(g) == 0);
#endif
            if (!ok && !bad++) {
                bi = i;
                bj = j;
            }
        }
    kernel_check(rc == 0 && !bad, NAME, kernel_prec_letter(PREC), bad,
                 "%dx%d bump=%g: plrnt below, conjugate above, Re + bump on the diagonal; "
                 "first bad entry (%d,%d)",
                 BN, BN, BUMP, bi, bj);
    free(R);
}

/* plghe with this test's bump, as tila_test_zgen_tiles calls a generator. */
static int plghe(int m, int n, tila_complex64_t *A, int lda, int i0, int j0,
                 unsigned long long seed)
{
    return tila_core_zplghe(BUMP, m, n, A, lda, i0, j0, seed);
}

/* Far from the origin, across the diagonal: tile (a, b) = tile (b, a)^H. */
static void run_far(unsigned long long seed)
{
    int a = 100000, b = 100003, m = 8, n = 6, bad = 0;
    tila_complex64_t *X = kernel_alloc(PREC, m, n), *Y = kernel_alloc(PREC, n, m);
    int rc = tila_core_zplghe(BUMP, m, n, X, m, a, b, seed);
    rc |= tila_core_zplghe(BUMP, n, m, Y, n, b, a, seed);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            bad += X[(size_t)j * m + i] != tila_test_zconj(Y[(size_t)i * n + j]);
    kernel_check(rc == 0 && !bad, NAME, kernel_prec_letter(PREC), bad,
                 "tile at (%d,%d) m=%d n=%d is the conjugate transpose of the one at (%d,%d)", a, b,
                 m, n, b, a);
    free(X);
    free(Y);
}

static void run_errors(void)
{
    tila_complex64_t x[4] = { 0 };
    int got[] = {
        tila_core_zplghe(1, -1, 1, x, 1, 0, 0, 1), tila_core_zplghe(1, 1, -1, x, 1, 0, 0, 1),
        tila_core_zplghe(1, 2, 1, x, 1, 0, 0, 1),  tila_core_zplghe(1, 1, 1, x, 1, -1, 0, 1),
        tila_core_zplghe(1, 1, 1, x, 1, 0, -1, 1), tila_core_zplghe(1, 1, 0, x, 1, 0, 0, 1),
    };
    static const int want[] = { -2, -3, -5, -6, -7, 0 };
    KERNEL_CHECK_CODES(NAME, kernel_prec_letter(PREC), got, want);
}

void tila_test_zplghe_core(const kernel_opts_t *o)
{
    /* i0, j0, m, n within the BN x BN matrix. */
    static const int tiles[][4] = { { 0, 0, BN, BN }, { 5, 7, 9, 11 },  { 20, 3, 9, 5 },
                                    { 2, 25, 6, 12 }, { 36, 36, 1, 1 }, { 0, 36, 37, 1 },
                                    { 10, 10, 0, 4 }, { 10, 10, 4, 0 } };
    tila_complex64_t *G = kernel_alloc(PREC, BN, BN);
    int rc = tila_core_zplghe(BUMP, BN, BN, G, BN, 0, 0, o->seed);
    run_definition(G, o->seed);
    if (rc == 0)
        tila_test_zgen_tiles(NAME, plghe, G, BN, BN, tiles, (int)(sizeof tiles / sizeof tiles[0]),
                             o->seed);
    run_far(o->seed);
    run_errors();
    free(G);
}
