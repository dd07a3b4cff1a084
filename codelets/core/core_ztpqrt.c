/**
 * @file core_ztpqrt.c
 * @brief Tile kernel: QR of a triangle stacked on a (pentagonal) tile (recursive for a
 *        square tile, LAPACKE ?tpqrt for a triangle).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "core_kernel.h"
#include "core_z.h"

/* Below this many columns the recursion hands over to LAPACK's level-2 ?tpqrt2. */
#define TPQRT_RECURSION_CUTOFF 8

/*
 * [A; B] = Q [R; 0] for A n x n upper triangular and B m x n full (l = 0), with T the
 * n x n triangular factor of Q = I - V T V^H, V = [I; B]: the recursive formulation of
 * Elmroth and Gustavson (LAPACK's ?geqrt3, here for the triangle-on-square shape, which
 * LAPACK only has as the level-2 ?tpqrt2).  Factor the left half, apply it to the right
 * half with GEMM/TRMM, factor the right half, then join the two T factors:
 * T12 = -T11 (V1^H V2) T22, where V1^H V2 = B1^H B2 since the identity parts do not meet.
 */
static void ztpqrt_rec(int m, int n, tila_complex64_t *A, int lda, tila_complex64_t *B,
                       int ldb, tila_complex64_t *T, int ldt)
{
    if (n <= TPQRT_RECURSION_CUTOFF) {
        LAPACKE_ztpqrt2_work(LAPACK_COL_MAJOR, m, n, 0, A, lda, B, ldb, T, ldt);
        return;
    }
    int n1 = n / 2, n2 = n - n1;
    tila_complex64_t *A12 = A + (size_t)n1 * lda, *A22 = A12 + n1;
    tila_complex64_t *B2 = B + (size_t)n1 * ldb;
    tila_complex64_t *T12 = T + (size_t)n1 * ldt, *T22 = T12 + n1;
    tila_complex64_t one = 1.0, mone = -1.0, zero = 0.0;

    ztpqrt_rec(m, n1, A, lda, B, ldb, T, ldt);
    /* [A12; B2] = Q1^H [A12; B2]: W = T11^H (A12 + B1^H B2) in T12's place, then
     * A12 -= W and B2 -= B1 W. */
    LAPACKE_zlacpy_work(LAPACK_COL_MAJOR, 'A', n1, n2, A12, lda, T12, ldt);
    cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, n1, n2, m, CBLAS_SADDR(one), B,
                ldb, B2, ldb, CBLAS_SADDR(one), T12, ldt);
    cblas_ztrmm(CblasColMajor, CblasLeft, CblasUpper, CblasConjTrans, CblasNonUnit, n1, n2,
                CBLAS_SADDR(one), T, ldt, T12, ldt);
    for (int j = 0; j < n2; j++)
        for (int i = 0; i < n1; i++)
            A12[i + (size_t)j * lda] -= T12[i + (size_t)j * ldt];
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n2, n1, CBLAS_SADDR(mone), B,
                ldb, T12, ldt, CBLAS_SADDR(one), B2, ldb);

    ztpqrt_rec(m, n2, A22, lda, B2, ldb, T22, ldt);
    cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, n1, n2, m, CBLAS_SADDR(one), B,
                ldb, B2, ldb, CBLAS_SADDR(zero), T12, ldt);
    cblas_ztrmm(CblasColMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, n1, n2,
                CBLAS_SADDR(mone), T, ldt, T12, ldt);
    cblas_ztrmm(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, n1, n2,
                CBLAS_SADDR(one), T22, ldt, T12, ldt);
}

/*
 * ?tpqrt with l = 0, each block of nb columns factored by ztpqrt_rec instead of the
 * level-2 ?tpqrt2 (same T layout and results up to rounding; 15-75 % faster on 256-512
 * tiles, the more the larger nb, so the larger ib that TSMQR prefers costs the panel
 * little), then applied to the columns on its right with LAPACK's ?tprfb.
 */
static void ztsqrt_blocked(int m, int n, int nb, tila_complex64_t *A, int lda,
                           tila_complex64_t *B, int ldb, tila_complex64_t *T, int ldt,
                           tila_complex64_t *work)
{
    for (int i = 0; i < n; i += nb) {
        int kb = tila_min(nb, n - i);
        ztpqrt_rec(m, kb, A + i + (size_t)i * lda, lda, B + (size_t)i * ldb, ldb,
                   T + (size_t)i * ldt, ldt);
        if (i + kb < n)
            LAPACKE_ztprfb_work(LAPACK_COL_MAJOR, 'L', tila_lapack_trans_qr(TILA_CONJTRANS),
                                'F', 'C', m, n - i - kb, kb, 0, B + (size_t)i * ldb, ldb,
                                T + (size_t)i * ldt, ldt, A + i + (size_t)(i + kb) * lda, lda,
                                B + (size_t)(i + kb) * ldb, ldb, work, kb);
    }
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
int tila_core_ztpqrt(int m, int n, int l, int ib, tila_complex64_t *A, int lda,
                     tila_complex64_t *B, int ldb, tila_complex64_t *T, int ldt,
                     tila_complex64_t *work)
{
    if (m < 0) return -1;
    if (n < 0) return -2;
    if (l < 0 || l > tila_min(m, n)) return -3;
    if (ib < 1) return -4;
    if (lda < tila_max1(n)) return -6;
    if (ldb < tila_max1(m)) return -8;
    int nb = tila_min(ib, n);
    if (ldt < tila_max1(nb)) return -10;
    if (m == 0 || n == 0)
        return 0;
    if (l == 0) {
        ztsqrt_blocked(m, n, nb, A, lda, B, ldb, T, ldt, work);
        return 0;
    }
    return LAPACKE_ztpqrt_work(LAPACK_COL_MAJOR, m, n, l, nb, A, lda, B, ldb, T, ldt, work);
}
