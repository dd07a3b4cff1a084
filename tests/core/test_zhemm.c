/**
 * @file test_zhemm.c
 * @brief tila_core_zhemm (symm in real precisions) against a GEMM reference.
 * @precisions normal z -> c d s
 *
 * What it proves: C = alpha A B + beta C (left) or alpha B A + beta C (right), A Hermitian
 * with one triangle stored, for empty, 1 x 1, odd and m != n sizes, ld > rows everywhere,
 * complex alpha and beta, and beta = 0 with NaN in C: the result agrees with cblas_zgemm's
 * product with the full Hermitian matrix built from the stored triangle; the other
 * triangle of A (NaN) is not read, nor the imaginary parts of its diagonal (set to junk:
 * a Hermitian diagonal is real), and the rows of C below m are not written.  Bad
 * arguments return -i.
 *
 * Why it suffices: each computed entry is within gamma_{k+2} (|alpha| |A| |B| +
 * |beta| |C|) of the exact one for HEMM as for GEMM (k the order of A), so the two
 * differ by at most about (k + 2) eps (|alpha| ||A||_F ||B||_F + |beta| ||C||_F) in
 * Frobenius norm; the error printed is in units of that and must be <= 4.  A wrong
 * triangle, side or conjugation gives O(1 / eps).
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
#define NAME "core_hemm"
#define TOL 4.0

static void run_one(tila_side_t side, tila_uplo_t uplo, int m, int n, int zero_beta,
                    unsigned long long seed)
{
    int k = side == TILA_LEFT ? m : n, lda = k + 2, ldb = m + 1, ldc = m + 3;
    tila_complex64_t *A = kernel_alloc(PREC, lda, k), *F = kernel_alloc(PREC, k > 0 ? k : 1, k);
    tila_complex64_t *B = kernel_alloc(PREC, ldb, n), *C = kernel_alloc(PREC, ldc, n);
    tila_complex64_t *G = kernel_alloc(PREC, lda, k);
    kernel_fill(PREC, k, k, G, lda, seed);
    /* A: the triangle uplo of G (its diagonal's imaginary parts kept: hemm ignores them),
     * NaN elsewhere; F: the full Hermitian matrix they stand for. */
    for (int j = 0; j < k; j++)
        for (int i = 0; i < k; i++) {
            int stored = uplo == TILA_UPPER ? i <= j : i >= j;
            if (stored) A[(size_t)j * lda + i] = G[(size_t)j * lda + i];
            tila_complex64_t v = stored ? G[(size_t)j * lda + i] : conj(G[(size_t)i * lda + j]);
            F[(size_t)j * k + i] = i == j ? creal(v) : v;
        }
    kernel_fill(PREC, m, n, B, ldb, seed + 1);
    if (!zero_beta) kernel_fill(PREC, m, n, C, ldc, seed + 2);
    tila_complex64_t *C0 = kernel_dup(PREC, ldc, n, C), *Cref = kernel_dup(PREC, ldc, n, C);
    tila_complex64_t alpha = tila_test_zscalar(0.8, -0.3),
                     beta = zero_beta ? 0 : tila_test_zscalar(-1.1, 0.4);
    int rc = tila_core_zhemm(side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc);
    if (m > 0 && n > 0) {
        if (zero_beta)
            for (int j = 0; j < n; j++)
                for (int i = 0; i < m; i++)
                    Cref[(size_t)j * ldc + i] = 0;
        if (side == TILA_LEFT)
            cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, m, CBLAS_SADDR(alpha), F,
                        k, B, ldb, CBLAS_SADDR(beta), Cref, ldc);
        else
            cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, n, CBLAS_SADDR(alpha), B,
                        ldb, F, k, CBLAS_SADDR(beta), Cref, ldc);
    }
    double bound =
        (k + 2) * DBL_EPSILON *
        (cabs(alpha) * tila_test_zfnorm(k, k, F, k > 0 ? k : 1) * tila_test_zfnorm(m, n, B, ldb) +
         (zero_beta ? 0 : cabs(beta) * tila_test_zfnorm(m, n, C0, ldc)));
    double err = kernel_ratio(kernel_dist_fro(PREC, m, n, C, ldc, Cref, ldc), bound);
    int ok = rc == 0 && err <= TOL && kernel_untouched(PREC, m, n, ldc, C, C0);
    kernel_check(ok, NAME, kernel_prec_letter(PREC), err,
                 "side=%c uplo=%c m=%d n=%d lda=%d ldb=%d ldc=%d%s rc=%d", kernel_letter(side),
                 kernel_letter(uplo), m, n, lda, ldb, ldc, zero_beta ? " C=NaN" : "", rc);
    free(A), free(F), free(B), free(C), free(G), free(C0), free(Cref);
}

static void run_errors(void)
{
    tila_complex64_t a[4] = { 0 }, b[4] = { 0 }, c[4] = { 0 };
    tila_side_t L = TILA_LEFT, R = TILA_RIGHT;
    tila_uplo_t U = TILA_UPPER;
    int got[] = {
        tila_core_zhemm((tila_side_t)0, U, 1, 1, 1, a, 1, b, 1, 0, c, 1),
        tila_core_zhemm(L, TILA_GENERAL, 1, 1, 1, a, 1, b, 1, 0, c, 1),
        tila_core_zhemm(L, U, -1, 1, 1, a, 1, b, 1, 0, c, 1),
        tila_core_zhemm(L, U, 1, -1, 1, a, 1, b, 1, 0, c, 1),
        tila_core_zhemm(L, U, 2, 1, 1, a, 1, b, 2, 0, c, 2), /* lda < m */
        tila_core_zhemm(R, U, 1, 2, 1, a, 1, b, 1, 0, c, 1), /* lda < n */
        tila_core_zhemm(L, U, 2, 1, 1, a, 2, b, 1, 0, c, 2), /* ldb < m */
        tila_core_zhemm(L, U, 2, 1, 1, a, 2, b, 2, 0, c, 1), /* ldc < m */
        tila_core_zhemm(L, U, 0, 2, 1, a, 1, b, 1, 0, c, 1), /* valid, empty */
    };
    static const int want[] = { -1, -2, -3, -4, -7, -7, -9, -12, 0 };
    KERNEL_CHECK_CODES(NAME, kernel_prec_letter(PREC), got, want);
}

void tila_test_zhemm_core(const kernel_opts_t *o)
{
    static const int sizes[][2] = { { 0, 3 }, { 3, 0 }, { 1, 1 }, { 7, 5 }, { 17, 33 }, { 33, 9 } };
    static const tila_side_t sides[] = { TILA_LEFT, TILA_RIGHT };
    static const tila_uplo_t uplos[] = { TILA_UPPER, TILA_LOWER };
    unsigned long long seed = o->seed;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int d = 0; d < 2; d++)
            for (int u = 0; u < 2; u++)
                for (int z = 0; z < 2; z++)
                    run_one(sides[d], uplos[u], sizes[s][0], sizes[s][1], z, seed += 3);
    run_errors();
}
