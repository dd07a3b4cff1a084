/**
 * @file test_zlascal.c
 * @brief tila_core_zlascal against the entrywise products alpha a_ij.
 * @precisions normal z -> c d s
 *
 * What it proves: A = alpha A for complex, real and zero alpha, for 1 x 1, odd and m != n
 * shapes, on both of the kernel's paths (lda = m: one scal over the whole array; lda > m:
 * one per column, the rows below m untouched), and for empty shapes (nothing touched).
 * Bad arguments return -i.
 *
 * Why it suffices: each entry is one product, within sqrt(2) gamma_2 |alpha| |a| of the
 * exact one (Higham, 3.6) whichever way BLAS rounds it, so the kernel's result and the
 * reference computed here entry by entry differ in Frobenius norm by less than
 * 4 eps |alpha| ||A||_F; the error printed is in units of eps |alpha| ||A||_F and must be
 * <= 4.  A skipped column or a wrong stride gives O(1 / eps).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "core_z.h"
#include "kerneltests_z.h"

#define PREC TILA_COMPLEX64
#define NAME "core_lascal"
#define TOL 4.0

static void run_one(int m, int n, int lda, tila_complex64_t alpha, unsigned long long seed)
{
    tila_complex64_t *A = kernel_alloc(PREC, lda, n);
    kernel_fill(PREC, m, n, A, lda, seed);
    tila_complex64_t *A0 = kernel_dup(PREC, lda, n, A), *Aref = kernel_dup(PREC, lda, n, A);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            Aref[(size_t)j * lda + i] = alpha * A0[(size_t)j * lda + i];

    int rc = tila_core_zlascal(m, n, alpha, A, lda);
    double err = kernel_ratio(kernel_dist_fro(PREC, m, n, A, lda, Aref, lda),
                              cabs(alpha) * tila_test_zfnorm(m, n, A0, lda) * DBL_EPSILON);
    int ok = rc == 0 && err <= TOL && kernel_untouched(PREC, m, n, lda, A, A0);
    kernel_check(ok, NAME, kernel_prec_letter(PREC), err, "m=%d n=%d lda=%d alpha=(%g,%g) rc=%d", m,
                 n, lda, creal(alpha), cimag(alpha), rc);
    free(A);
    free(A0);
    free(Aref);
}

static void run_errors(void)
{
    tila_complex64_t a[4] = { 0 };
    int got[] = {
        tila_core_zlascal(-1, 1, 2, a, 1),
        tila_core_zlascal(1, -1, 2, a, 1),
        tila_core_zlascal(2, 1, 2, a, 1),
        tila_core_zlascal(0, 3, 2, a, 1),
    };
    static const int want[] = { -1, -2, -5, 0 };
    KERNEL_CHECK_CODES(NAME, kernel_prec_letter(PREC), got, want);
}

void tila_test_zlascal_core(const kernel_opts_t *o)
{
    /* m, n, lda: lda = m takes the one-scal path, lda > m the per-column one. */
    static const int sizes[][3] = { { 0, 4, 1 }, { 5, 0, 5 },    { 1, 1, 1 },    { 7, 5, 7 },
                                    { 7, 5, 9 }, { 33, 17, 33 }, { 33, 17, 40 }, { 64, 3, 64 } };
    tila_complex64_t alphas[3] = { tila_test_zscalar(0.6, -1.3), 2.5, 0 };
    unsigned long long seed = o->seed;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int a = 0; a < 3; a++)
            run_one(sizes[s][0], sizes[s][1], sizes[s][2], alphas[a], seed += 1);
    run_errors();
}
