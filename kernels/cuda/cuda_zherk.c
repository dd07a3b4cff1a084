/**
 * @file cuda_zherk.c
 * @brief GPU tile kernel: Hermitian rank-k update (cuBLAS herk; syrk in real precisions).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "cuda_kernel.h"
#include "cuda_z.h"
#include "tila_kernel_args.h"

/** cuBLAS's herk on `handle` (its stream); same arguments and checks as tila_core_zherk. */
int tila_cuda_zherk(cublasHandle_t handle, tila_uplo_t uplo, tila_trans_t trans, int n, int k,
                    double alpha, const cuDoubleComplex *A, int lda, double beta,
                    cuDoubleComplex *C, int ldc)
{
    int rc = tila_args_herk_sizes(trans, n, k, lda, ldc, 1);
    if (rc || n == 0) return rc;
    /* cuBLAS's syrk takes N or T: OP_C is spelled here so that the real precisions'
     * generated files say CUBLAS_OP_T. */
    cublasOperation_t op = trans == TILA_NOTRANS ? CUBLAS_OP_N : CUBLAS_OP_C;
    TILA_CUDA_CHECK(
        cublasZherk(handle, tila_cublas_fill(uplo), op, n, k, &alpha, A, lda, &beta, C, ldc));
    return 0;
}
