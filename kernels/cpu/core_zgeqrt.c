/**
 * @file core_zgeqrt.c
 * @brief Tile kernel: QR factorization of a tile in compact WY form (LAPACKE ?geqrt).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "core_kernel.h"
#include "core_z.h"

/**
 * A = Q R with Q = H(1) ... H(k), k = min(m, n), stored as LAPACK's ?geqrt does: R on and
 * above the diagonal, the Householder vectors V (unit lower trapezoidal) below it, and the
 * upper triangular factors of the blocks of nb = min(ib, k) reflectors, Q = I - V T V^H per
 * block, side by side in T (block j in T(0:nb, j nb : j nb + nb)).
 * @param ib   inner block size, ib >= 1 (need not divide n).
 * @param lda  >= max(1, m).
 * @param ldt  >= max(1, min(ib, m, n)); T has n columns.
 * @param work min(ib, m, n) * n elements.
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_zgeqrt(int m, int n, int ib, tila_complex64_t *A, int lda, tila_complex64_t *T,
                     int ldt, tila_complex64_t *work)
{
    int rc = tila_args_geqrt(m, n, ib, lda, ldt, 0);
    if (rc) return rc;
    int nb = tila_min(ib, tila_min(m, n));
    if (nb == 0) return 0;
    return LAPACKE_zgeqrt_work(LAPACK_COL_MAJOR, m, n, nb, A, lda, T, ldt, work);
}
