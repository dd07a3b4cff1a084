/**
 * @file test_zgeqrt.c
 * @brief tila_core_zgeqrt: QR residual and orthogonality, Q applied by LAPACKE_zgemqrt.
 * @precisions normal z -> c d s
 *
 * What it proves: for empty, 1 x 1, 1 x n, m x 1, square, tall and wide tiles, inner
 * block sizes that do not divide n (ib = 3, 5, 7 with n = 17, 33, 64), ib = n and
 * ib > min(m, n), and lda > m, the kernel returns 0 and leaves R, V and the block factors
 * T in LAPACK's ?geqrt layout: with Q applied to the identity by LAPACKE_zgemqrt from
 * that V and T,
 *   ||A - Q R||_F / (max(m, n) ||A||_F eps) <= 30  and  ||I - Q^H Q||_F / (m eps) <= 30;
 * the rows of A below m are not written.  Bad arguments return -i.
 *
 * Why it suffices: Householder QR is backward stable (Higham, 19.3), so both ratios are
 * O(1) for a correct factorization; they are O(1 / eps) if V, T or R are wrong, or if T's
 * blocks are not where ?gemqrt (as used by the tile algorithms) looks for them.  30 is
 * the threshold of LAPACK's own test suite.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <complex.h>
#include <stdlib.h>

#include "core_z.h"
#include "kerneltests_z.h"

#define PREC TILA_COMPLEX64
#define NAME "core_geqrt"
#define TOL 30.0

static void run_one(int m, int n, int ib, unsigned long long seed)
{
    int k = m < n ? m : n, nb = ib < k ? ib : k, lda = m + 2;
    int ldt = (nb > 1 ? nb : 1) + 1;
    tila_complex64_t *A = kernel_alloc(PREC, lda, n), *T = kernel_alloc(PREC, ldt, n);
    tila_complex64_t *work = kernel_alloc(PREC, nb > 1 ? nb : 1, n);
    kernel_fill(PREC, m, n, A, lda, seed);
    tila_complex64_t *A0 = kernel_dup(PREC, lda, n, A);
    double resid, orth;

    int rc = tila_core_zgeqrt(m, n, ib, A, lda, T, ldt, work);
    tila_test_zgeqrt_check(m, n, nb > 1 ? nb : 1, A0, lda, A, lda, T, ldt, &resid, &orth);
    double err = resid > orth || resid != resid ? resid : orth;
    int ok = rc == 0 && resid <= TOL && orth <= TOL && kernel_untouched(PREC, m, n, lda, A, A0);
    kernel_check(ok, NAME, kernel_prec_letter(PREC), err,
                 "m=%d n=%d ib=%d lda=%d ldt=%d resid=%.3g orth=%.3g rc=%d", m, n, ib, lda, ldt,
                 resid, orth, rc);
    free(A);
    free(A0);
    free(T);
    free(work);
}

static void run_errors(void)
{
    tila_complex64_t a[16] = { 0 }, t[16] = { 0 }, w[16] = { 0 };
    int got[] = {
        tila_core_zgeqrt(-1, 1, 1, a, 1, t, 1, w),
        tila_core_zgeqrt(1, -1, 1, a, 1, t, 1, w),
        tila_core_zgeqrt(1, 1, 0, a, 1, t, 1, w),
        tila_core_zgeqrt(2, 1, 1, a, 1, t, 1, w), /* lda < m */
        tila_core_zgeqrt(3, 3, 2, a, 3, t, 1, w), /* ldt < min(ib, m, n) */
        tila_core_zgeqrt(0, 3, 2, a, 1, t, 1, w), /* valid, empty */
    };
    static const int want[] = { -1, -2, -3, -5, -7, 0 };
    KERNEL_CHECK_CODES(NAME, kernel_prec_letter(PREC), got, want);
}

void tila_test_zgeqrt_core(const kernel_opts_t *o)
{
    /* m, n, ib */
    static const int sizes[][3] = {
        { 0, 5, 2 },   { 5, 0, 2 },   { 1, 1, 1 },    { 1, 4, 2 },    { 4, 1, 3 },
        { 17, 17, 3 }, { 17, 17, 5 }, { 17, 17, 17 }, { 17, 17, 32 }, { 20, 13, 5 },
        { 13, 20, 4 }, { 40, 33, 8 }, { 33, 33, 5 },  { 64, 64, 7 },  { 100, 30, 16 },
    };
    unsigned long long seed = o->seed;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        run_one(sizes[s][0], sizes[s][1], sizes[s][2], seed++);
    run_errors();
}
