/**
 * @file cuda_ztrmm.c
 * @brief GPU tile kernel: triangular matrix product in place (cuBLAS trmm).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "cuda_kernel.h"
#include "cuda_z.h"

/** cuBLAS's trmm on `handle` (its stream), B in place (passed as its output too); same
 * arguments and checks as tila_core_ztrmm. */
int tila_cuda_ztrmm(cublasHandle_t handle, tila_side_t side, tila_uplo_t uplo, tila_trans_t trans,
                    tila_diag_t diag, int m, int n, cuDoubleComplex alpha, const cuDoubleComplex *A,
                    int lda, cuDoubleComplex *B, int ldb)
{
    int rc = tila_cuda_check_trxm(side, m, n, lda, ldb);
    if (rc || m == 0 || n == 0) return rc;
    TILA_CUDA_CHECK(cublasZtrmm(handle, side == TILA_LEFT ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT,
                                tila_cublas_fill(uplo), tila_cublas_op(trans),
                                diag == TILA_UNIT ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT, m, n,
                                &alpha, A, lda, B, ldb, B, ldb));
    return 0;
}
