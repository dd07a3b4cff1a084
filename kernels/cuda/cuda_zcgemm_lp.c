/**
 * @file cuda_zcgemm_lp.c
 * @brief GPU tile kernels: single-precision GEMM and HERK on tensor cores, their inputs
 * taken as TF32, BF16 or FP16 (cublasGemmEx's CUBLAS_COMPUTE_32F_FAST_* compute types).
 * @precisions mixed zc -> ds
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "cuda_kernel.h"
#include "cuda_zc.h"
#include "tila_kernel_args.h"

/* The compute type of a factor's arithmetic: cuBLAS may round the inputs to the format
 * (FAST_16F and FAST_16BF: or to TF32) and accumulates in single precision. */
static int compute_type(tila_factor_t factor, cublasComputeType_t *type)
{
    switch (factor) {
    case TILA_FACTOR_FP32: *type = CUBLAS_COMPUTE_32F; return 1;
    case TILA_FACTOR_TF32: *type = CUBLAS_COMPUTE_32F_FAST_TF32; return 1;
    case TILA_FACTOR_BF16: *type = CUBLAS_COMPUTE_32F_FAST_16BF; return 1;
    case TILA_FACTOR_FP16: *type = CUBLAS_COMPUTE_32F_FAST_16F; return 1;
    default: return 0;
    }
}

/** cublasGemmEx on `handle` (its stream) in `factor`'s compute type; the arguments and
 * checks of tila_core_cgemm_lp, without its workspace (cuBLAS rounds on the fly). */
int tila_cuda_cgemm_lp(cublasHandle_t handle, tila_factor_t factor, tila_trans_t transa,
                       tila_trans_t transb, int m, int n, int k, cuFloatComplex alpha,
                       const cuFloatComplex *A, int lda, const cuFloatComplex *B, int ldb,
                       cuFloatComplex beta, cuFloatComplex *C, int ldc)
{
    cublasComputeType_t type;
    if (!compute_type(factor, &type)) return -2;
    int rc = tila_args_gemm_sizes(transa, transb, m, n, k, lda, ldb, ldc, 2);
    if (rc || m == 0 || n == 0) return rc;
    TILA_CUDA_CHECK(cublasGemmEx(handle, tila_cublas_op(transa), tila_cublas_op(transb), m, n, k,
                                 &alpha, A, CUDA_C_32F, lda, B, CUDA_C_32F, ldb, &beta, C,
                                 CUDA_C_32F, ldc, type, CUBLAS_GEMM_DEFAULT));
    return 0;
}

/** C = alpha op(A) op(A)^H + beta C as one cublasGemmEx over the whole n x n tile (cuBLAS
 * has no HERK with these compute types): the triangle uplo is tila_core_cherk_lp's, the
 * other one is written too.  Its arguments and checks, without the workspace. */
int tila_cuda_cherk_lp(cublasHandle_t handle, tila_factor_t factor, tila_uplo_t uplo,
                       tila_trans_t trans, int n, int k, float alpha, const cuFloatComplex *A,
                       int lda, float beta, cuFloatComplex *C, int ldc)
{
    cublasComputeType_t type;
    if (!compute_type(factor, &type)) return -2;
    int rc = tila_args_herk(uplo, trans == TILA_NOTRANS || trans == TILA_CONJTRANS, trans, n, k,
                            lda, ldc, 2);
    if (rc || n == 0) return rc;
#if defined(COMPLEX)
    cuFloatComplex a = make_cuFloatComplex(alpha, 0), b = make_cuFloatComplex(beta, 0);
#else
    float a = alpha, b = beta;
#endif
    tila_trans_t other = trans == TILA_NOTRANS ? TILA_CONJTRANS : TILA_NOTRANS;
    TILA_CUDA_CHECK(cublasGemmEx(handle, tila_cublas_op(trans), tila_cublas_op(other), n, n, k, &a,
                                 A, CUDA_C_32F, lda, A, CUDA_C_32F, lda, &b, C, CUDA_C_32F, ldc,
                                 type, CUBLAS_GEMM_DEFAULT));
    return 0;
}
