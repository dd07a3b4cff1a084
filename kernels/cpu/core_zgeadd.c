/**
 * @file core_zgeadd.c
 * @brief CPU tile kernel: B = alpha A + beta B.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "core_kernel.h"
#include "core_z.h"

/* BLAS has no matrix add: one scal (when beta != 1) and one axpy per column. */
int tila_core_zgeadd(int m, int n, tila_complex64_t alpha, const tila_complex64_t *A, int lda,
                     tila_complex64_t beta, tila_complex64_t *B, int ldb)
{
    int rc = tila_args_geadd(m, n, lda, ldb, 0);
    if (rc) return rc;
    for (int j = 0; j < n; j++) {
        tila_complex64_t *b = B + (size_t)j * ldb;
        if (beta == (tila_complex64_t)0)
            for (int i = 0; i < m; i++)
                b[i] = 0;
        else if (beta != (tila_complex64_t)1)
            cblas_zscal(m, CBLAS_SADDR(beta), b, 1);
        cblas_zaxpy(m, CBLAS_SADDR(alpha), A + (size_t)j * lda, 1, b, 1);
    }
    return 0;
}
