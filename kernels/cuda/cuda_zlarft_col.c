/**
 * @file cuda_zlarft_col.c
 * @brief GPU kernel: the triangular factor of the block reflector of a column of tiles,
 *        from the reflectors and their scalar factors (cuSOLVER's larft).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "cuda_kernel.h"
#include "cuda_z.h"
#include "tila_kernel_args.h"

/**
 * Same result and contract as tila_core_zlarft_col, on `stream` (that of `solver`): the
 * tiles are gathered into `panel` and tau_host copied to `tau`, then T of them as one block
 * of k reflectors (tila_cuda_zlarft_blocks: by the UT transform from ut_min reflectors
 * with `blas`, else cuSOLVER's larft).
 * @param V         the tiles' device pointers (a host array).
 * @param tau_host  the k scalar factors, in host memory.
 * @param panel     m k elements of device memory; @param tau  k elements of device memory.
 * @param dwork, dbytes, hwork, hbytes  at least what tila_cuda_zlarft_blocks_worksize gives
 *               for (m, k, ib = k, panel, m).
 */
int tila_cuda_zlarft_col(cublasHandle_t blas, int ut_min, cusolverDnHandle_t solver,
                         cusolverDnParams_t params, cudaStream_t stream, int m, int k,
                         const int *mbs, const cuDoubleComplex *const *V, const int *ldv,
                         const cuDoubleComplex *tau_host, cuDoubleComplex *T, int ldt,
                         cuDoubleComplex *panel, cuDoubleComplex *tau, void *dwork, size_t dbytes,
                         void *hwork, size_t hbytes)
{
    int rc = tila_args_larft_col(m, k, mbs, ldt, 3);
    if (rc || k == 0) return rc;
    for (int i = 0, r = 0; r < m; r += mbs[i++])
        TILA_CUDA_PASS(
            tila_cuda_zlacpy(stream, TILA_GENERAL, mbs[i], k, V[i], ldv[i], panel + r, m));
    TILA_CUDA_CHECK(cudaMemcpyAsync(tau, tau_host, sizeof(cuDoubleComplex) * (size_t)k,
                                    cudaMemcpyHostToDevice, stream));
    return tila_cuda_zlarft_blocks(blas, ut_min, solver, params, m, k, k, panel, m, tau, T, ldt,
                                   dwork, dbytes, hwork, hbytes);
}
