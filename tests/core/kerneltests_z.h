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

#include "cblas_saddr.h"

/* ---- One entry point per kernel test file (tests/core/test_z*.c) ---- */
void tila_test_zgemm_core(const kernel_opts_t *opts);
void tila_test_zgemm2_core(const kernel_opts_t *opts);
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

/** The conjugate of x; x itself in real precisions. */
tila_complex64_t tila_test_zconj(tila_complex64_t x);

/**
 * The ops of a kernel on a Hermitian product (herk, unmqr, tpmqrt): N and C, and T too in
 * real precisions, where T and C are the same op.  @return how many (2 or 3) in trans[].
 */
int tila_test_zherm_ops(tila_trans_t trans[3]);

/** 1 when the m x n entries of X are all 0 (1 when empty). */
int tila_test_zis_zero(int m, int n, const tila_complex64_t *X, int ldx);

/** ||A||_F of the k x k uplo triangle of A, its diagonal 1 when diag is unit (0 when k = 0). */
double tila_test_ztrnorm(tila_uplo_t uplo, tila_diag_t diag, int k, const tila_complex64_t *A,
                         int lda);

/**
 * The backward error of X (m x n) as the solution of op(A) X = alpha B0, or X op(A) = alpha
 * B0 on the right, A the k x k uplo triangle (k = m on the left, n on the right):
 *   ||op(A) X - alpha B0||_F / ((||A||_F ||X||_F + |alpha| ||B0||_F) max(k, 1) eps),
 * op(A) X formed by cblas_ztrmm; X and B0 are ldb apart.
 */
double tila_test_ztrsm_error(tila_side_t side, tila_uplo_t uplo, tila_trans_t trans,
                             tila_diag_t diag, int m, int n, tila_complex64_t alpha,
                             const tila_complex64_t *A, int lda, const tila_complex64_t *X,
                             const tila_complex64_t *B0, int ldb);

/**
 * A trmm or trsm case: A, of order k = m on the left and n on the right, a
 * tila_test_ztriangle from seed with lda = k + 2; B, m x n with ldb = m + 3, filled from
 * seed + 1; B0 a copy of B.
 */
typedef struct tila_test_ztrxm_s {
    tila_side_t side;
    tila_uplo_t uplo;
    tila_diag_t diag;
    int m, n, k, lda, ldb;
    tila_complex64_t *A, *B, *B0;
} tila_test_ztrxm_t;

void tila_test_ztrxm_make(tila_test_ztrxm_t *c, tila_side_t side, tila_uplo_t uplo,
                          tila_diag_t diag, int m, int n, unsigned long long seed);

/**
 * The verdict on a trmm or trsm case once the kernel has overwritten c->B (returning rc):
 * rc 0, err <= tol, the rows of B below m unwritten and, for alpha = 0, B = 0; one line
 * (side, uplo, op, diagonal, sizes, alpha, rc); then c's arrays are freed.  @return ok.
 */
int tila_test_ztrxm_check(tila_test_ztrxm_t *c, const char *name, tila_trans_t trans,
                          tila_complex64_t alpha, int rc, double err, double tol);

/** A trmm or trsm case's entry point: the case and its seed. */
typedef void tila_test_ztrxm_run_t(tila_side_t side, tila_uplo_t uplo, tila_trans_t trans,
                                   tila_diag_t diag, int m, int n, tila_complex64_t alpha,
                                   unsigned long long seed);

/**
 * The trmm and trsm sweep: run() for each side, upper and lower, op N, T and C, non-unit
 * and unit diagonal, order of A orders[k] (k < norders) and, for each, B's other size
 * others[r] with alpha alphas[r] (r < nothers), in that nesting; seeds seed + 2, seed + 4,
 * ...  @return the last seed given.
 */
unsigned long long tila_test_ztrxm_sweep(tila_test_ztrxm_run_t *run, const int *orders, int norders,
                                         const int *others, const tila_complex64_t *alphas,
                                         int nothers, unsigned long long seed);

/**
 * A panel as the column-panel kernels (geqrt_col, larft_col, cholqr_col) take it: m rows
 * cut into ntiles tiles of mbs[t] rows (kernel_panel_rows), tile t a copy of its rows of
 * the panel with leading dimension lds[t] = mbs[t] + 1 + t % 3; saved, when asked for,
 * copies of the tiles.
 */
typedef struct tila_test_zpanel_s {
    int ntiles, n, *mbs, *lds;
    tila_complex64_t **tiles, **saved;
} tila_test_zpanel_t;

/** Cut the m x n G (ldg) into P, in tiles of mb rows (kernel_panel_rows's mb). */
void tila_test_zpanel_cut(tila_test_zpanel_t *P, int m, int n, int mb, const tila_complex64_t *G,
                          int ldg);

/** Keep copies of P's tiles as they are now in P->saved. */
void tila_test_zpanel_save(tila_test_zpanel_t *P);

/** The tiles of P back into the rows of F (ldf). */
void tila_test_zpanel_join(const tila_test_zpanel_t *P, tila_complex64_t *F, int ldf);

/** Release P's arrays. */
void tila_test_zpanel_free(tila_test_zpanel_t *P);

/**
 * tila_test_zgeqrt_check of the QR factorization of the m x n G (ldg) that a panel kernel
 * left in P's tiles and T (ldt, factors in blocks of nb), joined into a scratch F first;
 * @return the larger of *resid and *orth (NaN when *resid is).
 */
double tila_test_zpanel_check(const tila_test_zpanel_t *P, int m, int nb, const tila_complex64_t *G,
                              int ldg, const tila_complex64_t *T, int ldt, double *resid,
                              double *orth);

/** A tile generator (plrnt, plghe): the m x n tile at (i0, j0) of its matrix into A (lda). */
typedef int (*tila_test_zgen_t)(int m, int n, tila_complex64_t *A, int lda, int i0, int j0,
                                unsigned long long seed);

/**
 * For each (i0, j0, m, n) of tiles[0..ntiles-1]: gen's m x n tile at (i0, j0), in an array of
 * lda = m + 2, must hold the bits of that block of G (gm x gn, leading dimension gm), which
 * gen made whole from the same seed, and leave the rows below m unwritten; one line each.
 */
void tila_test_zgen_tiles(const char *name, tila_test_zgen_t gen, const tila_complex64_t *G, int gm,
                          int gn, const int (*tiles)[4], int ntiles, unsigned long long seed);

#endif /* KERNELTESTS_Z_H */
