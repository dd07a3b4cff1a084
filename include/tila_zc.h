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
 * i?amax: |Re| + |Im| in complex), then one step more, at most 30 steps in all.  The
 * step past LAPACK's test brings the backward error ||B - A X|| / (||A|| ||X||) to
 * dposv's (what LAPACK's test accepts can be hundreds of times larger; bench/README.md).
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

#pragma GCC visibility pop

#endif /* TILA_ZC_H */
