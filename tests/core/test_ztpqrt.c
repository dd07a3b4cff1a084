/**
 * @file test_ztpqrt.c
 * @brief tila_core_ztpqrt (hand-written TS/TT recursion): residual and orthogonality of the
 *        QR of a triangle on a pentagon, with Q applied by LAPACKE_ztpmqrt.
 * @precisions normal z -> c d s
 *
 * What it proves: [A; B] = Q [R; 0] for A n x n upper triangular and B m x n pentagonal
 * (first m - l rows full, last l rows upper trapezoidal), for the triangle-on-square case
 * (l = 0, TSQRT), the triangle-on-triangle case (l = m <= n, TTQRT) and l in between, with
 * m = n, m > n and m < n, inner blocks ib that do not divide n, ib = n, ib > n, blocks
 * small enough for LAPACK's ?tpqrt2 alone (ib <= 8) and large enough for one to three
 * levels of the recursion, with the trapezoid ending before, at and after the recursion's
 * split (l < n / 2, l = n / 2, l > n / 2), 1 x 1 and empty sizes.  The kernel returns 0 and
 * leaves R in A and V, T in LAPACK's ?tpqrt layout: with Q applied by LAPACKE_ztpmqrt
 * (same l, blocks of nb = min(ib, n)),
 *   ||[A; B] - Q [R; 0]||_F / ((m + n) ||[A; B]||_F eps) <= 30,
 *   ||I - Q^H Q||_F / ((m + n) eps) <= 30  (Q formed explicitly, order m + n).
 * A's strictly lower part and B's entries outside the pentagon hold NaN: they are not read
 * and stay as they were, as do the rows below n of A and below m of B.  Bad arguments
 * return -i.
 *
 * Why it suffices: Householder QR is backward stable (Higham, 19.3), so both ratios are
 * O(1) for a correct factorization.  Both checks go through LAPACK's own ?tpmqrt, the
 * routine the tile algorithms use to apply these factors, so they also prove that V and
 * the block factors of T are where and what ?tpmqrt expects; a wrong T12 in the recursion
 * (the coupling of its two halves), a wrong trapezoid split or a missed update gives
 * ratios of order 1 / eps.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <complex.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core_z.h"
#include "kerneltests_z.h"

#define PREC TILA_COMPLEX64
#define NAME "core_tpqrt"
#define TOL 30.0

/* Is B(i, j) in the pentagon of an m-row B whose last l rows are upper trapezoidal? */
static int in_pentagon(int m, int l, int i, int j) { return i <= m - l + j; }

static int same(const tila_complex64_t *x, const tila_complex64_t *y)
{
    return !memcmp(x, y, sizeof *x);
}

static void run_one(int m, int n, int l, int ib, unsigned long long seed)
{
    int nb = ib < n ? ib : n, nb1 = nb > 1 ? nb : 1, N = m + n, ldn = n > 1 ? n : 1;
    int ldm = m > 1 ? m : 1, lda = n + 2, ldb = m + 3, ldt = nb1 + 1, untouched = 1;
    tila_complex64_t *A = kernel_alloc(PREC, lda, n), *B = kernel_alloc(PREC, ldb, n);
    tila_complex64_t *T = kernel_alloc(PREC, ldt, n), *work = kernel_alloc(PREC, nb1, n);
    /* The clean inputs: zeros outside the triangle and the pentagon. */
    tila_complex64_t *Ac = kernel_alloc(PREC, ldn, n), *Bc = kernel_alloc(PREC, ldm, n);
    kernel_fill(PREC, n, n, Ac, ldn, seed);
    kernel_fill(PREC, m, n, Bc, ldm, seed + 1);
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < n; i++)
            if (i <= j)
                A[(size_t)j * lda + i] = Ac[(size_t)j * ldn + i];
            else
                Ac[(size_t)j * ldn + i] = 0;
        for (int i = 0; i < m; i++)
            if (in_pentagon(m, l, i, j))
                B[(size_t)j * ldb + i] = Bc[(size_t)j * ldm + i];
            else
                Bc[(size_t)j * ldm + i] = 0;
    }
    tila_complex64_t *A0 = kernel_dup(PREC, lda, n, A), *B0 = kernel_dup(PREC, ldb, n, B);

    int rc = tila_core_ztpqrt(m, n, l, ib, A, lda, B, ldb, T, ldt, work);
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < lda; i++)
            if (i > j) untouched &= same(&A[(size_t)j * lda + i], &A0[(size_t)j * lda + i]);
        for (int i = 0; i < ldb; i++)
            if (i >= m || !in_pentagon(m, l, i, j))
                untouched &= same(&B[(size_t)j * ldb + i], &B0[(size_t)j * ldb + i]);
    }

    /* Q [R; 0] against [A; B]. */
    double resid = 0, orth = 0;
    if (m > 0 && n > 0) {
        tila_complex64_t *XA = kernel_alloc(PREC, ldn, n), *XB = kernel_alloc(PREC, ldm, n);
        tila_complex64_t *w = kernel_alloc(PREC, nb1, N);
        kernel_set(PREC, m, n, XB, ldm, 0, 0);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                XA[(size_t)j * ldn + i] = i <= j ? A[(size_t)j * lda + i] : 0;
        LAPACKE_ztpmqrt_work(LAPACK_COL_MAJOR, 'L', 'N', m, n, n, l, nb1, B, ldb, T, ldt, XA, ldn,
                             XB, ldm, w);
        double da = kernel_dist_fro(PREC, n, n, XA, ldn, Ac, ldn);
        double db = kernel_dist_fro(PREC, m, n, XB, ldm, Bc, ldm);
        double na = tila_test_zfnorm(n, n, Ac, ldn), nbn = tila_test_zfnorm(m, n, Bc, ldm);
        resid = kernel_ratio(sqrt(da * da + db * db), N * sqrt(na * na + nbn * nbn) * DBL_EPSILON);
        /* Q = Q I: the identity's first n rows as the A part, its last m as the B part. */
        tila_complex64_t *QA = kernel_alloc(PREC, n, N), *QB = kernel_alloc(PREC, m, N);
        tila_complex64_t *Q = kernel_alloc(PREC, N, N);
        kernel_set(PREC, n, N, QA, n, 0, 0);
        kernel_set(PREC, m, N, QB, m, 0, 0);
        for (int i = 0; i < n; i++)
            QA[(size_t)i * n + i] = 1;
        for (int i = 0; i < m; i++)
            QB[(size_t)(n + i) * m + i] = 1;
        LAPACKE_ztpmqrt_work(LAPACK_COL_MAJOR, 'L', 'N', m, N, n, l, nb1, B, ldb, T, ldt, QA, n, QB,
                             m, w);
        for (int j = 0; j < N; j++) {
            for (int i = 0; i < n; i++)
                Q[(size_t)j * N + i] = QA[(size_t)j * n + i];
            for (int i = 0; i < m; i++)
                Q[(size_t)j * N + n + i] = QB[(size_t)j * m + i];
        }
        orth = tila_test_zorth(N, Q, N);
        free(XA);
        free(XB);
        free(w);
        free(QA);
        free(QB);
        free(Q);
    }
    double err = resid > orth || resid != resid ? resid : orth;
    int ok = rc == 0 && resid <= TOL && orth <= TOL && untouched;
    kernel_check(ok, NAME, kernel_prec_letter(PREC), err,
                 "m=%d n=%d l=%d (%s) ib=%d lda=%d ldb=%d ldt=%d resid=%.3g orth=%.3g%s rc=%d", m,
                 n, l,
                 l == 0   ? "TS"
                 : l == m ? "TT"
                          : "pentagon",
                 ib, lda, ldb, ldt, resid, orth, untouched ? "" : " outside written", rc);
    free(A);
    free(B);
    free(T);
    free(work);
    free(Ac);
    free(Bc);
    free(A0);
    free(B0);
}

static void run_errors(void)
{
    tila_complex64_t a[16] = { 0 }, b[16] = { 0 }, t[16] = { 0 }, w[16] = { 0 };
    int got[] = {
        tila_core_ztpqrt(-1, 1, 0, 1, a, 1, b, 1, t, 1, w),
        tila_core_ztpqrt(1, -1, 0, 1, a, 1, b, 1, t, 1, w),
        tila_core_ztpqrt(1, 3, 2, 1, a, 3, b, 1, t, 1, w),  /* l > min(m, n) */
        tila_core_ztpqrt(3, 1, -1, 1, a, 1, b, 3, t, 1, w), /* l < 0 */
        tila_core_ztpqrt(1, 1, 0, 0, a, 1, b, 1, t, 1, w),
        tila_core_ztpqrt(1, 2, 0, 1, a, 1, b, 1, t, 1, w), /* lda < n */
        tila_core_ztpqrt(2, 1, 0, 1, a, 1, b, 1, t, 1, w), /* ldb < m */
        tila_core_ztpqrt(3, 3, 0, 2, a, 3, b, 3, t, 1, w), /* ldt < min(ib, n) */
        tila_core_ztpqrt(0, 2, 0, 2, a, 2, b, 1, t, 2, w), /* valid, empty */
    };
    static const int want[] = { -1, -2, -3, -3, -4, -6, -8, -10, 0 };
    KERNEL_CHECK_CODES(NAME, kernel_prec_letter(PREC), got, want);
}

void tila_test_ztpqrt_core(const kernel_opts_t *o)
{
    /* m, n, l, ib */
    static const int sizes[][4] = {
        /* TS: l = 0 */
        { 17, 17, 0, 3 },
        { 17, 17, 0, 5 },
        { 20, 13, 0, 5 },
        { 13, 20, 0, 4 },
        { 40, 40, 0, 40 },
        { 64, 30, 0, 30 },
        { 100, 37, 0, 37 },
        { 1, 1, 0, 1 },
        /* TT: l = m <= n */
        { 17, 17, 17, 5 },
        { 13, 20, 13, 4 },
        { 40, 40, 40, 40 },
        { 30, 64, 30, 64 },
        { 9, 9, 9, 3 },
        { 1, 1, 1, 1 },
        { 1, 5, 1, 8 },
        /* pentagons: 0 < l < m */
        { 20, 17, 10, 4 },
        { 33, 65, 20, 17 },
        { 40, 40, 25, 40 },
        { 40, 40, 20, 40 },
        { 40, 40, 10, 40 },
        { 40, 40, 25, 16 },
        { 50, 24, 24, 5 },
        { 12, 10, 5, 50 },
        /* empty */
        { 0, 5, 0, 2 },
        { 5, 0, 0, 2 },
    };
    unsigned long long seed = o->seed;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        run_one(sizes[s][0], sizes[s][1], sizes[s][2], sizes[s][3], seed += 2);
    run_errors();
}
