/**
 * @file core_zlaset.c
 * @brief Tile kernel: off-diagonal entries = alpha, diagonal = beta (LAPACKE).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "core_kernel.h"
#include "core_z.h"

/**
 * Set the strictly upper/lower part (or all, TILA_GENERAL) of the m x n A to alpha and
 * its diagonal to beta.  @param lda >= max(1, m).
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_zlaset(tila_uplo_t uplo, int m, int n, tila_complex64_t alpha, tila_complex64_t beta,
                     tila_complex64_t *A, int lda)
{
    if (!tila_valid_uplo(uplo)) return -1;
    int rc = tila_args_laset_sizes(m, n, lda, 0);
    if (rc || m == 0 || n == 0) return rc;
    return LAPACKE_zlaset_work(LAPACK_COL_MAJOR, tila_lapack_uplo(uplo), m, n, alpha, beta, A, lda);
}
