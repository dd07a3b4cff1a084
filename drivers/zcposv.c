/**
 * @file zcposv.c
 * @brief Mixed-precision Hermitian positive definite solve: Cholesky in single precision,
 * refinement with double-precision residuals, a double-precision factorization when that
 * does not converge (LAPACK's zcposv; dsposv in real).
 * @precisions mixed zc -> ds
 *
 * Refinement stops one step past LAPACK's stopping test (refine()).
 * The async call submits, in a child sequence of the caller's (its failures are fallbacks,
 * not the caller's, and the caller's failure still stops it): ||A||_inf, A's triangle and B
 * in single precision, the single Cholesky factorization and solve, X in double and
 * R = B - A X.  What follows depends on values, so it runs at the caller's wait, which every
 * rank reaches in the same order, after the wait's reductions (a continuation,
 * tila_sequence_then, which may wait where a wait hook may not): the stopping test, then
 * each refinement step with its test in one synchronous round (R in single, solve, X += R,
 * R = B - A X, the column maxima: round_trip()), or the fallback (X = B, then dposv).  The
 * residual's product with the Hermitian A takes the stored triangle's tiles as they are
 * (hemm on the diagonal, gemm below it) and the others' conjugate transposes (gemm with
 * A(k, i)^H), each where its tile of A lives (only the products cross ranks: residual()).
 * The stopping test needs each column's largest entry of X and R: a tile task per tile
 * (zcolamax) into a partial on its rank, folded at the round's wait in the allreduce that
 * agrees on its status (tila_partials_maxima).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "codelets_z.h"
#include "codelets_zc.h"
#include "tila_partials.h"

#define ZCPOSV_ITERMAX 30 /* LAPACK's ITERMAX */

static const char *zcposv_func = "tila_zcposv";

/* One call's state, from the async call to the caller's wait. */
typedef struct zcposv_s {
    tila_continuation_t then; /**< first member: the refinement continues the caller's wait */
    tila_uplo_t uplo;
    tila_desc_t *A, *B, *X;   /**< the caller's, held until the continuation */
    tila_desc_t *SA, *SX, *R; /**< A's triangle and a solution in single, the residual */
    int *iter;
    tila_sequence_t *seq, *inner; /**< the caller's; the single-precision phase's */
    tila_request_t *req;
    tila_request_t conv, potrf, work; /**< inner's: to single, the factorization, the rest */
    double anorm;                     /**< ||A||_inf, at inner's wait */
} zcposv_t;

/* S = Z in single precision on the triangle uplo (its diagonal tiles' triangles, the
 * tiles beyond whole) or everywhere (TILA_GENERAL); an entry beyond single's range fails
 * req with info 1.  A's conversion gates the factorization: its tasks take potrf's
 * highest priority, so that each tile is converted before the panel that needs it. */
static int to_single(tila_uplo_t uplo, tila_desc_t *Z, tila_desc_t *S, tila_sequence_t *seq,
                     tila_request_t *req)
{
    int rc = 0;
    tila_task_t t = tila_task_init(seq, req, 3);
    for (int n = 0; n < Z->nt && !rc; n++)
        for (int m = 0; m < Z->mt && !rc; m++) {
            tila_uplo_t part = uplo == TILA_GENERAL ? TILA_GENERAL : tila_tile_part(uplo, m, n);
            if (part == TILA_TILE_NONE) continue;
            tila_task_on(&t, S, m, n);
            rc = tila_insert_zlag2c(&t, part, tila_tile_rows(Z, m), tila_tile_cols(Z, n),
                                    tila_task_tile(&t, Z, m, n), tila_task_tile(&t, S, m, n));
        }
    return rc;
}

/* Z = S in double precision (exact). */
static int to_double(tila_desc_t *S, tila_desc_t *Z, tila_sequence_t *seq, tila_request_t *req)
{
    int rc = 0;
    tila_task_t t = tila_task_init(seq, req, 0);
    for (int n = 0; n < Z->nt && !rc; n++)
        for (int m = 0; m < Z->mt && !rc; m++) {
            tila_task_on(&t, Z, m, n);
            rc = tila_insert_clag2z(&t, tila_tile_rows(Z, m), tila_tile_cols(Z, n),
                                    tila_task_tile(&t, S, m, n), tila_task_tile(&t, Z, m, n));
        }
    return rc;
}

/*
 * R = B - A X, A Hermitian with its triangle uplo stored.  Each product runs where its
 * tile of A lives: on R's owner it updates R directly; elsewhere it goes into a workspace
 * tile (rows x nrhs-tile, beta = 0) that is sent to R's owner and subtracted there, so that
 * what crosses ranks is the products, not the n^2 entries of A.
 */
static int residual(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B, tila_desc_t *X,
                    tila_desc_t *R, tila_sequence_t *seq, tila_request_t *req)
{
    int rc = tila_zlacpy_async(TILA_GENERAL, B, R, seq, req);
    if (rc) return rc;
    tila_workspace_t ws;
    tila_workspace_init(&ws, sizeof(tila_complex64_t));
    tila_task_t t = tila_task_init(seq, req, 0);
    for (int j = 0; j < R->nt && !rc; j++)
        for (int i = 0; i < R->mt && !rc; i++) {
            int rows = tila_tile_rows(R, i), cols = tila_tile_cols(R, j);
            int here = R->owner[(size_t)j * R->mt + i];
            for (int k = 0; k < A->nt && !rc; k++) {
                int nk = tila_tile_cols(A, k);
                /* The stored tile that gives A(i, k): itself, or A(k, i) conjugate-transposed. */
                int stored = k == i || (uplo == TILA_LOWER) == (i > k);
                int si = stored ? i : k, sk = stored ? k : i;
                tila_task_on(&t, A, si, sk);
                starpu_data_handle_t out = NULL;
                if (t.rank == here) {
                    tila_task_on(&t, R, i, j);
                    out = tila_task_tile(&t, R, i, j);
                }
                else if (!(out = tila_workspace_tile(&ws, t.rank, rows, cols)))
                    rc = TILA_ERR_NOMEM;
                tila_complex64_t beta = t.rank == here ? 1 : 0, alpha = t.rank == here ? -1 : 1;
                starpu_data_handle_t x = tila_task_tile(&t, X, k, j),
                                     a = tila_task_tile(&t, A, si, sk);
                if (rc)
                    break;
                else if (k == i)
                    rc = tila_insert_zhemm(&t, TILA_LEFT, uplo, rows, cols, alpha, a, x, beta, out);
                else
                    rc = tila_insert_zgemm(&t, stored ? TILA_NOTRANS : TILA_CONJTRANS, TILA_NOTRANS,
                                           rows, cols, nk, alpha, a, x, beta, out);
                if (!rc && t.rank != here) {
                    tila_task_on(&t, R, i, j);
                    rc =
                        tila_insert_zgeadd(&t, rows, cols, -1, out, 1, tila_task_tile(&t, R, i, j));
                }
            }
        }
    tila_workspace_release(&ws);
    return rc;
}

/* Submit, unless rc already says a failure, the largest entry of each column of each of
 * D's tiles (tila_core_zcolamax's measure) into a partial on the tile's rank, in seq: at
 * seq's wait, maxima[j] = the largest of column j over every rank.  Every rank books the
 * same keys and tags whatever failed (rc, memory).  @return rc, or the first failure (seq
 * then fails on this rank, and at its wait on every rank). */
static int colmax_submit(int rc, tila_desc_t *D, double *maxima, tila_sequence_t *seq,
                         tila_request_t *req)
{
    tila_partials_t *P =
        tila_partials_maxima(seq, D->n, (int64_t)D->mt * D->nt, sizeof(double), maxima);
    if (!rc && (!P || !maxima)) rc = TILA_ERR_NOMEM;
    if (rc) {
        tila_partials_destroy(P);
        tila_sequence_fail(seq, req, rc);
        return rc;
    }
    tila_task_t t = tila_task_init(seq, req, 0);
    for (int j = 0; j < D->nt && !rc; j++)
        for (int i = 0; i < D->mt && !rc; i++) {
            starpu_data_handle_t h;
            tila_task_on(&t, D, i, j);
            int cols = tila_tile_cols(D, j);
            rc = tila_partials_add(P, t.rank, D->col0[j], cols, &h);
            if (!rc && h)
                rc = tila_insert_zcolamax(&t, tila_tile_rows(D, i), cols,
                                          tila_task_tile(&t, D, i, j), h);
        }
    tila_partials_maxima_submitted(P, seq);
    if (rc) tila_sequence_fail(seq, req, rc);
    return rc;
}

/*
 * One round, one wait: a refinement step if `step` (R in single, solved, back in double,
 * X += R, R = B - A X), then the stopping test on X and R, their column maxima combined
 * over the ranks in the allreduce of the round's wait.  *ok: every column has max |R| <= max |X| cte; *nan: a
 * NaN in X or R; *overflow: R held an entry beyond single's range (the step's later tasks
 * did nothing, nor the test's).  Collective.
 */
static int round_trip(zcposv_t *st, int step, double cte, int *ok, int *nan, int *overflow)
{
    int nrhs = st->X->n;
    tila_sync_t s;
    tila_request_t conv = TILA_REQUEST_INITIALIZER;
    int rc = tila_sync_begin(zcposv_func, &s);
    if (rc) return rc;
    tila_call_begin(s.seq, &conv);
    if (step) {
        rc = to_single(TILA_GENERAL, st->R, st->SX, s.seq, &conv);
        if (!rc) rc = tila_cpotrs_async(st->uplo, st->SA, st->SX, s.seq, &s.req);
        if (!rc) rc = to_double(st->SX, st->R, s.seq, &s.req);
        if (!rc) rc = tila_zgeadd_async(1, st->R, 1, st->X, s.seq, &s.req);
        if (!rc) rc = residual(st->uplo, st->A, st->B, st->X, st->R, s.seq, &s.req);
    }
    /* X's column maxima, then R's, agreed on at the wait: a failure of one rank (a refused
     * submission, memory) fails the status everywhere. */
    double *maxima = calloc(2 * (size_t)nrhs, sizeof *maxima);
    rc = colmax_submit(rc, st->X, maxima, s.seq, &s.req);
    rc = colmax_submit(rc, st->R, maxima ? maxima + nrhs : NULL, s.seq, &s.req);
    int status = tila_sync_end(&s, 0);
    *overflow = conv.status > 0;
    *ok = status >= 0;
    *nan = 0;
    for (int j = 0; status >= 0 && j < nrhs; j++) {
        double xn = maxima[j], rn = maxima[nrhs + j];
        if (!(rn <= xn * cte)) *ok = 0;
        if (isnan(rn) || isnan(xn)) *nan = 1;
    }
    free(maxima);
    if (*overflow) return 0;
    return status < 0 ? status : 0;
}

/*
 * The refinement from inner's first solution and residual: *iter the steps taken, or
 * LAPACK's codes.  LAPACK's test met, one more step is taken and the test made again: the
 * residual LAPACK's test accepts can be hundreds of times dposv's, and one more correction
 * brings the backward error to dposv's.  Should that step undo convergence, refinement
 * goes on as before; 30 steps in all at most (met at the 29th, no step follows).  A step
 * whose residual overflows single falls back even past the test: other ranks' parts of X
 * may have taken its correction.  A NaN in X or R falls back at once (-31).
 */
static int refine(zcposv_t *st, int *iter)
{
    double cte = st->anorm * (DBL_EPSILON / 2) * sqrt((double)st->A->n);
    int ok, nan, overflow, rc = round_trip(st, 0, cte, &ok, &nan, &overflow);
    for (int it = 0, polished = 0;; it++) {
        if (rc) return rc;
        if (overflow) {
            *iter = -2;
            return 0;
        }
        if (ok && (polished || it >= ZCPOSV_ITERMAX - 1)) {
            *iter = it;
            return 0;
        }
        if (it == ZCPOSV_ITERMAX || nan) {
            *iter = -ZCPOSV_ITERMAX - 1;
            return 0;
        }
        polished = ok;
        rc = round_trip(st, 1, cte, &ok, &nan, &overflow);
    }
}

/* Release the workspace and the state (local; the continuation has released the matrices). */
static void zcposv_free(zcposv_t *st)
{
    tila_sequence_destroy(&st->inner);
    tila_desc_destroy(&st->SA);
    tila_desc_destroy(&st->SX);
    tila_desc_destroy(&st->R);
    free(st);
}

/* At the caller's wait: the stopping test, refinement or fallback; *iter and the status. */
static int zcposv_finish(tila_continuation_t *then, int status, int run)
{
    zcposv_t *st = (zcposv_t *)then;
    st->A->held = st->B->held = st->X->held = NULL;
    if (!run) { /* destroyed without a wait: release only */
        zcposv_free(st);
        return 0;
    }
    if (status) { /* the caller's sequence failed: inner's tasks do nothing (no collective) */
        zcposv_free(st);
        return 0;
    }
    /* Every rank is here, in the same order: inner's wait is collective too. */
    int istatus = tila_sequence_wait(st->inner), rc = 0, iter = 0;
    if (istatus < 0)
        rc = istatus;
    else if (st->conv.status > 0)
        iter = -2;
    else if (st->potrf.status > 0)
        iter = -3;
    else
        rc = refine(st, &iter);
    if (!rc && iter < 0) {
        /* X = B, then dposv: A holds the double factor, as LAPACK's. */
        rc = tila_zlacpy(TILA_GENERAL, st->B, st->X);
        if (!rc) rc = tila_zposv(st->uplo, st->A, st->X);
        if (rc > 0) {
            tila_sequence_fail(st->seq, st->req, rc);
            rc = 0;
        }
    }
    if (rc < 0) tila_sequence_fail(st->seq, st->req, rc);
    *st->iter = iter;
    zcposv_free(st);
    return rc;
}

int tila_zcposv_async(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B, tila_desc_t *X, int *iter,
                      tila_sequence_t *seq, tila_request_t *req)
{
    const char *func = zcposv_func;
    int rc = tila_check_init(func);
    if (rc) return rc;
    if ((rc = tila_check_triangle(func, 1, uplo))) return rc;
    if ((rc = tila_check_desc(func, 2, "A", A, TILA_COMPLEX64))) return rc;
    if ((rc = tila_check_desc(func, 3, "B", B, TILA_COMPLEX64))) return rc;
    if ((rc = tila_check_rhs(func, 2, A, B))) return rc;
    if ((rc = tila_check_desc(func, 4, "X", X, TILA_COMPLEX64))) return rc;
    if ((rc = tila_check_same_tiling(func, 4, "X", B, X))) return rc;
    if (X == B || X == A) {
        tila_error(func, "argument 4 (X) is %s: the solution needs a matrix of its own",
                   X == B ? "B" : "A");
        return -4;
    }
    if (!iter) {
        tila_error(func, "argument 5 (iter) is NULL");
        return -5;
    }
    if ((rc = tila_check_sequence(func, 6, seq, req))) return rc;
    tila_call_begin(seq, req);
    *iter = 0;
    if (A->n == 0 || B->n == 0) return 0;

    /* Collective: every rank creates the three (taking their tags), in this order, before
     * anything that may fail on one rank only; then all agree whether everything exists,
     * so that no rank goes on to the continuation's collectives alone. */
    tila_desc_t *SA = NULL, *SX = NULL, *R = NULL;
    int r1 = tila_desc_create_twin(&SA, A, TILA_COMPLEX32);
    int r2 = tila_desc_create_twin(&SX, B, TILA_COMPLEX32);
    int r3 = tila_desc_create_twin(&R, B, TILA_COMPLEX64);
    zcposv_t *st = calloc(1, sizeof *st);
    rc = r1 ? r1 : r2 ? r2 : r3 ? r3 : st ? 0 : TILA_ERR_NOMEM;
    tila_sequence_t *inner = NULL;
    if (!rc) rc = tila_sequence_create_child(&inner, seq);
    int failed = rc != 0;
    if (tila_comm_size() > 1 && tila_allreduce(&failed, 1, MPI_INT, MPI_MAX)) failed = 1;
    if (failed) {
        tila_sequence_destroy(&inner);
        tila_desc_destroy(&SA);
        tila_desc_destroy(&SX);
        tila_desc_destroy(&R);
        free(st);
        return rc ? rc : TILA_ERR_NOMEM;
    }
    *st = (zcposv_t){ .uplo = uplo,
                      .A = A,
                      .B = B,
                      .X = X,
                      .iter = iter,
                      .seq = seq,
                      .req = req,
                      .conv = TILA_REQUEST_INITIALIZER,
                      .potrf = TILA_REQUEST_INITIALIZER,
                      .work = TILA_REQUEST_INITIALIZER,
                      .SA = SA,
                      .SX = SX,
                      .R = R,
                      .inner = inner };
    /* The inner requests join inner's wait. */
    tila_call_begin(st->inner, &st->conv);
    tila_call_begin(st->inner, &st->potrf);
    tila_call_begin(st->inner, &st->work);
    tila_sequence_t *in = st->inner;
    rc = tila_zlanhe_async(TILA_NORM_INF, uplo, A, &st->anorm, in, &st->work);
    if (!rc) rc = to_single(uplo, A, st->SA, in, &st->conv);
    if (!rc) rc = to_single(TILA_GENERAL, B, st->SX, in, &st->conv);
    if (!rc) rc = tila_cpotrf_async(uplo, st->SA, in, &st->potrf);
    if (!rc) rc = tila_cpotrs_async(uplo, st->SA, st->SX, in, &st->work);
    if (!rc) rc = to_double(st->SX, X, in, &st->work);
    if (!rc) rc = residual(uplo, A, B, X, st->R, in, &st->work);
    /* A refused submission fails the caller's sequence; the continuation then only cleans up. */
    if (rc) tila_sequence_fail(seq, req, rc);
    A->held = B->held = X->held = func;
    st->then.fn = zcposv_finish;
    tila_sequence_then(seq, &st->then);
    return rc;
}

int tila_zcposv(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B, tila_desc_t *X, int *iter)
{
    tila_sync_t s;
    int rc = tila_sync_begin(zcposv_func, &s);
    return rc ? rc : tila_sync_end(&s, tila_zcposv_async(uplo, A, B, X, iter, s.seq, &s.req));
}
