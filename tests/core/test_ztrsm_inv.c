/**
 * @file test_ztrsm_inv.c
 * @brief tila_core_ztrsm_inv: a triangular solve applied by GEMM with the triangle's
 *        inverse (TRTRI's tile).
 * @precisions normal z -> c d s
 *
 * What it proves: for both sides, every op, empty, 1 and odd sizes, ldt, ldb and ldw above
 * the rows, complex alpha: B is overwritten with exactly what one CBLAS GEMM of alpha op(T)
 * (or op(T) on the right) and a copy of B gives (the bits: the kernel is that GEMM after
 * a copy, which must not change a bit), the rows below m of B are not written; and with T =
 * A^-1 from tila_core_ztrtri, the result solves op(A) X = alpha B: ||op(A) X - alpha B||_F /
 * ((||A||_F ||X||_F + |alpha| ||B||_F) k eps) <= 30.  Bad arguments return -i.
 *
 * Why it suffices: the bit check pins the operation (side, op, scalar, leading dimensions)
 * to the GEMM it must be; the residual check ties T's use to the solve it stands for.  On
 * these well conditioned triangles (tila_test_ztriangle) the inverse is accurate to O(k
 * eps) and so is the product, so the ratio is O(1), and O(1 / eps) for a wrong side or op.
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
#define NAME "core_trsm_inv"
#define TOL 30.0

static void run_one(tila_side_t side, tila_uplo_t uplo, tila_trans_t trans, int m, int n,
                    tila_complex64_t alpha, unsigned long long seed)
{
    int k = side == TILA_LEFT ? m : n, lda = k + 1, ldt = k + 2, ldb = m + 3, ldw = m + 1;
    tila_complex64_t *A = kernel_alloc(PREC, lda, k), *T = kernel_alloc(PREC, ldt, k);
    tila_complex64_t *B = kernel_alloc(PREC, ldb, n), *W = kernel_alloc(PREC, ldw, n);
    double *sums = malloc(sizeof *sums * (size_t)(2 * k + 1));
    tila_test_ztriangle(uplo, TILA_NONUNIT, k, A, lda, seed);
    int rt = tila_core_ztrtri(uplo, TILA_NONUNIT, k, A, lda, T, ldt, sums);
    kernel_fill(PREC, m, n, B, ldb, seed + 1);
    tila_complex64_t *B0 = kernel_dup(PREC, ldb, n, B), *C = kernel_dup(PREC, ldb, n, B);

    int rc = tila_core_ztrsm_inv(side, trans, m, n, alpha, T, ldt, B, ldb, W, ldw);
    /* The GEMM it stands for, on a copy of B0 (C): the same bits. */
    tila_complex64_t zero = 0;
    if (m > 0 && n > 0) {
        tila_complex64_t *S = kernel_dup(PREC, ldb, n, B0);
        if (side == TILA_LEFT)
            cblas_zgemm(CblasColMajor, (enum CBLAS_TRANSPOSE)trans, CblasNoTrans, m, n, m,
                        CBLAS_SADDR(alpha), T, ldt, S, ldb, CBLAS_SADDR(zero), C, ldb);
        else
            cblas_zgemm(CblasColMajor, CblasNoTrans, (enum CBLAS_TRANSPOSE)trans, m, n, n,
                        CBLAS_SADDR(alpha), S, ldb, T, ldt, CBLAS_SADDR(zero), C, ldb);
        free(S);
    }
    int same = kernel_equal(PREC, m, n, B, ldb, C, ldb);
    double err =
        tila_test_ztrsm_error(side, uplo, trans, TILA_NONUNIT, m, n, alpha, A, lda, B, B0, ldb);
    int ok = rt == 0 && rc == 0 && same && err <= TOL && kernel_untouched(PREC, m, n, ldb, B, B0);
    kernel_check(ok, NAME, kernel_prec_letter(PREC), err,
                 "side=%c uplo=%c trans=%c m=%d n=%d ldt=%d ldb=%d ldw=%d rc=%d gemm-bits=%s",
                 kernel_letter(side), kernel_letter(uplo), kernel_letter(trans), m, n, ldt, ldb,
                 ldw, rc, same ? "same" : "DIFFER");
    free(A), free(T), free(B), free(W), free(sums), free(B0), free(C);
}

static void run_errors(void)
{
    tila_complex64_t t[4] = { 0 }, b[4] = { 0 }, w[4] = { 0 };
    tila_side_t L = TILA_LEFT, R = TILA_RIGHT;
    tila_trans_t N = TILA_NOTRANS;
    int got[] = {
        tila_core_ztrsm_inv((tila_side_t)0, N, 1, 1, 1, t, 1, b, 1, w, 1),
        tila_core_ztrsm_inv(L, (tila_trans_t)0, 1, 1, 1, t, 1, b, 1, w, 1),
        tila_core_ztrsm_inv(L, N, -1, 1, 1, t, 1, b, 1, w, 1),
        tila_core_ztrsm_inv(L, N, 1, -1, 1, t, 1, b, 1, w, 1),
        tila_core_ztrsm_inv(L, N, 2, 1, 1, t, 1, b, 2, w, 2), /* ldt < m */
        tila_core_ztrsm_inv(R, N, 1, 2, 1, t, 1, b, 1, w, 1), /* ldt < n */
        tila_core_ztrsm_inv(L, N, 2, 1, 1, t, 2, b, 1, w, 2), /* ldb < m */
        tila_core_ztrsm_inv(L, N, 2, 1, 1, t, 2, b, 2, w, 1), /* ldw < m */
        tila_core_ztrsm_inv(L, N, 0, 3, 1, t, 1, b, 1, w, 1), /* valid, empty */
    };
    static const int want[] = { -1, -2, -3, -4, -7, -7, -9, -11, 0 };
    KERNEL_CHECK_CODES(NAME, kernel_prec_letter(PREC), got, want);
}

void tila_test_ztrsm_inv_core(const kernel_opts_t *o)
{
    static const int orders[] = { 0, 1, 7, 64, 100 };
    static const int others[] = { 1, 19 };
    static const tila_side_t sides[] = { TILA_LEFT, TILA_RIGHT };
    static const tila_uplo_t uplos[] = { TILA_UPPER, TILA_LOWER };
    static const tila_trans_t trans[] = { TILA_NOTRANS, TILA_TRANS, TILA_CONJTRANS };
    tila_complex64_t alpha = tila_test_zscalar(0.8, 0.3);
    unsigned long long seed = o->seed;
    for (int s = 0; s < 2; s++)
        for (int u = 0; u < 2; u++)
            for (int t = 0; t < 3; t++)
                for (size_t k = 0; k < sizeof orders / sizeof orders[0]; k++)
                    for (int r = 0; r < 2; r++) {
                        int m = s == 0 ? orders[k] : others[r];
                        int n = s == 0 ? others[r] : orders[k];
                        run_one(sides[s], uplos[u], trans[t], m, n, r == 0 ? 1 : alpha, seed += 2);
                    }
    run_errors();
}
