/**
 * @file test_zlacpy.c
 * @brief tila_core_zlacpy against LAPACKE_zlacpy.
 * @precisions normal z -> c d s
 *
 * What it proves: for the upper trapezoid, the lower trapezoid and the whole matrix, for
 * m < n, m > n, square, 1 x 1 and empty shapes with lda and ldb larger than m, the kernel
 * leaves B's whole ldb x n array with the same bits as LAPACKE_zlacpy leaves a copy of the
 * same B: the trapezoid copied, the entries outside it and the rows below m untouched.
 * Bad arguments return -i.
 *
 * Why it suffices: a copy is exact, so bit equality with LAPACK's copy, over every entry
 * of the destination array (not only the trapezoid), is the whole contract.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <complex.h>
#include <lapacke.h>
#include <stdlib.h>

#include "core_z.h"
#include "kerneltests_z.h"

#define PREC TILA_COMPLEX64
#define NAME "core_lacpy"

static void run_one(tila_uplo_t uplo, int m, int n, unsigned long long seed)
{
    int lda = m + 2, ldb = m + 3;
    tila_complex64_t *A = kernel_alloc(PREC, lda, n), *B = kernel_alloc(PREC, ldb, n);
    kernel_fill(PREC, m, n, A, lda, seed);
    kernel_fill(PREC, ldb, n, B, ldb, seed + 1);
    tila_complex64_t *Bref = kernel_dup(PREC, ldb, n, B);

    int rc = tila_core_zlacpy(uplo, m, n, A, lda, B, ldb);
    if (m > 0 && n > 0)
        LAPACKE_zlacpy_work(LAPACK_COL_MAJOR, kernel_lapack_uplo(uplo), m, n, A, lda, Bref, ldb);
    double err = kernel_diff_fro(PREC, ldb, n, B, ldb, Bref, ldb);
    int ok = rc == 0 && kernel_equal(PREC, ldb, n, B, ldb, Bref, ldb);
    kernel_check(ok, NAME, kernel_prec_letter(PREC), err, "uplo=%c m=%d n=%d lda=%d ldb=%d rc=%d",
                 kernel_letter(uplo), m, n, lda, ldb, rc);
    free(A);
    free(B);
    free(Bref);
}

static void run_errors(void)
{
    tila_complex64_t a[4] = { 0 }, b[4] = { 0 };
    tila_uplo_t G = TILA_GENERAL;
    int got[] = {
        tila_core_zlacpy((tila_uplo_t)0, 1, 1, a, 1, b, 1),
        tila_core_zlacpy(G, -1, 1, a, 1, b, 1),
        tila_core_zlacpy(G, 1, -1, a, 1, b, 1),
        tila_core_zlacpy(G, 2, 1, a, 1, b, 2),
        tila_core_zlacpy(G, 2, 1, a, 2, b, 1),
        tila_core_zlacpy(TILA_UPPER, 0, 3, a, 1, b, 1),
    };
    static const int want[] = { -1, -2, -3, -5, -7, 0 };
    KERNEL_CHECK_CODES(NAME, kernel_prec_letter(PREC), got, want);
}

void tila_test_zlacpy_core(const kernel_opts_t *o)
{
    kernel_sweep_uplo_shapes(run_one, o->seed);
    run_errors();
}
