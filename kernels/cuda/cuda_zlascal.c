/**
 * @file cuda_zlascal.c
 * @brief GPU tile kernel: A = alpha A (cuBLAS scal).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "cuda_kernel.h"
#include "cuda_z.h"
#include "tila_kernel_args.h"

/** A = alpha A on `handle`'s stream; same checks as tila_core_zlascal. */
int tila_cuda_zlascal(cublasHandle_t handle, int m, int n, cuDoubleComplex alpha,
                      cuDoubleComplex *A, int lda)
{
    int rc = tila_args_lascal(m, n, lda, 1);
    if (rc || m == 0 || n == 0) return rc;
    if (lda == m) {
        TILA_CUDA_CHECK(cublasZscal(handle, m * n, &alpha, A, 1));
        return 0;
    }
    for (int j = 0; j < n; j++)
        TILA_CUDA_CHECK(cublasZscal(handle, m, &alpha, A + (size_t)j * lda, 1));
    return 0;
}
