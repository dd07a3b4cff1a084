/**
 * @file core_ztrsm.c
 * @brief Tile kernel: triangular solve with several right-hand sides (CBLAS ?trsm).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "core_kernel.h"
#include "core_z.h"

/**
 * B = alpha op(A)^{-1} B (side TILA_LEFT) or alpha B op(A)^{-1} (TILA_RIGHT), B m x n, A
 * triangular (uplo TILA_UPPER or TILA_LOWER), unit or not on its diagonal (diag).  Like
 * BLAS, no test for singularity: a zero diagonal entry gives Inf/NaN.
 * @param lda >= max(1, m) (left) or max(1, n) (right); @param ldb >= max(1, m).
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_ztrsm(tila_side_t side, tila_uplo_t uplo, tila_trans_t trans, tila_diag_t diag,
                    int m, int n, tila_complex64_t alpha, const tila_complex64_t *A, int lda,
                    tila_complex64_t *B, int ldb)
{
    if (side != TILA_LEFT && side != TILA_RIGHT) return -1;
    if (uplo != TILA_UPPER && uplo != TILA_LOWER) return -2;
    if (!tila_valid_trans(trans)) return -3;
    if (diag != TILA_UNIT && diag != TILA_NONUNIT) return -4;
    if (m < 0) return -5;
    if (n < 0) return -6;
    if (lda < tila_max1(side == TILA_LEFT ? m : n)) return -9;
    if (ldb < tila_max1(m)) return -11;
    if (m == 0 || n == 0)
        return 0;
    cblas_ztrsm(CblasColMajor, side == TILA_LEFT ? CblasLeft : CblasRight,
                uplo == TILA_UPPER ? CblasUpper : CblasLower, tila_cblas_trans(trans),
                diag == TILA_UNIT ? CblasUnit : CblasNonUnit, m, n, CBLAS_SADDR(alpha), A, lda,
                B, ldb);
    return 0;
}
