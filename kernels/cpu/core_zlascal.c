/**
 * @file core_zlascal.c
 * @brief Tile kernel: A = alpha A (CBLAS scal per column).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "core_kernel.h"
#include "core_z.h"

/**
 * A = alpha A for the m x n A.  @param lda >= max(1, m).
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_zlascal(int m, int n, tila_complex64_t alpha, tila_complex64_t *A, int lda)
{
    int rc = tila_args_lascal(m, n, lda, 0);
    if (rc) return rc;
    if (lda == m) {
        cblas_zscal(m * n, CBLAS_SADDR(alpha), A, 1);
        return 0;
    }
    for (int j = 0; j < n; j++)
        cblas_zscal(m, CBLAS_SADDR(alpha), A + (size_t)j * lda, 1);
    return 0;
}
