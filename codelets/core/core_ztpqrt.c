/**
 * @file core_ztpqrt.c
 * @brief Tile kernel: QR of a triangle stacked on a (pentagonal) tile (LAPACKE ?tpqrt).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "core_kernel.h"
#include "core_z.h"

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
    return LAPACKE_ztpqrt_work(LAPACK_COL_MAJOR, m, n, l, nb, A, lda, B, ldb, T, ldt, work);
}
