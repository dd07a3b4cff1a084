/**
 * @file cuda_zpotrf.c
 * @brief GPU tile kernel: Cholesky factorization of a diagonal tile (cuSOLVER).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <cusolverDn.h>

#include "cuda_kernel.h"
#include "cuda_z.h"
#include "tila_kernel_args.h"

/** Workspace elements cusolverDnZpotrf needs for the n x n tile A, in *lwork (a query, on
 * the arguments of the call it sizes).  @return 0 or TILA_ERR_DEVICE. */
int tila_cuda_zpotrf_lwork(cusolverDnHandle_t handle, tila_uplo_t uplo, int n, cuDoubleComplex *A,
                           int lda, int *lwork)
{
    *lwork = 0;
    TILA_CUDA_CHECK(cusolverDnZpotrf_bufferSize(handle, tila_cublas_fill(uplo), n, A, lda, lwork));
    return 0;
}

/**
 * A = L L^H or U^H U on the handle's stream; the status (LAPACK's info) lands in
 * devinfo on the device.  work holds lwork elements (tila_cuda_zpotrf_lwork).
 * @return 0, -i if argument i is invalid, or TILA_ERR_DEVICE.
 */
int tila_cuda_zpotrf(cusolverDnHandle_t handle, tila_uplo_t uplo, int n, cuDoubleComplex *A,
                     int lda, cuDoubleComplex *work, int lwork, int *devinfo)
{
    int rc = tila_args_triangle(uplo, n, lda, 1);
    if (rc) return rc;
    if (n == 0) return 0;
    TILA_CUDA_CHECK(
        cusolverDnZpotrf(handle, tila_cublas_fill(uplo), n, A, lda, work, lwork, devinfo));
    return 0;
}
