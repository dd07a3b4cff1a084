/**
 * @file tila_z.h
 * @brief Tila's public routines in double complex precision.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_Z_H
#define TILA_Z_H

#include "tila_types.h"

/* Everything declared here is the library's interface (built with -fvisibility=hidden). */
#pragma GCC visibility push(default)

/**
 * C = alpha op(A) op(B) + beta C on distributed matrices (tiles of A, B, C must agree:
 * A's tile columns match B's tile rows for the product).
 * @return 0, or -i for argument i; the async form also returns through req.
 */
int tila_zgemm(tila_trans_t transa, tila_trans_t transb, tila_complex64_t alpha, tila_desc_t *A,
               tila_desc_t *B, tila_complex64_t beta, tila_desc_t *C);
int tila_zgemm_async(tila_trans_t transa, tila_trans_t transb, tila_complex64_t alpha,
                     tila_desc_t *A, tila_desc_t *B, tila_complex64_t beta, tila_desc_t *C,
                     tila_sequence_t *seq, tila_request_t *req);

/** B = alpha A + beta B; A and B tiled alike (any distributions). */
int tila_zgeadd(tila_complex64_t alpha, tila_desc_t *A, tila_complex64_t beta, tila_desc_t *B);
int tila_zgeadd_async(tila_complex64_t alpha, tila_desc_t *A, tila_complex64_t beta, tila_desc_t *B,
                      tila_sequence_t *seq, tila_request_t *req);

/**
 * B = A on the triangle `uplo` (TILA_GENERAL: everything); A and B tiled alike, or, with
 * TILA_GENERAL, any two tilings of the same m x n matrix (a retiling: each tile of B gathers
 * the parts of A's tiles it covers, on its owner).
 */
int tila_zlacpy(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B);
int tila_zlacpy_async(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B, tila_sequence_t *seq,
                      tila_request_t *req);

/** A's off-diagonal entries on `uplo` = alpha, its diagonal = beta. */
int tila_zlaset(tila_uplo_t uplo, tila_complex64_t alpha, tila_complex64_t beta, tila_desc_t *A);
int tila_zlaset_async(tila_uplo_t uplo, tila_complex64_t alpha, tila_complex64_t beta,
                      tila_desc_t *A, tila_sequence_t *seq, tila_request_t *req);

/**
 * Fill A with a random matrix with entries uniform in [-0.5, 0.5) (real and imaginary
 * parts), a function of (seed, global i, global j) alone: the same matrix for any
 * distribution, tile size and worker.
 */
int tila_zplrnt(tila_desc_t *A, unsigned long long seed);
int tila_zplrnt_async(tila_desc_t *A, unsigned long long seed, tila_sequence_t *seq,
                      tila_request_t *req);

/**
 * Fill the square A with a random Hermitian matrix (both triangles stored): the lower
 * triangle as tila_zplrnt gives it, the upper its conjugate transpose, the diagonal
 * real, plus `bump` on the diagonal (bump > n makes it positive definite).
 */
int tila_zplghe(double bump, tila_desc_t *A, unsigned long long seed);
int tila_zplghe_async(double bump, tila_desc_t *A, unsigned long long seed, tila_sequence_t *seq,
                      tila_request_t *req);

/**
 * Cholesky factorization of the Hermitian positive definite A: A = L L^H (uplo
 * TILA_LOWER) or U^H U (TILA_UPPER), in place on the `uplo` triangle; A is square, its
 * rows tiled as its columns (mb = nb, or the same tile sizes: tila_desc_create_tiled).
 * @return 0; -i for argument i; +k if the leading minor of order k is not positive
 *         definite (LAPACK's info, the same on every rank).
 */
int tila_zpotrf(tila_uplo_t uplo, tila_desc_t *A);
int tila_zpotrf_async(tila_uplo_t uplo, tila_desc_t *A, tila_sequence_t *seq, tila_request_t *req);

/**
 * Solve op(A) X = alpha B (side TILA_LEFT) or X op(A) = alpha B (TILA_RIGHT), A
 * triangular (uplo, diag) and square-tiled like B's rows (left) or columns (right);
 * X overwrites B.
 */
int tila_ztrsm(tila_side_t side, tila_uplo_t uplo, tila_trans_t trans, tila_diag_t diag,
               tila_complex64_t alpha, tila_desc_t *A, tila_desc_t *B);
int tila_ztrsm_async(tila_side_t side, tila_uplo_t uplo, tila_trans_t trans, tila_diag_t diag,
                     tila_complex64_t alpha, tila_desc_t *A, tila_desc_t *B, tila_sequence_t *seq,
                     tila_request_t *req);

/** Solve A X = B with the factor from tila_zpotrf (several right-hand sides in B). */
int tila_zpotrs(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B);
int tila_zpotrs_async(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B, tila_sequence_t *seq,
                      tila_request_t *req);

/**
 * Solve A X = B for Hermitian positive definite A (factored in place).
 * @return as tila_zpotrf; when A is not positive definite, the synchronous call leaves B
 *         untouched on every rank.  The async one reports the same info at the wait, but
 *         B is then unspecified: solve tasks that start after the failure is recorded do
 *         nothing, yet updates from tiles before the failing one may have run already.
 */
int tila_zposv(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B);
int tila_zposv_async(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B, tila_sequence_t *seq,
                     tila_request_t *req);

/* ---- Tiled QR ----------------------------------------------------------------------------- */

/**
 * QR factorization A = Q R of the m x n matrix A (any shape), by tiles: on exit R is on
 * and above A's diagonal, and A's other entries with T (from tila_desc_create_qr_t(&T, A,
 * ib, tree), which also fixes the reduction tree) describe Q as a product of block
 * reflectors, for tila_zunmqr, tila_zungqr and tila_zgels.  A needs square diagonal tiles
 * (tila_desc_create_qr_t).
 * @return 0, or -i for argument i; the async form also returns through req.
 */
int tila_zgeqrf(tila_desc_t *A, tila_desc_t *T);
int tila_zgeqrf_async(tila_desc_t *A, tila_desc_t *T, tila_sequence_t *seq, tila_request_t *req);

/**
 * T for reflectors that LAPACK's ?geqrf (or ScaLAPACK's p?geqrf) left in A, from their
 * scalar factors: A = Q R as ?geqrf gives it (R on and above the diagonal, the reflectors'
 * vectors below it, unit diagonal implied) with tau(j), j < min(m, n), the factor of
 * reflector j.  Each tile column's reflectors become one block reflector whose triangular
 * factor (LAPACK's ?larft) goes into T, so that tila_zunmqr and tila_zungqr with (A, T)
 * apply that Q.  A is read; T comes from tila_desc_create_qr_t(&T, A, ib,
 * TILA_QR_TREE_PANEL); tau holds min(m, n) entries on every rank that owns a diagonal tile
 * of A (the async form copies them into its tasks before returning).  After
 * tila_zgeqrf(A, T) with the PANEL scheme, tau(j) is T(j - j0, j), j0 the first column of
 * j's tile column (j mod nb for nb x nb tiles): this rebuilds that T.
 * @return 0, or -i for argument i; the async form also returns through req.
 */
int tila_zlarft(tila_desc_t *A, const tila_complex64_t *tau, tila_desc_t *T);
int tila_zlarft_async(tila_desc_t *A, const tila_complex64_t *tau, tila_desc_t *T,
                      tila_sequence_t *seq, tila_request_t *req);

/**
 * C = op(Q) C (side TILA_LEFT: C has m rows, tiled like A's rows) or C op(Q) (TILA_RIGHT:
 * C has m columns, tiled like A's rows), with Q the m x m unitary matrix of
 * tila_zgeqrf(A, T) and op(Q) = Q (TILA_NOTRANS) or Q^H (TILA_CONJTRANS; in real
 * arithmetic TILA_TRANS too).
 * @return 0, or -i for argument i; the async form also returns through req.
 */
int tila_zunmqr(tila_side_t side, tila_trans_t trans, tila_desc_t *A, tila_desc_t *T,
                tila_desc_t *C);
int tila_zunmqr_async(tila_side_t side, tila_trans_t trans, tila_desc_t *A, tila_desc_t *T,
                      tila_desc_t *C, tila_sequence_t *seq, tila_request_t *req);

/**
 * The first Q.n columns of the Q of tila_zgeqrf(A, T) (the thin Q when Q is m x min(m, n)):
 * Q is m x q, 0 <= q <= m, tiled like A.  Forms no m x m matrix.
 * @return 0, or -i for argument i; the async form also returns through req.
 */
int tila_zungqr(tila_desc_t *A, tila_desc_t *T, tila_desc_t *Q);
int tila_zungqr_async(tila_desc_t *A, tila_desc_t *T, tila_desc_t *Q, tila_sequence_t *seq,
                      tila_request_t *req);

/**
 * Least squares: X minimising ||B - A X||_2 for each column of B, A m x n with m >= n and
 * of full rank (not checked: a zero on R's diagonal gives Inf/NaN), by A = Q R
 * (tila_zgeqrf: A and T are overwritten as by it), B = Q^H B and R X = B(0:n, :).  On exit
 * X is B's first n rows and the norm of B's other rows in each column is the residual's.
 * B is m x nrhs, its rows tiled like A's.
 * @return 0, or -i for argument i; the async form also returns through req.
 */
int tila_zgels(tila_desc_t *A, tila_desc_t *T, tila_desc_t *B);
int tila_zgels_async(tila_desc_t *A, tila_desc_t *T, tila_desc_t *B, tila_sequence_t *seq,
                     tila_request_t *req);

/* ---- Norms -------------------------------------------------------------------------- */

/**
 * Norm of a general m x n matrix: max |a_ij| (TILA_NORM_MAX), the largest column sum
 * of |a_ij| (TILA_NORM_ONE), the largest row sum (TILA_NORM_INF) or the Frobenius norm
 * sqrt(sum |a_ij|^2) (TILA_NORM_FRO), as LAPACK's ?lange defines them.
 * The result is returned on every rank, as ScaLAPACK's p?lange does: the synchronous
 * form writes *value before returning; the asynchronous form writes it when the
 * sequence's tasks run, so *value is valid after tila_sequence_wait (keep it alive
 * until then).  A NaN anywhere gives NaN; 0 for an empty matrix.
 * Reproducible: the value, to the last bit, depends on the matrix and its tiling
 * only, not on the distribution (grid or mapping), the number of ranks or the workers.
 * Each tile is summed in LAPACK's order, then the tiles' sums are added exactly and
 * rounded once, so a column or row sum is within about (mb + 2) eps of the exact one
 * (LAPACK's running sum: m eps); max is exact.  Across ranks the tasks exchange
 * nothing: one or two allreduces at the wait combine the ranks' partial results.
 * @return 0, or -i for argument i; the async form also returns through req.
 */
int tila_zlange(tila_norm_t norm, tila_desc_t *A, double *value);
int tila_zlange_async(tila_norm_t norm, tila_desc_t *A, double *value, tila_sequence_t *seq,
                      tila_request_t *req);

/**
 * Norm of the upper or lower trapezoid of the m x n matrix A (LAPACK's ?lantr; any
 * m and n): entries i <= j (TILA_UPPER) or i >= j (TILA_LOWER); with TILA_UNIT the
 * diagonal is taken as ones and not read.  The triangle needs square diagonal tiles (mb ==
 * nb, or row and column boundaries that agree: tila_desc_create_tiled).
 * Result and return as tila_zlange.
 */
int tila_zlantr(tila_norm_t norm, tila_uplo_t uplo, tila_diag_t diag, tila_desc_t *A,
                double *value);
int tila_zlantr_async(tila_norm_t norm, tila_uplo_t uplo, tila_diag_t diag, tila_desc_t *A,
                      double *value, tila_sequence_t *seq, tila_request_t *req);

/**
 * Norm of the n x n complex symmetric (real symmetric in s/d) matrix whose triangle
 * `uplo` A holds (LAPACK's ?lansy): the other triangle is not read.  A is square, its
 * rows tiled as its columns; the one and infinity norms are equal.  Result and return as tila_zlange.
 */
int tila_zlansy(tila_norm_t norm, tila_uplo_t uplo, tila_desc_t *A, double *value);
int tila_zlansy_async(tila_norm_t norm, tila_uplo_t uplo, tila_desc_t *A, double *value,
                      tila_sequence_t *seq, tila_request_t *req);

#pragma GCC visibility pop

#endif /* TILA_Z_H */
