/**
 * @file core_zpotrf.c
 * @brief Tile kernel: Cholesky factorization of a diagonal tile (LAPACKE).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "core_kernel.h"
#include "core_z.h"

/**
 * A = L L^H (uplo TILA_LOWER) or U^H U (TILA_UPPER) for the Hermitian positive definite
 * n x n A; only the `uplo` triangle is read and overwritten.  @param lda >= max(1, n).
 * @return 0; -i if argument i is invalid; +k if the leading minor of order k is not
 *         positive definite (LAPACK's info).
 */
int tila_core_zpotrf(tila_uplo_t uplo, int n, tila_complex64_t *A, int lda)
{
    int rc = tila_args_triangle(uplo, n, lda, 0);
    if (rc) return rc;
    if (n == 0) return 0;
    return LAPACKE_zpotrf_work(LAPACK_COL_MAJOR, tila_lapack_uplo(uplo), n, A, lda);
}
