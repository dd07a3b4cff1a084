/**
 * @file core_zlag2c.c
 * @brief Tile kernels between precisions: double complex to single complex and back
 * (LAPACK's zlag2c and clag2z; dlag2s and slag2d in real).
 * @precisions mixed zc -> ds
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "core_kernel.h"
#include "core_zc.h"

/**
 * SA = A rounded to single precision, on the triangle uplo of the square A (the other
 * neither read nor written) or all of the m x n A (TILA_GENERAL).
 * @param lda >= max(1, m); ldsa >= max(1, m).
 * @return 0; 1 when an entry (a part of one) lies beyond single precision's range, as
 *         LAPACK's zlag2c (SA is then partly written); -i if argument i is invalid.
 */
int tila_core_zlag2c(tila_uplo_t uplo, int m, int n, const tila_complex64_t *A, int lda,
                     tila_complex32_t *SA, int ldsa)
{
    int rc = tila_args_lag2_narrow(uplo, m, n, lda, ldsa, 0);
    if (rc) return rc;
    if (m == 0 || n == 0) return 0;
    if (uplo == TILA_GENERAL) return LAPACKE_zlag2c_work(LAPACK_COL_MAJOR, m, n, A, lda, SA, ldsa);
    /* A triangle: LAPACK's zlat2c has no LAPACKE entry; its columns are zlag2c's. */
    for (int j = 0; j < n; j++) {
        int i0 = uplo == TILA_LOWER ? j : 0, rows = uplo == TILA_LOWER ? m - j : j + 1;
        int info = LAPACKE_zlag2c_work(LAPACK_COL_MAJOR, rows, 1, A + (size_t)j * lda + i0, lda,
                                       SA + (size_t)j * ldsa + i0, ldsa);
        if (info) return info;
    }
    return 0;
}

/**
 * A = SA, exactly (every single is a double), for the m x n SA.
 * @param ldsa >= max(1, m); lda >= max(1, m).
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_clag2z(int m, int n, const tila_complex32_t *SA, int ldsa, tila_complex64_t *A,
                     int lda)
{
    int rc = tila_args_lag2_widen(m, n, ldsa, lda, 0);
    if (rc || m == 0 || n == 0) return rc;
    return LAPACKE_clag2z_work(LAPACK_COL_MAJOR, m, n, SA, ldsa, A, lda);
}
