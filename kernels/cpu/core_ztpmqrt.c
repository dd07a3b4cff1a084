/**
 * @file core_ztpmqrt.c
 * @brief Tile kernel: apply the Q of tila_core_ztpqrt to a pair of tiles (LAPACKE ?tpmqrt).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "core_kernel.h"
#include "core_z.h"

/**
 * [A; B] = op(Q) [A; B] (side TILA_LEFT: A is k x n, B is m x n) or [A B] = [A B] op(Q)
 * (TILA_RIGHT: A is m x k, B is m x n), where Q comes from tila_core_ztpqrt with the same
 * l and ib: V is the pentagonal m x k (left) or n x k (right) matrix it left in B, T its
 * block factors.  op(Q) = Q (TILA_NOTRANS) or Q^H (TILA_CONJTRANS; TILA_TRANS in real).
 * @param l    0 <= l <= k, and l <= m (left) or n (right).
 * @param ldv  >= max(1, m) (left) or max(1, n) (right).
 * @param ldt  >= max(1, min(ib, k)).
 * @param lda  >= max(1, k) (left) or max(1, m) (right); @param ldb >= max(1, m).
 * @param work min(ib, k) * n (left) or m * min(ib, k) (right) elements.
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_ztpmqrt(tila_side_t side, tila_trans_t trans, int m, int n, int k, int l, int ib,
                      const tila_complex64_t *V, int ldv, const tila_complex64_t *T, int ldt,
                      tila_complex64_t *A, int lda, tila_complex64_t *B, int ldb,
                      tila_complex64_t *work)
{
    int rc = tila_args_tpmqrt(side, trans, m, n, k, l, ib, ldv, ldt, lda, ldb, 0);
    if (rc || m == 0 || n == 0 || k == 0) return rc;
    int nb = tila_min(ib, k);
    return LAPACKE_ztpmqrt_work(LAPACK_COL_MAJOR, tila_lapack_side(side),
                                tila_lapack_trans_qr(trans), m, n, k, l, nb, V, ldv, T, ldt, A, lda,
                                B, ldb, work);
}
