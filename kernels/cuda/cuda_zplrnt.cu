/**
 * @file cuda_zplrnt.cu
 * @brief GPU tile kernel: a tile of the seeded random matrix (same bits as the CPU's).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "cuda_kernel.h"
#include "cuda_z.h"
#include "tila_kernel_args.h"
#include "tila_rand.h"

__global__ static void zplrnt_kernel(int m, int n, cuDoubleComplex *A, int lda, int i0, int j0,
                                     unsigned long long seed)
{
    long long total = (long long)m * n;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total;
         e += (long long)gridDim.x * blockDim.x) {
        int i = (int)(e % m), j = (int)(e / m);
        uint64_t gi = (uint64_t)(i0 + i), gj = (uint64_t)(j0 + j);
#if defined(COMPLEX)
        A[(size_t)j * lda + i] = make_cuDoubleComplex(tila_rand_entry(seed, gi, gj, 0),
                                                      tila_rand_entry(seed, gi, gj, 1));
#else
        A[(size_t)j * lda + i] = tila_rand_entry(seed, gi, gj, 0);
#endif
    }
}

int tila_cuda_zplrnt(cudaStream_t stream, int m, int n, cuDoubleComplex *A, int lda, int i0, int j0,
                     unsigned long long seed)
{
    int rc = tila_args_mat(m, n, lda, 1);
    if (rc || m == 0 || n == 0) return rc;
    zplrnt_kernel<<<tila_cuda_grid(m, n), TILA_CUDA_BLOCK, 0, stream>>>(m, n, A, lda, i0, j0, seed);
    TILA_CUDA_LAUNCHED();
    return 0;
}
