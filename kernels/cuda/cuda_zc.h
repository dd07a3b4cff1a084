/**
 * @file cuda_zc.h
 * @brief GPU tile kernels between double complex and single complex (no StarPU); they run
 * on the given stream and return without synchronising.
 * @precisions mixed zc -> ds
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CUDA_ZC_H
#define CUDA_ZC_H

#include <cuComplex.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "tila_types.h"

#ifdef __cplusplus
extern "C" {
#endif

int tila_cuda_zlag2c(cudaStream_t stream, tila_uplo_t uplo, int m, int n, const cuDoubleComplex *A,
                     int lda, cuFloatComplex *SA, int ldsa, int *overflow);
int tila_cuda_zlag2c_or(cudaStream_t stream, tila_uplo_t uplo, int m, int n,
                        const cuDoubleComplex *A, int lda, cuFloatComplex *SA, int ldsa,
                        int *overflow);
int tila_cuda_clag2z(cudaStream_t stream, int m, int n, const cuFloatComplex *SA, int ldsa,
                     cuDoubleComplex *A, int lda);

int tila_cuda_cgemm_lp(cublasHandle_t handle, tila_factor_t factor, tila_trans_t transa,
                       tila_trans_t transb, int m, int n, int k, cuFloatComplex alpha,
                       const cuFloatComplex *A, int lda, const cuFloatComplex *B, int ldb,
                       cuFloatComplex beta, cuFloatComplex *C, int ldc);
int tila_cuda_cherk_lp(cublasHandle_t handle, tila_factor_t factor, tila_uplo_t uplo,
                       tila_trans_t trans, int n, int k, float alpha, const cuFloatComplex *A,
                       int lda, float beta, cuFloatComplex *C, int ldc);

#ifdef __cplusplus
}
#endif

#endif /* CUDA_ZC_H */
