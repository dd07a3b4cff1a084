/**
 * @file test_ztrsm.c
 * @brief tila_core_ztrsm (hand-written recursion over CBLAS): backward error of the solve.
 * @precisions normal z -> c d s
 *
 * What it proves: for both sides, upper and lower, op(A) = A, A^T, A^H, unit and non-unit
 * diagonals, orders of A 0, 1, 7 and around the recursion's cutoff and splits (63, 64,
 * 65, 130 and 200: one, two and three levels, halves rounded to multiples of 8), B with 1
 * or 19 columns (rows for the right side), lda > k, ldb > m, alpha = 1 and complex alpha,
 * X = alpha op(A)^-1 B (or alpha B op(A)^-1) satisfies
 *   ||op(A) X - alpha B||_F / ((||A||_F ||X||_F + |alpha| ||B||_F) k eps) <= 4
 * (X op(A) - alpha B for the right side), with op(A) X formed by cblas_ztrmm.  The other
 * triangle of A, and its diagonal when unit, hold NaN, so the kernel does not read them;
 * the rows of B below m are not written, an empty B is not touched; alpha = 0 gives
 * X = 0 exactly.  Bad arguments return -i.
 *
 * Why it suffices: the recursion performs the operations of a blocked TRSM (solves and
 * GEMM updates), so, as for BLAS's TRSM, the computed X satisfies (op(A) + dA) X =
 * alpha B + dB with |dA| <= gamma_k |A| and |dB| <= u |alpha B| (Higham, 8.1 and 13.1);
 * TRMM's own error is as small, so the ratio above is O(1) for a correct kernel.  A is
 * well conditioned (tila_test_ztriangle: ||A||, ||A^-1|| = O(1)), so ||X|| is O(||B||),
 * and a wrong block, sign, side, op or offset leaves a residual of the order of ||B||,
 * a ratio of order 1 / (k eps).  The residual is independent of how the kernel splits.
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
#define NAME "core_trsm"
#define TOL 4.0

static void run_one(tila_side_t side, tila_uplo_t uplo, tila_trans_t trans, tila_diag_t diag, int m,
                    int n, tila_complex64_t alpha, unsigned long long seed)
{
    tila_test_ztrxm_t c;
    tila_test_ztrxm_make(&c, side, uplo, diag, m, n, seed);

    int rc = tila_core_ztrsm(side, uplo, trans, diag, m, n, alpha, c.A, c.lda, c.B, c.ldb);
    double err =
        tila_test_ztrsm_error(side, uplo, trans, diag, m, n, alpha, c.A, c.lda, c.B, c.B0, c.ldb);
    tila_test_ztrxm_check(&c, NAME, trans, alpha, rc, err, TOL);
}

static void run_errors(void)
{
    tila_complex64_t a[4] = { 0 }, b[4] = { 0 };
    tila_side_t L = TILA_LEFT, R = TILA_RIGHT;
    tila_uplo_t U = TILA_UPPER;
    tila_trans_t N = TILA_NOTRANS;
    tila_diag_t D = TILA_NONUNIT;
    int got[] = {
        tila_core_ztrsm((tila_side_t)0, U, N, D, 1, 1, 1, a, 1, b, 1),
        tila_core_ztrsm(L, TILA_GENERAL, N, D, 1, 1, 1, a, 1, b, 1),
        tila_core_ztrsm(L, U, (tila_trans_t)0, D, 1, 1, 1, a, 1, b, 1),
        tila_core_ztrsm(L, U, N, (tila_diag_t)0, 1, 1, 1, a, 1, b, 1),
        tila_core_ztrsm(L, U, N, D, -1, 1, 1, a, 1, b, 1),
        tila_core_ztrsm(L, U, N, D, 1, -1, 1, a, 1, b, 1),
        tila_core_ztrsm(L, U, N, D, 2, 1, 1, a, 1, b, 2), /* lda < m */
        tila_core_ztrsm(R, U, N, D, 1, 2, 1, a, 1, b, 1), /* lda < n */
        tila_core_ztrsm(R, U, N, D, 2, 1, 1, a, 1, b, 1), /* ldb < m */
        tila_core_ztrsm(L, U, N, D, 0, 3, 1, a, 1, b, 1), /* valid, empty */
    };
    static const int want[] = { -1, -2, -3, -4, -5, -6, -9, -9, -11, 0 };
    KERNEL_CHECK_CODES(NAME, kernel_prec_letter(PREC), got, want);
}

void tila_test_ztrsm_core(const kernel_opts_t *o)
{
    /* Orders of A: empty, tiny, odd, at the cutoff (64) and one, two, three levels. */
    static const int orders[] = { 0, 1, 7, 63, 64, 65, 130, 200 };
    static const int others[] = { 1, 19 };
    /* B's other size 1 with alpha = 1, and 19 with a complex alpha. */
    tila_complex64_t alphas[] = { 1, tila_test_zscalar(0.8, 0.3) };
    unsigned long long seed = tila_test_ztrxm_sweep(
        run_one, orders, (int)(sizeof orders / sizeof orders[0]), others, alphas, 2, o->seed);
    /* alpha = 0: X = 0 whatever A. */
    run_one(TILA_LEFT, TILA_LOWER, TILA_NOTRANS, TILA_NONUNIT, 130, 5, 0, seed += 2);
    run_one(TILA_RIGHT, TILA_UPPER, TILA_CONJTRANS, TILA_UNIT, 5, 130, 0, seed += 2);
    run_errors();
}
