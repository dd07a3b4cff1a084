/**
 * @file test_zunmqr.c
 * @brief tila_core_zunmqr (ormqr in real precisions) against LAPACKE_zunmqr.
 * @precisions normal z -> c d s
 *
 * What it proves: for both sides and op(Q) = Q, Q^H (and Q^T in real arithmetic), with
 * Q = H(1) ... H(k) from LAPACKE_zgeqrt of a random q x k matrix (q = m on the left, n on
 * the right) with inner blocks nb = min(ib, k), for k = q, k < q, ib not dividing k, ib > k,
 * 1 x 1 and empty sizes, ldv > q and ldc > m, the kernel's C = op(Q) C (or C op(Q)) agrees
 * with LAPACKE_zunmqr's, which rebuilds Q from V and the scalars tau alone (tau_i is the
 * diagonal entry of T's block), so the kernel is checked against an independent use of
 * the same reflectors:
 *   ||C - Cref||_F / (||C||_F q eps) <= 30.
 * V's diagonal and upper triangle (where a tile holds R) are NaN for the kernel, so they
 * are not read; the rows of C below m are not written and an empty C is not touched.
 * Bad arguments return -i (op = Q^T in complex).
 *
 * Why it suffices: applying Householder reflectors is backward stable, each result within
 * a small multiple of q eps ||C|| of the exact op(Q) C (Higham, 19.3), so the ratio is
 * O(1) when the kernel applies the right reflectors with the right T, side and op, and
 * O(1 / eps) otherwise.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <complex.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>

#include "core_z.h"
#include "kerneltests_z.h"

#define PREC TILA_COMPLEX64
#define NAME "core_unmqr"
#define TOL 30.0

static char lapack_trans(tila_trans_t trans)
{
#if defined(COMPLEX)
    return trans == TILA_NOTRANS ? 'N' : 'C';
#else
    return trans == TILA_NOTRANS ? 'N' : 'T';
#endif
}

static void run_one(tila_side_t side, tila_trans_t trans, int m, int n, int k, int ib,
                    unsigned long long seed)
{
    int left = side == TILA_LEFT, q = left ? m : n, nb = ib < k ? ib : k;
    int nb1 = nb > 1 ? nb : 1, ldv = q + 1, ldt = nb1 + 1, ldc = m + 2;
    tila_complex64_t *V = kernel_alloc(PREC, ldv, k), *T = kernel_alloc(PREC, ldt, k);
    tila_complex64_t *tau = kernel_alloc(PREC, k, 1), *C = kernel_alloc(PREC, ldc, n);
    tila_complex64_t *work = kernel_alloc(PREC, nb1, left ? n : m);
    kernel_fill(PREC, q, k, V, ldv, seed);
    if (k > 0) {
        tila_complex64_t *w = kernel_alloc(PREC, nb1, k);
        LAPACKE_zgeqrt_work(LAPACK_COL_MAJOR, q, k, nb1, V, ldv, T, ldt, w);
        free(w);
    }
    for (int i = 0; i < k; i++)
        tau[i] = T[(size_t)i * ldt + i % nb1];
    /* The kernel's V: NaN on and above the diagonal. */
    tila_complex64_t *Vk = kernel_dup(PREC, ldv, k, V);
    for (int j = 0; j < k; j++)
        kernel_set(PREC, j + 1 < q ? j + 1 : q, 1, Vk + (size_t)j * ldv, ldv, NAN, NAN);
    kernel_fill(PREC, m, n, C, ldc, seed + 1);
    tila_complex64_t *C0 = kernel_dup(PREC, ldc, n, C), *Cref = kernel_dup(PREC, ldc, n, C);

    int rc = tila_core_zunmqr(side, trans, m, n, k, ib, Vk, ldv, T, ldt, C, ldc, work);
    int info = 0;
    if (m > 0 && n > 0 && k > 0)
        info = LAPACKE_zunmqr(LAPACK_COL_MAJOR, left ? 'L' : 'R', lapack_trans(trans), m, n, k, V,
                              ldv, tau, Cref, ldc);
    double err = kernel_ratio(kernel_dist_fro(PREC, m, n, C, ldc, Cref, ldc),
                              tila_test_zfnorm(m, n, C0, ldc) * q * DBL_EPSILON);
    int ok = rc == 0 && info == 0 && err <= TOL && kernel_untouched(PREC, m, n, ldc, C, C0);
    kernel_check(ok, NAME, kernel_prec_letter(PREC), err,
                 "side=%c trans=%c m=%d n=%d k=%d ib=%d ldv=%d ldt=%d ldc=%d rc=%d",
                 kernel_letter(side), kernel_letter(trans), m, n, k, ib, ldv, ldt, ldc, rc);
    free(V);
    free(Vk);
    free(T);
    free(tau);
    free(C);
    free(C0);
    free(Cref);
    free(work);
}

static void run_errors(void)
{
    tila_complex64_t v[16] = { 0 }, t[16] = { 0 }, c[16] = { 0 }, w[16] = { 0 };
    tila_side_t L = TILA_LEFT, R = TILA_RIGHT;
    tila_trans_t N = TILA_NOTRANS;
    int got[] = {
        tila_core_zunmqr((tila_side_t)0, N, 1, 1, 1, 1, v, 1, t, 1, c, 1, w),
        tila_core_zunmqr(L, (tila_trans_t)0, 1, 1, 1, 1, v, 1, t, 1, c, 1, w),
#if defined(COMPLEX)
        tila_core_zunmqr(L, TILA_TRANS, 1, 1, 1, 1, v, 1, t, 1, c, 1, w), /* Q^T */
#endif
        tila_core_zunmqr(L, N, -1, 1, 1, 1, v, 1, t, 1, c, 1, w),
        tila_core_zunmqr(L, N, 1, -1, 1, 1, v, 1, t, 1, c, 1, w),
        tila_core_zunmqr(L, N, 1, 1, 2, 1, v, 1, t, 1, c, 1, w), /* k > m */
        tila_core_zunmqr(R, N, 2, 1, 2, 1, v, 2, t, 1, c, 2, w), /* k > n */
        tila_core_zunmqr(L, N, 1, 1, -1, 1, v, 1, t, 1, c, 1, w),
        tila_core_zunmqr(L, N, 1, 1, 1, 0, v, 1, t, 1, c, 1, w),
        tila_core_zunmqr(L, N, 2, 1, 1, 1, v, 1, t, 1, c, 2, w), /* ldv < m */
        tila_core_zunmqr(R, N, 1, 2, 1, 1, v, 1, t, 1, c, 1, w), /* ldv < n */
        tila_core_zunmqr(L, N, 3, 1, 3, 2, v, 3, t, 1, c, 3, w), /* ldt < min(ib, k) */
        tila_core_zunmqr(L, N, 2, 1, 1, 1, v, 2, t, 1, c, 1, w), /* ldc < m */
        tila_core_zunmqr(R, N, 2, 0, 0, 1, v, 1, t, 1, c, 2, w), /* valid, empty */
    };
    /* One row of codes, the complex-only one inside #if. */
    /* clang-format off */
    static const int want[] = { -1, -2,
#if defined(COMPLEX)
                                -2,
#endif
                                -3, -4, -5, -5, -5, -6, -8, -8, -10, -12, 0 };
    /* clang-format on */
    KERNEL_CHECK_CODES(NAME, kernel_prec_letter(PREC), got, want);
}

void tila_test_zunmqr_core(const kernel_opts_t *o)
{
    /* Left: m, n, k, ib with k <= m; the right side runs the transposed shapes. */
    static const int sizes[][4] = { { 17, 9, 17, 5 },  { 17, 9, 13, 3 }, { 20, 7, 13, 4 },
                                    { 17, 17, 8, 32 }, { 1, 1, 1, 1 },   { 33, 5, 33, 7 },
                                    { 9, 17, 9, 9 },   { 0, 5, 0, 2 },   { 5, 0, 5, 2 },
                                    { 5, 5, 0, 2 } };
    tila_trans_t trans[3];
    int ntrans = tila_test_zherm_ops(trans);
    unsigned long long seed = o->seed;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int t = 0; t < ntrans; t++) {
            const int *z = sizes[s];
            run_one(TILA_LEFT, trans[t], z[0], z[1], z[2], z[3], seed += 2);
            run_one(TILA_RIGHT, trans[t], z[1], z[0], z[2], z[3], seed += 2);
        }
    run_errors();
}
