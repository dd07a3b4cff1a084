/**
 * @file cuda_ztrtri.c
 * @brief GPU tile kernel: the inverse of a triangular tile into another tile (cuSOLVER's
 *        Xtrtri), and the one-norm column sums of both.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <cusolverDn.h>

#include "cuda_kernel.h"
#include "cuda_z.h"
#include "tila_kernel_args.h"

/** Device and host workspace bytes cusolverDnXtrtri needs for the n x n tile T (a query on
 * the arguments of the call it sizes).  @return 0 or TILA_ERR_DEVICE. */
int tila_cuda_ztrtri_worksize(cusolverDnHandle_t solver, tila_uplo_t uplo, tila_diag_t diag, int n,
                              cuDoubleComplex *T, int ldt, size_t *dbytes, size_t *hbytes)
{
    *dbytes = *hbytes = 0;
    if (n <= 0) return 0;
    TILA_CUDA_CHECK(cusolverDnXtrtri_bufferSize(solver, tila_cublas_fill(uplo),
                                                tila_cublas_diag(diag), n, CUDA_C_64F, T, ldt,
                                                dbytes, hbytes));
    return 0;
}

/**
 * tila_core_ztrtri on the GPU, queued on `stream` (the solver's): T = A^-1 as a full tile
 * (the other triangle zeros), the status (LAPACK's info) in devinfo on the device, and the
 * column sums of A's and T's triangles in sums (2 n reals of device memory), by the norm
 * kernels of cuda_zlange.cu: the CPU kernel's bits for the same A and T.  The sums are
 * written whatever the status; with sums NULL, the inverse alone (scratch not read).  dwork,
 * hwork: tila_cuda_ztrtri_worksize's bytes; scratch: tila_cuda_zlan_scratch_elems(n) reals
 * of device memory.
 * @return 0, -i if argument i is invalid, or TILA_ERR_DEVICE.
 */
int tila_cuda_ztrtri(cusolverDnHandle_t solver, cudaStream_t stream, tila_uplo_t uplo,
                     tila_diag_t diag, int n, const cuDoubleComplex *A, int lda, cuDoubleComplex *T,
                     int ldt, double *sums, double *scratch, int *devinfo, void *dwork,
                     size_t dbytes, void *hwork, size_t hbytes)
{
    int rc = tila_args_trtri(uplo, diag, n, lda, ldt, 2);
    if (rc || n == 0) return rc;
    tila_uplo_t other = uplo == TILA_LOWER ? TILA_UPPER : TILA_LOWER;
    cuDoubleComplex zero = tila_cuda_zscalar(0), one = tila_cuda_zscalar(1);
    /* As on the CPU: the other triangle 0 and the diagonal 1, A's triangle over them, a
     * unit triangle's diagonal (never read from A) put back to 1. */
    TILA_CUDA_PASS(tila_cuda_zlaset(stream, other, n, n, zero, one, T, ldt));
    TILA_CUDA_PASS(tila_cuda_zlacpy(stream, uplo, n, n, A, lda, T, ldt));
    if (diag == TILA_UNIT) TILA_CUDA_PASS(tila_cuda_zlaset(stream, other, n, n, zero, one, T, ldt));
    TILA_CUDA_CHECK(cusolverDnXtrtri(solver, tila_cublas_fill(uplo), tila_cublas_diag(diag), n,
                                     CUDA_C_64F, T, ldt, dwork, dbytes, hwork, hbytes, devinfo));
    if (!sums) return 0;
    TILA_CUDA_CHECK(cudaMemsetAsync(sums, 0, sizeof(double) * 2 * (size_t)n, stream));
    TILA_CUDA_PASS(
        tila_cuda_zlantr(stream, TILA_NORM_ONE, uplo, diag, n, n, A, lda, sums, scratch));
    TILA_CUDA_PASS(tila_cuda_zlantr(stream, TILA_NORM_ONE, uplo, TILA_NONUNIT, n, n, T, ldt,
                                    sums + n, scratch));
    return 0;
}
