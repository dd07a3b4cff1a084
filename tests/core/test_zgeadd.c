/**
 * @file test_zgeadd.c
 * @brief tila_core_zgeadd against the entrywise sums alpha a_ij + beta b_ij.
 * @precisions normal z -> c d s
 *
 * What it proves: B = alpha A + beta B for complex alpha and beta, beta = 1 (no scaling
 * pass), beta = 0 with NaN in B (B must not be read then, as in BLAS) and alpha = 0, for
 * 1 x 1, odd and m != n shapes with lda, ldb > m (rows below m untouched) and empty
 * shapes (nothing touched).  Bad arguments return -i.
 *
 * Why it suffices: each entry is two products and a sum, so the kernel's result and the
 * reference computed here entry by entry each lie within (2 sqrt(2) + 1) u (|alpha a| +
 * |beta b|) of the exact value.  The error printed is the largest entrywise difference in
 * units of eps (|alpha| |a| + |beta| |b|) and must be <= 8 (twice that bound, with room
 * for fused multiply-adds); a wrong sign, scalar or entry gives O(1 / eps).
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
#define NAME "core_geadd"
#define TOL 8.0

static void run_one(int m, int n, tila_complex64_t alpha, tila_complex64_t beta,
                    unsigned long long seed)
{
    int lda = m + 1, ldb = m + 2;
    tila_complex64_t *A = kernel_alloc(PREC, lda, n), *B = kernel_alloc(PREC, ldb, n);
    kernel_fill(PREC, m, n, A, lda, seed);
    if (beta != 0) kernel_fill(PREC, m, n, B, ldb, seed + 1); /* else B stays NaN */
    tila_complex64_t *B0 = kernel_dup(PREC, ldb, n, B);

    int rc = tila_core_zgeadd(m, n, alpha, A, lda, beta, B, ldb);
    double err = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            tila_complex64_t a = A[(size_t)j * lda + i], b = B0[(size_t)j * ldb + i];
            tila_complex64_t ref = beta == 0 ? alpha * a : alpha * a + beta * b;
            double scale = cabs(alpha) * cabs(a) + (beta == 0 ? 0 : cabs(beta) * cabs(b));
            double e = kernel_ratio(cabs(B[(size_t)j * ldb + i] - ref), scale * DBL_EPSILON);
            err = e > err || isnan(e) ? e : err;
        }
    int ok = rc == 0 && err <= TOL && kernel_untouched(PREC, m, n, ldb, B, B0);
    kernel_check(ok, NAME, kernel_prec_letter(PREC), err,
                 "m=%d n=%d lda=%d ldb=%d alpha=(%g,%g) beta=(%g,%g)%s rc=%d", m, n, lda, ldb,
                 creal(alpha), cimag(alpha), creal(beta), cimag(beta), beta == 0 ? " B=NaN" : "",
                 rc);
    free(A);
    free(B);
    free(B0);
}

static void run_errors(void)
{
    tila_complex64_t a[4] = { 0 }, b[4] = { 0 };
    int got[] = {
        tila_core_zgeadd(-1, 1, 1, a, 1, 1, b, 1), tila_core_zgeadd(1, -1, 1, a, 1, 1, b, 1),
        tila_core_zgeadd(2, 1, 1, a, 1, 1, b, 2),  tila_core_zgeadd(2, 1, 1, a, 2, 1, b, 1),
        tila_core_zgeadd(0, 2, 1, a, 1, 1, b, 1),
    };
    static const int want[] = { -1, -2, -5, -8, 0 };
    KERNEL_CHECK_CODES(NAME, kernel_prec_letter(PREC), got, want);
}

void tila_test_zgeadd_core(const kernel_opts_t *o)
{
    static const int sizes[][2] = { { 0, 3 }, { 3, 0 }, { 1, 1 }, { 7, 5 }, { 33, 17 } };
    tila_complex64_t z1 = tila_test_zscalar(0.7, -0.4), z2 = tila_test_zscalar(-1.1, 0.3);
    /* alpha, beta: general; beta = 0 (B not read); beta = 1 (no scaling); alpha = 0. */
    tila_complex64_t scalars[][2] = { { z1, z2 }, { z1, 0 }, { z1, 1 }, { 0, z2 } };
    unsigned long long seed = o->seed;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int c = 0; c < 4; c++)
            run_one(sizes[s][0], sizes[s][1], scalars[c][0], scalars[c][1], seed += 2);
    run_errors();
}
