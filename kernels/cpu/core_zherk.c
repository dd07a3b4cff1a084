/**
 * @file core_zherk.c
 * @brief Tile kernel: Hermitian rank-k update (CBLAS herk; syrk in real precisions).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "core_kernel.h"
#include "core_z.h"

/**
 * C = alpha op(A) op(A)^H + beta C on the `uplo` triangle of the n x n C, op(A) n x k
 * (trans TILA_NOTRANS: A is n x k; else A is k x n and op(A) = A^H).  alpha and beta are
 * real.  @param lda >= max(1, n or k); ldc >= max(1, n).
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_zherk(tila_uplo_t uplo, tila_trans_t trans, int n, int k, double alpha,
                    const tila_complex64_t *A, int lda, double beta, tila_complex64_t *C, int ldc)
{
    int rc = tila_args_herk(uplo, tila_valid_trans_h(trans), trans, n, k, lda, ldc, 0);
    if (rc || n == 0) return rc;
    cblas_zherk(CblasColMajor, (enum CBLAS_UPLO)uplo, tila_cblas_trans(trans), n, k, alpha, A, lda,
                beta, C, ldc);
    return 0;
}
