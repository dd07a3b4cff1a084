/**
 * @file test_ztpmqrt.c
 * @brief tila_core_ztpmqrt against the product of the reflectors H(1) ... H(k) formed from
 *        V and the scalars tau.
 * @precisions normal z -> c d s
 *
 * What it proves: for both sides and op(Q) = Q, Q^H (and Q^T in real arithmetic), with V
 * and T from LAPACKE_ztpqrt of a random triangle on a pentagon (q = m rows on the left, n
 * on the right, trapezoid of l rows) in the triangle-on-square (l = 0), triangle-on-
 * triangle (l = q <= k) and in-between cases, k = q, k < q, k > q, ib not dividing k,
 * ib >= k, 1 x 1 and empty sizes, lda and ldb larger than the rows: the kernel's [A; B] =
 * op(Q) [A; B] (or [A B] = [A B] op(Q)) agrees with the product by an explicit Q of order
 * k + q built here as H(1) ... H(k), H(i) = I - tau_i v_i v_i^H, v_i = [e_i; V(:, i)] with
 * tau_i the diagonal entry of T's block (so T's off-diagonal entries, which the kernel
 * uses, are checked against the reflectors they must represent):
 *   ||[A; B] - Q-product||_F / (||[A0; B0]||_F (k + q) eps) <= 30.
 * V's entries outside the pentagon hold NaN, so they are not read; the rows below A's and
 * B's heights are not written; empty sizes touch nothing.  Bad arguments return -i.
 *
 * Why it suffices: Q is unitary and applying it, as blocked reflectors or as a dense
 * product, is backward stable, each within a small multiple of (k + q) eps ||[A; B]|| of
 * the exact result, so the ratio is O(1) when the kernel applies the right reflectors on
 * the right side with the right op, pentagon and blocking, and O(1 / eps) otherwise.
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

#include "core_z.h"
#include "kerneltests_z.h"

#define PREC TILA_COMPLEX64
#define NAME "core_tpmqrt"
#define TOL 30.0

static int in_pentagon(int q, int l, int i, int j) { return i <= q - l + j; }

/* Q = H(1) ... H(k) of order N = k + q from the pentagonal V (zeros outside) and tau. */
static tila_complex64_t *dense_q(int q, int k, const tila_complex64_t *V, int ldv,
                                 const tila_complex64_t *tau)
{
    int N = k + q;
    tila_complex64_t *Q = kernel_alloc(PREC, N, N), *v = kernel_alloc(PREC, N, 1);
    tila_complex64_t *w = kernel_alloc(PREC, N, 1);
    kernel_set(PREC, N, N, Q, N, 0, 0);
    for (int i = 0; i < N; i++)
        Q[(size_t)i * N + i] = 1;
    for (int i = 0; i < k; i++) {
        for (int r = 0; r < k; r++)
            v[r] = r == i;
        for (int r = 0; r < q; r++)
            v[k + r] = V[(size_t)i * ldv + r];
        /* Q = Q (I - tau v v^H) = Q - tau (Q v) v^H. */
        for (int r = 0; r < N; r++) {
            w[r] = 0;
            for (int c = 0; c < N; c++)
                w[r] += Q[(size_t)c * N + r] * v[c];
        }
        for (int c = 0; c < N; c++) {
            tila_complex64_t s = tau[i] * tila_test_zconj(v[c]);
            for (int r = 0; r < N; r++)
                Q[(size_t)c * N + r] -= w[r] * s;
        }
    }
    free(v);
    free(w);
    return Q;
}

static void run_one(tila_side_t side, tila_trans_t trans, int m, int n, int k, int l, int ib,
                    unsigned long long seed)
{
    int left = side == TILA_LEFT, q = left ? m : n, N = k + q;
    int nb = ib < k ? ib : k, nb1 = nb > 1 ? nb : 1, ldv = q + 1, ldt = nb1 + 1;
    int ar = left ? k : m, ac = left ? n : k, lda = ar + 2, ldb = m + 1;
    tila_complex64_t *V = kernel_alloc(PREC, ldv, k), *T = kernel_alloc(PREC, ldt, k);
    tila_complex64_t *tau = kernel_alloc(PREC, k, 1);
    tila_complex64_t one = 1, zero = 0;

    /* V, T: LAPACK's own QR of a random k x k triangle on a q x k pentagon. */
    kernel_fill(PREC, q, k, V, ldv, seed);
    for (int j = 0; j < k; j++)
        for (int i = 0; i < q; i++)
            if (!in_pentagon(q, l, i, j)) V[(size_t)j * ldv + i] = 0;
    int factored = q > 0 && k > 0;
    if (factored) {
        tila_complex64_t *R = kernel_alloc(PREC, k, k), *w = kernel_alloc(PREC, nb1, k);
        kernel_fill(PREC, k, k, R, k, seed + 1);
        LAPACKE_ztpqrt_work(LAPACK_COL_MAJOR, q, k, l, nb1, R, k, V, ldv, T, ldt, w);
        free(R);
        free(w);
        for (int i = 0; i < k; i++)
            tau[i] = T[(size_t)i * ldt + i % nb1];
    }
    tila_complex64_t *Vk = kernel_dup(PREC, ldv, k, V);
    for (int j = 0; j < k; j++)
        for (int i = 0; i < q; i++)
            if (!in_pentagon(q, l, i, j))
                kernel_set(PREC, 1, 1, &Vk[(size_t)j * ldv + i], 1, NAN, NAN);

    tila_complex64_t *A = kernel_alloc(PREC, lda, ac), *B = kernel_alloc(PREC, ldb, n);
    tila_complex64_t *work = kernel_alloc(PREC, nb1, left ? n : m);
    kernel_fill(PREC, ar, ac, A, lda, seed + 2);
    kernel_fill(PREC, m, n, B, ldb, seed + 3);
    tila_complex64_t *A0 = kernel_dup(PREC, lda, ac, A), *B0 = kernel_dup(PREC, ldb, n, B);

    int rc = tila_core_ztpmqrt(side, trans, m, n, k, l, ib, Vk, ldv, T, ldt, A, lda, B, ldb, work);

    /* S = [A0; B0] (N x n) or [A0 B0] (m x N), and its product by op(Q). */
    int sm = left ? N : m, sn = left ? n : N, lds = sm > 1 ? sm : 1;
    tila_complex64_t *S = kernel_alloc(PREC, lds, sn), *Ref = kernel_alloc(PREC, lds, sn);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            S[left ? (size_t)j * lds + k + i : (size_t)(k + j) * lds + i] = B0[(size_t)j * ldb + i];
    for (int j = 0; j < ac; j++)
        for (int i = 0; i < ar; i++)
            S[(size_t)j * lds + i] = A0[(size_t)j * lda + i];
    kernel_set(PREC, sm, sn, Ref, lds, 0, 0);
    if (sm > 0 && sn > 0) {
        /* Nothing factored (q = 0 or k = 0): op(Q) = I. */
        tila_complex64_t *Q = factored ? dense_q(q, k, V, ldv, tau) : NULL;
        enum CBLAS_TRANSPOSE op = trans == TILA_NOTRANS ? CblasNoTrans : CblasConjTrans;
        if (Q && left)
            cblas_zgemm(CblasColMajor, op, CblasNoTrans, N, n, N, CBLAS_SADDR(one), Q, N, S, lds,
                        CBLAS_SADDR(zero), Ref, lds);
        else if (Q)
            cblas_zgemm(CblasColMajor, CblasNoTrans, op, m, N, N, CBLAS_SADDR(one), S, lds, Q, N,
                        CBLAS_SADDR(zero), Ref, lds);
        else
            for (size_t e = 0; e < (size_t)lds * sn; e++)
                Ref[e] = S[e];
        free(Q);
    }
    /* The kernel's [A; B] or [A B] against Ref. */
    const tila_complex64_t *RA = Ref, *RB = left ? Ref + k : Ref + (size_t)k * lds;
    double da = kernel_dist_fro(PREC, ar, ac, A, lda, RA, lds);
    double db = kernel_dist_fro(PREC, m, n, B, ldb, RB, lds);
    double err =
        kernel_ratio(sqrt(da * da + db * db), tila_test_zfnorm(sm, sn, S, lds) * N * DBL_EPSILON);
    int ok = rc == 0 && err <= TOL && kernel_untouched(PREC, ar, ac, lda, A, A0) &&
             kernel_untouched(PREC, m, n, ldb, B, B0);
    kernel_check(ok, NAME, kernel_prec_letter(PREC), err,
                 "side=%c trans=%c m=%d n=%d k=%d l=%d (%s) ib=%d ldv=%d lda=%d ldb=%d rc=%d",
                 kernel_letter(side), kernel_letter(trans), m, n, k, l,
                 l == 0   ? "TS"
                 : l == q ? "TT"
                          : "pentagon",
                 ib, ldv, lda, ldb, rc);
    free(V);
    free(Vk);
    free(T);
    free(tau);
    free(A);
    free(B);
    free(A0);
    free(B0);
    free(work);
    free(S);
    free(Ref);
}

static void run_errors(void)
{
    tila_complex64_t v[16] = { 0 }, t[16] = { 0 }, a[16] = { 0 }, b[16] = { 0 }, w[16] = { 0 };
    tila_side_t L = TILA_LEFT, R = TILA_RIGHT;
    tila_trans_t N = TILA_NOTRANS;
    int got[] = {
        tila_core_ztpmqrt((tila_side_t)0, N, 1, 1, 1, 0, 1, v, 1, t, 1, a, 1, b, 1, w),
        tila_core_ztpmqrt(L, (tila_trans_t)0, 1, 1, 1, 0, 1, v, 1, t, 1, a, 1, b, 1, w),
#if defined(COMPLEX)
        tila_core_ztpmqrt(L, TILA_TRANS, 1, 1, 1, 0, 1, v, 1, t, 1, a, 1, b, 1, w),
#endif
        tila_core_ztpmqrt(L, N, -1, 1, 1, 0, 1, v, 1, t, 1, a, 1, b, 1, w),
        tila_core_ztpmqrt(L, N, 1, -1, 1, 0, 1, v, 1, t, 1, a, 1, b, 1, w),
        tila_core_ztpmqrt(L, N, 1, 1, -1, 0, 1, v, 1, t, 1, a, 1, b, 1, w),
        tila_core_ztpmqrt(L, N, 3, 1, 1, 2, 1, v, 3, t, 1, a, 1, b, 3, w), /* l > k */
        tila_core_ztpmqrt(L, N, 1, 1, 2, 2, 1, v, 1, t, 1, a, 2, b, 1, w), /* l > m */
        tila_core_ztpmqrt(L, N, 1, 1, 1, 0, 0, v, 1, t, 1, a, 1, b, 1, w),
        tila_core_ztpmqrt(L, N, 2, 1, 1, 0, 1, v, 1, t, 1, a, 1, b, 2, w), /* ldv < m */
        tila_core_ztpmqrt(R, N, 1, 2, 1, 0, 1, v, 1, t, 1, a, 1, b, 1, w), /* ldv < n */
        tila_core_ztpmqrt(L, N, 3, 1, 3, 0, 2, v, 3, t, 1, a, 3, b, 3, w), /* ldt < nb */
        tila_core_ztpmqrt(L, N, 1, 1, 2, 0, 1, v, 1, t, 1, a, 1, b, 1, w), /* lda < k */
        tila_core_ztpmqrt(R, N, 2, 1, 1, 0, 1, v, 1, t, 1, a, 1, b, 2, w), /* lda < m */
        tila_core_ztpmqrt(L, N, 2, 1, 1, 0, 1, v, 2, t, 1, a, 1, b, 1, w), /* ldb < m */
        tila_core_ztpmqrt(L, N, 0, 3, 2, 0, 1, v, 1, t, 1, a, 2, b, 1, w), /* valid, empty */
    };
    /* One row of codes, the complex-only one inside #if. */
    /* clang-format off */
    static const int want[] = { -1, -2,
#if defined(COMPLEX)
                                -2,
#endif
                                -3, -4, -5, -6, -6, -7, -9, -9, -11, -13, -13, -15, 0 };
    /* clang-format on */
    KERNEL_CHECK_CODES(NAME, kernel_prec_letter(PREC), got, want);
}

void tila_test_ztpmqrt_core(const kernel_opts_t *o)
{
    /* Left: m, n, k, l, ib with l <= min(m, k); the right side runs them with m and n
     * swapped (then V has n rows). */
    static const int sizes[][5] = {
        { 17, 9, 17, 0, 5 },   { 17, 9, 17, 17, 3 },  { 13, 20, 17, 13, 4 }, { 20, 5, 13, 7, 32 },
        { 40, 11, 40, 0, 40 }, { 30, 7, 40, 30, 16 }, { 9, 4, 5, 0, 2 },     { 1, 1, 1, 1, 1 },
        { 1, 1, 1, 0, 1 },     { 0, 5, 3, 0, 2 },     { 5, 0, 3, 0, 2 },     { 5, 5, 0, 0, 2 },
    };
    tila_trans_t trans[3];
    int ntrans = tila_test_zherm_ops(trans);
    unsigned long long seed = o->seed;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int t = 0; t < ntrans; t++) {
            const int *z = sizes[s];
            run_one(TILA_LEFT, trans[t], z[0], z[1], z[2], z[3], z[4], seed += 4);
            run_one(TILA_RIGHT, trans[t], z[1], z[0], z[2], z[3], z[4], seed += 4);
        }
    run_errors();
}
