/**
 * @file core_ztrtri.c
 * @brief Tile kernel: the inverse of a triangular tile into another tile, and the one-norm
 *        column sums of both (LAPACKE).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <math.h>

#include "core_kernel.h"
#include "core_z.h"

/**
 * T = A^-1 for the triangular n x n A (uplo, diag), written as a full tile: the `uplo`
 * triangle of T holds the inverse (ones on its diagonal when diag is TILA_UNIT), the other
 * triangle zeros, so that a GEMM with T applies A^-1 (tila_core_ztrsm_inv).  A is only
 * read (its other triangle, and its diagonal when unit, never).  Then sums[j] = sum_i
 * |a_ij| over A's triangle (its diagonal ones not included when unit) and sums[n + j] the
 * same over T, in the order of tila_core_zlantr (so the GPU's kernel gives the same bits
 * for the same tiles): cond_1(A) = ||A||_1 ||A^-1||_1 follows (tila_core_ztrtri_cond).
 * @param lda >= max(1, n); ldt >= max(1, n); sums: 2 n reals, or NULL for the inverse
 *        alone.
 * @return 0; -i if argument i is invalid; +k if a_kk is exactly zero (LAPACK's info: T is
 *         then not an inverse, and sums are not written).
 */
int tila_core_ztrtri(tila_uplo_t uplo, tila_diag_t diag, int n, const tila_complex64_t *A, int lda,
                     tila_complex64_t *T, int ldt, double *sums)
{
    int rc = tila_args_trtri(uplo, diag, n, lda, ldt, 0);
    if (rc || n == 0) return rc;
    char lu = tila_lapack_uplo(uplo);
    char other = uplo == TILA_LOWER ? 'U' : 'L';
    /* The other triangle 0 and the diagonal 1 first, then A's triangle over them: a
     * unit triangle's diagonal (never read from A) is put back to 1 after the copy. */
    LAPACKE_zlaset_work(LAPACK_COL_MAJOR, other, n, n, 0.0, 1.0, T, ldt);
    LAPACKE_zlacpy_work(LAPACK_COL_MAJOR, lu, n, n, A, lda, T, ldt);
    if (diag == TILA_UNIT) LAPACKE_zlaset_work(LAPACK_COL_MAJOR, other, n, n, 0.0, 1.0, T, ldt);
    int info = LAPACKE_ztrtri_work(LAPACK_COL_MAJOR, lu, diag == TILA_UNIT ? 'U' : 'N', n, T, ldt);
    if (info || !sums) return info;
    for (int j = 0; j < 2 * n; j++)
        sums[j] = 0;
    tila_core_zlantr(TILA_NORM_ONE, uplo, diag, n, n, A, lda, sums);
    tila_core_zlantr(TILA_NORM_ONE, uplo, TILA_NONUNIT, n, n, T, ldt, sums + n);
    return 0;
}

/**
 * cond_1(A) = ||A||_1 ||A^-1||_1 from tila_core_ztrtri's column sums of A (unit: its
 * diagonal's ones added here) and of T = A^-1 (n >= 1); NaN when any sum is NaN, so that a
 * comparison `cond <= bound` is false for it.
 */
double tila_core_ztrtri_cond(tila_diag_t diag, int n, const double *sums)
{
    double a = 0, t = 0;
    for (int j = 0; j < n; j++) {
        double sa = sums[j] + (diag == TILA_UNIT ? 1 : 0), st = sums[n + j];
        if (isnan(sa) || isnan(st)) return NAN;
        a = sa > a ? sa : a;
        t = st > t ? st : t;
    }
    return a * t;
}
