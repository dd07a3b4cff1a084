/**
 * @file tila_zc.h
 * @brief Tila's mixed-precision routines: double complex results from single complex
 * factorizations (zcposv; dsposv in real, tila_ds.h).
 * @precisions mixed zc -> ds
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_ZC_H
#define TILA_ZC_H

#include "tila_types.h"

/* Everything declared here is the library's interface (built with -fvisibility=hidden). */
#pragma GCC visibility push(default)

/**
 * Solve A X = B for Hermitian positive definite A by a Cholesky factorization in single
 * precision and iterative refinement with double-precision residuals; if that does not
 * reach double precision's accuracy, a double-precision factorization (LAPACK's zcposv,
 * with its arguments as Tila's descriptors).
 *
 * A single-precision copy of A's triangle `uplo` (on A's tiles and owners, a workspace Tila
 * allocates and frees) is factored, X solved from it, and refined: R = B - A X in double,
 * the correction solved in single, added in double, until every column j has
 * max_i |R(i,j)| <= max_i |X(i,j)| ||A||_inf sqrt(n) eps (eps = 2^-53; |.| as LAPACK's
 * i?amax: |Re| + |Im| in complex), then while each step still halves the residual, at
 * most 30 steps in all.  The steps past LAPACK's test bring the backward error
 * ||B - A X|| / (||A|| ||X||) to dposv's (what LAPACK's test accepts can be hundreds of
 * times larger; bench/README.md).  TILA_POSV_FACTOR (README) may make the factorization's
 * updates TF32, BF16 or FP16: refinement is then tila_zcposv_x's TILA_REFINE_AUTO.
 * @param A     n x n, square diagonal tiles; left unchanged when refinement succeeded
 *              (*iter >= 0), holding the double-precision factor when it fell back
 *              (*iter < 0), as LAPACK's zcposv.
 * @param B     n x nrhs, A's rows tiled alike; not changed.
 * @param X     n x nrhs, B's tiles; the solution.  Not B itself.
 * nrhs = 0 (or n = 0): nothing is done, *iter = 0 (LAPACK's would still factor A).
 * @param iter  >= 0: the refinement steps taken (the one past the test included); < 0:
 *              it fell back to the double
 *              factorization because -2: an entry of A or B (or of a residual) lies
 *              beyond single precision's range, -3: the single factorization found A
 *              not positive definite in single precision, -31: 30 steps did not converge.
 *              A NaN in a residual counts as not converged (LAPACK's test lets it pass).
 * @return 0; k > 0: A's leading minor of order k is not positive definite (the double
 *         factorization's, as dposv's: X unspecified); -i for argument i.
 *
 * The async form submits the single-precision factorization and the first solve and
 * residual, and refines at the sequence's wait, which sets *iter and the status; until
 * then A, B and X are held: routines given one of them, and tila_desc_destroy, return -i
 * (or -1) with a message.  Its tasks do nothing once the sequence has failed.
 */
int tila_zcposv(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B, tila_desc_t *X, int *iter);
int tila_zcposv_async(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B, tila_desc_t *X, int *iter,
                      tila_sequence_t *seq, tila_request_t *req);

/**
 * tila_zcposv with a choice of the factorization's arithmetic and of the refinement, and a
 * report of what it did (mx; NULL: tila_zcposv's defaults, mx->factor = TILA_FACTOR_ENV,
 * and mx->refine TILA_REFINE_CLASSIC for a single-precision factorization, as LAPACK's,
 * TILA_REFINE_AUTO for the others).
 *
 * The factorization is single precision's (TILA_FACTOR_FP32), or single precision's with
 * its GEMM and HERK tile updates in TF32, BF16 or FP16 (tila_factor_t: on GPUs on tensor
 * cores; on CPUs the inputs rounded by hand, for tests and studies); FP16 factors mu A,
 * mu a power of two that puts A's largest entry (||A||_max, taken first) at 2^23-2^24, and
 * each solve with the factor is multiplied by mu.  Refinement: classic (a correction solved
 * with the factor, R = B - A X in double, LAPACK's stopping test and the steps past it, as
 * tila_zcposv); a factorization in TF32, BF16 or FP16 that breaks down (A's condition
 * beyond about 1 / u) is retried on A + s I, s = 4 u ||A||_max, then 64 u ||A||_max (u:
 * 2^-11, 2^-8, 2^-11; Higham and Pranesh's shift); under TILA_REFINE_AUTO, a classic step
 * that leaves more than a quarter of the residual (max |R(:,j)| / max |X(:,j)|, the worst
 * column) before the test is met hands X and R to GMRES refinement: GMRES in double on
 * A d = R right-preconditioned by the factor (the columns as one block-diagonal system), at
 * most 30 Krylov vectors a cycle, each cycle ending in X += d, the true residual and the
 * test, then cycles while each halves the residual; at most 10 cycles, none after one that
 * leaves more than a quarter.  What does not converge falls back to the double
 * factorization, as tila_zcposv.
 * @param mx  in: factor (a tila_factor_t), refine (a tila_refine_t); out (at the wait):
 *            used, path, classic (classic steps), gmres (Krylov vectors, every cycle),
 *            cycles, shift (s / ||A||_max of the factorization used; 0: none).  *iter is tila_zcposv's: the steps (a GMRES cycle counts one).
 * @return as tila_zcposv; -6 for an mx whose factor or refine is none of its enum's.
 */
int tila_zcposv_x(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B, tila_desc_t *X, int *iter,
                  tila_mixed_t *mx);
int tila_zcposv_x_async(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B, tila_desc_t *X, int *iter,
                        tila_mixed_t *mx, tila_sequence_t *seq, tila_request_t *req);

#pragma GCC visibility pop

#endif /* TILA_ZC_H */
