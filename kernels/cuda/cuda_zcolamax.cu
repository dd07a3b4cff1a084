/**
 * @file cuda_zcolamax.cu
 * @brief GPU tile kernel: the largest entry of each column (tila_core_zcolamax's measure),
 * to the CPU's bits (a max is exact in any order; |Re| + |Im| is one rounding either side).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "cuda_kernel.h"
#include "cuda_z.h"
#include "tila_kernel_args.h"

#define ZCOLAMAX_COLS 8 /* columns (warps) per block */

/* max(a, b), NaN if either is. */
__device__ static inline double zcolamax_max(double a, double b)
{
    return isnan(a) || isnan(b) ? a + b : a > b ? a : b;
}

/* Warp y of block b takes column 8 b + y; lane x its rows x, x + 32, ... (coalesced). */
__global__ static void zcolamax_kernel(int m, int n, const cuDoubleComplex *A, int lda,
                                       double *work)
{
    int x = threadIdx.x, j = blockIdx.x * ZCOLAMAX_COLS + threadIdx.y;
    if (j >= n) return;
    const cuDoubleComplex *a = A + (size_t)j * lda;
    double big = 0;
    for (int i = x; i < m; i += 32) {
#if defined(COMPLEX)
        double v = fabs(cuCreal(a[i])) + fabs(cuCimag(a[i]));
#else
        double v = fabs(a[i]);
#endif
        big = zcolamax_max(big, v);
    }
    for (int h = 16; h > 0; h /= 2)
        big = zcolamax_max(big, __shfl_down_sync(0xffffffffu, big, h));
    if (x == 0) work[j] = big;
}

/** tila_core_zcolamax's contract on the stream; work in device memory. */
int tila_cuda_zcolamax(cudaStream_t stream, int m, int n, const cuDoubleComplex *A, int lda,
                       double *work)
{
    int rc = tila_args_mat(m, n, lda, 1);
    if (rc || n == 0) return rc;
    dim3 block(32, ZCOLAMAX_COLS);
    zcolamax_kernel<<<(n + ZCOLAMAX_COLS - 1) / ZCOLAMAX_COLS, block, 0, stream>>>(m, n, A, lda,
                                                                                   work);
    TILA_CUDA_LAUNCHED();
    return 0;
}
