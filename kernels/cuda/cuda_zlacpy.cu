/**
 * @file cuda_zlacpy.cu
 * @brief GPU tile kernel: B = A on a triangle or everywhere.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "cuda_kernel.h"
#include "cuda_z.h"
#include "tila_kernel_args.h"

/* One thread per entry, consecutive threads down a column (coalesced). */
__global__ static void zlacpy_kernel(int uplo, int m, int n, const cuDoubleComplex *A, int lda,
                                     cuDoubleComplex *B, int ldb)
{
    long long total = (long long)m * n;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total;
         e += (long long)gridDim.x * blockDim.x) {
        int i = (int)(e % m), j = (int)(e / m);
        if ((uplo == TILA_UPPER && i > j) || (uplo == TILA_LOWER && i < j)) continue;
        B[(size_t)j * ldb + i] = A[(size_t)j * lda + i];
    }
}

int tila_cuda_zlacpy(cudaStream_t stream, tila_uplo_t uplo, int m, int n, const cuDoubleComplex *A,
                     int lda, cuDoubleComplex *B, int ldb)
{
    int rc = tila_args_lacpy_sizes(m, n, lda, ldb, 1);
    if (rc || m == 0 || n == 0) return rc;
    if (uplo == TILA_GENERAL) {
        TILA_CUDA_CHECK(cudaMemcpy2DAsync(B, (size_t)ldb * sizeof *B, A, (size_t)lda * sizeof *A,
                                          (size_t)m * sizeof *A, (size_t)n,
                                          cudaMemcpyDeviceToDevice, stream));
        return 0;
    }
    zlacpy_kernel<<<tila_cuda_grid(m, n), TILA_CUDA_BLOCK, 0, stream>>>((int)uplo, m, n, A, lda, B,
                                                                        ldb);
    TILA_CUDA_LAUNCHED();
    return 0;
}
