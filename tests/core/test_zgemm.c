/**
 * @file test_zgemm.c
 * @brief tila_core_zgemm against cblas_zgemm.
 * @precisions normal z -> c d s
 *
 * What it proves: for op(A) and op(B) each of A, A^T, A^H, for empty sizes (m, n or k = 0),
 * 1 x 1, odd and unequal m, n, k, leading dimensions larger than the rows, complex alpha
 * and beta, and beta = 0 with NaN in C (C must not be read then), the kernel's C agrees
 * with CBLAS's on the same inputs, the rows between m and ldc are not written, an empty C
 * is not touched, and bad arguments return -i.
 *
 * Why it suffices: each computed C is within gamma_{k+2} (|alpha| |A| |B| + |beta| |C|) of
 * the exact product, entry by entry (Higham, 3.5), so two correct results differ in
 * Frobenius norm by at most (k + 2) eps (|alpha| ||A||_F ||B||_F + |beta| ||C||_F), up to a
 * small constant in complex arithmetic.  The error printed is that difference in units of
 * this bound and must be <= 4; a wrong op, scalar or leading dimension gives O(1 / eps).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <cblas.h>
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "core_z.h"
#include "kerneltests_z.h"

#define PREC TILA_COMPLEX64
#define NAME "core_gemm"
#define TOL 4.0

static void run_one(tila_trans_t ta, tila_trans_t tb, int m, int n, int k, int zero_beta,
                    unsigned long long seed)
{
    int am = ta == TILA_NOTRANS ? m : k, an = ta == TILA_NOTRANS ? k : m;
    int bm = tb == TILA_NOTRANS ? k : n, bn = tb == TILA_NOTRANS ? n : k;
    int lda = am + 2, ldb = bm + 1, ldc = m + 3;
    tila_complex64_t *A = kernel_alloc(PREC, lda, an), *B = kernel_alloc(PREC, ldb, bn);
    tila_complex64_t *C = kernel_alloc(PREC, ldc, n);
    tila_complex64_t alpha = tila_test_zscalar(0.7, -0.4);
    tila_complex64_t beta = zero_beta ? 0 : tila_test_zscalar(-1.1, 0.3);
    kernel_fill(PREC, am, an, A, lda, seed);
    kernel_fill(PREC, bm, bn, B, ldb, seed + 1);
    if (!zero_beta) kernel_fill(PREC, m, n, C, ldc, seed + 2); /* else C stays NaN */
    tila_complex64_t *C0 = kernel_dup(PREC, ldc, n, C), *Cref = kernel_dup(PREC, ldc, n, C);

    int rc = tila_core_zgemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
    if (m > 0 && n > 0)
        cblas_zgemm(CblasColMajor, (enum CBLAS_TRANSPOSE)ta, (enum CBLAS_TRANSPOSE)tb, m, n, k,
                    CBLAS_SADDR(alpha), A, lda, B, ldb, CBLAS_SADDR(beta), Cref, ldc);
    double bound =
        (k + 2) * DBL_EPSILON *
        (cabs(alpha) * tila_test_zfnorm(am, an, A, lda) * tila_test_zfnorm(bm, bn, B, ldb) +
         (zero_beta ? 0 : cabs(beta) * tila_test_zfnorm(m, n, C0, ldc)));
    double err = kernel_ratio(kernel_dist_fro(PREC, m, n, C, ldc, Cref, ldc), bound);
    int ok = rc == 0 && err <= TOL && kernel_untouched(PREC, m, n, ldc, C, C0);
    kernel_check(ok, NAME, kernel_prec_letter(PREC), err,
                 "transa=%c transb=%c m=%d n=%d k=%d lda=%d ldb=%d ldc=%d beta=%s rc=%d",
                 kernel_letter(ta), kernel_letter(tb), m, n, k, lda, ldb, ldc,
                 zero_beta ? "0(C=NaN)" : "complex", rc);
    free(A);
    free(B);
    free(C);
    free(C0);
    free(Cref);
}

static void run_errors(void)
{
    tila_complex64_t a[4] = { 0 }, c[4] = { 0 };
    tila_trans_t N = TILA_NOTRANS, T = TILA_TRANS, bad = (tila_trans_t)0;
    int got[] = {
        tila_core_zgemm(bad, N, 1, 1, 1, 1, a, 1, a, 1, 0, c, 1),
        tila_core_zgemm(N, bad, 1, 1, 1, 1, a, 1, a, 1, 0, c, 1),
        tila_core_zgemm(N, N, -1, 1, 1, 1, a, 1, a, 1, 0, c, 1),
        tila_core_zgemm(N, N, 1, -1, 1, 1, a, 1, a, 1, 0, c, 1),
        tila_core_zgemm(N, N, 1, 1, -1, 1, a, 1, a, 1, 0, c, 1),
        tila_core_zgemm(N, N, 2, 1, 1, 1, a, 1, a, 1, 0, c, 2), /* lda < m */
        tila_core_zgemm(T, N, 1, 1, 2, 1, a, 1, a, 2, 0, c, 1), /* lda < k */
        tila_core_zgemm(N, N, 1, 1, 2, 1, a, 1, a, 1, 0, c, 1), /* ldb < k */
        tila_core_zgemm(N, T, 1, 2, 1, 1, a, 1, a, 1, 0, c, 1), /* ldb < n */
        tila_core_zgemm(N, N, 2, 1, 1, 1, a, 2, a, 1, 0, c, 1), /* ldc < m */
        tila_core_zgemm(N, N, 0, 0, 0, 1, a, 1, a, 1, 0, c, 1), /* valid, empty */
    };
    static const int want[] = { -1, -2, -3, -4, -5, -8, -8, -10, -10, -13, 0 };
    KERNEL_CHECK_CODES(NAME, kernel_prec_letter(PREC), got, want);
}

void tila_test_zgemm_core(const kernel_opts_t *o)
{
    /* n = 1: the matrix-vector path (k = 0: gemm's) */
    static const int sizes[][3] = { { 0, 5, 3 },   { 5, 0, 3 },  { 4, 5, 0 },    { 1, 1, 1 },
                                    { 7, 5, 3 },   { 5, 7, 9 },  { 33, 17, 29 }, { 17, 33, 1 },
                                    { 33, 1, 29 }, { 1, 1, 40 }, { 6, 1, 0 } };
    static const tila_trans_t trans[] = { TILA_NOTRANS, TILA_TRANS, TILA_CONJTRANS };
    unsigned long long seed = o->seed;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                for (int zb = 0; zb < 2; zb++)
                    run_one(trans[a], trans[b], sizes[s][0], sizes[s][1], sizes[s][2], zb,
                            seed += 3);
    run_errors();
}
