/**
 * @file test_zcolamax.c
 * @brief tila_core_zcolamax against CBLAS's i?amax, column by column.
 * @precisions normal z -> c d s
 *
 * What it proves: work[j] is |Re| + |Im| (|x| in real) of the entry cblas_izamax picks in
 * column j, to the bit (a max is exact, the measure one rounding either way), for empty,
 * 1 x 1 and odd shapes with lda > m; a column holding a NaN gives NaN (where i?amax's
 * choice is the implementation's), one holding an Inf gives Inf; m = 0 gives zeros.  Bad
 * arguments return -i.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <cblas.h>
#include <complex.h>
#include <math.h>
#include <stdlib.h>

#include "core_z.h"
#include "kerneltests_z.h"

#define PREC TILA_COMPLEX64
#define NAME "core_colamax"

static double cabs1(tila_complex64_t a)
{
#if defined(COMPLEX)
    return fabs(creal(a)) + fabs(cimag(a));
#else
    return fabs(a);
#endif
}

static void run_one(int m, int n, int special, unsigned long long seed)
{
    int lda = m + 3;
    tila_complex64_t *A = kernel_alloc(PREC, lda, n);
    kernel_fill(PREC, m, n, A, lda, seed);
    /* special: column 1 gets a NaN, column 2 an Inf (when they exist). */
    if (special && m > 2 && n > 2) {
        A[(size_t)1 * lda + m / 2] = NAN;
        A[(size_t)2 * lda + m - 1] = -INFINITY;
    }
    double *work = malloc(sizeof *work * (size_t)(n + 1));
    int rc = tila_core_zcolamax(m, n, A, lda, work), same = 1;
    for (int j = 0; j < n; j++) {
        const tila_complex64_t *a = A + (size_t)j * lda;
        double want = 0;
        if (special && m > 2 && j == 1)
            want = NAN;
        else if (m > 0)
            want = cabs1(a[cblas_izamax(m, a, 1)]);
        same &= isnan(want) ? isnan(work[j]) : work[j] == want;
    }
    kernel_check(rc == 0 && same, NAME, kernel_prec_letter(PREC), same ? 0 : 1,
                 "m=%d n=%d lda=%d%s rc=%d", m, n, lda, special ? " NaN+Inf" : "", rc);
    free(A);
    free(work);
}

static void run_errors(void)
{
    tila_complex64_t a[4] = { 0 };
    double w[4];
    int got[] = { tila_core_zcolamax(-1, 1, a, 1, w), tila_core_zcolamax(1, -1, a, 1, w),
                  tila_core_zcolamax(2, 1, a, 1, w), tila_core_zcolamax(0, 2, a, 1, w) };
    static const int want[] = { -1, -2, -4, 0 };
    KERNEL_CHECK_CODES(NAME, kernel_prec_letter(PREC), got, want);
}

void tila_test_zcolamax_core(const kernel_opts_t *o)
{
    static const int sizes[][2] = { { 0, 3 }, { 3, 0 }, { 1, 1 }, { 7, 5 }, { 65, 9 }, { 200, 3 } };
    unsigned long long seed = o->seed;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int special = 0; special < 2; special++)
            run_one(sizes[s][0], sizes[s][1], special, seed += 1);
    run_errors();
}
