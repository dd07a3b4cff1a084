/**
 * @file cuda_zlaset.cu
 * @brief GPU tile kernel: off-diagonal entries = alpha, diagonal = beta.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "cuda_kernel.h"
#include "cuda_z.h"
#include "tila_kernel_args.h"

/* One thread per entry, consecutive threads down a column (coalesced). */
__global__ static void zlaset_kernel(int uplo, int m, int n, cuDoubleComplex alpha,
                                     cuDoubleComplex beta, cuDoubleComplex *A, int lda)
{
    long long total = (long long)m * n;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total;
         e += (long long)gridDim.x * blockDim.x) {
        int i = (int)(e % m), j = (int)(e / m);
        if ((uplo == TILA_UPPER && i > j) || (uplo == TILA_LOWER && i < j)) continue;
        A[(size_t)j * lda + i] = i == j ? beta : alpha;
    }
}

int tila_cuda_zlaset(cudaStream_t stream, tila_uplo_t uplo, int m, int n, cuDoubleComplex alpha,
                     cuDoubleComplex beta, cuDoubleComplex *A, int lda)
{
    int rc = tila_args_laset_sizes(m, n, lda, 1);
    if (rc || m == 0 || n == 0) return rc;
    zlaset_kernel<<<tila_cuda_grid(m, n), TILA_CUDA_BLOCK, 0, stream>>>((int)uplo, m, n, alpha,
                                                                        beta, A, lda);
    TILA_CUDA_LAUNCHED();
    return 0;
}
