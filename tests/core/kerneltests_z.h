/**
 * @file kerneltests_z.h
 * @brief CPU tile kernel tests in double complex precision: entry points and shared helpers.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef KERNELTESTS_Z_H
#define KERNELTESTS_Z_H

#include "kernel_test.h"

/* CBLAS takes complex scalars by address, real ones by value (the including z-file
 * defines COMPLEX or REAL first). */
#if defined(COMPLEX)
#define CBLAS_SADDR(x) &(x)
#else
#define CBLAS_SADDR(x) (x)
#endif

/* ---- One entry point per kernel test file (tests/core/test_z*.c) ---- */
void tila_test_zgemm_core(const kernel_opts_t *opts);
void tila_test_zlacpy_core(const kernel_opts_t *opts);
void tila_test_zlaset_core(const kernel_opts_t *opts);
void tila_test_zlascal_core(const kernel_opts_t *opts);
void tila_test_zgeadd_core(const kernel_opts_t *opts);
void tila_test_zplrnt_core(const kernel_opts_t *opts);
void tila_test_zplghe_core(const kernel_opts_t *opts);
void tila_test_zpotrf_core(const kernel_opts_t *opts);
void tila_test_ztrsm_core(const kernel_opts_t *opts);
void tila_test_ztrmm_core(const kernel_opts_t *opts);
void tila_test_zherk_core(const kernel_opts_t *opts);
void tila_test_zhemm_core(const kernel_opts_t *opts);
void tila_test_zcolamax_core(const kernel_opts_t *opts);
void tila_test_ztrtri_core(const kernel_opts_t *opts);
void tila_test_ztrsm_inv_core(const kernel_opts_t *opts);
/* QR */
void tila_test_zgeqrt_core(const kernel_opts_t *opts);
void tila_test_zgeqrt_col_core(const kernel_opts_t *opts);
void tila_test_zcholqr_col_core(const kernel_opts_t *opts);
void tila_test_zlarft_col_core(const kernel_opts_t *opts);
void tila_test_zunmqr_core(const kernel_opts_t *opts);
void tila_test_ztpqrt_core(const kernel_opts_t *opts);
void tila_test_ztpmqrt_core(const kernel_opts_t *opts);
/* Norms: lange, lantr, lansy, lanhe, lansy_offdiag, lan_init/combine/value */
void tila_test_zlange_core(const kernel_opts_t *opts);

/* ---- Helpers (kernel_ztest.c) ---- */

/** re + i im; re alone in real precisions. */
tila_complex64_t tila_test_zscalar(double re, double im);

/** ||A||_F of the m x n array (0 when empty). */
double tila_test_zfnorm(int m, int n, const tila_complex64_t *A, int lda);

/**
 * A well-conditioned k x k triangular matrix in the `uplo` triangle of A: off-diagonal
 * entries uniform in [-0.5, 0.5) / sqrt(k), diagonal entries of modulus in [1, 2) with
 * random signs (random phases in complex), so ||A|| and ||A^-1|| are both O(1).  The other
 * triangle, and the diagonal when diag is TILA_UNIT, hold NaN: they must not be read.
 */
void tila_test_ztriangle(tila_uplo_t uplo, tila_diag_t diag, int k, tila_complex64_t *A, int lda,
                         unsigned long long seed);

/**
 * Checks of a QR factorization left as ?geqrt leaves it (R on and above the diagonal of
 * the m x n F, V below it, the k = min(m, n) reflectors' triangular factors in blocks of
 * nb side by side in T) of the matrix A0: Q is formed by applying it to the identity with
 * LAPACKE's ?gemqrt, then *resid = ||A0 - Q R||_F / (max(m, n) ||A0||_F eps) and
 * *orth = ||I - Q^H Q||_F / (m eps).
 */
void tila_test_zgeqrt_check(int m, int n, int nb, const tila_complex64_t *A0, int lda0,
                            const tila_complex64_t *F, int ldf, const tila_complex64_t *T, int ldt,
                            double *resid, double *orth);

/** ||I - Q^H Q||_F / (n eps) of the n x n Q. */
double tila_test_zorth(int n, const tila_complex64_t *Q, int ldq);

#endif /* KERNELTESTS_Z_H */
