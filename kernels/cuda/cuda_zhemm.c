/**
 * @file cuda_zhemm.c
 * @brief GPU tile kernel: Hermitian matrix product (cuBLAS hemm; symm in real precisions).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "cuda_kernel.h"
#include "cuda_z.h"

/** cuBLAS's hemm on `handle` (its stream); same arguments and checks as tila_core_zhemm. */
int tila_cuda_zhemm(cublasHandle_t handle, tila_side_t side, tila_uplo_t uplo, int m, int n,
                    cuDoubleComplex alpha, const cuDoubleComplex *A, int lda,
                    const cuDoubleComplex *B, int ldb, cuDoubleComplex beta, cuDoubleComplex *C,
                    int ldc)
{
    if (side != TILA_LEFT && side != TILA_RIGHT) return -1;
    if (uplo != TILA_UPPER && uplo != TILA_LOWER) return -2;
    if (m < 0) return -3;
    if (n < 0) return -4;
    if (lda < tila_cuda_max1(side == TILA_LEFT ? m : n)) return -7;
    if (ldb < tila_cuda_max1(m)) return -9;
    if (ldc < tila_cuda_max1(m)) return -12;
    if (m == 0 || n == 0) return 0;
    TILA_CUDA_CHECK(cublasZhemm(handle, side == TILA_LEFT ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT,
                                tila_cublas_fill(uplo), m, n, &alpha, A, lda, B, ldb, &beta, C,
                                ldc));
    return 0;
}
