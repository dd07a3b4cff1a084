/**
 * @file core_zlacpy.c
 * @brief Tile kernel: B = A on a triangle or everywhere (LAPACKE).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "core_kernel.h"
#include "core_z.h"

/**
 * B = A on the upper or lower trapezoid, or the whole m x n matrix (TILA_GENERAL).
 * @param lda >= max(1, m); @param ldb >= max(1, m).
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_zlacpy(tila_uplo_t uplo, int m, int n, const tila_complex64_t *A, int lda,
                     tila_complex64_t *B, int ldb)
{
    if (!tila_valid_uplo(uplo)) return -1;
    int rc = tila_args_lacpy_sizes(m, n, lda, ldb, 0);
    if (rc) return rc;
    if (m == 0 || n == 0) return 0;
    return LAPACKE_zlacpy_work(LAPACK_COL_MAJOR, tila_lapack_uplo(uplo), m, n, A, lda, B, ldb);
}
