/**
 * @file core_ztpqrt.c
 * @brief Tile kernel: QR of a triangle stacked on a (pentagonal) tile, LAPACK's ?tpqrt
 *        blocking with a recursive factorization of each block.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "core_kernel.h"
#include "core_z.h"

/* At or below this many columns the recursion hands over to LAPACK's level-2 ?tpqrt2. */
#define TPQRT_RECURSION_CUTOFF 8

/*
 * [A; B] = Q [R; 0] for A n x n upper triangular and B m x n pentagonal (its first m - l
 * rows full, its last l rows upper trapezoidal), with T the n x n triangular factor of
 * Q = I - V T V^H, V = [I; B]: the recursive formulation of Elmroth and Gustavson
 * (LAPACK's ?geqrt3, here for the stacked shape, which LAPACK only has as the level-2
 * ?tpqrt2).  Factor the left n1 columns (a pentagon of m1 rows), apply them to the right
 * half with ?tprfb (its W in T12's place), factor the right half (all m rows, the part of
 * the trapezoid right of column n1), then join the two T factors:
 * T12 = -T11 (V1^H V2) T22, where V1^H V2 = B1^H B2(0:m1, :) since the identity parts do
 * not meet: B1's p full rows by GEMM, its l1 x n1 trapezoid by TRMM (its triangle) and
 * GEMM (the columns right of the triangle, when l1 < n1).
 */
static void ztpqrt_rec(int m, int n, int l, tila_complex64_t *A, int lda, tila_complex64_t *B,
                       int ldb, tila_complex64_t *T, int ldt)
{
    if (n <= TPQRT_RECURSION_CUTOFF) {
        LAPACKE_ztpqrt2_work(LAPACK_COL_MAJOR, m, n, l, A, lda, B, ldb, T, ldt);
        return;
    }
    int n1 = n / 2, n2 = n - n1;
    int l1 = tila_min(n1, l), m1 = m - l + l1, p = m1 - l1;
    tila_complex64_t *A12 = A + (size_t)n1 * lda, *A22 = A12 + n1;
    tila_complex64_t *B2 = B + (size_t)n1 * ldb;
    tila_complex64_t *T12 = T + (size_t)n1 * ldt, *T22 = T12 + n1;
    tila_complex64_t one = 1.0, mone = -1.0, zero = 0.0;

    ztpqrt_rec(m1, n1, l1, A, lda, B, ldb, T, ldt);
    LAPACKE_ztprfb_work(LAPACK_COL_MAJOR, 'L', tila_lapack_trans_qr(TILA_CONJTRANS), 'F', 'C', m1,
                        n2, n1, l1, B, ldb, T, ldt, A12, lda, B2, ldb, T12, ldt);
    ztpqrt_rec(m, n2, l > n1 ? l - n1 : 0, A22, lda, B2, ldb, T22, ldt);

    tila_complex64_t beta = zero;
    if (l1 > 0) {
        LAPACKE_zlacpy_work(LAPACK_COL_MAJOR, 'A', l1, n2, B2 + p, ldb, T12, ldt);
        cblas_ztrmm(CblasColMajor, CblasLeft, CblasUpper, CblasConjTrans, CblasNonUnit, l1, n2,
                    CBLAS_SADDR(one), B + p, ldb, T12, ldt);
        if (l1 < n1)
            cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, n1 - l1, n2, l1,
                        CBLAS_SADDR(one), B + p + (size_t)l1 * ldb, ldb, B2 + p, ldb,
                        CBLAS_SADDR(zero), T12 + l1, ldt);
        beta = one;
    }
    if (p > 0)
        cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, n1, n2, p, CBLAS_SADDR(one), B,
                    ldb, B2, ldb, CBLAS_SADDR(beta), T12, ldt);
    cblas_ztrmm(CblasColMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, n1, n2,
                CBLAS_SADDR(mone), T, ldt, T12, ldt);
    cblas_ztrmm(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, n1, n2,
                CBLAS_SADDR(one), T22, ldt, T12, ldt);
}

/**
 * QR factorization of [A; B] where A is n x n upper triangular and B is m x n pentagonal:
 * its first m - l rows full, its last l rows upper trapezoidal.  l = 0 is the
 * triangle-on-square kernel of the flat tiled QR (TSQRT), l = m <= n the
 * triangle-on-triangle kernel of reduction trees (TTQRT).  On exit A holds R, B the
 * reflectors V (same shape; the entries outside it are not touched), T the triangular
 * factors of the blocks of nb = min(ib, n) reflectors, side by side as in ?tpqrt.
 * @param l    0 <= l <= min(m, n).
 * @param lda  >= max(1, n); @param ldb >= max(1, m); @param ldt >= max(1, min(ib, n)).
 * @param work min(ib, n) * n elements.
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_ztpqrt(int m, int n, int l, int ib, tila_complex64_t *A, int lda, tila_complex64_t *B,
                     int ldb, tila_complex64_t *T, int ldt, tila_complex64_t *work)
{
    int rc = tila_args_tpqrt(m, n, l, ib, lda, ldb, ldt, 0), nb = tila_min(ib, n);
    if (rc || m == 0 || n == 0) return rc;
    /* LAPACK's ?tpqrt blocking: block i meets the first mb rows of B, of which the last
     * lb are its trapezoid; it is factored by ztpqrt_rec, then applied to the columns on
     * its right with ?tprfb. */
    for (int i = 0; i < n; i += nb) {
        int kb = tila_min(nb, n - i), mb = tila_min(m - l + i + kb, m);
        int lb = i >= l ? 0 : mb - m + l - i;
        ztpqrt_rec(mb, kb, lb, A + i + (size_t)i * lda, lda, B + (size_t)i * ldb, ldb,
                   T + (size_t)i * ldt, ldt);
        if (i + kb < n)
            LAPACKE_ztprfb_work(LAPACK_COL_MAJOR, 'L', tila_lapack_trans_qr(TILA_CONJTRANS), 'F',
                                'C', mb, n - i - kb, kb, lb, B + (size_t)i * ldb, ldb,
                                T + (size_t)i * ldt, ldt, A + i + (size_t)(i + kb) * lda, lda,
                                B + (size_t)(i + kb) * ldb, ldb, work, kb);
    }
    return 0;
}
