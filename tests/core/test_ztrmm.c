/**
 * @file test_ztrmm.c
 * @brief tila_core_ztrmm against cblas_ztrmm.
 * @precisions normal z -> c d s
 *
 * What it proves: for both sides, upper and lower, op(A) = A, A^T, A^H, unit and non-unit
 * diagonals, orders of A 0, 1, 7 and 65 with B of 19 columns (rows for the right side),
 * lda > k, ldb > m and complex alpha (and alpha = 0: B = 0), the kernel's B agrees with
 * CBLAS's on the same inputs; the other triangle of A, and its diagonal when unit, hold
 * NaN, so they are not read; the rows of B below m are not written and an empty B is not
 * touched.  Bad arguments return -i.
 *
 * Why it suffices: each computed product is within gamma_k |alpha| |op(A)| |B| of the
 * exact one, so two correct results differ in Frobenius norm by at most about
 * k eps |alpha| ||A||_F ||B||_F; the error printed is the difference in units of that and
 * must be <= 4.  A wrong side, triangle, op or diagonal gives O(1 / (k eps)).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <cblas.h>
#include <complex.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>

#include "core_z.h"
#include "kerneltests_z.h"

#define PREC TILA_COMPLEX64
#define NAME "core_trmm"
#define TOL 4.0

static void run_one(tila_side_t side, tila_uplo_t uplo, tila_trans_t trans, tila_diag_t diag, int m,
                    int n, tila_complex64_t alpha, unsigned long long seed)
{
    tila_test_ztrxm_t c;
    tila_test_ztrxm_make(&c, side, uplo, diag, m, n, seed);
    tila_complex64_t *Bref = kernel_dup(PREC, c.ldb, n, c.B);

    int rc = tila_core_ztrmm(side, uplo, trans, diag, m, n, alpha, c.A, c.lda, c.B, c.ldb);
    if (m > 0 && n > 0)
        cblas_ztrmm(CblasColMajor, (enum CBLAS_SIDE)side, (enum CBLAS_UPLO)uplo,
                    (enum CBLAS_TRANSPOSE)trans, (enum CBLAS_DIAG)diag, m, n, CBLAS_SADDR(alpha),
                    c.A, c.lda, Bref, c.ldb);
    double bound = cabs(alpha) * tila_test_ztrnorm(uplo, diag, c.k, c.A, c.lda) *
                   tila_test_zfnorm(m, n, c.B0, c.ldb) * (c.k > 1 ? c.k : 1) * DBL_EPSILON;
    double err = kernel_ratio(kernel_dist_fro(PREC, m, n, c.B, c.ldb, Bref, c.ldb), bound);
    tila_test_ztrxm_check(&c, NAME, trans, alpha, rc, err, TOL);
    free(Bref);
}

static void run_errors(void)
{
    tila_complex64_t a[4] = { 0 }, b[4] = { 0 };
    tila_side_t L = TILA_LEFT, R = TILA_RIGHT;
    tila_uplo_t U = TILA_UPPER;
    tila_trans_t N = TILA_NOTRANS;
    tila_diag_t D = TILA_UNIT;
    int got[] = {
        tila_core_ztrmm((tila_side_t)0, U, N, D, 1, 1, 1, a, 1, b, 1),
        tila_core_ztrmm(L, (tila_uplo_t)0, N, D, 1, 1, 1, a, 1, b, 1),
        tila_core_ztrmm(L, U, (tila_trans_t)0, D, 1, 1, 1, a, 1, b, 1),
        tila_core_ztrmm(L, U, N, (tila_diag_t)0, 1, 1, 1, a, 1, b, 1),
        tila_core_ztrmm(L, U, N, D, -1, 1, 1, a, 1, b, 1),
        tila_core_ztrmm(L, U, N, D, 1, -1, 1, a, 1, b, 1),
        tila_core_ztrmm(L, U, N, D, 2, 1, 1, a, 1, b, 2),
        tila_core_ztrmm(R, U, N, D, 1, 2, 1, a, 1, b, 1),
        tila_core_ztrmm(L, U, N, D, 2, 1, 1, a, 2, b, 1),
        tila_core_ztrmm(R, U, N, D, 3, 0, 1, a, 1, b, 3),
    };
    static const int want[] = { -1, -2, -3, -4, -5, -6, -9, -9, -11, 0 };
    KERNEL_CHECK_CODES(NAME, kernel_prec_letter(PREC), got, want);
}

void tila_test_ztrmm_core(const kernel_opts_t *o)
{
    /* Orders of A 0, 1, 7 and 65; B's other size 19. */
    static const int orders[] = { 0, 1, 7, 65 }, others[] = { 19 };
    tila_complex64_t alphas[] = { tila_test_zscalar(-0.6, 0.9) };
    unsigned long long seed = tila_test_ztrxm_sweep(run_one, orders, 4, others, alphas, 1, o->seed);
    run_one(TILA_LEFT, TILA_UPPER, TILA_TRANS, TILA_NONUNIT, 17, 4, 0, seed += 2);
    run_errors();
}
