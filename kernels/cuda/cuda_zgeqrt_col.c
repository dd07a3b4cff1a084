/**
 * @file cuda_zgeqrt_col.c
 * @brief GPU kernel: QR factorization of a column of tiles as one panel, with the whole
 *        triangular factor of its block reflector (cuSOLVER geqrf + larft).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "cuda_kernel.h"
#include "cuda_z.h"
#include "tila_kernel_args.h"

/**
 * Same result and contract as tila_core_zgeqrt_col, on `stream` (that of `solver`): the
 * tiles are gathered into `panel`, factored there by tila_cuda_zgeqrt as one block of k =
 * min(m, n) reflectors (its T by the UT transform from ut_min reflectors with `blas`:
 * tila_cuda_zlarft_blocks), and scattered back.
 * @param A      the tiles' device pointers (a host array).
 * @param panel  m n elements of device memory; @param tau  k elements of device memory.
 * @param dwork, dbytes, hwork, hbytes  at least what tila_cuda_zgeqrt_worksize gives for
 *               (m, n, ib = n, panel, m).
 */
int tila_cuda_zgeqrt_col(cublasHandle_t blas, int ut_min, cusolverDnHandle_t solver,
                         cusolverDnParams_t params, cudaStream_t stream, int m, int n,
                         const int *mbs, cuDoubleComplex *const *A, const int *lda,
                         cuDoubleComplex *T, int ldt, cuDoubleComplex *panel, cuDoubleComplex *tau,
                         void *dwork, size_t dbytes, void *hwork, size_t hbytes)
{
    int rc = tila_args_geqrt_col(m, n, mbs, ldt, 3), k = tila_min(m, n);
    if (rc || k == 0) return rc;
    for (int i = 0, r = 0; r < m; r += mbs[i++])
        TILA_CUDA_PASS(
            tila_cuda_zlacpy(stream, TILA_GENERAL, mbs[i], n, A[i], lda[i], panel + r, m));
    TILA_CUDA_PASS(tila_cuda_zgeqrt(blas, ut_min, solver, params, m, n, n, panel, m, T, ldt, tau,
                                    dwork, dbytes, hwork, hbytes));
    for (int i = 0, r = 0; r < m; r += mbs[i++])
        TILA_CUDA_PASS(
            tila_cuda_zlacpy(stream, TILA_GENERAL, mbs[i], n, panel + r, m, A[i], lda[i]));
    return 0;
}
