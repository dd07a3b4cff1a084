/**
 * @file core_zunmqr.c
 * @brief Tile kernel: apply Q or Q^H of a tile QR (compact WY) to a tile (LAPACKE ?gemqrt).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "core_kernel.h"
#include "core_z.h"

/**
 * C = op(Q) C (side TILA_LEFT) or C op(Q) (TILA_RIGHT), C m x n, where Q = H(1) ... H(k)
 * is the product of the k reflectors that tila_core_zgeqrt stored in V and T with the same
 * ib, and op(Q) = Q (TILA_NOTRANS) or Q^H (TILA_CONJTRANS; TILA_TRANS too in real
 * arithmetic).
 * @param k    0 <= k <= m (left) or n (right).
 * @param ldv  >= max(1, m) (left) or max(1, n) (right).
 * @param ldt  >= max(1, min(ib, k)).
 * @param ldc  >= max(1, m).
 * @param work min(ib, k) * n (left) or m * min(ib, k) (right) elements.
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_zunmqr(tila_side_t side, tila_trans_t trans, int m, int n, int k, int ib,
                     const tila_complex64_t *V, int ldv, const tila_complex64_t *T, int ldt,
                     tila_complex64_t *C, int ldc, tila_complex64_t *work)
{
    int rc = tila_args_unmqr(side, trans, m, n, k, ib, ldv, ldt, ldc, 0), nb = tila_min(ib, k);
    if (rc || m == 0 || n == 0 || k == 0) return rc;
    return LAPACKE_zgemqrt_work(LAPACK_COL_MAJOR, tila_lapack_side(side),
                                tila_lapack_trans_qr(trans), m, n, k, nb, V, ldv, T, ldt, C, ldc,
                                work);
}
