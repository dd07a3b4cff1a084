/**
 * @file core_ztrmm.c
 * @brief CPU tile kernel: triangular matrix product B = alpha op(A) B or alpha B op(A).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "core_kernel.h"
#include "core_z.h"

/**
 * B = alpha op(A) B (side TILA_LEFT, A m x m) or alpha B op(A) (TILA_RIGHT, A n x n), A
 * triangular (uplo, diag), B m x n, in place (BLAS's ?trmm).
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_ztrmm(tila_side_t side, tila_uplo_t uplo, tila_trans_t trans, tila_diag_t diag, int m,
                    int n, tila_complex64_t alpha, const tila_complex64_t *A, int lda,
                    tila_complex64_t *B, int ldb)
{
    int rc = tila_args_trxm(side, uplo, trans, diag, m, n, lda, ldb, 0);
    if (rc || m == 0 || n == 0) return rc;
    cblas_ztrmm(CblasColMajor, side == TILA_LEFT ? CblasLeft : CblasRight,
                uplo == TILA_UPPER ? CblasUpper : CblasLower, tila_cblas_trans(trans),
                diag == TILA_UNIT ? CblasUnit : CblasNonUnit, m, n, CBLAS_SADDR(alpha), A, lda, B,
                ldb);
    return 0;
}
