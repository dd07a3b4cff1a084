/**
 * @file core_zlarft_col.c
 * @brief CPU kernel: the triangular factor of the block reflector of a column of tiles,
 *        from the reflectors and their scalar factors (LAPACK's ?larft).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "core_kernel.h"
#include "core_z.h"

/**
 * T, the k x k upper triangular factor of H(1) H(2) ... H(k) = I - V T V^H, where H(j) =
 * I - tau(j) v_j v_j^H and v_j is column j of the m x k unit lower trapezoidal V that the
 * tiles V[0], V[1], ... hold below their diagonal (tile i: the next mbs[i] rows, leading
 * dimension ldv[i]; the tiles' rows add up to m), as LAPACK's ?geqrf leaves its reflectors: the T that
 * tila_core_zgeqrt_col gives for the same panel.  Only V's strictly lower part is read;
 * T's strictly lower part is not written.  The tiles are gathered into work.
 * @param ldt  >= max(1, k).
 * @param work m k elements.
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_zlarft_col(int m, int k, const int *mbs, const tila_complex64_t *const *V,
                         const int *ldv, const tila_complex64_t *tau, tila_complex64_t *T, int ldt,
                         tila_complex64_t *work)
{
    int rc = tila_args_larft_col(m, k, mbs, ldt, 0);
    if (rc || k == 0) return rc;
    for (int i = 0, r = 0; r < m; r += mbs[i++])
        LAPACKE_zlacpy_work(LAPACK_COL_MAJOR, 'A', mbs[i], k, V[i], ldv[i], work + r, m);
    return LAPACKE_zlarft_work(LAPACK_COL_MAJOR, 'F', 'C', m, k, work, m, tau, T, ldt);
}
