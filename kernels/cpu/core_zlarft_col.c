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

/**
 * The T of tila_core_zlarft_col (LAPACK's ?larft, forward, columnwise) for the m x k unit
 * lower trapezoidal V in place (strictly lower part read), by the UT transform (Joffrain,
 * Low, Quintana-Orti, van de Geijn): T^{-1} + T^{-H} = V^H V, so T^{-1} is striu(V^H V) with
 * 1 / tau(j) on its diagonal, and T is its inverse: Level-3 work (two HERKs, a TRTRI) where
 * ?larft is a matrix-vector product a reflector.  A reflector with tau(j) = 0 (the
 * identity) has row and column j of T zero: T^{-1}'s row and column j are made those of
 * the identity, which leaves the rest of the inverse that of the other reflectors, and
 * T(j, j) = 0 after.  The steps of the GPU's tila_cuda_zlarft_blocks, here to be tested.
 * T's strictly lower part is not written.
 * @param ldv >= max(1, m); @param ldt >= max(1, k).
 * @param W   k k elements: V's top k x k block, made unit lower triangular.
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_zlarft_ut(int m, int k, const tila_complex64_t *V, int ldv,
                        const tila_complex64_t *tau, tila_complex64_t *T, int ldt,
                        tila_complex64_t *W)
{
    if (m < 0) return -1;
    if (k < 0 || k > m) return -2;
    if (ldv < tila_max1(m)) return -4;
    if (ldt < tila_max1(k)) return -7;
    if (k == 0) return 0;
    /* Upper triangle of V^H V: the rows below the top block in place, then the top block's
     * unit lower triangle. */
    if (m > k) tila_core_zherk(TILA_UPPER, TILA_CONJTRANS, k, m - k, 1.0, V + k, ldv, 0.0, T, ldt);
    LAPACKE_zlacpy_work(LAPACK_COL_MAJOR, 'L', k, k, V, ldv, W, k);
    LAPACKE_zlaset_work(LAPACK_COL_MAJOR, 'U', k, k, 0.0, 1.0, W, k);
    tila_core_zherk(TILA_UPPER, TILA_CONJTRANS, k, k, 1.0, W, k, m > k ? 1.0 : 0.0, T, ldt);
    tila_core_zlarft_ut_diag(k, tau, T, ldt, 0);
    int info = LAPACKE_ztrtri_work(LAPACK_COL_MAJOR, 'U', 'N', k, T, ldt);
    tila_core_zlarft_ut_diag(k, tau, T, ldt, 1);
    return info > 0 ? 0 : info; /* nonsingular: the diagonal has no 0 */
}

/**
 * The UT transform's diagonal steps (tila_core_zlarft_ut), as the GPU's kernel does them:
 * before the inverse (after = 0), T(j, j) = 1 / tau(j), or where tau(j) = 0 row and column
 * j of the upper triangle those of the identity; after it (after = 1), T(j, j) = 0 where
 * tau(j) = 0.
 */
void tila_core_zlarft_ut_diag(int k, const tila_complex64_t *tau, tila_complex64_t *T, int ldt,
                              int after)
{
    for (int j = 0; j < k; j++) {
        tila_complex64_t *tjj = T + j + (size_t)j * ldt;
        if (tau[j] != 0.0) {
            if (!after) *tjj = 1.0 / tau[j];
            continue;
        }
        if (after) {
            *tjj = 0.0;
            continue;
        }
        for (int i = 0; i < j; i++)
            T[i + (size_t)j * ldt] = 0.0;
        for (int l = j + 1; l < k; l++)
            T[j + (size_t)l * ldt] = 0.0;
        *tjj = 1.0;
    }
}
