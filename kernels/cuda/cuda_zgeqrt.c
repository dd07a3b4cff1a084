/**
 * @file cuda_zgeqrt.c
 * @brief GPU tile kernel: QR of a tile in compact WY form (cuSOLVER geqrf + larft).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <cusolverDn.h>

#include "cuda_kernel.h"
#include "cuda_z.h"
#include "tila_kernel_args.h"

/**
 * Workspace (bytes, device and host) that tila_cuda_zlarft_blocks needs for these sizes;
 * a query, nothing runs.  @return 0 or TILA_ERR_DEVICE (cuSOLVER failed, named on stderr).
 */
int tila_cuda_zlarft_blocks_worksize(cusolverDnHandle_t solver, cusolverDnParams_t params, int m,
                                     int k, int ib, const cuDoubleComplex *V, int ldv,
                                     const cuDoubleComplex *tau, cuDoubleComplex *T, int ldt,
                                     size_t *dbytes, size_t *hbytes)
{
    *dbytes = *hbytes = 0;
    for (int j = 0; j < k; j += ib) {
        int kb = tila_min(ib, k - j);
        size_t d = 0, h = 0;
        TILA_CUDA_CHECK(cusolverDnXlarft_bufferSize(
            solver, params, CUBLAS_DIRECT_FORWARD, CUBLAS_STOREV_COLUMNWISE, m - j, kb, CUDA_C_64F,
            V + (size_t)j * ldv + j, ldv, CUDA_C_64F, tau + j, CUDA_C_64F, T + (size_t)j * ldt, ldt,
            CUDA_C_64F, &d, &h));
        *dbytes = d > *dbytes ? d : *dbytes;
        *hbytes = h > *hbytes ? h : *hbytes;
    }
    return 0;
}

/**
 * The triangular factors of the blocks of ib reflectors of H(1) ... H(k) (the m x k unit
 * lower trapezoidal V and tau of ?geqrf), side by side in T as ?geqrt stores them:
 * block j (columns j ib ...) is larft of V(j ib : m, j ib : j ib + kb).
 * @return 0 or TILA_ERR_DEVICE.
 */
int tila_cuda_zlarft_blocks(cusolverDnHandle_t solver, cusolverDnParams_t params, int m, int k,
                            int ib, const cuDoubleComplex *V, int ldv, const cuDoubleComplex *tau,
                            cuDoubleComplex *T, int ldt, void *dwork, size_t dbytes, void *hwork,
                            size_t hbytes)
{
    for (int j = 0; j < k; j += ib) {
        int kb = tila_min(ib, k - j);
        TILA_CUDA_CHECK(cusolverDnXlarft(
            solver, params, CUBLAS_DIRECT_FORWARD, CUBLAS_STOREV_COLUMNWISE, m - j, kb, CUDA_C_64F,
            V + (size_t)j * ldv + j, ldv, CUDA_C_64F, tau + j, CUDA_C_64F, T + (size_t)j * ldt, ldt,
            CUDA_C_64F, dwork, dbytes, hwork, hbytes));
    }
    return 0;
}

/**
 * Device and host workspace (bytes) of tila_cuda_zgeqrt for these arguments (a query).
 * @return 0 or TILA_ERR_DEVICE.
 */
int tila_cuda_zgeqrt_worksize(cusolverDnHandle_t solver, cusolverDnParams_t params, int m, int n,
                              int ib, cuDoubleComplex *A, int lda, const cuDoubleComplex *tau,
                              cuDoubleComplex *T, int ldt, size_t *dbytes, size_t *hbytes)
{
    int k = tila_min(m, n), lwork = 0;
    *dbytes = *hbytes = 0;
    if (k == 0 || ib < 1) return 0;
    TILA_CUDA_CHECK(cusolverDnZgeqrf_bufferSize(solver, m, n, A, lda, &lwork));
    int rc = tila_cuda_zlarft_blocks_worksize(solver, params, m, k, tila_min(ib, k), A, lda, tau, T,
                                              ldt, dbytes, hbytes);
    size_t geqrf = sizeof(cuDoubleComplex) * (size_t)lwork;
    /* geqrf and larft run one after the other on the stream: they share the space. */
    *dbytes = TILA_CUDA_INFO_BYTES + (geqrf > *dbytes ? geqrf : *dbytes);
    return rc;
}

/**
 * Same result and contract as tila_core_zgeqrt (R and V in A, the block factors of
 * nb = min(ib, m, n) reflectors in T), on the stream of `solver`: cuSOLVER's blocked
 * Householder QR in place, then cuSOLVER's larft per block of nb reflectors.
 * @param tau    min(m, n) elements of device memory.
 * @param dwork, dbytes, hwork, hbytes  at least what tila_cuda_zgeqrt_worksize gives.
 */
int tila_cuda_zgeqrt(cusolverDnHandle_t solver, cusolverDnParams_t params, int m, int n, int ib,
                     cuDoubleComplex *A, int lda, cuDoubleComplex *T, int ldt, cuDoubleComplex *tau,
                     void *dwork, size_t dbytes, void *hwork, size_t hbytes)
{
    int rc = tila_args_geqrt(m, n, ib, lda, ldt, 2);
    if (rc) return rc;
    int k = tila_min(m, n), nb = tila_min(ib, k);
    if (k == 0) return 0;
    int *info = dwork;
    void *work = (char *)dwork + TILA_CUDA_INFO_BYTES;
    size_t wbytes = dbytes - TILA_CUDA_INFO_BYTES;
    /* devInfo reports only illegal arguments (geqrf cannot fail numerically): the
     * checks above rule them out, so it is not read back (that would synchronise). */
    TILA_CUDA_CHECK(cusolverDnZgeqrf(solver, m, n, A, lda, tau, work,
                                     (int)(wbytes / sizeof(cuDoubleComplex)), info));
    return tila_cuda_zlarft_blocks(solver, params, m, k, nb, A, lda, tau, T, ldt, work, wbytes,
                                   hwork, hbytes);
}
