/**
 * @file core_zgemm.c
 * @brief Tile kernel: C = alpha op(A) op(B) + beta C (CBLAS).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "core_kernel.h"
#include "core_z.h"

/**
 * C = alpha op(A) op(B) + beta C with op(X) = X, X^T or X^H; C is m x n, k the inner size.
 * @param lda >= max(1, m) if transa is TILA_NOTRANS, else >= max(1, k); likewise ldb.
 * @param ldc >= max(1, m).
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_zgemm(tila_trans_t transa, tila_trans_t transb, int m, int n, int k,
                    tila_complex64_t alpha, const tila_complex64_t *A, int lda,
                    const tila_complex64_t *B, int ldb, tila_complex64_t beta, tila_complex64_t *C,
                    int ldc)
{
    int rc = tila_args_gemm(transa, transb, m, n, k, lda, ldb, ldc, 0);
    if (rc || m == 0 || n == 0) return rc;
    if (n == 1 && k > 0 && transb == TILA_NOTRANS) {
        /* One column (a solve with one right-hand side): a matrix-vector product, without
         * the copy of A that OpenBLAS's gemm makes first (faster: bench/LOG.md).  (k = 0
         * stays with gemm: gemv would not scale C by beta.) */
        cblas_zgemv(CblasColMajor, tila_cblas_trans(transa), transa == TILA_NOTRANS ? m : k,
                    transa == TILA_NOTRANS ? k : m, CBLAS_SADDR(alpha), A, lda, B, 1,
                    CBLAS_SADDR(beta), C, 1);
        return 0;
    }
    cblas_zgemm(CblasColMajor, tila_cblas_trans(transa), tila_cblas_trans(transb), m, n, k,
                CBLAS_SADDR(alpha), A, lda, B, ldb, CBLAS_SADDR(beta), C, ldc);
    return 0;
}
