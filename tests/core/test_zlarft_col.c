/**
 * @file test_zlarft_col.c
 * @brief tila_core_zlarft_col: the triangular factor of a column of tiles' block reflector
 *        from the reflectors and their scalar factors, against tila_core_zgeqrt_col's.
 * @precisions normal z -> c d s
 *
 * What it proves: for panels of several tiles whose last tile is shorter, each tile with
 * its own leading dimension, a single tile, wide panels (m < n: k = m reflectors), 1 x 1
 * and empty panels, and a panel whose first reflector is the identity (tau = 0), the T
 * rebuilt from the V and tau that tila_core_zgeqrt_col left (tau(j) = its T(j, j)) is its
 * T: ||triu(T) - triu(T_geqrt)||_F / (k eps ||T_geqrt||_F) <= 30; the kernel returns 0,
 * writes neither the tiles nor T's strictly lower part.  Bad arguments return -i.
 *
 * Why it suffices: tila_core_zgeqrt_col's T is proven to be the factor of its block
 * reflector (test_zgeqrt_col.c), and T is a function of V and tau alone, so equal T means
 * the same Q; a tile gathered wrongly, a reflector's tau taken from the wrong column or
 * the unit diagonal mishandled changes T by O(1).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <complex.h>
#include <stdlib.h>

#include <lapacke.h>

#include "core_z.h"
#include "kerneltests_z.h"

#define PREC TILA_COMPLEX64
#define NAME "core_larft_col"
#define TOL 30.0

/* triu(T), k x k, with zeros below. */
static tila_complex64_t *upper(int k, const tila_complex64_t *T, int ldt)
{
    int ld = k > 1 ? k : 1;
    tila_complex64_t *U = kernel_alloc(PREC, ld, ld);
    kernel_set(PREC, ld, ld, U, ld, 0, 0);
    if (k > 0) LAPACKE_zlacpy_work(LAPACK_COL_MAJOR, 'U', k, k, T, ldt, U, ld);
    return U;
}

static void run_one(int m, int n, int mb, int identity_first, unsigned long long seed)
{
    int k = m < n ? m : n, ldg = m > 1 ? m : 1;
    int ldt = (k > 1 ? k : 1) + 1, untouched = 1;
    tila_complex64_t *G = kernel_alloc(PREC, ldg, n);
    tila_complex64_t *Tg = kernel_alloc(PREC, ldt, k > 1 ? k : 1);
    tila_complex64_t *T = kernel_alloc(PREC, ldt, k > 1 ? k : 1);
    tila_complex64_t *T0 = kernel_dup(PREC, ldt, k > 1 ? k : 1, T);
    tila_complex64_t *tau = kernel_alloc(PREC, k > 1 ? k : 1, 1);
    tila_complex64_t *work = kernel_alloc(PREC, m * n + k * n, 1);
    tila_test_zpanel_t P;
    kernel_fill(PREC, m, n, G, ldg, seed);
    /* Column 0 already upper triangular with a real diagonal: reflector 0 is I, tau 0. */
    if (identity_first == 1 && m > 0 && n > 0) {
        kernel_set(PREC, m - 1, 1, G + 1, ldg, 0, 0);
        G[0] = 0.75;
    }
    /* A zero column in the middle: its reflector is I too. */
    if (identity_first == 2 && m > 0 && n > 0)
        kernel_set(PREC, m, 1, G + (size_t)(n / 2) * ldg, ldg, 0, 0);
    tila_test_zpanel_cut(&P, m, n, mb, G, ldg);
    int rc0 = tila_core_zgeqrt_col(m, n, P.mbs, P.tiles, P.lds, Tg, ldt, work);
    for (int j = 0; j < k; j++)
        tau[j] = Tg[(size_t)j * ldt + j];
    tila_test_zpanel_save(&P);

    int rc = tila_core_zlarft_col(m, k, P.mbs, (const tila_complex64_t *const *)P.tiles, P.lds, tau,
                                  T, ldt, work);
    for (int t = 0; t < P.ntiles; t++)
        untouched &= kernel_equal(PREC, P.lds[t], n, P.tiles[t], P.lds[t], P.saved[t], P.lds[t]);
    tila_complex64_t *U = upper(k, T, ldt), *Ug = upper(k, Tg, ldt);
    /* T's strictly lower part is still what it was. */
    if (k > 0) LAPACKE_zlacpy_work(LAPACK_COL_MAJOR, 'U', k, k, T, ldt, T0, ldt);
    untouched &= kernel_equal(PREC, ldt, k, T, ldt, T0, ldt);
    int ld = k > 1 ? k : 1;
    double err = kernel_ratio(kernel_diff_fro(PREC, ld, ld, U, ld, Ug, ld),
                              (k > 1 ? k : 1) * kernel_eps(PREC));
    int ok = rc0 == 0 && rc == 0 && err <= TOL && untouched;
    static const char *const taus[] = { "any", "0 first", "0 mid" };
    kernel_check(ok, NAME, kernel_prec_letter(PREC), err,
                 "m=%d k=%d mb=%d tiles=%d ldt=%d tau=%s rc=%d", m, k, mb, P.ntiles, ldt,
                 taus[identity_first], rc);

    /* The UT transform (the GPU's T) on the same reflectors, gathered: the same T. */
    tila_complex64_t *Vd = kernel_alloc(PREC, ldg, n > 1 ? n : 1);
    tila_complex64_t *Tu = kernel_dup(PREC, ldt, k > 1 ? k : 1, T0);
    tila_complex64_t *Tu0 = kernel_dup(PREC, ldt, k > 1 ? k : 1, T0);
    tila_complex64_t *W = kernel_alloc(PREC, k > 1 ? k : 1, k > 1 ? k : 1);
    for (int t = 0, r = 0; t < P.ntiles; r += P.mbs[t++])
        LAPACKE_zlacpy_work(LAPACK_COL_MAJOR, 'A', P.mbs[t], n, P.tiles[t], P.lds[t], Vd + r, ldg);
    int rcu = tila_core_zlarft_ut(m, k, Vd, ldg, tau, Tu, ldt, W);
    tila_complex64_t *Uu = upper(k, Tu, ldt);
    if (k > 0) LAPACKE_zlacpy_work(LAPACK_COL_MAJOR, 'U', k, k, Tu, ldt, Tu0, ldt);
    int lower_kept = kernel_equal(PREC, ldt, k, Tu, ldt, Tu0, ldt);
    double erru = kernel_ratio(kernel_diff_fro(PREC, ld, ld, Uu, ld, Ug, ld),
                               (k > 1 ? k : 1) * kernel_eps(PREC));
    kernel_check(rcu == 0 && erru <= TOL && lower_kept, "core_larft_ut", kernel_prec_letter(PREC),
                 erru, "m=%d k=%d tau=%s rc=%d", m, k, taus[identity_first], rcu);
    free(Vd);
    free(Tu);
    free(Tu0);
    free(W);
    free(Uu);
    tila_test_zpanel_free(&P);
    free(G);
    free(Tg);
    free(T);
    free(T0);
    free(U);
    free(Ug);
    free(tau);
    free(work);
}

static void run_errors(void)
{
    tila_complex64_t a[16] = { 0 }, t[16] = { 0 }, w[64] = { 0 }, tau[4] = { 0 };
    const tila_complex64_t *tiles[2] = { a, a + 8 };
    int lds[2] = { 2, 2 }, two[2] = { 2, 2 }, zero[1] = { 0 };
    int got[] = {
        tila_core_zlarft_col(-1, 1, two, tiles, lds, tau, t, 1, w),
        tila_core_zlarft_col(1, -1, two, tiles, lds, tau, t, 1, w),
        tila_core_zlarft_col(1, 2, two, tiles, lds, tau, t, 2, w), /* k > m */
        tila_core_zlarft_col(1, 1, zero, tiles, lds, tau, t, 1, w),
        tila_core_zlarft_col(3, 1, two, tiles, lds, tau, t, 1, w), /* tiles of 4 rows, m = 3 */
        tila_core_zlarft_col(4, 2, two, tiles, lds, tau, t, 1, w), /* ldt < k */
        tila_core_zlarft_col(4, 0, two, tiles, lds, tau, t, 1, w), /* valid, empty */
    };
    static const int want[] = { -1, -2, -2, -3, -3, -8, 0 };
    KERNEL_CHECK_CODES(NAME, kernel_prec_letter(PREC), got, want);
}

void tila_test_zlarft_col_core(const kernel_opts_t *o)
{
    /* m, n, mb (< 0: tiles of 1 to -mb rows), identity first */
    static const int sizes[][4] = { { 37, 9, 8, 0 },    { 9, 37, 4, 0 },    { 16, 16, 16, 0 },
                                    { 1, 1, 1, 0 },     { 1, 3, 5, 0 },     { 50, 20, 7, 0 },
                                    { 33, 33, 8, 1 },   { 100, 40, 32, 0 }, { 12, 5, 5, 1 },
                                    { 0, 3, 2, 0 },     { 3, 0, 2, 0 },     { 37, 9, -8, 0 },
                                    { 60, 25, -24, 1 }, { 50, 20, 7, 2 },   { 300, 120, 64, 0 },
                                    { 200, 64, 50, 2 } };
    unsigned long long seed = o->seed;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        run_one(sizes[s][0], sizes[s][1], sizes[s][2], sizes[s][3], seed++);
    run_errors();
}
