/**
 * @file cuda_zlag2c.cu
 * @brief GPU tile kernels between precisions: double complex to single complex and back,
 * to the bits of LAPACK's zlag2c and clag2z (one IEEE conversion an entry, rounded to
 * nearest both sides).
 * @precisions mixed zc -> ds
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <float.h>

#include "cuda_kernel.h"
#include "cuda_zc.h"
#include "tila_kernel_args.h"

/* One thread per entry of the triangle uplo (or all), consecutive threads down a column.
 * An entry (a part) beyond single precision's range sets *overflow, as LAPACK's test
 * (x < -FLT_MAX or x > FLT_MAX: NaN does not, Inf does). */
__global__ static void zlag2c_kernel(int uplo, int m, int n, const cuDoubleComplex *A, int lda,
                                     cuFloatComplex *SA, int ldsa, int *overflow)
{
    long long total = (long long)m * n;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total;
         e += (long long)gridDim.x * blockDim.x) {
        int i = (int)(e % m), j = (int)(e / m);
        if ((uplo == TILA_UPPER && i > j) || (uplo == TILA_LOWER && i < j)) continue;
        cuDoubleComplex a = A[(size_t)j * lda + i];
#if defined(COMPLEX)
        double re = cuCreal(a), im = cuCimag(a);
        if (re < -FLT_MAX || re > FLT_MAX || im < -FLT_MAX || im > FLT_MAX) *overflow = 1;
#else
        if (a < -FLT_MAX || a > FLT_MAX) *overflow = 1;
#endif
        SA[(size_t)j * ldsa + i] = cuComplexDoubleToFloat(a);
    }
}

__global__ static void clag2z_kernel(int m, int n, const cuFloatComplex *SA, int ldsa,
                                     cuDoubleComplex *A, int lda)
{
    long long total = (long long)m * n;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total;
         e += (long long)gridDim.x * blockDim.x) {
        int i = (int)(e % m), j = (int)(e / m);
        A[(size_t)j * lda + i] = cuComplexFloatToDouble(SA[(size_t)j * ldsa + i]);
    }
}

/**
 * tila_core_zlag2c's contract on the stream: *overflow (device memory) is set to 1 when an
 * entry is beyond single precision's range, else to 0; unlike LAPACK's, every entry of SA
 * is written even then.
 */
int tila_cuda_zlag2c(cudaStream_t stream, tila_uplo_t uplo, int m, int n, const cuDoubleComplex *A,
                     int lda, cuFloatComplex *SA, int ldsa, int *overflow)
{
    int rc = tila_args_lag2_narrow(uplo, m, n, lda, ldsa, 1);
    if (rc) return rc;
    TILA_CUDA_CHECK(cudaMemsetAsync(overflow, 0, sizeof *overflow, stream));
    return tila_cuda_zlag2c_or(stream, uplo, m, n, A, lda, SA, ldsa, overflow);
}

/**
 * tila_cuda_zlag2c that sets *overflow to 1 on an entry beyond single's range and leaves it
 * as it was otherwise: one flag for the tiles of several calls.
 */
int tila_cuda_zlag2c_or(cudaStream_t stream, tila_uplo_t uplo, int m, int n,
                        const cuDoubleComplex *A, int lda, cuFloatComplex *SA, int ldsa,
                        int *overflow)
{
    int rc = tila_args_lag2_narrow(uplo, m, n, lda, ldsa, 1);
    if (rc || m == 0 || n == 0) return rc;
    zlag2c_kernel<<<tila_cuda_grid(m, n), TILA_CUDA_BLOCK, 0, stream>>>((int)uplo, m, n, A, lda, SA,
                                                                        ldsa, overflow);
    TILA_CUDA_LAUNCHED();
    return 0;
}

/** tila_core_clag2z's contract on the stream. */
int tila_cuda_clag2z(cudaStream_t stream, int m, int n, const cuFloatComplex *SA, int ldsa,
                     cuDoubleComplex *A, int lda)
{
    int rc = tila_args_lag2_widen(m, n, ldsa, lda, 1);
    if (rc || m == 0 || n == 0) return rc;
    clag2z_kernel<<<tila_cuda_grid(m, n), TILA_CUDA_BLOCK, 0, stream>>>(m, n, SA, ldsa, A, lda);
    TILA_CUDA_LAUNCHED();
    return 0;
}
