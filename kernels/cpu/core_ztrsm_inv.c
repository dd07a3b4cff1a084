/**
 * @file core_ztrsm_inv.c
 * @brief Tile kernel: a triangular solve applied as a product with the triangle's inverse
 *        (a copy of B, then GEMM; CBLAS).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "core_kernel.h"
#include "core_z.h"

/**
 * B = alpha op(T) B (side TILA_LEFT) or alpha B op(T) (TILA_RIGHT), T a full tile (for
 * TRSM's B = alpha op(A)^-1 B, T = A^-1 from tila_core_ztrtri, zeros in its other
 * triangle): B is copied into W, then one GEMM writes B from W and T.  The same operations
 * as the GPU's twin (tila_cuda_ztrsm_inv), so a solve takes GEMM's speed on both.
 * @param ldt >= max(1, m or n, T's order); ldb >= max(1, m); W: m x n, ldw >= max(1, m).
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_ztrsm_inv(tila_side_t side, tila_trans_t trans, int m, int n, tila_complex64_t alpha,
                        const tila_complex64_t *T, int ldt, tila_complex64_t *B, int ldb,
                        tila_complex64_t *W, int ldw)
{
    int rc = tila_args_trsm_inv(side, trans, m, n, ldt, ldb, ldw, 0);
    if (rc || m == 0 || n == 0) return rc;
    tila_complex64_t zero = 0;
    LAPACKE_zlacpy_work(LAPACK_COL_MAJOR, 'A', m, n, B, ldb, W, ldw);
    if (side == TILA_LEFT)
        cblas_zgemm(CblasColMajor, tila_cblas_trans(trans), CblasNoTrans, m, n, m,
                    CBLAS_SADDR(alpha), T, ldt, W, ldw, CBLAS_SADDR(zero), B, ldb);
    else
        cblas_zgemm(CblasColMajor, CblasNoTrans, tila_cblas_trans(trans), m, n, n,
                    CBLAS_SADDR(alpha), W, ldw, T, ldt, CBLAS_SADDR(zero), B, ldb);
    return 0;
}
