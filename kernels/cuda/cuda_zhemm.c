/**
 * @file cuda_zhemm.c
 * @brief GPU tile kernel: Hermitian matrix product (cuBLAS hemm; symm in real precisions).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "cuda_kernel.h"
#include "cuda_z.h"
#include "tila_kernel_args.h"

/** cuBLAS's hemm on `handle` (its stream); same arguments and checks as tila_core_zhemm. */
int tila_cuda_zhemm(cublasHandle_t handle, tila_side_t side, tila_uplo_t uplo, int m, int n,
                    cuDoubleComplex alpha, const cuDoubleComplex *A, int lda,
                    const cuDoubleComplex *B, int ldb, cuDoubleComplex beta, cuDoubleComplex *C,
                    int ldc)
{
    int rc = tila_args_hemm(side, uplo, m, n, lda, ldb, ldc, 0);
    if (rc || m == 0 || n == 0) return rc;
    TILA_CUDA_CHECK(cublasZhemm(handle, tila_cublas_side(side), tila_cublas_fill(uplo), m, n,
                                &alpha, A, lda, B, ldb, &beta, C, ldc));
    return 0;
}
