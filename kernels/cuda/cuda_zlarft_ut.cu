/**
 * @file cuda_zlarft_ut.cu
 * @brief GPU kernel: the diagonal steps of the UT transform that forms a block reflector's
 *        T (tila_cuda_zlarft_blocks; the CPU's tila_core_zlarft_ut_diag).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "cuda_kernel.h"
#include "cuda_z.h"

/* One thread a column j: before the inverse, T(j, j) = 1 / tau(j), or where tau(j) = 0 row
 * and column j of the upper triangle those of the identity (two such columns both write
 * the zero between them); after it, T(j, j) = 0 where tau(j) = 0. */
__global__ static void zlarft_ut_diag_kernel(int k, const cuDoubleComplex *tau, cuDoubleComplex *T,
                                             int ldt, int after)
{
    for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < k; j += gridDim.x * blockDim.x) {
        cuDoubleComplex t = tau[j], *tjj = T + (size_t)j * ldt + j;
#if defined(COMPLEX)
        int zero = cuCreal(t) == 0.0 && cuCimag(t) == 0.0;
        cuDoubleComplex one = make_cuDoubleComplex(1.0, 0.0), nil = make_cuDoubleComplex(0.0, 0.0);
#else
        int zero = t == 0.0;
        double one = 1.0, nil = 0.0;
#endif
        if (!zero) {
#if defined(COMPLEX)
            if (!after) *tjj = cuCdiv(one, t);
#else
            if (!after) *tjj = one / t;
#endif
            continue;
        }
        if (after) {
            *tjj = nil;
            continue;
        }
        for (int i = 0; i < j; i++)
            T[(size_t)j * ldt + i] = nil;
        for (int l = j + 1; l < k; l++)
            T[(size_t)l * ldt + j] = nil;
        *tjj = one;
    }
}

/**
 * tila_core_zlarft_ut_diag on the device, on `stream`: tau (k elements) and T in device
 * memory.  @return 0 or TILA_ERR_DEVICE.
 */
int tila_cuda_zlarft_ut_diag(cudaStream_t stream, int k, const cuDoubleComplex *tau,
                             cuDoubleComplex *T, int ldt, int after)
{
    if (k <= 0) return 0;
    zlarft_ut_diag_kernel<<<tila_cuda_grid(k, 1), TILA_CUDA_BLOCK, 0, stream>>>(k, tau, T, ldt,
                                                                                after);
    TILA_CUDA_LAUNCHED();
    return 0;
}
