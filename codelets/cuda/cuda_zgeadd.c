/**
 * @file cuda_zgeadd.c
 * @brief GPU tile kernel: B = alpha A + beta B (cuBLAS geam, in place).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "cuda_kernel.h"
#include "cuda_z.h"

int tila_cuda_zgeadd(cublasHandle_t handle, int m, int n, cuDoubleComplex alpha,
                     const cuDoubleComplex *A, int lda, cuDoubleComplex beta, cuDoubleComplex *B,
                     int ldb)
{
    if (m < 0) return -2;
    if (n < 0) return -3;
    if (lda < tila_cuda_max1(m)) return -6;
    if (ldb < tila_cuda_max1(m)) return -9;
    if (m == 0 || n == 0) return 0;
    TILA_CUDA_CHECK(
        cublasZgeam(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, &alpha, A, lda, &beta, B, ldb, B, ldb));
    return 0;
}
