/**
 * @file core_zhemm.c
 * @brief Tile kernel: C = alpha A B + beta C or alpha B A + beta C, A Hermitian (symmetric in
 * real precisions), one triangle of it stored (CBLAS hemm / symm).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "core_kernel.h"
#include "core_z.h"

/**
 * C = alpha A B + beta C (side TILA_LEFT, A m x m) or alpha B A + beta C (TILA_RIGHT, A
 * n x n), C and B m x n, A Hermitian with its triangle uplo stored (the other not read; a
 * diagonal's imaginary parts taken as zero).  beta = 0: C is not read.
 * @param lda >= max(1, order of A); ldb, ldc >= max(1, m).
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_zhemm(tila_side_t side, tila_uplo_t uplo, int m, int n, tila_complex64_t alpha,
                    const tila_complex64_t *A, int lda, const tila_complex64_t *B, int ldb,
                    tila_complex64_t beta, tila_complex64_t *C, int ldc)
{
    int rc = tila_args_hemm(side, uplo, m, n, lda, ldb, ldc, 0);
    if (rc || m == 0 || n == 0) return rc;
    cblas_zhemm(CblasColMajor, side == TILA_LEFT ? CblasLeft : CblasRight,
                uplo == TILA_UPPER ? CblasUpper : CblasLower, m, n, CBLAS_SADDR(alpha), A, lda, B,
                ldb, CBLAS_SADDR(beta), C, ldc);
    return 0;
}
