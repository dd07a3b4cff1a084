/**
 * @file cuda_zgemm.c
 * @brief GPU tile kernels: C = alpha op(A) op(B) + beta C (cuBLAS), and the two products of
 *        one tile, A B1 and A^H B2.
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

/**
 * tila_core_zgemm2's two products on `handle` (its stream), by two of cuBLAS's gemm: A is
 * read twice (a GPU reads a tile again from its cache only in part: an H100's L2 holds 50 MB,
 * a 2048-tile 32 MB); one task instead of two.  Same arguments and checks.
 */
int tila_cuda_zgemm2(cublasHandle_t handle, int m, int n, int k, const cuDoubleComplex *A, int lda,
                     cuDoubleComplex alpha1, const cuDoubleComplex *B1, int ldb1,
                     cuDoubleComplex beta1, cuDoubleComplex *C1, int ldc1,
                     cuDoubleComplex alpha2, const cuDoubleComplex *B2, int ldb2,
                     cuDoubleComplex beta2, cuDoubleComplex *C2, int ldc2)
{
    int rc = tila_args_gemm2(m, n, k, lda, ldb1, ldc1, ldb2, ldc2, 1);
    if (rc) return rc;
    TILA_CUDA_PASS(tila_cuda_zgemm(handle, TILA_NOTRANS, TILA_NOTRANS, m, n, k, alpha1, A, lda, B1,
                                   ldb1, beta1, C1, ldc1));
    return tila_cuda_zgemm(handle, TILA_CONJTRANS, TILA_NOTRANS, k, n, m, alpha2, A, lda, B2, ldb2,
                           beta2, C2, ldc2);
}
