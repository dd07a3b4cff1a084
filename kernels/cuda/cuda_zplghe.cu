/**
 * @file cuda_zplghe.cu
 * @brief GPU tile kernel: a tile of the seeded random Hermitian matrix, diagonal shifted.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "cuda_kernel.h"
#include "cuda_z.h"
#include "tila_kernel_args.h"
#include "tila_rand.h"

/* Same entries as tila_core_zplghe: random lower triangle, conjugate above. */
__global__ static void zplghe_kernel(double bump, int m, int n, cuDoubleComplex *A, int lda, int i0,
                                     int j0, unsigned long long seed)
{
    long long total = (long long)m * n;
    for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < total;
         e += (long long)gridDim.x * blockDim.x) {
        int i = (int)(e % m), j = (int)(e / m);
        uint64_t gi = (uint64_t)(i0 + i), gj = (uint64_t)(j0 + j);
        uint64_t r = gi > gj ? gi : gj, c = gi > gj ? gj : gi;
        double re = tila_rand_entry(seed, r, c, 0); /* rounded as on the CPU, then shifted */
        if (gi == gj) re += bump;
#if defined(COMPLEX)
        double im = gi == gj ? 0.0 : (gi > gj ? 1.0 : -1.0) * tila_rand_entry(seed, r, c, 1);
        A[(size_t)j * lda + i] = make_cuDoubleComplex(re, im);
#else
        A[(size_t)j * lda + i] = re;
#endif
    }
}

int tila_cuda_zplghe(cudaStream_t stream, double bump, int m, int n, cuDoubleComplex *A, int lda,
                     int i0, int j0, unsigned long long seed)
{
    int rc = tila_args_mat(m, n, lda, 2);
    if (rc || m == 0 || n == 0) return rc;
    zplghe_kernel<<<tila_cuda_grid(m, n), TILA_CUDA_BLOCK, 0, stream>>>(bump, m, n, A, lda, i0, j0,
                                                                        seed);
    TILA_CUDA_LAUNCHED();
    return 0;
}
