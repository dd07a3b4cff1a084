/**
 * @file test_zherk.c
 * @brief tila_core_zherk (syrk in real precisions) against a GEMM reference.
 * @precisions normal z -> c d s
 *
 * What it proves: C = alpha op(A) op(A)^H + beta C on the upper or lower triangle of C,
 * op(A) = A (n x k) or A^H (A k x n; A^T too in real arithmetic), for empty, 1 x 1, odd,
 * n < k and n > k sizes, lda > rows, ldc > n, real alpha and beta, and beta = 0 with NaN
 * in C (C must not be read then): the triangle agrees with cblas_zgemm's full product;
 * the other triangle (NaN, so it is not read either) and the rows below n are not
 * written, an empty C is not touched.  Bad arguments return -i (op = A^T in complex).
 *
 * Why it suffices: each computed entry is within gamma_{k+2} (|alpha| |op(A)| |op(A)^H| +
 * |beta| |C|) of the exact one, for HERK as for GEMM, so the two results differ on the
 * triangle by at most about (k + 2) eps (|alpha| ||A||_F^2 + |beta| ||C||_F) in Frobenius
 * norm; the error printed is in units of that and must be <= 4.  The imaginary parts of
 * the diagonal are compared too: exactly Hermitian input gives a real diagonal.
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
#include <string.h>

#include "core_z.h"
#include "kerneltests_z.h"

#define PREC TILA_COMPLEX64
#define NAME "core_herk"
#define TOL 4.0

static void run_one(tila_uplo_t uplo, tila_trans_t trans, int n, int k, int zero_beta,
                    unsigned long long seed)
{
    int am = trans == TILA_NOTRANS ? n : k, an = trans == TILA_NOTRANS ? k : n;
    int lda = am + 2, ldc = n + 3, outside_ok = 1;
    double alpha = 0.7, beta = zero_beta ? 0 : -1.3;
    tila_complex64_t *A = kernel_alloc(PREC, lda, an), *C = kernel_alloc(PREC, ldc, n);
    kernel_fill(PREC, am, an, A, lda, seed);
    /* C: a Hermitian triangle (real diagonal), NaN elsewhere; all NaN when beta = 0. */
    if (!zero_beta) {
        tila_complex64_t *F = kernel_alloc(PREC, ldc, n);
        kernel_fill(PREC, n, n, F, ldc, seed + 1);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                if (kernel_in_triangle(uplo, i, j))
                    C[(size_t)j * ldc + i] =
                        i == j ? creal(F[(size_t)j * ldc + i]) : F[(size_t)j * ldc + i];
        free(F);
    }
    tila_complex64_t *C0 = kernel_dup(PREC, ldc, n, C), *Cref = kernel_dup(PREC, ldc, n, C);

    int rc = tila_core_zherk(uplo, trans, n, k, alpha, A, lda, beta, C, ldc);
    /* Reference on the full n x n: Cref = alpha op(A) op(A)^H + beta C0. */
    tila_complex64_t za = alpha, zb = beta;
    if (n > 0)
        cblas_zgemm(CblasColMajor, trans == TILA_NOTRANS ? CblasNoTrans : CblasConjTrans,
                    trans == TILA_NOTRANS ? CblasConjTrans : CblasNoTrans, n, n, k, CBLAS_SADDR(za),
                    A, lda, A, lda, CBLAS_SADDR(zb), Cref, ldc);
    double dist = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < ldc; i++) {
            size_t e = (size_t)j * ldc + i;
            if (i < n && kernel_in_triangle(uplo, i, j)) {
                double d = cabs(C[e] - Cref[e]);
                dist += d * d;
            }
            else
                outside_ok &= !memcmp(&C[e], &C0[e], sizeof *C);
        }
    double bound =
        (k + 2) * DBL_EPSILON *
        (fabs(alpha) * tila_test_zfnorm(am, an, A, lda) * tila_test_zfnorm(am, an, A, lda) +
         (zero_beta || n == 0
              ? 0
              : fabs(beta) * LAPACKE_zlanhe_work(LAPACK_COL_MAJOR, 'F', kernel_letter(uplo), n, C0,
                                                 ldc, NULL)));
    double err = kernel_ratio(sqrt(dist), bound);
    int ok = rc == 0 && err <= TOL && outside_ok;
    kernel_check(ok, NAME, kernel_prec_letter(PREC), err,
                 "uplo=%c trans=%c n=%d k=%d lda=%d ldc=%d alpha=%g beta=%g%s rc=%d",
                 kernel_letter(uplo), kernel_letter(trans), n, k, lda, ldc, alpha, beta,
                 zero_beta ? " C=NaN" : "", rc);
    free(A);
    free(C);
    free(C0);
    free(Cref);
}

static void run_errors(void)
{
    tila_complex64_t a[4] = { 0 }, c[4] = { 0 };
    tila_uplo_t U = TILA_UPPER;
    tila_trans_t N = TILA_NOTRANS, C = TILA_CONJTRANS;
    int got[] = {
        tila_core_zherk(TILA_GENERAL, N, 1, 1, 1, a, 1, 0, c, 1),
        tila_core_zherk(U, (tila_trans_t)0, 1, 1, 1, a, 1, 0, c, 1),
#if defined(COMPLEX)
        tila_core_zherk(U, TILA_TRANS, 1, 1, 1, a, 1, 0, c, 1), /* A^T: not Hermitian */
#endif
        tila_core_zherk(U, N, -1, 1, 1, a, 1, 0, c, 1),
        tila_core_zherk(U, N, 1, -1, 1, a, 1, 0, c, 1),
        tila_core_zherk(U, N, 2, 1, 1, a, 1, 0, c, 2), /* lda < n */
        tila_core_zherk(U, C, 1, 2, 1, a, 1, 0, c, 1), /* lda < k */
        tila_core_zherk(U, N, 2, 1, 1, a, 2, 0, c, 1), /* ldc < n */
        tila_core_zherk(U, N, 0, 2, 1, a, 1, 0, c, 1), /* valid, empty */
    };
    /* One row of codes, the complex-only one inside #if. */
    /* clang-format off */
    static const int want[] = { -1, -2,
#if defined(COMPLEX)
                                -2,
#endif
                                -3, -4, -7, -7, -10, 0 };
    /* clang-format on */
    KERNEL_CHECK_CODES(NAME, kernel_prec_letter(PREC), got, want);
}

void tila_test_zherk_core(const kernel_opts_t *o)
{
    static const int sizes[][2] = {
        { 0, 3 }, { 3, 0 }, { 1, 1 }, { 7, 5 }, { 17, 33 }, { 33, 17 }
    };
    static const tila_uplo_t uplos[] = { TILA_UPPER, TILA_LOWER };
    tila_trans_t trans[3];
    int ntrans = tila_test_zherm_ops(trans);
    unsigned long long seed = o->seed;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int u = 0; u < 2; u++)
            for (int t = 0; t < ntrans; t++)
                for (int zb = 0; zb < 2; zb++)
                    run_one(uplos[u], trans[t], sizes[s][0], sizes[s][1], zb, seed += 2);
    run_errors();
}
