/**
 * @file test_zpotrf.c
 * @brief tila_core_zpotrf: Cholesky residual, untouched triangle, LAPACK's info.
 * @precisions normal z -> c d s
 *
 * What it proves: for upper and lower storage, orders 0, 1, 2, odd, around 64 and 100,
 * with lda > n, the factor of a Hermitian positive definite matrix satisfies
 * ||A - L L^H||_F / (n ||A||_F eps) <= 30 (U^H U for upper), the other triangle (NaN,
 * so it is not read either) and the rows below n are not written; for a matrix whose
 * leading minor of order k is the first not positive definite (k = 1, 4, 7), the kernel
 * returns k, as LAPACKE_zpotrf does.  Bad arguments return -i.
 *
 * Why it suffices: Cholesky is backward stable, the computed factor reproducing A within
 * a small multiple of n eps ||A|| (Higham, 10.1), so the scaled residual is O(1) when the
 * kernel is right and O(1 / eps) when a factor, a triangle or a leading dimension is
 * wrong; 30 is the threshold of LAPACK's own test suite.  The factor is unique, so a
 * correct residual means the correct factor.
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
#define NAME "core_potrf"
#define TOL 30.0

/* 1 when the entries of the ld x n arrays outside the uplo triangle of the leading n x n
 * block (the other triangle and the rows below n) have the same bits. */
static int outside_untouched(tila_uplo_t uplo, int n, int ld, const tila_complex64_t *A,
                             const tila_complex64_t *A0)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < ld; i++)
            if ((i >= n || !kernel_in_triangle(uplo, i, j)) &&
                memcmp(&A[(size_t)j * ld + i], &A0[(size_t)j * ld + i], sizeof *A))
                return 0;
    return 1;
}

/* H = B B^H / n + I made exactly Hermitian (n x n, ld n): eigenvalues in [1, 1 + O(1)]. */
static tila_complex64_t *hpd(int n, unsigned long long seed)
{
    tila_complex64_t *B = kernel_alloc(PREC, n, n), *H = kernel_alloc(PREC, n, n);
    tila_complex64_t a = n > 0 ? 1.0 / n : 1, zero = 0;
    kernel_fill(PREC, n, n, B, n, seed);
    if (n > 0)
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, n, n, n, CBLAS_SADDR(a), B, n, B,
                    n, CBLAS_SADDR(zero), H, n);
    for (int j = 0; j < n; j++) {
        for (int i = j + 1; i < n; i++)
#if defined(COMPLEX)
            H[(size_t)i * n + j] = conj(H[(size_t)j * n + i]);
#else
            H[(size_t)i * n + j] = H[(size_t)j * n + i];
#endif
        H[(size_t)j * n + j] = creal(H[(size_t)j * n + j]) + 1;
    }
    free(B);
    return H;
}

static void run_one(tila_uplo_t uplo, int n, unsigned long long seed)
{
    int lda = n + 3;
    tila_complex64_t *H = hpd(n, seed), *A = kernel_alloc(PREC, lda, n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            if (kernel_in_triangle(uplo, i, j)) A[(size_t)j * lda + i] = H[(size_t)j * n + i];
    tila_complex64_t *A0 = kernel_dup(PREC, lda, n, A);

    int rc = tila_core_zpotrf(uplo, n, A, lda);
    /* D = H - L L^H (lower) or H - U^H U (upper), L or U the triangle of A. */
    tila_complex64_t *L = kernel_alloc(PREC, n, n), *D = kernel_dup(PREC, n, n, H);
    tila_complex64_t one = 1, mone = -1;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            L[(size_t)j * n + i] = kernel_in_triangle(uplo, i, j) ? A[(size_t)j * lda + i] : 0;
    if (n > 0)
        cblas_zgemm(CblasColMajor, uplo == TILA_LOWER ? CblasNoTrans : CblasConjTrans,
                    uplo == TILA_LOWER ? CblasConjTrans : CblasNoTrans, n, n, n, CBLAS_SADDR(mone),
                    L, n, L, n, CBLAS_SADDR(one), D, n);
    double err =
        kernel_ratio(tila_test_zfnorm(n, n, D, n), n * tila_test_zfnorm(n, n, H, n) * DBL_EPSILON);
    int ok = rc == 0 && err <= TOL && outside_untouched(uplo, n, lda, A, A0);
    kernel_check(ok, NAME, kernel_prec_letter(PREC), err, "uplo=%c n=%d lda=%d rc=%d",
                 kernel_letter(uplo), n, lda, rc);
    free(H);
    free(A);
    free(A0);
    free(L);
    free(D);
}

/* The identity with -1 at (k - 1, k - 1) and small off-diagonal entries: the leading
 * minor of order k is the first that is not positive definite, so info = k. */
static void run_not_spd(tila_uplo_t uplo, int n, int k, unsigned long long seed)
{
    int lda = n + 1;
    tila_complex64_t *A = kernel_alloc(PREC, lda, n);
    kernel_fill(PREC, n, n, A, lda, seed);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            tila_complex64_t *a = &A[(size_t)j * lda + i];
            *a = i != j ? *a / (4 * n) : i == k - 1 ? -1 : 1;
        }
    tila_complex64_t *Aref = kernel_dup(PREC, lda, n, A);
    int rc = tila_core_zpotrf(uplo, n, A, lda);
    int info = LAPACKE_zpotrf_work(LAPACK_COL_MAJOR, uplo == TILA_UPPER ? 'U' : 'L', n, Aref, lda);
    kernel_check(rc == k && rc == info, NAME, kernel_prec_letter(PREC), 0,
                 "uplo=%c n=%d not positive definite at %d: rc=%d LAPACKE info=%d",
                 kernel_letter(uplo), n, k, rc, info);
    free(A);
    free(Aref);
}

static void run_errors(void)
{
    tila_complex64_t a[4] = { 0 };
    int got[] = {
        tila_core_zpotrf(TILA_GENERAL, 1, a, 1),
        tila_core_zpotrf(TILA_LOWER, -1, a, 1),
        tila_core_zpotrf(TILA_UPPER, 2, a, 1),
        tila_core_zpotrf(TILA_UPPER, 0, a, 1),
    };
    static const int want[] = { -1, -2, -4, 0 };
    KERNEL_CHECK_CODES(NAME, kernel_prec_letter(PREC), got, want);
}

void tila_test_zpotrf_core(const kernel_opts_t *o)
{
    static const int orders[] = { 0, 1, 2, 7, 33, 64, 65, 100 };
    static const tila_uplo_t uplos[] = { TILA_UPPER, TILA_LOWER };
    unsigned long long seed = o->seed;
    for (int u = 0; u < 2; u++) {
        for (size_t s = 0; s < sizeof orders / sizeof orders[0]; s++)
            run_one(uplos[u], orders[s], seed++);
        run_not_spd(uplos[u], 7, 1, seed++);
        run_not_spd(uplos[u], 7, 4, seed++);
        run_not_spd(uplos[u], 7, 7, seed++);
    }
    run_errors();
}
