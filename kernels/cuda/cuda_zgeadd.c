/**
 * @file cuda_zgeadd.c
 * @brief GPU tile kernel: B = alpha A + beta B (cuBLAS geam, in place; B not read when beta
 * is 0).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "cuda_kernel.h"
#include "cuda_z.h"
#include "tila_kernel_args.h"

int tila_cuda_zgeadd(cublasHandle_t handle, int m, int n, cuDoubleComplex alpha,
                     const cuDoubleComplex *A, int lda, cuDoubleComplex beta, cuDoubleComplex *B,
                     int ldb)
{
    int rc = tila_args_geadd(m, n, lda, ldb, 1);
    if (rc || m == 0 || n == 0) return rc;
#if defined(COMPLEX)
    int overwrite = beta.x == 0 && beta.y == 0;
#else
    int overwrite = beta == 0;
#endif
    if (overwrite) {
        /* B may hold anything (a workspace written first here): geam must not see it. */
        cudaStream_t stream;
        TILA_CUDA_CHECK(cublasGetStream(handle, &stream));
        TILA_CUDA_CHECK(tila_cuda_zlaset(stream, TILA_GENERAL, m, n, beta, beta, B, ldb));
    }
    TILA_CUDA_CHECK(
        cublasZgeam(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, &alpha, A, lda, &beta, B, ldb, B, ldb));
    return 0;
}
