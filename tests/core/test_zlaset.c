/**
 * @file test_zlaset.c
 * @brief tila_core_zlaset against LAPACKE_zlaset.
 * @precisions normal z -> c d s
 *
 * What it proves: for the strictly upper part, the strictly lower part and the whole
 * matrix (alpha off the diagonal, beta on it), for m < n, m > n, square, 1 x 1 and empty
 * shapes with lda larger than m, and complex alpha and beta, the kernel leaves A's whole
 * lda x n array with the same bits as LAPACKE_zlaset leaves a copy of the same A: the
 * other triangle and the rows below m untouched.  Bad arguments return -i.
 *
 * Why it suffices: setting entries is exact, so bit equality with LAPACK's result over the
 * whole array is the whole contract.
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
#define NAME "core_laset"

static void run_one(tila_uplo_t uplo, int m, int n, unsigned long long seed)
{
    int lda = m + 2;
    tila_complex64_t alpha = tila_test_zscalar(0.25, -2), beta = tila_test_zscalar(3, 0.5);
    tila_complex64_t *A = kernel_alloc(PREC, lda, n);
    kernel_fill(PREC, lda, n, A, lda, seed);
    tila_complex64_t *Aref = kernel_dup(PREC, lda, n, A);

    int rc = tila_core_zlaset(uplo, m, n, alpha, beta, A, lda);
    if (m > 0 && n > 0)
        LAPACKE_zlaset_work(LAPACK_COL_MAJOR, kernel_lapack_uplo(uplo), m, n, alpha, beta, Aref,
                            lda);
    double err = kernel_diff_fro(PREC, lda, n, A, lda, Aref, lda);
    int ok = rc == 0 && kernel_equal(PREC, lda, n, A, lda, Aref, lda);
    kernel_check(ok, NAME, kernel_prec_letter(PREC), err, "uplo=%c m=%d n=%d lda=%d rc=%d",
                 kernel_letter(uplo), m, n, lda, rc);
    free(A);
    free(Aref);
}

static void run_errors(void)
{
    tila_complex64_t a[4] = { 0 };
    tila_uplo_t G = TILA_GENERAL;
    int got[] = {
        tila_core_zlaset((tila_uplo_t)0, 1, 1, 0, 1, a, 1),
        tila_core_zlaset(G, -1, 1, 0, 1, a, 1),
        tila_core_zlaset(G, 1, -1, 0, 1, a, 1),
        tila_core_zlaset(G, 2, 1, 0, 1, a, 1),
        tila_core_zlaset(TILA_LOWER, 3, 0, 0, 1, a, 3),
    };
    static const int want[] = { -1, -2, -3, -7, 0 };
    KERNEL_CHECK_CODES(NAME, kernel_prec_letter(PREC), got, want);
}

void tila_test_zlaset_core(const kernel_opts_t *o)
{
    kernel_sweep_uplo_shapes(run_one, o->seed);
    run_errors();
}
