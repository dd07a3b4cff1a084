/**
 * @file test_ztrtri.c
 * @brief tila_core_ztrtri and tila_core_ztrtri_cond: the inverse of a triangular tile as a
 *        full tile, its column sums, cond_1, LAPACK's info.
 * @precisions normal z -> c d s
 *
 * What it proves: for upper and lower, unit and non-unit triangles of orders 0, 1, 2, odd,
 * around 64 and 100, with lda and ldt above n, T = A^-1 with ||A T - I||_F / (n ||A||_F
 * ||T||_F eps) <= 30; T's other triangle is exactly 0 and, for unit A, its diagonal exactly
 * 1; T's rows below n are not written and A's other triangle (and unit diagonal) is not
 * read (NaN there would show in T or the sums); the 2 n column sums are tila_core_zlantr's
 * on A and T to the bit, and cond_1 = tila_core_ztrtri_cond agrees with LAPACKE_zlantr's
 * one norms of A and T within 2 n eps; a NaN sum gives a NaN cond; an exact zero at a_kk
 * returns k (LAPACKE_ztrtri's info); bad arguments return -i.
 *
 * Why it suffices: LAPACK's TRTRI inverts a triangle with a residual |A X - I| <= c_n u
 * |A| |X| (Du Croz and Higham, 1992), so the scaled residual is O(1) on these well
 * conditioned triangles (tila_test_ztriangle) and O(1 / eps) for a wrong triangle, copy
 * or leading dimension.  The sums are computed by the norm kernel in its fixed order, so
 * equal bits is the right check; LAPACK sums in another order, hence 2 n eps there.
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
#define NAME "core_trtri"
#define TOL 30.0

static void run_one(tila_uplo_t uplo, tila_diag_t diag, int n, unsigned long long seed)
{
    int lda = n + 2, ldt = n + 3, unit = diag == TILA_UNIT;
    tila_complex64_t *A = kernel_alloc(PREC, lda, n), *T = kernel_alloc(PREC, ldt, n);
    tila_test_ztriangle(uplo, diag, n, A, lda, seed); /* the other triangle NaN */
    tila_complex64_t *T0 = kernel_dup(PREC, ldt, n, T);
    double *sums = malloc(sizeof *sums * (size_t)(2 * n + 1));
    int rc = tila_core_ztrtri(uplo, diag, n, A, lda, T, ldt, sums);

    /* F = A's triangle as a full matrix (unit: ones on the diagonal); R = F T - I. */
    tila_complex64_t *F = kernel_alloc(PREC, n > 0 ? n : 1, n), *R = kernel_alloc(PREC, n, n);
    int zeros = 1;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            F[(size_t)j * n + i] = i == j && unit                   ? 1
                                   : kernel_in_triangle(uplo, i, j) ? A[(size_t)j * lda + i]
                                                                    : 0;
            R[(size_t)j * n + i] = i == j ? -1 : 0;
            tila_complex64_t t = T[(size_t)j * ldt + i];
            if (!kernel_in_triangle(uplo, i, j)) zeros &= t == 0;
            if (i == j && unit) zeros &= t == 1;
        }
    tila_complex64_t one = 1;
    if (n > 0)
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, CBLAS_SADDR(one), F, n, T,
                    ldt, CBLAS_SADDR(one), R, n);
    double err = kernel_ratio(tila_test_zfnorm(n, n, R, n), n * tila_test_zfnorm(n, n, F, n) *
                                                                tila_test_zfnorm(n, n, T, ldt) *
                                                                DBL_EPSILON);
    /* The sums, against the norm kernel's and LAPACK's. */
    double *want = calloc((size_t)(2 * n + 1), sizeof *want);
    tila_core_zlantr(TILA_NORM_ONE, uplo, diag, n, n, A, lda, want);
    tila_core_zlantr(TILA_NORM_ONE, uplo, TILA_NONUNIT, n, n, T, ldt, want + n);
    int same_sums = rc != 0 || !memcmp(sums, want, sizeof *sums * (size_t)(2 * n));
    double cond_err = 0;
    if (n > 0 && rc == 0) {
        double lapack = LAPACKE_zlantr(LAPACK_COL_MAJOR, '1', kernel_letter(uplo),
                                       kernel_letter(diag), n, n, A, lda) *
                        LAPACKE_zlange(LAPACK_COL_MAJOR, '1', n, n, T, ldt);
        cond_err = fabs(tila_core_ztrtri_cond(diag, n, sums) - lapack) / (lapack * DBL_EPSILON);
    }
    int ok = rc == 0 && err <= TOL && zeros && same_sums && cond_err <= 2.0 * n &&
             kernel_untouched(PREC, n, n, ldt, T, T0);
    kernel_check(ok, NAME, kernel_prec_letter(PREC), err,
                 "uplo=%c diag=%c n=%d lda=%d ldt=%d rc=%d other-triangle=%s sums=%s "
                 "cond-vs-lapack=%.2g",
                 kernel_letter(uplo), kernel_letter(diag), n, lda, ldt, rc, zeros ? "0" : "WRONG",
                 same_sums ? "lantr's" : "DIFFER", cond_err);
    free(A), free(T), free(T0), free(F), free(R), free(sums), free(want);
}

/* An exact zero at a_kk (k from 1): the kernel returns k, as LAPACKE_ztrtri does. */
static void run_singular(tila_uplo_t uplo, int n, int k, unsigned long long seed)
{
    int lda = n + 1;
    tila_complex64_t *A = kernel_alloc(PREC, lda, n), *T = kernel_alloc(PREC, n, n);
    tila_test_ztriangle(uplo, TILA_NONUNIT, n, A, lda, seed);
    A[(size_t)(k - 1) * lda + k - 1] = 0;
    tila_complex64_t *C = kernel_alloc(PREC, n, n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            C[(size_t)j * n + i] = kernel_in_triangle(uplo, i, j) ? A[(size_t)j * lda + i] : 0;
    double sums[2 * 9];
    int rc = tila_core_ztrtri(uplo, TILA_NONUNIT, n, A, lda, T, n, sums);
    int info = LAPACKE_ztrtri(LAPACK_COL_MAJOR, kernel_letter(uplo), 'N', n, C, n);
    kernel_check(rc == k && rc == info, NAME, kernel_prec_letter(PREC), 0,
                 "uplo=%c n=%d zero at a(%d,%d): rc=%d LAPACKE info=%d", kernel_letter(uplo), n, k,
                 k, rc, info);
    free(A), free(T), free(C);
}

/* cond_1 from sums with a NaN is NaN, whatever the other sums. */
static void run_nan(void)
{
    double sums[6] = { 1, 2, 3, 4, 5, 6 };
    int ok = tila_core_ztrtri_cond(TILA_NONUNIT, 3, sums) == 3.0 * 6.0;
    sums[4] = NAN;
    ok &= isnan(tila_core_ztrtri_cond(TILA_NONUNIT, 3, sums));
    sums[4] = 5;
    sums[0] = NAN;
    ok &= isnan(tila_core_ztrtri_cond(TILA_UNIT, 3, sums));
    kernel_check(ok, NAME, kernel_prec_letter(PREC), 0,
                 "cond from sums: 3 x 6 = 18, NaN when a sum of A or of T is NaN");
}

static void run_errors(void)
{
    tila_complex64_t a[4] = { 0 }, t[4] = { 0 };
    double s[4];
    tila_uplo_t L = TILA_LOWER;
    tila_diag_t N = TILA_NONUNIT;
    int got[] = {
        tila_core_ztrtri(TILA_GENERAL, N, 1, a, 1, t, 1, s),
        tila_core_ztrtri(L, (tila_diag_t)0, 1, a, 1, t, 1, s),
        tila_core_ztrtri(L, N, -1, a, 1, t, 1, s),
        tila_core_ztrtri(L, N, 2, a, 1, t, 2, s),
        tila_core_ztrtri(L, N, 2, a, 2, t, 1, s),
        tila_core_ztrtri(L, N, 0, a, 1, t, 1, s),
    };
    static const int want[] = { -1, -2, -3, -5, -7, 0 };
    KERNEL_CHECK_CODES(NAME, kernel_prec_letter(PREC), got, want);
}

void tila_test_ztrtri_core(const kernel_opts_t *o)
{
    static const int orders[] = { 0, 1, 2, 7, 33, 64, 65, 100 };
    static const tila_uplo_t uplos[] = { TILA_UPPER, TILA_LOWER };
    static const tila_diag_t diags[] = { TILA_NONUNIT, TILA_UNIT };
    unsigned long long seed = o->seed;
    for (int u = 0; u < 2; u++) {
        for (int d = 0; d < 2; d++)
            for (size_t s = 0; s < sizeof orders / sizeof orders[0]; s++)
                run_one(uplos[u], diags[d], orders[s], seed++);
        run_singular(uplos[u], 9, 1, seed++);
        run_singular(uplos[u], 9, 5, seed++);
    }
    run_nan();
    run_errors();
}
