/**
 * @file test_zgeqrt_col.c
 * @brief tila_core_zgeqrt_col: QR of a column of tiles as one panel, residual and
 *        orthogonality with its single block reflector.
 * @precisions normal z -> c d s
 *
 * What it proves: for panels of several tiles whose last tile is shorter (m % mb != 0) or
 * of tiles of irregular heights (mb < 0 in the table: 1 to -mb rows), each tile with its own
 * leading dimension, a single tile, wide panels (m < n), 1 x 1 and
 * empty panels, the kernel returns 0 and leaves across the tiles R and V as ?geqrt leaves
 * them in the panel, and in T the min(m, n) x min(m, n) triangular factor of all the
 * reflectors: with Q applied to the identity by LAPACKE_zgemqrt (one block of k = min(m,
 * n) reflectors) from the gathered V and that T,
 *   ||A - Q R||_F / (max(m, n) ||A||_F eps) <= 30  and  ||I - Q^H Q||_F / (m eps) <= 30;
 * the rows of each tile below its height are not written.  Bad arguments return -i.
 *
 * Why it suffices: as for tila_core_zgeqrt, Householder QR is backward stable, so both
 * ratios are O(1) for a correct factorization and O(1 / eps) when a tile is gathered or
 * scattered wrongly or T is not the factor of the whole block reflector.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <complex.h>
#include <stdlib.h>

#include "core_z.h"
#include "kerneltests_z.h"

#define PREC TILA_COMPLEX64
#define NAME "core_geqrt_col"
#define TOL 30.0

static void run_one(int m, int n, int mb, unsigned long long seed)
{
    int k = m < n ? m : n, ldg = m > 1 ? m : 1, ldt = (k > 1 ? k : 1) + 1, untouched = 1;
    tila_complex64_t *G = kernel_alloc(PREC, ldg, n);
    tila_complex64_t *T = kernel_alloc(PREC, ldt, k > 1 ? k : 1);
    tila_complex64_t *work = kernel_alloc(PREC, m * n + k * n, 1);
    tila_test_zpanel_t P;
    kernel_fill(PREC, m, n, G, ldg, seed);
    /* Tile t: the next mbs[t] rows of G, leading dimension its height + 1, 2 or 3. */
    tila_test_zpanel_cut(&P, m, n, mb, G, ldg);
    tila_test_zpanel_save(&P);
    double resid, orth;

    int rc = tila_core_zgeqrt_col(m, n, P.mbs, P.tiles, P.lds, T, ldt, work);
    for (int t = 0; t < P.ntiles; t++)
        untouched &= kernel_untouched(PREC, P.mbs[t], n, P.lds[t], P.tiles[t], P.saved[t]);
    double err = tila_test_zpanel_check(&P, m, k > 1 ? k : 1, G, ldg, T, ldt, &resid, &orth);
    int ok = rc == 0 && resid <= TOL && orth <= TOL && untouched;
    kernel_check(ok, NAME, kernel_prec_letter(PREC), err,
                 "m=%d n=%d mb=%d tiles=%d ldt=%d resid=%.3g orth=%.3g rc=%d", m, n, mb, P.ntiles,
                 ldt, resid, orth, rc);
    tila_test_zpanel_free(&P);
    free(G);
    free(T);
    free(work);
}

static void run_errors(void)
{
    tila_complex64_t a[16] = { 0 }, t[16] = { 0 }, w[64] = { 0 };
    tila_complex64_t *tiles[2] = { a, a + 8 };
    int lds[2] = { 2, 2 }, two[2] = { 2, 2 }, zero[1] = { 0 };
    int got[] = {
        tila_core_zgeqrt_col(-1, 1, two, tiles, lds, t, 1, w),
        tila_core_zgeqrt_col(1, -1, two, tiles, lds, t, 1, w),
        tila_core_zgeqrt_col(1, 1, zero, tiles, lds, t, 1, w),
        tila_core_zgeqrt_col(3, 1, two, tiles, lds, t, 1, w), /* tiles of 4 rows, m = 3 */
        tila_core_zgeqrt_col(4, 2, two, tiles, lds, t, 1, w), /* ldt < min(m, n) */
        tila_core_zgeqrt_col(0, 2, two, tiles, lds, t, 1, w), /* valid, empty */
    };
    static const int want[] = { -1, -2, -3, -3, -7, 0 };
    KERNEL_CHECK_CODES(NAME, kernel_prec_letter(PREC), got, want);
}

void tila_test_zgeqrt_col_core(const kernel_opts_t *o)
{
    /* m, n, mb (< 0: tiles of 1 to -mb rows) */
    static const int sizes[][3] = { { 37, 9, 8 }, { 9, 37, 4 },  { 16, 16, 16 }, { 1, 1, 1 },
                                    { 1, 3, 5 },  { 50, 20, 7 }, { 33, 33, 8 },  { 100, 40, 32 },
                                    { 0, 3, 2 },  { 3, 0, 2 },   { 37, 9, -8 },  { 60, 25, -24 },
                                    { 9, 37, -3 } };
    unsigned long long seed = o->seed;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        run_one(sizes[s][0], sizes[s][1], sizes[s][2], seed++);
    run_errors();
}
