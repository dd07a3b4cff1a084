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
    int left = side == TILA_LEFT;
    if (side != TILA_LEFT && side != TILA_RIGHT) return -1;
    if (!tila_valid_trans_qr(trans)) return -2;
    if (m < 0) return -3;
    if (n < 0) return -4;
    if (k < 0) return -5;
    if (l < 0 || l > k || l > (left ? m : n)) return -6;
    if (ib < 1) return -7;
    if (ldv < tila_max1(left ? m : n)) return -9;
    int nb = tila_min(ib, k);
    if (ldt < tila_max1(nb)) return -11;
    if (lda < tila_max1(left ? k : m)) return -13;
    if (ldb < tila_max1(m)) return -15;
    if (m == 0 || n == 0 || k == 0) return 0;
    return LAPACKE_ztpmqrt_work(LAPACK_COL_MAJOR, tila_lapack_side(side),
                                tila_lapack_trans_qr(trans), m, n, k, l, nb, V, ldv, T, ldt, A, lda,
                                B, ldb, work);
}
