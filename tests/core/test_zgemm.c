/**
 * @file test_zgemm.c
 * @brief tila_core_zgemm against cblas_zgemm; tila_core_zgemm2 against two of them.
 * @precisions normal z -> c d s
 *
 * What it proves: for op(A) and op(B) each of A, A^T, A^H, for empty sizes (m, n or k = 0),
 * 1 x 1, odd and unequal m, n, k, leading dimensions larger than the rows, complex alpha
 * and beta, and beta = 0 with NaN in C (C must not be read then), the kernel's C agrees
 * with CBLAS's on the same inputs, the rows between m and ldc are not written, an empty C
 * is not touched, and bad arguments return -i.
 *
 * tila_core_zgemm2 (A B1 and A^H B2 of one tile, A read once in column panels for few
 * columns) the same way, each of its C1 and C2 against its own cblas_zgemm: sizes whose
 * panels split k into several (m = 2000: 4 to 13 panels by the precision) and one,
 * n = 1 (the matrix-vector path), n above the panels' limit (two GEMMs), empty m, n, k,
 * beta = 0 with NaN in C1 and C2.
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

/* C1 = alpha1 A B1 + beta1 C1, C2 = alpha2 A^H B2 + beta2 C2 for an m x k A, each C
 * against cblas_zgemm within gemm's bound (its inner size m or k). */
static double gemm2_error(int m, int n, int k, tila_complex64_t alpha, const tila_complex64_t *A,
                          int lda, const tila_complex64_t *B, int ldb, tila_complex64_t beta,
                          const tila_complex64_t *C0, const tila_complex64_t *C, int ldc,
                          int conj)
{
    int am = conj ? k : m, an = conj ? m : k, bm = conj ? m : k;
    tila_complex64_t *Cref = kernel_dup(PREC, ldc, n, C0);
    if (am > 0 && n > 0)
        cblas_zgemm(CblasColMajor, conj ? CblasConjTrans : CblasNoTrans, CblasNoTrans, am, n, an,
                    CBLAS_SADDR(alpha), A, lda, B, ldb, CBLAS_SADDR(beta), Cref, ldc);
    double bound = (an + 2) * DBL_EPSILON *
                   (cabs(alpha) * tila_test_zfnorm(m, k, A, lda) * tila_test_zfnorm(bm, n, B, ldb) +
                    (beta == 0 ? 0 : cabs(beta) * tila_test_zfnorm(am, n, C0, ldc)));
    double err = kernel_ratio(kernel_dist_fro(PREC, am, n, C, ldc, Cref, ldc), bound);
    if (!kernel_untouched(PREC, am, n, ldc, C, C0)) err = INFINITY;
    free(Cref);
    return err;
}

static void run_gemm2(int m, int n, int k, int zero_beta, unsigned long long seed)
{
    int lda = m + 2, ldb1 = k + 1, ldc1 = m + 3, ldb2 = m + 2, ldc2 = k + 1;
    tila_complex64_t *A = kernel_alloc(PREC, lda, k), *B1 = kernel_alloc(PREC, ldb1, n);
    tila_complex64_t *B2 = kernel_alloc(PREC, ldb2, n), *C1 = kernel_alloc(PREC, ldc1, n);
    tila_complex64_t *C2 = kernel_alloc(PREC, ldc2, n);
    tila_complex64_t alpha1 = tila_test_zscalar(-1, 0.25), alpha2 = tila_test_zscalar(0.5, -0.75);
    tila_complex64_t beta1 = zero_beta ? 0 : tila_test_zscalar(1, -0.5);
    tila_complex64_t beta2 = zero_beta ? 0 : tila_test_zscalar(-0.25, 1);
    kernel_fill(PREC, m, k, A, lda, seed);
    kernel_fill(PREC, k, n, B1, ldb1, seed + 1);
    kernel_fill(PREC, m, n, B2, ldb2, seed + 2);
    if (!zero_beta) {
        kernel_fill(PREC, m, n, C1, ldc1, seed + 3);
        kernel_fill(PREC, k, n, C2, ldc2, seed + 4);
    }
    tila_complex64_t *C10 = kernel_dup(PREC, ldc1, n, C1), *C20 = kernel_dup(PREC, ldc2, n, C2);
    int rc = tila_core_zgemm2(m, n, k, A, lda, alpha1, B1, ldb1, beta1, C1, ldc1, alpha2, B2, ldb2,
                              beta2, C2, ldc2);
    double e1 = gemm2_error(m, n, k, alpha1, A, lda, B1, ldb1, beta1, C10, C1, ldc1, 0);
    double e2 = gemm2_error(m, n, k, alpha2, A, lda, B2, ldb2, beta2, C20, C2, ldc2, 1);
    double err = e1 > e2 || e1 != e1 ? e1 : e2;
    kernel_check(rc == 0 && err <= TOL, "core_gemm2", kernel_prec_letter(PREC), err,
                 "m=%d n=%d k=%d beta=%s rc=%d errors=%.3g,%.3g", m, n, k,
                 zero_beta ? "0(C=NaN)" : "complex", rc, e1, e2);
    free(A);
    free(B1);
    free(B2);
    free(C1);
    free(C2);
    free(C10);
    free(C20);
}

static void run_gemm2_errors(void)
{
    tila_complex64_t a[4] = { 0 }, c[4] = { 0 }, d[4] = { 0 };
    int got[] = {
        tila_core_zgemm2(-1, 1, 1, a, 1, 1, a, 1, 0, c, 1, 1, a, 1, 0, d, 1),
        tila_core_zgemm2(1, -1, 1, a, 1, 1, a, 1, 0, c, 1, 1, a, 1, 0, d, 1),
        tila_core_zgemm2(1, 1, -1, a, 1, 1, a, 1, 0, c, 1, 1, a, 1, 0, d, 1),
        tila_core_zgemm2(2, 1, 1, a, 1, 1, a, 1, 0, c, 2, 1, a, 2, 0, d, 1), /* lda < m */
        tila_core_zgemm2(1, 1, 2, a, 1, 1, a, 1, 0, c, 1, 1, a, 1, 0, d, 2), /* ldb1 < k */
        tila_core_zgemm2(2, 1, 1, a, 2, 1, a, 1, 0, c, 1, 1, a, 2, 0, d, 1), /* ldc1 < m */
        tila_core_zgemm2(2, 1, 1, a, 2, 1, a, 1, 0, c, 2, 1, a, 1, 0, d, 1), /* ldb2 < m */
        tila_core_zgemm2(1, 1, 2, a, 1, 1, a, 2, 0, c, 1, 1, a, 1, 0, d, 1), /* ldc2 < k */
        tila_core_zgemm2(0, 0, 0, a, 1, 1, a, 1, 0, c, 1, 1, a, 1, 0, d, 1), /* valid, empty */
    };
    static const int want[] = { -1, -2, -3, -5, -8, -11, -14, -17, 0 };
    KERNEL_CHECK_CODES("core_gemm2", kernel_prec_letter(PREC), got, want);
}

void tila_test_zgemm2_core(const kernel_opts_t *o)
{
    /* m = 2000 with k = 100: several panels; n = 17: two GEMMs; n = 1: gemv's path */
    static const int sizes[][3] = { { 0, 3, 5 },   { 5, 0, 3 },   { 4, 3, 0 },      { 1, 1, 1 },
                                    { 7, 3, 5 },   { 33, 1, 29 }, { 2000, 3, 100 }, { 2000, 1, 37 },
                                    { 40, 17, 30 } };
    unsigned long long seed = o->seed;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int zb = 0; zb < 2; zb++)
            run_gemm2(sizes[s][0], sizes[s][1], sizes[s][2], zb, seed += 5);
    run_gemm2_errors();
}
