/**
 * @file core_zgeqrt_col.c
 * @brief CPU kernel: QR factorization of a column of tiles as one panel, with the whole
 *        triangular factor of its block reflector (LAPACK's recursive ?geqrt3).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "core_kernel.h"
#include "core_z.h"

/**
 * The m x n panel made of the tiles A[0], A[1], ... (tile i: the next mbs[i] rows, leading
 * dimension lda[i]; the tiles' rows add up to m) = Q R with Q = I - V T V^H, k = min(m, n) reflectors:
 * R on and above the diagonal, V (unit lower trapezoidal) below, across the tiles as
 * LAPACK's ?geqrt leaves them in the panel, and T the k x k upper triangular factor of all
 * k reflectors.  The tiles are gathered into work, factored there, and scattered back.
 * @param ldt  >= max(1, k).
 * @param work m n + k n elements.
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_zgeqrt_col(int m, int n, const int *mbs, tila_complex64_t *const *A, const int *lda,
                         tila_complex64_t *T, int ldt, tila_complex64_t *work)
{
    int rc = tila_args_geqrt_col(m, n, mbs, ldt, 0), k = tila_min(m, n);
    if (rc || k == 0) return rc;
    for (int i = 0, r = 0; r < m; r += mbs[i++])
        LAPACKE_zlacpy_work(LAPACK_COL_MAJOR, 'A', mbs[i], n, A[i], lda[i], work + r, m);
    rc = tila_core_zgeqrt(m, n, n, work, m, T, ldt, work + (size_t)m * n);
    for (int i = 0, r = 0; r < m; r += mbs[i++])
        LAPACKE_zlacpy_work(LAPACK_COL_MAJOR, 'A', mbs[i], n, work + r, m, A[i], lda[i]);
    return rc;
}
