/**
 * @file cuda_ztrmm.c
 * @brief GPU tile kernel: triangular matrix product in place (cuBLAS trmm).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "cuda_kernel.h"
#include "cuda_z.h"
#include "tila_kernel_args.h"

/** cuBLAS's trmm on `handle` (its stream), B in place (passed as its output too); same
 * arguments and checks as tila_core_ztrmm. */
int tila_cuda_ztrmm(cublasHandle_t handle, tila_side_t side, tila_uplo_t uplo, tila_trans_t trans,
                    tila_diag_t diag, int m, int n, cuDoubleComplex alpha, const cuDoubleComplex *A,
                    int lda, cuDoubleComplex *B, int ldb)
{
    int rc = tila_args_trxm_sizes(side, m, n, lda, ldb, 1);
    if (rc || m == 0 || n == 0) return rc;
    TILA_CUDA_CHECK(cublasZtrmm(handle, tila_cublas_side(side), tila_cublas_fill(uplo),
                                tila_cublas_op(trans), tila_cublas_diag(diag), m, n, &alpha, A, lda,
                                B, ldb, B, ldb));
    return 0;
}

/** Elements of device workspace tila_cuda_ztrmm_gemm needs: the k x k triangle made full
 * (k = m left, n right) and the m x n product. */
size_t tila_cuda_ztrmm_gemm_work(tila_side_t side, int m, int n)
{
    size_t k = (size_t)(side == TILA_LEFT ? m : n);
    return k * k + (size_t)m * (size_t)n;
}

/**
 * The same product as tila_cuda_ztrmm, by one cuBLAS gemm: A's triangle copied into `work`
 * with explicit zeros in the other one (ones on a unit diagonal), alpha op(A) B or
 * alpha B op(A) into work's second part, copied back into B.  cuBLAS's trmm runs a
 * 2048-tile at a ninth of its gemm's rate on an H100/H200 (half the flops each), so the
 * two copies and twice the flops cost less.  `work` holds tila_cuda_ztrmm_gemm_work
 * elements of device memory.
 */
int tila_cuda_ztrmm_gemm(cublasHandle_t handle, tila_side_t side, tila_uplo_t uplo,
                         tila_trans_t trans, tila_diag_t diag, int m, int n, cuDoubleComplex alpha,
                         const cuDoubleComplex *A, int lda, cuDoubleComplex *B, int ldb,
                         cuDoubleComplex *work)
{
    int rc = tila_args_trxm_sizes(side, m, n, lda, ldb, 1);
    if (rc || m == 0 || n == 0) return rc;
    int left = side == TILA_LEFT, k = left ? m : n;
    tila_uplo_t other = uplo == TILA_UPPER ? TILA_LOWER : TILA_UPPER;
    cuDoubleComplex zero = tila_cuda_zscalar(0.0), one = tila_cuda_zscalar(1.0);
    cuDoubleComplex *Af = work, *W = work + (size_t)k * k;
    cudaStream_t stream;
    TILA_CUDA_CHECK(cublasGetStream(handle, &stream));
    if (diag == TILA_UNIT) {
        TILA_CUDA_PASS(tila_cuda_zlacpy(stream, uplo, k, k, A, lda, Af, k));
        TILA_CUDA_PASS(tila_cuda_zlaset(stream, other, k, k, zero, one, Af, k));
    }
    else {
        TILA_CUDA_PASS(tila_cuda_zlaset(stream, other, k, k, zero, zero, Af, k));
        TILA_CUDA_PASS(tila_cuda_zlacpy(stream, uplo, k, k, A, lda, Af, k));
    }
    if (left)
        TILA_CUDA_CHECK(cublasZgemm(handle, tila_cublas_op(trans), CUBLAS_OP_N, m, n, m, &alpha, Af,
                                    k, B, ldb, &zero, W, m));
    else
        TILA_CUDA_CHECK(cublasZgemm(handle, CUBLAS_OP_N, tila_cublas_op(trans), m, n, n, &alpha, B,
                                    ldb, Af, k, &zero, W, m));
    return tila_cuda_zlacpy(stream, TILA_GENERAL, m, n, W, m, B, ldb);
}
