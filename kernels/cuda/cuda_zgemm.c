/**
 * @file cuda_zgemm.c
 * @brief GPU tile kernel: C = alpha op(A) op(B) + beta C (cuBLAS).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "cuda_kernel.h"
#include "cuda_z.h"
#include "tila_kernel_args.h"

/** cuBLAS's gemm on `handle` (its stream); same arguments and checks as tila_core_zgemm. */
int tila_cuda_zgemm(cublasHandle_t handle, tila_trans_t transa, tila_trans_t transb, int m, int n,
                    int k, cuDoubleComplex alpha, const cuDoubleComplex *A, int lda,
                    const cuDoubleComplex *B, int ldb, cuDoubleComplex beta, cuDoubleComplex *C,
                    int ldc)
{
    int rc = tila_args_gemm_sizes(transa, transb, m, n, k, lda, ldb, ldc, 1);
    if (rc || m == 0 || n == 0) return rc;
    TILA_CUDA_CHECK(cublasZgemm(handle, tila_cublas_op(transa), tila_cublas_op(transb), m, n, k,
                                &alpha, A, lda, B, ldb, &beta, C, ldc));
    return 0;
}
