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
        size_t d = 0, h = 0, td = 0, th = 0;
        TILA_CUDA_CHECK(cusolverDnXlarft_bufferSize(
            solver, params, CUBLAS_DIRECT_FORWARD, CUBLAS_STOREV_COLUMNWISE, m - j, kb, CUDA_C_64F,
            V + (size_t)j * ldv + j, ldv, CUDA_C_64F, tau + j, CUDA_C_64F, T + (size_t)j * ldt, ldt,
            CUDA_C_64F, &d, &h));
        /* The UT transform's (larft_ut): the top block's copy, TRTRI's status and space. */
        TILA_CUDA_PASS(tila_cuda_ztrtri_worksize(solver, TILA_UPPER, TILA_NONUNIT, kb,
                                                 T + (size_t)j * ldt, ldt, &td, &th));
        td += (size_t)kb * kb * sizeof(cuDoubleComplex) + TILA_CUDA_INFO_BYTES;
        d = td > d ? td : d;
        h = th > h ? th : h;
        *dbytes = d > *dbytes ? d : *dbytes;
        *hbytes = h > *hbytes ? h : *hbytes;
    }
    return 0;
}

/*
 * T (kb x kb, upper) of the m x kb reflectors V by the UT transform, as
 * tila_core_zlarft_ut: the upper triangle of V^H V by a HERK of the rows below the top
 * block in place and one of the top block copied to dwork as a unit lower triangle, the
 * diagonal 1 / tau (tila_cuda_zlarft_ut_diag), the inverse in place (cuSOLVER's TRTRI, its
 * status and space after the copy), the identity's reflectors' diagonal 0 again.  All on
 * the stream of `solver` (that of `blas`).
 */
static int larft_ut(cublasHandle_t blas, cusolverDnHandle_t solver, int m, int kb,
                    const cuDoubleComplex *V, int ldv, const cuDoubleComplex *tau,
                    cuDoubleComplex *T, int ldt, void *dwork, size_t dbytes, void *hwork,
                    size_t hbytes)
{
    cudaStream_t stream;
    TILA_CUDA_CHECK(cusolverDnGetStream(solver, &stream));
    size_t wbytes = (size_t)kb * kb * sizeof(cuDoubleComplex);
    cuDoubleComplex *W = dwork, one = tila_cuda_zscalar(1), zero = tila_cuda_zscalar(0);
    int *info = (int *)((char *)dwork + wbytes);
    void *tw = (char *)info + TILA_CUDA_INFO_BYTES;
    if (m > kb)
        TILA_CUDA_PASS(tila_cuda_zherk(blas, TILA_UPPER, TILA_CONJTRANS, kb, m - kb, 1.0, V + kb,
                                       ldv, 0.0, T, ldt));
    TILA_CUDA_PASS(tila_cuda_zlacpy(stream, TILA_LOWER, kb, kb, V, ldv, W, kb));
    TILA_CUDA_PASS(tila_cuda_zlaset(stream, TILA_UPPER, kb, kb, zero, one, W, kb));
    TILA_CUDA_PASS(tila_cuda_zherk(blas, TILA_UPPER, TILA_CONJTRANS, kb, kb, 1.0, W, kb,
                                   m > kb ? 1.0 : 0.0, T, ldt));
    TILA_CUDA_PASS(tila_cuda_zlarft_ut_diag(stream, kb, tau, T, ldt, 0));
    /* Nonsingular (its diagonal has no 0), so the status is not read back. */
    TILA_CUDA_CHECK(cusolverDnXtrtri(solver, CUBLAS_FILL_MODE_UPPER, CUBLAS_DIAG_NON_UNIT, kb,
                                     CUDA_C_64F, T, ldt, tw, dbytes - wbytes - TILA_CUDA_INFO_BYTES,
                                     hwork, hbytes, info));
    return tila_cuda_zlarft_ut_diag(stream, kb, tau, T, ldt, 1);
}

/**
 * The triangular factors of the blocks of ib reflectors of H(1) ... H(k) (the m x k unit
 * lower trapezoidal V and tau of ?geqrf), side by side in T as ?geqrt stores them:
 * block j (columns j ib ...) is larft of V(j ib : m, j ib : j ib + kb): by the UT
 * transform (larft_ut: two HERKs and a TRTRI, Level-3) for blocks of at least ut_min
 * reflectors where `blas` is given (ut_min 0: none), by cuSOLVER's Xlarft (a
 * matrix-vector product a reflector) for the others.
 * @return 0 or TILA_ERR_DEVICE.
 */
int tila_cuda_zlarft_blocks(cublasHandle_t blas, int ut_min, cusolverDnHandle_t solver,
                            cusolverDnParams_t params, int m, int k, int ib,
                            const cuDoubleComplex *V, int ldv, const cuDoubleComplex *tau,
                            cuDoubleComplex *T, int ldt, void *dwork, size_t dbytes, void *hwork,
                            size_t hbytes)
{
    for (int j = 0; j < k; j += ib) {
        int kb = tila_min(ib, k - j);
        if (blas && ut_min > 0 && kb >= ut_min) {
            TILA_CUDA_PASS(larft_ut(blas, solver, m - j, kb, V + (size_t)j * ldv + j, ldv, tau + j,
                                    T + (size_t)j * ldt, ldt, dwork, dbytes, hwork, hbytes));
            continue;
        }
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
 * Householder QR in place, then the T of each block of nb reflectors
 * (tila_cuda_zlarft_blocks, with blas and ut_min).
 * @param tau    min(m, n) elements of device memory.
 * @param dwork, dbytes, hwork, hbytes  at least what tila_cuda_zgeqrt_worksize gives.
 */
int tila_cuda_zgeqrt(cublasHandle_t blas, int ut_min, cusolverDnHandle_t solver,
                     cusolverDnParams_t params, int m, int n, int ib, cuDoubleComplex *A, int lda,
                     cuDoubleComplex *T, int ldt, cuDoubleComplex *tau, void *dwork, size_t dbytes,
                     void *hwork, size_t hbytes)
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
    return tila_cuda_zlarft_blocks(blas, ut_min, solver, params, m, k, nb, A, lda, tau, T, ldt,
                                   work, wbytes, hwork, hbytes);
}
