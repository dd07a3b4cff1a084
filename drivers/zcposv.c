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
 * agrees on its status (tila_partials_maxima).  On one rank with GPUs the first solution's
 * and each classic step's solve (conversions and both triangular solves), residual and
 * column maxima are one task each a block column (fused_chosen: tila_insert_zcpotrs,
 * tila_insert_zhemm_col, tila_insert_zcolamax_tiles).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(COMPLEX)
#include <complex.h>
#endif

#include "codelets_c.h"
#include "codelets_z.h"
#include "codelets_zc.h"
#include "drivers_c.h"
#include "tila_partials.h"

#define ZCPOSV_ITERMAX 30 /* LAPACK's ITERMAX */
#define ZCPOSV_STALL 0.25 /* refinement stalls when a step (a cycle) leaves more than this */
#define ZCPOSV_POLISH 0.5 /* past LAPACK's test, steps go on while each leaves less than this */
#define ZCPOSV_KRYLOV 30  /* GMRES's basis at most: a cycle's iterations */
#define ZCPOSV_CYCLES 10  /* GMRES's cycles at most (each a true residual and its test) */
#define ZCPOSV_GMRES_TOL 1e-6 /* a cycle stops once its residual estimate fell this much */

static const char *zcposv_func = "tila_zcposv";

/* One call's state, from the async call to the caller's wait. */
typedef struct zcposv_s {
    tila_continuation_t then; /**< first member: the refinement continues the caller's wait */
    tila_uplo_t uplo;
    tila_desc_t *A, *B, *Xout; /**< the caller's, held until the continuation */
    /** The solution as it is refined: a matrix of the call's own, copied into the caller's
     * X once the caller's sequence is known not to have failed on any rank (at its wait), so
     * that a call on a sequence that failed before it leaves X as it was on every rank, not
     * only on the ranks that knew of the failure when its first phase ran. */
    tila_desc_t *X;
    tila_desc_t *SA, *SX, *R; /**< A's triangle and a solution in single, the residual */
    int *iter;
    tila_mixed_t *mx;             /**< the caller's options and report (NULL: defaults) */
    tila_factor_t factor;         /**< the factorization's arithmetic, agreed by the ranks */
    tila_refine_t refine;         /**< the refinement */
    int fused;                    /**< a round's tasks a block column each (fused_chosen) */
    double mu;                    /**< SA holds mu A (FP16's power of two; else 1) */
    double shift;                 /**< and mu shift I on its diagonal (a retry; else 0) */
    tila_sequence_t *seq, *inner; /**< the caller's; the single-precision phase's */
    tila_sequence_t *norms;       /**< A's norms (a norm's value comes with a status of 0) */
    tila_request_t *req;
    tila_request_t conv, potrf, work; /**< inner's: to single, the factorization, the rest */
    tila_request_t nreq;              /**< norms' */
    double anorm, amax; /**< ||A||_inf, ||A||_max (lower arithmetics), at inner's wait */
    int classic, gmres, cycles;       /**< the report (tila_mixed_t) */
    double q; /**< the best max |R| / max |X| classic refinement reached (INFINITY: none) */
    tila_mixed_path_t path;
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

/* D = alpha D, tile by tile (alpha a power of two here: exact). */
static int scale(tila_desc_t *D, tila_complex64_t alpha, tila_sequence_t *seq, tila_request_t *req)
{
    int rc = 0;
    tila_task_t t = tila_task_init(seq, req, 0);
    for (int n = 0; n < D->nt && !rc; n++)
        for (int m = 0; m < D->mt && !rc; m++) {
            tila_task_on(&t, D, m, n);
            rc = tila_insert_zlascal(&t, tila_tile_rows(D, m), tila_tile_cols(D, n), alpha,
                                     tila_task_tile(&t, D, m, n));
        }
    return rc;
}

/* SA = mu SA on the triangle uplo's tiles (FP16's scaling, a power of two: exact); its
 * tasks take potrf's priority, as the conversion's. */
static int scale_single(tila_uplo_t uplo, tila_desc_t *SA, float mu, tila_sequence_t *seq,
                        tila_request_t *req)
{
    int rc = 0;
    tila_task_t t = tila_task_init(seq, req, 3);
    for (int n = 0; n < SA->nt && !rc; n++)
        for (int m = 0; m < SA->mt && !rc; m++) {
            if (tila_tile_part(uplo, m, n) == TILA_TILE_NONE) continue;
            tila_task_on(&t, SA, m, n);
            rc = tila_insert_clascal(&t, tila_tile_rows(SA, m), tila_tile_cols(SA, n), mu,
                                     tila_task_tile(&t, SA, m, n));
        }
    return rc;
}

/* SA += shift I on its diagonal tiles, through E, a single twin of A of which only those
 * tiles are written (shift I), then added. */
static int shift_single(tila_desc_t *SA, tila_desc_t *E, float shift, tila_sequence_t *seq,
                        tila_request_t *req)
{
    int rc = 0;
    tila_task_t t = tila_task_init(seq, req, 3);
    for (int k = 0; k < SA->nt && !rc; k++) {
        int nk = tila_tile_cols(SA, k);
        tila_task_on(&t, SA, k, k);
        rc = tila_insert_claset(&t, TILA_GENERAL, nk, nk, 0, shift, tila_task_tile(&t, E, k, k));
        if (!rc)
            rc = tila_insert_cgeadd(&t, nk, nk, 1, tila_task_tile(&t, E, k, k), 1,
                                    tila_task_tile(&t, SA, k, k));
    }
    return rc;
}

/* D = M^-1 S with the low-precision factor M = L L^H of mu A: S in single (an entry
 * beyond single's range fails conv), solved, back in double, times mu.  D may be S. */
static int precond(zcposv_t *st, tila_desc_t *S, tila_desc_t *D, tila_sequence_t *seq,
                   tila_request_t *conv, tila_request_t *req)
{
    int rc = to_single(TILA_GENERAL, S, st->SX, seq, conv);
    if (!rc) rc = tila_cpotrs_async(st->uplo, st->SA, st->SX, seq, req);
    if (!rc) rc = to_double(st->SX, D, seq, req);
    if (!rc && st->mu != 1) rc = scale(D, st->mu, seq, req);
    return rc;
}

/*
 * Whether the first solution and each classic step apply the factor, form the residual
 * and take the column maxima as one task each a block column (tila_insert_zcpotrs: the
 * conversions and both triangular solves on one worker; tila_insert_zhemm_col,
 * tila_insert_zcolamax_tiles) rather than as tile tasks (precond, residual, colmax_submit:
 * some n_t^2 of them, each a few microseconds of a GPU's work behind a task's cost):
 * TILA_POSV_FUSED=on or off; auto (or unset) takes it where the rank has GPUs.  Only where
 * the call runs on one rank (a task reads every tile of the triangle where it runs); not
 * under simulation, which has no model for these tasks.
 */
static int fused_chosen(void)
{
    if (tila_comm_size() > 1) return 0;
    const char *v = getenv("TILA_POSV_FUSED");
#if defined(STARPU_SIMGRID)
    const int automatic = 0;
#else
    const int automatic = tila_rt.ncuda > 0;
#endif
    if (!v || !*v || !strcmp(v, "auto")) return automatic;
    if (!strcmp(v, "on")) return 1;
    if (!strcmp(v, "off")) return 0;
    tila_error(zcposv_func, "TILA_POSV_FUSED=%s is none of auto, on and off: auto taken", v);
    return automatic;
}

/* h = the handles of the stored tiles of the Hermitian (or triangular) A's triangle uplo for
 * task t, in tila_cl_pair's order: A(i, k), or A(k, i) when upper, k by k, i down from k. */
static void triangle_tiles(const tila_task_t *t, tila_desc_t *A, tila_uplo_t uplo,
                           starpu_data_handle_t *h)
{
    for (int k = 0, p = 0; k < A->mt; k++)
        for (int i = k; i < A->mt; i++)
            h[p++] = uplo == TILA_LOWER ? tila_task_tile(t, A, i, k) : tila_task_tile(t, A, k, i);
}

/* D = M^-1 D as precond does, then X += D unless X is NULL, in one task a block column of
 * D (fused_chosen; one rank); an entry of D beyond single's range fails conv. */
static int precond_fused(zcposv_t *st, tila_desc_t *D, tila_desc_t *X, tila_sequence_t *seq,
                         tila_request_t *conv)
{
    int mt = st->SA->mt, pairs = mt * (mt + 1) / 2, rc = 0;
    starpu_data_handle_t *h = malloc(sizeof *h * (size_t)(pairs + 2 * mt)), work;
    if (!h) {
        tila_sequence_fail(seq, conv, TILA_ERR_NOMEM);
        return TILA_ERR_NOMEM;
    }
    int cols = 0;
    for (int j = 0; j < D->nt; j++)
        if (tila_tile_cols(D, j) > cols) cols = tila_tile_cols(D, j);
    tila_scratch_register(&work, (size_t)D->m * cols, sizeof(tila_complex32_t));
    tila_task_t t = tila_task_init(seq, conv, 0);
    for (int j = 0; j < D->nt && !rc; j++) {
        tila_task_on(&t, D, 0, j);
        triangle_tiles(&t, st->SA, st->uplo, h);
        for (int i = 0; i < mt; i++) {
            h[pairs + i] = tila_task_tile(&t, D, i, j);
            if (X) h[pairs + mt + i] = tila_task_tile(&t, X, i, j);
        }
        rc = tila_insert_zcpotrs(&t, st->uplo, mt, D->m, tila_tile_cols(D, j), st->mu, h,
                                 h + pairs, work, X ? h + pairs + mt : NULL);
    }
    tila_scratch_release(&work);
    free(h);
    return rc;
}

/* R = B - A X as residual() does, in one task a block column of R (fused_chosen; one rank). */
static int residual_fused(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B, tila_desc_t *X,
                          tila_desc_t *R, tila_sequence_t *seq, tila_request_t *req)
{
    int mt = A->mt, pairs = mt * (mt + 1) / 2, rc = 0;
    starpu_data_handle_t *h = malloc(sizeof *h * (size_t)(pairs + 3 * mt));
    if (!h) {
        tila_sequence_fail(seq, req, TILA_ERR_NOMEM);
        return TILA_ERR_NOMEM;
    }
    tila_task_t t = tila_task_init(seq, req, 0);
    for (int j = 0; j < R->nt && !rc; j++) {
        tila_task_on(&t, R, 0, j);
        triangle_tiles(&t, A, uplo, h);
        for (int i = 0; i < mt; i++) {
            h[pairs + i] = tila_task_tile(&t, B, i, j);
            h[pairs + mt + i] = tila_task_tile(&t, X, i, j);
            h[pairs + 2 * mt + i] = tila_task_tile(&t, R, i, j);
        }
        rc = tila_insert_zhemm_col(&t, uplo, mt, R->m, tila_tile_cols(R, j), h, h + pairs,
                                   h + pairs + mt, h + pairs + 2 * mt);
    }
    free(h);
    return rc;
}

/*
 * One output of a residual task placed by t: tile (i, j) of R itself on R's rank, updated
 * (*alpha = -1, *beta = 1), or elsewhere a workspace tile (rows x cols) the product is
 * written to (*alpha = 1, *beta = 0) and R's rank subtracts (residual_settle).
 */
static starpu_data_handle_t residual_out(const tila_task_t *t, tila_workspace_t *ws,
                                         tila_desc_t *R, int i, int j, tila_complex64_t *alpha,
                                         tila_complex64_t *beta)
{
    int local = t->rank == R->owner[(size_t)j * R->mt + i];
    *alpha = local ? -1 : 1;
    *beta = local ? 1 : 0;
    return local ? tila_task_tile(t, R, i, j)
                 : tila_workspace_tile(ws, t->rank, tila_tile_rows(R, i), tila_tile_cols(R, j));
}

/* R(i, j) -= out on R's rank when out is a workspace tile of another rank's product. */
static int residual_settle(tila_task_t *t, const tila_complex64_t *beta, starpu_data_handle_t out,
                           tila_desc_t *R, int i, int j)
{
    if (*beta != 0) return 0;
    tila_task_on(t, R, i, j);
    return tila_insert_zgeadd(t, tila_tile_rows(R, i), tila_tile_cols(R, j), -1, out, 1,
                              tila_task_tile(t, R, i, j));
}

/*
 * Pair q of round r of the circle method over the block rows 0..mt-1: every pair {a, b},
 * a != b, once in mt - 1 rounds (mt even) or mt (odd) of disjoint pairs.  @return 0 when
 * the slot holds the odd case's idle row.
 */
static int round_pair(int mt, int r, int q, int *a, int *b)
{
    int rows = mt + (mt & 1); /* with a dummy row when mt is odd */
    *a = q == 0 ? rows - 1 : (r + q) % (rows - 1);
    *b = q == 0 ? r : (r - q + rows - 1) % (rows - 1);
    return *a < mt && *b < mt;
}

/*
 * R = B - A X (or R = -A X when B is NULL), A Hermitian with its triangle uplo stored.
 * Each task runs where its tile of A lives: a diagonal tile's product (HEMM), and each
 * stored tile A(s, u) off the diagonal read once for both of its products, R(s) -=
 * A(s, u) X(u) and R(u) -= A(s, u)^H X(s) (GEMM2: the residual reads A once, as a
 * symmetric matrix-vector product does, not twice).  An output on R's rank updates R
 * directly; elsewhere it goes into a workspace tile that is sent to R's owner and
 * subtracted there, so that what crosses ranks is the products, not the n^2 entries of A.
 * The pairs {s, u} come in rounds of disjoint block rows (round_pair): a round's tasks
 * update different tiles of R and run at once.
 */
static int residual(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B, tila_desc_t *X,
                    tila_desc_t *R, tila_sequence_t *seq, tila_request_t *req)
{
    int rc = B ? tila_zlacpy_async(TILA_GENERAL, B, R, seq, req)
               : tila_zlaset_async(TILA_GENERAL, 0, 0, R, seq, req);
    if (rc) return rc;
    tila_workspace_t ws;
    tila_workspace_init(&ws, sizeof(tila_complex64_t));
    tila_task_t t = tila_task_init(seq, req, 0);
    int mt = A->nt, rounds = mt - 1 + (mt & 1);
    for (int j = 0; j < R->nt && !rc; j++) {
        int cols = tila_tile_cols(R, j);
        for (int i = 0; i < mt && !rc; i++) {
            tila_complex64_t alpha, beta;
            tila_task_on(&t, A, i, i);
            starpu_data_handle_t out = residual_out(&t, &ws, R, i, j, &alpha, &beta);
            rc = tila_insert_zhemm(&t, TILA_LEFT, uplo, tila_tile_rows(R, i), cols, alpha,
                                   tila_task_tile(&t, A, i, i), tila_task_tile(&t, X, i, j), beta,
                                   out);
            if (!rc) rc = residual_settle(&t, &beta, out, R, i, j);
        }
        for (int r = 0; r < rounds && !rc; r++)
            for (int q = 0, a, b; q < (mt + 1) / 2 && !rc; q++) {
                if (!round_pair(mt, r, q, &a, &b)) continue;
                /* The stored tile of the pair: A(s, u), s below u in the lower triangle. */
                int s = (uplo == TILA_LOWER) == (a > b) ? a : b, u = s == a ? b : a;
                tila_complex64_t alpha1, beta1, alpha2, beta2;
                tila_task_on(&t, A, s, u);
                starpu_data_handle_t out1 = residual_out(&t, &ws, R, s, j, &alpha1, &beta1);
                starpu_data_handle_t out2 = residual_out(&t, &ws, R, u, j, &alpha2, &beta2);
                rc = tila_insert_zgemm2(&t, tila_tile_rows(A, s), cols, tila_tile_cols(A, u),
                                        tila_task_tile(&t, A, s, u), alpha1,
                                        tila_task_tile(&t, X, u, j), beta1, out1, alpha2,
                                        tila_task_tile(&t, X, s, j), beta2, out2);
                if (!rc) rc = residual_settle(&t, &beta1, out1, R, s, j);
                if (!rc) rc = residual_settle(&t, &beta2, out2, R, u, j);
            }
    }
    tila_workspace_release(&ws);
    return rc;
}

/* The column maxima of D's tiles as colmax_submit takes them, in one task a block column
 * placed by t (one rank: D's tiles and the partials all on it). */
static int colmax_fused(tila_partials_t *P, tila_desc_t *D, tila_task_t *t)
{
    int mt = D->mt, rc = 0;
    int *firsts = malloc(sizeof *firsts * (size_t)mt), *counts = malloc(sizeof *counts * mt);
    starpu_data_handle_t *tiles = malloc(sizeof *tiles * (size_t)mt), h;
    if (!firsts || !counts || !tiles) rc = TILA_ERR_NOMEM;
    for (int j = 0; j < D->nt && !rc; j++) {
        tila_task_on(t, D, 0, j);
        for (int i = 0; i < mt; i++) {
            firsts[i] = D->col0[j];
            counts[i] = tila_tile_cols(D, j);
            tiles[i] = tila_task_tile(t, D, i, j);
        }
        rc = tila_partials_add_run(P, t->rank, mt, firsts, counts, &h);
        if (!rc && h) rc = tila_insert_zcolamax_tiles(t, mt, D->m, counts[0], tiles, h);
    }
    free(firsts), free(counts), free(tiles);
    return rc;
}

/* Submit, unless rc already says a failure, the largest entry of each column of each of
 * D's tiles (tila_core_zcolamax's measure) into a partial on the tile's rank, in seq: at
 * seq's wait, maxima[j] = the largest of column j over every rank.  Fused (one rank): a
 * task a block column, its tiles' partials one run.  Every rank books the same keys and
 * tags whatever failed (rc, memory).  @return rc, or the first failure (seq then fails on
 * this rank, and at its wait on every rank). */
static int colmax_submit(int rc, tila_desc_t *D, double *maxima, int fused,
                         tila_sequence_t *seq, tila_request_t *req)
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
    if (fused) rc = colmax_fused(P, D, &t);
    for (int j = 0; j < D->nt && !rc && !fused; j++)
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

/* A round's step: what it submits before the stopping test's maxima (NULL: nothing). */
typedef int (*zcposv_step_t)(zcposv_t *st, tila_sequence_t *seq, tila_request_t *conv,
                             tila_request_t *req, void *arg);

/* A classic refinement step: the correction M^-1 R, added to X; R = B - A X. */
static int classic_step(zcposv_t *st, tila_sequence_t *seq, tila_request_t *conv,
                        tila_request_t *req, void *arg)
{
    (void)arg;
    int rc = st->fused ? precond_fused(st, st->R, st->X, seq, conv)
                       : precond(st, st->R, st->R, seq, conv, req);
    if (!rc && !st->fused) rc = tila_zgeadd_async(1, st->R, 1, st->X, seq, req);
    if (!rc)
        rc = (st->fused ? residual_fused : residual)(st->uplo, st->A, st->B, st->X, st->R, seq,
                                                      req);
    return rc;
}

/*
 * One round, one wait: the step, then the stopping test on X and R, their column maxima
 * combined over the ranks in the allreduce of the round's wait.  *ok: every column has
 * max |R| <= max |X| cte; *nan: a NaN in X or R; *overflow: a vector the step converted to
 * single held an entry beyond single's range (the step's later tasks did nothing, nor the
 * test's); *q: the largest max |R| / max |X| of the columns (what a step must shrink).
 * Collective.
 */
static int round_trip(zcposv_t *st, zcposv_step_t step, void *arg, double cte, int *ok, int *nan,
                      int *overflow, double *q)
{
    int nrhs = st->X->n;
    tila_sync_t s;
    tila_request_t conv = TILA_REQUEST_INITIALIZER;
    int rc = tila_sync_begin(zcposv_func, &s);
    if (rc) return rc;
    tila_call_begin(s.seq, &s.req);
    tila_call_begin(s.seq, &conv);
    if (step) rc = step(st, s.seq, &conv, &s.req, arg);
    /* X's column maxima, then R's, agreed on at the wait: a failure of one rank (a refused
     * submission, memory) fails the status everywhere. */
    double *maxima = calloc(2 * (size_t)nrhs, sizeof *maxima);
    rc = colmax_submit(rc, st->X, maxima, st->fused, s.seq, &s.req);
    rc = colmax_submit(rc, st->R, maxima ? maxima + nrhs : NULL, st->fused, s.seq, &s.req);
    int status = tila_sync_end(&s, 0);
    *overflow = conv.status > 0;
    *ok = status >= 0;
    *nan = 0;
    *q = 0;
    for (int j = 0; status >= 0 && j < nrhs; j++) {
        double xn = maxima[j], rn = maxima[nrhs + j];
        if (!(rn <= xn * cte)) *ok = 0;
        if (isnan(rn) || isnan(xn)) *nan = 1;
        double qj = rn > 0 ? rn / xn : 0;
        if (!(qj <= *q)) *q = qj; /* NaN, and rn / 0, stay */
    }
    free(maxima);
    if (*overflow) return 0;
    return status < 0 ? status : 0;
}

/* LAPACK's stopping test's constant: max |R| <= max |X| ||A||_inf sqrt(n) eps. */
static double stop_cte(const zcposv_t *st)
{
    return st->anorm * (DBL_EPSILON / 2) * sqrt((double)st->A->n);
}

/*
 * Classic refinement from the first solution and residual: *iter the steps taken, or
 * LAPACK's codes.  LAPACK's test met, steps go on while each still halves the residual
 * (max |R| / max |X|), and the test is made again after each: the residual LAPACK's test
 * accepts can be hundreds of times dposv's, and the corrections past it bring the
 * backward error to dposv's (one with a single-precision factor, whose steps contract by
 * cond(A) 2^-24; several with TF32's or BF16's).  Should a step undo convergence,
 * refinement goes on as before; 30 steps in all at most (met at the 29th, no step follows).  A step
 * whose residual overflows single falls back even past the test: other ranks' parts of X
 * may have taken its correction.  A NaN in X or R falls back at once (-31).  In AUTO, a
 * step that leaves more than ZCPOSV_STALL of the residual (max |R| / max |X|) before the
 * test is met stalls (at that rate 30 steps may not reach double's accuracy): *iter = -1,
 * GMRES goes on from X and R (a factor of TF32, BF16 or
 * FP16 on a matrix its precision cannot resolve contracts by cond(A) u per step, or not
 * at all).
 */
static int refine(zcposv_t *st, int *iter)
{
    double cte = stop_cte(st), q, qprev = INFINITY;
    int ok, nan, overflow, rc = round_trip(st, NULL, NULL, cte, &ok, &nan, &overflow, &q);
    for (int it = 0, polished = 0;; it++) {
        st->classic = it;
        if (rc) return rc;
        if (overflow) {
            *iter = -2;
            return 0;
        }
        if (ok && (it >= ZCPOSV_ITERMAX - 1 || (polished && !(q < ZCPOSV_POLISH * qprev)))) {
            *iter = it;
            st->path = TILA_PATH_CLASSIC;
            return 0;
        }
        if (it == ZCPOSV_ITERMAX || nan) {
            *iter = -ZCPOSV_ITERMAX - 1;
            return 0;
        }
        if (st->refine == TILA_REFINE_AUTO && !ok && !(q <= ZCPOSV_STALL * qprev)) {
            *iter = -1;
            st->q = q < qprev ? q : qprev; /* what GMRES's first cycle must cut */
            return 0;
        }
        polished = ok;
        qprev = q;
        rc = round_trip(st, classic_step, NULL, cte, &ok, &nan, &overflow, &q);
    }
}

#if defined(COMPLEX)
static tila_complex64_t zconj(tila_complex64_t x) { return conj(x); }
#define ZCPOSV_PARTS 2 /* doubles in a tila_complex64_t */
#else
static tila_complex64_t zconj(tila_complex64_t x) { return x; }
#define ZCPOSV_PARTS 1
#endif

/* GMRES's workspace: the Krylov basis V (each a matrix like B), the Gram-Schmidt
 * coefficients' shares (gram), the Hessenberg matrix H (column-major, ZCPOSV_KRYLOV + 1
 * rows), its rotations and the right-hand side e. */
typedef struct zgmres_s {
    tila_desc_t *V[ZCPOSV_KRYLOV + 1];
    tila_complex64_t *g; /**< ZCPOSV_KRYLOV arrays of zgmres_rows(B) x nrhs (gram's) */
    tila_complex64_t H[(ZCPOSV_KRYLOV + 1) * ZCPOSV_KRYLOV], e[ZCPOSV_KRYLOV + 1];
    tila_complex64_t sn[ZCPOSV_KRYLOV];
    double cs[ZCPOSV_KRYLOV];
    tila_complex64_t y[ZCPOSV_KRYLOV]; /**< a step's coefficients (tila_zgmres_combine) */
    int j;                             /**< the vector the step makes: V[j + 1] from V[j] */
} zgmres_t;

/* The shares' block rows: one of the widest tile column's width a rank (each rank's array
 * holds every rank's rows, of which it writes its own: ZCPOSV_KRYLOV ranks min(nb, nrhs)
 * nrhs elements, for the layout of a LAPACK array). */
static size_t zgmres_rows(const tila_desc_t *B)
{
    return (size_t)tila_comm_size() * (size_t)tila_desc_nb(B);
}

/* Block row r of the shares is rank r's. */
static int gmres_row_rank(int m, int n, void *arg)
{
    (void)n, (void)arg;
    return m;
}

/*
 * h[i] = <V[i], W> = trace(V[i]^H W) for i < count, on every rank (the inner product of
 * the n * nrhs vectors that GMRES sees: the columns of X are solved as one block-diagonal
 * system, whose coefficients are scalars).  Each rank r adds its own tiles' shares
 * V[i](m, j)^H W(m, j), in the order of m, by GEMMs into tile (r, j) of S[i], a matrix of
 * one block row a rank over this rank's own array (gm->g, its own rows zeroed first, so
 * that a column without a tile of the rank's adds nothing), so that no tile travels and
 * the ranks share the GEMMs; each rank then takes the traces of its blocks, and an
 * allreduce adds the ranks' traces.  Collective.
 */
static int gram(zcposv_t *st, zgmres_t *gm, int count, tila_desc_t *W, tila_complex64_t *h)
{
    tila_desc_t *B = st->B;
    int nrhs = B->n, ranks = tila_comm_size(), me = tila_comm_rank(), nb = tila_desc_nb(B);
    size_t lds = zgmres_rows(B);
    int rc = 0, *rows = malloc(sizeof *rows * (size_t)ranks);
    int *cols = malloc(sizeof *cols * (size_t)B->nt);
    tila_desc_t *S[ZCPOSV_KRYLOV] = { 0 };
    tila_dist_t dist = { .rank_of = gmres_row_rank };
    int failed = !rows || !cols;
    if (ranks > 1 && tila_allreduce(&failed, 1, MPI_INT, MPI_MAX)) failed = 1;
    if (failed) {
        free(rows), free(cols);
        return TILA_ERR_NOMEM;
    }
    for (int r = 0; r < ranks; r++)
        rows[r] = nb;
    for (int j = 0; j < B->nt; j++)
        cols[j] = tila_tile_cols(B, j);
    for (size_t c = 0; c < (size_t)count * nrhs; c++)
        memset(gm->g + c * lds + (size_t)me * nb, 0, sizeof *gm->g * (size_t)nb);
    for (int i = 0; i < count && !rc; i++)
        rc = tila_desc_create_lapack_tiled(&S[i], TILA_COMPLEX64, gm->g + (size_t)i * lds * nrhs,
                                           (int)lds, ranks, rows, B->nt, cols, &dist);
    if (!rc) {
        tila_sync_t s;
        rc = tila_sync_begin(zcposv_func, &s);
        if (!rc) {
            tila_call_begin(s.seq, &s.req);
            tila_task_t t = tila_task_init(s.seq, &s.req, 0);
            for (int i = 0; i < count && !rc; i++)
                for (int j = 0; j < B->nt && !rc; j++)
                    for (int m = 0; m < B->mt && !rc; m++) {
                        tila_task_on(&t, W, m, j);
                        rc = tila_insert_zgemm(&t, TILA_CONJTRANS, TILA_NOTRANS, cols[j], cols[j],
                                               tila_tile_rows(B, m), 1,
                                               tila_task_tile(&t, gm->V[i], m, j),
                                               tila_task_tile(&t, W, m, j), 1,
                                               tila_task_tile(&t, S[i], t.rank, j));
                    }
            rc = tila_sync_end(&s, rc);
        }
    }
    for (int i = 0; i < count; i++)
        tila_desc_destroy(&S[i]);
    for (int i = 0; i < count; i++) {
        h[i] = 0;
        for (int j = 0, j0 = 0; !rc && j < B->nt; j0 += cols[j++])
            for (int d = 0; d < cols[j]; d++)
                h[i] += gm->g[(size_t)i * lds * nrhs + (size_t)(j0 + d) * lds +
                              (size_t)me * nb + d];
    }
    free(rows), free(cols);
    if (!rc && ranks > 1 && tila_allreduce(h, count * ZCPOSV_PARTS, MPI_DOUBLE, MPI_SUM))
        rc = TILA_ERR_MPI;
    return rc;
}

/* W -= sum h[i] V[i] over i < count, then *norm = ||W||_F.  Collective. */
static int orthogonalize(zgmres_t *gm, int count, const tila_complex64_t *h, tila_desc_t *W,
                         double *norm)
{
    tila_sync_t s;
    int rc = tila_sync_begin(zcposv_func, &s);
    if (rc) return rc;
    for (int i = 0; i < count && !rc; i++)
        rc = tila_zgeadd_async(-h[i], gm->V[i], 1, W, s.seq, &s.req);
    if (!rc) rc = tila_zlange_async(TILA_NORM_FRO, W, norm, s.seq, &s.req);
    return tila_sync_end(&s, rc);
}

/* The Arnoldi step that makes V[j + 1]: W = -A M^-1 V[j] (R holds M^-1 V[j]), where V[j]
 * is first scaled to norm 1 (alpha: 1 / its norm; 1 for V[0], made so). */
struct arnoldi_arg {
    zgmres_t *gm;
    tila_complex64_t alpha;
    double norm; /**< ||W||_F, at the round's wait */
};

static int arnoldi_step(zcposv_t *st, tila_sequence_t *seq, tila_request_t *conv,
                        tila_request_t *req, void *arg)
{
    struct arnoldi_arg *a = arg;
    zgmres_t *gm = a->gm;
    int rc = a->alpha != 1 ? scale(gm->V[gm->j], a->alpha, seq, req) : 0;
    if (!rc) rc = precond(st, gm->V[gm->j], st->R, seq, conv, req);
    if (!rc) rc = residual(st->uplo, st->A, NULL, st->R, gm->V[gm->j + 1], seq, req);
    if (!rc) rc = tila_zlange_async(TILA_NORM_FRO, gm->V[gm->j + 1], &a->norm, seq, req);
    return rc;
}

/* The cycle's end: R = sum y[i] V[i], X += M^-1 R, R = B - A X. */
static int gmres_update(zcposv_t *st, tila_sequence_t *seq, tila_request_t *conv,
                        tila_request_t *req, void *arg)
{
    zgmres_t *gm = arg;
    int rc = tila_zlaset_async(TILA_GENERAL, 0, 0, st->R, seq, req);
    for (int i = 0; i < gm->j && !rc; i++)
        rc = tila_zgeadd_async(gm->y[i], gm->V[i], 1, st->R, seq, req);
    if (!rc) rc = precond(st, st->R, st->R, seq, conv, req);
    if (!rc) rc = tila_zgeadd_async(1, st->R, 1, st->X, seq, req);
    if (!rc) rc = residual(st->uplo, st->A, st->B, st->X, st->R, seq, req);
    return rc;
}

/* V[0] = R / (-beta): GMRES solves (-A M^-1) u = -R, whose operator is what residual()
 * gives with no B. */
static int gmres_start(zcposv_t *st, zgmres_t *gm, double beta)
{
    tila_sync_t s;
    int rc = tila_sync_begin(zcposv_func, &s);
    if (rc) return rc;
    rc = tila_zlaset_async(TILA_GENERAL, 0, 0, gm->V[0], s.seq, &s.req);
    if (!rc) rc = tila_zgeadd_async(-1 / beta, st->R, 0, gm->V[0], s.seq, &s.req);
    return tila_sync_end(&s, rc);
}

/*
 * One GMRES cycle on A d = R, right-preconditioned by the low-precision factor
 * (A M^-1 u = R, d = M^-1 u), everything but the preconditioner in double: Arnoldi with
 * classical Gram-Schmidt, twice where the first pass cancelled more than half of the new
 * vector (two or three collective rounds and a gather a vector), Givens rotations on the
 * Hessenberg matrix, at most ZCPOSV_KRYLOV vectors, until the residual's estimate falls
 * below ZCPOSV_GMRES_TOL of R's norm; then X += d and R = B - A X, with the stopping test
 * (round_trip).  *its: the vectors made.  Collective.
 */
static int gmres_cycle(zcposv_t *st, zgmres_t *gm, double cte, int *ok, int *nan, int *overflow,
                       double *q, int *its)
{
    const int M = ZCPOSV_KRYLOV, L = ZCPOSV_KRYLOV + 1;
    double beta = -1;
    *its = 0;
    *ok = *nan = *overflow = 0;
    int rc = tila_zlange(TILA_NORM_FRO, st->R, &beta);
    if (rc) return rc;
    if (!(beta > 0) || !isfinite(beta)) { /* 0: nothing to correct; NaN: fall back */
        *nan = !(beta == 0);
        return round_trip(st, NULL, NULL, cte, ok, nan, overflow, q);
    }
    if ((rc = gmres_start(st, gm, beta))) return rc;
    memset(gm->H, 0, sizeof gm->H);
    memset(gm->e, 0, sizeof gm->e);
    gm->e[0] = beta;
    tila_complex64_t alpha = 1, h[ZCPOSV_KRYLOV + 1], h2[ZCPOSV_KRYLOV + 1];
    int k = 0;
    for (int j = 0; j < M; j++) {
        gm->j = j;
        /* V[j + 1] = -A M^-1 V[j] and its norm, then orthogonalized against V[0..j]. */
        struct arnoldi_arg arg = { .gm = gm, .alpha = alpha };
        tila_sync_t s;
        tila_request_t conv = TILA_REQUEST_INITIALIZER;
        if ((rc = tila_sync_begin(zcposv_func, &s))) return rc;
        tila_call_begin(s.seq, &s.req);
        tila_call_begin(s.seq, &conv);
        rc = tila_sync_end(&s, arnoldi_step(st, s.seq, &conv, &s.req, &arg));
        if (conv.status > 0) {
            *overflow = 1;
            return 0;
        }
        if (rc) return rc;
        /* The second pass only where the first cancelled more than half of W's norm
         * ("twice is enough": what survives it is orthogonal to working accuracy). */
        double norm = 0;
        if ((rc = gram(st, gm, j + 1, gm->V[j + 1], h))) return rc;
        if ((rc = orthogonalize(gm, j + 1, h, gm->V[j + 1], &norm))) return rc;
        for (int i = 0; i <= j; i++)
            h2[i] = 0;
        if (!(norm > 0.5 * arg.norm)) {
            if ((rc = gram(st, gm, j + 1, gm->V[j + 1], h2))) return rc;
            if ((rc = orthogonalize(gm, j + 1, h2, gm->V[j + 1], &norm))) return rc;
        }
        tila_complex64_t *col = gm->H + (size_t)j * L;
        for (int i = 0; i <= j; i++)
            col[i] = h[i] + h2[i];
        col[j + 1] = norm;
        /* The earlier rotations, then the one that zeroes H(j + 1, j). */
        for (int i = 0; i < j; i++) {
            tila_complex64_t t = gm->cs[i] * col[i] + gm->sn[i] * col[i + 1];
            col[i + 1] = -zconj(gm->sn[i]) * col[i] + gm->cs[i] * col[i + 1];
            col[i] = t;
        }
        double aa = cabs(col[j]), r = hypot(aa, norm);
        if (r == 0 || !isfinite(r)) {
            *nan = !isfinite(r);
            break;
        }
        gm->cs[j] = aa / r;
        gm->sn[j] = aa > 0 ? col[j] / aa * (norm / r) : 1;
        col[j] = aa > 0 ? col[j] / aa * r : r;
        col[j + 1] = 0;
        gm->e[j + 1] = -zconj(gm->sn[j]) * gm->e[j];
        gm->e[j] = gm->cs[j] * gm->e[j];
        k = j + 1;
        alpha = 1 / norm;
        if (norm == 0 || cabs(gm->e[j + 1]) <= ZCPOSV_GMRES_TOL * beta) break;
    }
    *its = k;
    if (*nan) return 0;
    /* y = H(0:k, 0:k)^-1 e(0:k), upper triangular, the same on every rank. */
    for (int i = k - 1; i >= 0; i--) {
        tila_complex64_t v = gm->e[i];
        for (int l = i + 1; l < k; l++)
            v -= gm->H[(size_t)l * L + i] * gm->y[l];
        gm->y[i] = v / gm->H[(size_t)i * L + i];
    }
    gm->j = k;
    return round_trip(st, gmres_update, gm, cte, ok, nan, overflow, q);
}

/*
 * GMRES refinement (GMRES-IR) from X and R = B - A X: cycles of gmres_cycle, each ending
 * in the true residual and LAPACK's stopping test, which met, cycles go on while each
 * halves the residual (as refine()'s steps past the test); at most ZCPOSV_CYCLES cycles,
 * and none after one that stalls as refine()'s steps do (the first: against the best
 * residual classic refinement reached).  *iter: as refine()'s, a cycle counting as a
 * step.  Collective.
 */
static int gmres(zcposv_t *st, int *iter)
{
    int nrhs = st->B->n, rc = 0;
    zgmres_t *gm = calloc(1, sizeof *gm);
    if (gm) gm->g = malloc(sizeof *gm->g * ZCPOSV_KRYLOV * zgmres_rows(st->B) * (size_t)nrhs);
    int failed = !gm || !gm->g;
    if (tila_comm_size() > 1 && tila_allreduce(&failed, 1, MPI_INT, MPI_MAX)) failed = 1;
    /* The basis, collectively on every rank, in the same order. */
    for (int i = 0; i <= ZCPOSV_KRYLOV && !failed && !rc; i++)
        rc = tila_desc_create_twin(&gm->V[i], st->B, TILA_COMPLEX64);
    if (failed) rc = TILA_ERR_NOMEM;
    double cte = stop_cte(st), q, qprev = st->q;
    int ok = 0, nan = 0, overflow = 0, polished = 0;
    /* A test met at the last cycle gets one more, to polish. */
    for (int c = 0; !rc && (c < ZCPOSV_CYCLES || (c == ZCPOSV_CYCLES && ok)); c++) {
        int its;
        rc = gmres_cycle(st, gm, cte, &ok, &nan, &overflow, &q, &its);
        st->gmres += its;
        st->cycles = c + 1;
        if (rc || overflow || nan) break;
        if (ok && polished && !(q < ZCPOSV_POLISH * qprev)) break;
        /* A cycle that leaves more than ZCPOSV_STALL of the residual stalls too: the
         * double solve is then the cheaper way. */
        if (!ok && !(q <= ZCPOSV_STALL * qprev)) break;
        polished = ok;
        qprev = q;
    }
    for (int i = 0; gm && i <= ZCPOSV_KRYLOV; i++)
        tila_desc_destroy(&gm->V[i]);
    if (gm) free(gm->g);
    free(gm);
    if (rc) return rc;
    if (overflow)
        *iter = -2;
    else if (ok && !nan) {
        *iter = st->classic + st->cycles;
        st->path = TILA_PATH_GMRES;
    }
    else
        *iter = -ZCPOSV_ITERMAX - 1;
    return 0;
}

/* Release the workspace and the state (local; the continuation has released the matrices). */
static void zcposv_free(zcposv_t *st)
{
    tila_sequence_destroy(&st->norms);
    tila_sequence_destroy(&st->inner);
    tila_desc_destroy(&st->SA);
    tila_desc_destroy(&st->SX);
    tila_desc_destroy(&st->R);
    tila_desc_destroy(&st->X);
    free(st);
}

/* The factorization's updates in a lower precision's arithmetic (tila_cpotrf_submit). */
struct lp_updates {
    tila_factor_t factor;
    starpu_data_handle_t work; /**< the CPU kernels' scratch */
};

static int lp_herk(const tila_task_t *t, tila_uplo_t uplo, tila_trans_t trans, int n, int k,
                   float alpha, starpu_data_handle_t A, float beta, starpu_data_handle_t C,
                   const void *ctx)
{
    const struct lp_updates *lp = ctx;
    return tila_insert_cherk_lp(t, lp->factor, uplo, trans, n, k, alpha, A, beta, C, lp->work);
}

static int lp_gemm(const tila_task_t *t, tila_trans_t transa, tila_trans_t transb, int m, int n,
                   int k, tila_complex32_t alpha, starpu_data_handle_t A, starpu_data_handle_t B,
                   tila_complex32_t beta, starpu_data_handle_t C, const void *ctx)
{
    const struct lp_updates *lp = ctx;
    return tila_insert_cgemm_lp(t, lp->factor, transa, transb, m, n, k, alpha, A, B, beta, C,
                                lp->work);
}

/* SA's Cholesky factorization in the call's arithmetic: single precision's own
 * (tila_cpotrf_async), or its tasks with the updates in TF32, BF16 or FP16. */
static int factor_potrf(zcposv_t *st, tila_sequence_t *seq, tila_request_t *req)
{
    if (st->factor == TILA_FACTOR_FP32) return tila_cpotrf_async(st->uplo, st->SA, seq, req);
    struct lp_updates lp = { .factor = st->factor };
    tila_cpotrf_updates_t up = { .herk = lp_herk, .gemm = lp_gemm, .ctx = &lp };
    tila_scratch_register(&lp.work, tila_cgemm_lp_scratch(st->SA->mb, st->SA->nb),
                          sizeof(tila_complex32_t));
    tila_call_begin(seq, req);
    int rc = tila_cpotrf_submit(st->uplo, st->SA, &up, seq, req);
    tila_scratch_release(&lp.work);
    return rc;
}

/*
 * Submit the single-precision phase in seq: A's triangle in single (conv; FP16: times mu),
 * its factorization in the chosen arithmetic (potrf), X = mu (L L^H)^-1 B and
 * R = B - A X (work).
 */
static int factor_submit(zcposv_t *st, tila_desc_t *E, tila_sequence_t *seq,
                         tila_request_t *conv, tila_request_t *potrf, tila_request_t *work)
{
    tila_uplo_t uplo = st->uplo;
    int rc = to_single(uplo, st->A, st->SA, seq, conv);
    if (!rc && st->mu != 1) rc = scale_single(uplo, st->SA, (float)st->mu, seq, conv);
    if (!rc && E) rc = shift_single(st->SA, E, (float)(st->mu * st->shift), seq, conv);
    if (!rc) rc = factor_potrf(st, seq, potrf);
    if (!rc && st->fused) {
        rc = tila_zlacpy_async(TILA_GENERAL, st->B, st->X, seq, work);
        if (!rc) rc = precond_fused(st, st->X, NULL, seq, conv);
    }
    else if (!rc) {
        rc = to_single(TILA_GENERAL, st->B, st->SX, seq, conv);
        if (!rc) rc = tila_cpotrs_async(uplo, st->SA, st->SX, seq, work);
        if (!rc) rc = to_double(st->SX, st->X, seq, work);
        if (!rc && st->mu != 1) rc = scale(st->X, st->mu, seq, work);
    }
    if (!rc)
        rc = (st->fused ? residual_fused : residual)(uplo, st->A, st->B, st->X, st->R, seq,
                                                      work);
    return rc;
}

/*
 * FP16's scaling: SA holds mu A with mu a power of two that brings A's largest entry
 * (its diagonal's, A being definite) to [2^23, 2^24): the factor's entries, the GEMMs'
 * inputs, are then at most 2^12 (|L(i,j)| <= sqrt(A(i,i))), far inside half's 65504, and
 * the smallest kept are 2^-24 of half's subnormals: 2^-36 of the largest.  It is undone in
 * every solve (precond: times mu), where the residuals stay unscaled in double.
 */
static double fp16_scale(double amax)
{
    int e;
    if (!(amax > 0) || !isfinite(amax)) return 1;
    frexp(amax, &e); /* amax in [2^(e-1), 2^e) */
    return ldexp(1, 24 - e);
}

/* The single-precision phase as one round of the continuation (FP16: after ||A||_max; a
 * retry with a shift).  *code: -2 (conversion), -3 (factorization) or 0.  Collective. */
static int factor_round(zcposv_t *st, int *code)
{
    tila_sync_t s;
    tila_request_t conv = TILA_REQUEST_INITIALIZER, potrf = TILA_REQUEST_INITIALIZER;
    tila_desc_t *E = NULL;
    int rc = st->shift > 0 ? tila_desc_create_twin(&E, st->A, TILA_COMPLEX32) : 0;
    if (!rc) rc = tila_sync_begin(zcposv_func, &s);
    if (rc) {
        tila_desc_destroy(&E);
        return rc;
    }
    tila_call_begin(s.seq, &s.req);
    tila_call_begin(s.seq, &conv);
    tila_call_begin(s.seq, &potrf);
    int status = tila_sync_end(&s, factor_submit(st, E, s.seq, &conv, &potrf, &s.req));
    tila_desc_destroy(&E);
    *code = conv.status > 0 ? -2 : potrf.status > 0 ? -3 : 0;
    return status < 0 ? status : 0;
}

/* The unit roundoff of the products' inputs in a lower arithmetic. */
static double factor_unit(tila_factor_t factor)
{
    return factor == TILA_FACTOR_BF16 ? 0x1p-8 : factor == TILA_FACTOR_FP32 ? 0x1p-24 : 0x1p-11;
}

/*
 * The factorization in a lower arithmetic, retried where it broke down: rounding the
 * updates' inputs to 8 or 11 bits perturbs the Schur complements by about u ||A||, which
 * takes a matrix of condition beyond about 1 / u out of the definite ones.  As Higham and
 * Pranesh's low-precision Cholesky does, the retry factors A + s I with s = 4 u ||A||_max
 * (A's largest diagonal entry), then 64 u ||A||_max: a preconditioner still, whose
 * refinement GMRES carries where classic refinement cannot (the shift alone contracts
 * classic steps by about s ||A^-1||).  *code as factor_round's for the last try.
 */
static int factor_retry(zcposv_t *st, int *code)
{
    int rc = 0;
    for (int r = 0; !rc && *code == -3 && st->factor != TILA_FACTOR_FP32 && r < 2; r++) {
        st->shift = (r ? 64 : 4) * factor_unit(st->factor) * st->amax;
        rc = factor_round(st, code);
    }
    return rc;
}

/* At the caller's wait: the stopping test, refinement or fallback; *iter and the status. */
static int zcposv_finish(tila_continuation_t *then, int status, int run)
{
    zcposv_t *st = (zcposv_t *)then;
    st->A->held = st->B->held = st->Xout->held = NULL;
    if (!run) { /* destroyed without a wait: release only */
        zcposv_free(st);
        return 0;
    }
    if (status) { /* the caller's sequence failed: inner's tasks do nothing (no collective) */
        zcposv_free(st);
        return 0;
    }
    /* Every rank is here, in the same order: inner's wait is collective too. */
    int nstatus = tila_sequence_wait(st->norms);
    int istatus = tila_sequence_wait(st->inner), rc = 0, iter = 0;
    if (nstatus) istatus = nstatus < 0 ? nstatus : TILA_ERR_STARPU;
    if (istatus < 0)
        rc = istatus;
    else if (st->conv.status > 0)
        iter = -2;
    else {
        iter = st->potrf.status > 0 ? -3 : 0;
        if (st->factor == TILA_FACTOR_FP16) {
            st->mu = fp16_scale(st->amax);
            rc = factor_round(st, &iter);
        }
        if (!rc) rc = factor_retry(st, &iter);
    }
    if (!rc && !iter && st->refine != TILA_REFINE_GMRES) rc = refine(st, &iter);
    if (!rc && (st->refine == TILA_REFINE_GMRES ? !iter : iter == -1)) rc = gmres(st, &iter);
    if (!rc && iter < 0) {
        /* X = B, then dposv: A holds the double factor, as LAPACK's. */
        st->path = TILA_PATH_FALLBACK;
        rc = tila_zlacpy(TILA_GENERAL, st->B, st->X);
        if (!rc) rc = tila_zposv(st->uplo, st->A, st->X);
        if (rc > 0) {
            tila_sequence_fail(st->seq, st->req, rc);
            rc = 0;
        }
    }
    /* the caller's X: the solution, or with the double factorization's failure (k > 0,
     * already in the status) what dposv left, as LAPACK's */
    if (rc >= 0) rc = tila_zlacpy(TILA_GENERAL, st->X, st->Xout);
    if (rc < 0) tila_sequence_fail(st->seq, st->req, rc);
    *st->iter = iter;
    if (st->mx)
        *st->mx = (tila_mixed_t){ .factor = st->mx->factor,
                                  .refine = st->mx->refine,
                                  .used = st->factor,
                                  .path = rc < 0 ? TILA_PATH_NONE : st->path,
                                  .classic = st->classic,
                                  .gmres = st->gmres,
                                  .cycles = st->cycles,
                                  .shift = st->amax > 0 ? st->shift / st->amax : 0 };
    zcposv_free(st);
    return rc;
}

/*
 * The factorization's arithmetic: `factor`, or for TILA_FACTOR_ENV rank 0's
 * TILA_POSV_FACTOR (fp32 where unset or unknown, with a message), agreed by every rank so
 * that all submit the same tasks (one allreduce; none in a simulation, whose ranks share
 * one environment).  Collective.
 */
static tila_factor_t factor_agreed(tila_factor_t factor)
{
    if (factor != TILA_FACTOR_ENV) return factor;
    static const char *const names[] = { "fp32", "tf32", "bf16", "fp16" };
    int choice = TILA_FACTOR_FP32;
#if !defined(STARPU_SIMGRID)
    if (tila_comm_rank() == 0)
#endif
    {
        const char *v = getenv("TILA_POSV_FACTOR");
        for (int i = 0; v && *v && i < 4; i++)
            if (!strcmp(v, names[i])) choice = TILA_FACTOR_FP32 + i;
        if (v && *v && choice == TILA_FACTOR_FP32 && strcmp(v, "fp32"))
            tila_error(zcposv_func, "TILA_POSV_FACTOR=%s is none of fp32, tf32, bf16 and fp16: "
                                    "fp32 taken", v);
    }
#if !defined(STARPU_SIMGRID)
    if (tila_comm_size() > 1 && tila_allreduce(&choice, 1, MPI_INT, MPI_MAX))
        choice = TILA_FACTOR_FP32;
#endif
    return (tila_factor_t)choice;
}

/* tila_zcposv_x_async, its sequence argument number seqarg (tila_zcposv_async has no mx). */
static int zcposv_submit(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B, tila_desc_t *X,
                         int *iter, tila_mixed_t *mx, tila_sequence_t *seq, tila_request_t *req,
                         int seqarg)
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
    if (mx && (unsigned)mx->factor > TILA_FACTOR_FP16) {
        tila_error(func,
                   "argument 6 (mx): mx->factor = %d is none of TILA_FACTOR_ENV, TILA_FACTOR_FP32, "
                   "TILA_FACTOR_TF32, TILA_FACTOR_BF16 and TILA_FACTOR_FP16",
                   (int)mx->factor);
        return -6;
    }
    if (mx && (unsigned)mx->refine > TILA_REFINE_GMRES) {
        tila_error(func,
                   "argument 6 (mx): mx->refine = %d is none of TILA_REFINE_AUTO, "
                   "TILA_REFINE_CLASSIC and TILA_REFINE_GMRES",
                   (int)mx->refine);
        return -6;
    }
    if ((rc = tila_check_sequence(func, seqarg, seq, req))) return rc;
    tila_call_begin(seq, req);
    *iter = 0;
    if (mx)
        *mx = (tila_mixed_t){ .factor = mx->factor, .refine = mx->refine, .used = mx->factor };
    if (A->n == 0 || B->n == 0) return 0;

    /* Collective: every rank creates the four (taking their tags), in this order, before
     * anything that may fail on one rank only; then all agree whether everything exists,
     * so that no rank goes on to the continuation's collectives alone. */
    tila_factor_t factor = factor_agreed(mx ? mx->factor : TILA_FACTOR_ENV);
    tila_desc_t *SA = NULL, *SX = NULL, *R = NULL, *XW = NULL;
    int r1 = tila_desc_create_twin(&SA, A, TILA_COMPLEX32);
    int r2 = tila_desc_create_twin(&SX, B, TILA_COMPLEX32);
    int r3 = tila_desc_create_twin(&R, B, TILA_COMPLEX64);
    int r4 = tila_desc_create_twin(&XW, X, TILA_COMPLEX64);
    zcposv_t *st = calloc(1, sizeof *st);
    rc = r1 ? r1 : r2 ? r2 : r3 ? r3 : r4 ? r4 : st ? 0 : TILA_ERR_NOMEM;
    tila_sequence_t *inner = NULL, *norms = NULL;
    if (!rc) rc = tila_sequence_create_child(&inner, seq);
    if (!rc) rc = tila_sequence_create_child(&norms, seq);
    int failed = rc != 0;
    if (tila_comm_size() > 1 && tila_allreduce(&failed, 1, MPI_INT, MPI_MAX)) failed = 1;
    if (failed) {
        tila_sequence_destroy(&norms);
        tila_sequence_destroy(&inner);
        tila_desc_destroy(&SA);
        tila_desc_destroy(&SX);
        tila_desc_destroy(&R);
        tila_desc_destroy(&XW);
        free(st);
        return rc ? rc : TILA_ERR_NOMEM;
    }
    *st = (zcposv_t){ .uplo = uplo,
                      .A = A,
                      .B = B,
                      .Xout = X,
                      .X = XW,
                      .iter = iter,
                      .mx = mx,
                      .factor = factor,
                      /* tila_zcposv's: LAPACK's refinement for single precision's factor */
                      .refine = mx                           ? mx->refine
                                : factor == TILA_FACTOR_FP32 ? TILA_REFINE_CLASSIC
                                                             : TILA_REFINE_AUTO,
                      .fused = fused_chosen(),
                      .mu = 1,
                      .q = INFINITY,
                      .seq = seq,
                      .req = req,
                      .conv = TILA_REQUEST_INITIALIZER,
                      .potrf = TILA_REQUEST_INITIALIZER,
                      .work = TILA_REQUEST_INITIALIZER,
                      .SA = SA,
                      .SX = SX,
                      .R = R,
                      .inner = inner,
                      .norms = norms,
                      .nreq = TILA_REQUEST_INITIALIZER };
    /* The inner requests join inner's wait. */
    tila_call_begin(st->inner, &st->conv);
    tila_call_begin(st->inner, &st->potrf);
    tila_call_begin(st->inner, &st->work);
    tila_sequence_t *in = st->inner;
    /* The norms in a sequence of their own, whose values do not depend on the
     * factorization's success: the lower arithmetics' retries need ||A||_max, and FP16's
     * scaling too, so that its single phase runs in the continuation, after it. */
    rc = tila_zlanhe_async(TILA_NORM_INF, uplo, A, &st->anorm, st->norms, &st->nreq);
    if (!rc && factor != TILA_FACTOR_FP32)
        rc = tila_zlanhe_async(TILA_NORM_MAX, uplo, A, &st->amax, st->norms, &st->nreq);
    if (!rc && factor != TILA_FACTOR_FP16)
        rc = factor_submit(st, NULL, in, &st->conv, &st->potrf, &st->work);
    /* A refused submission fails the caller's sequence; the continuation then only cleans up. */
    if (rc) tila_sequence_fail(seq, req, rc);
    A->held = B->held = X->held = func;
    st->then.fn = zcposv_finish;
    tila_sequence_then(seq, &st->then);
    return rc;
}

int tila_zcposv_x_async(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B, tila_desc_t *X, int *iter,
                        tila_mixed_t *mx, tila_sequence_t *seq, tila_request_t *req)
{
    return zcposv_submit(uplo, A, B, X, iter, mx, seq, req, 7);
}

int tila_zcposv_async(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B, tila_desc_t *X, int *iter,
                      tila_sequence_t *seq, tila_request_t *req)
{
    return zcposv_submit(uplo, A, B, X, iter, NULL, seq, req, 6);
}

int tila_zcposv_x(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B, tila_desc_t *X, int *iter,
                  tila_mixed_t *mx)
{
    tila_sync_t s;
    int rc = tila_sync_begin(zcposv_func, &s);
    return rc ? rc
              : tila_sync_end(&s, tila_zcposv_x_async(uplo, A, B, X, iter, mx, s.seq, &s.req));
}

int tila_zcposv(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B, tila_desc_t *X, int *iter)
{
    return tila_zcposv_x(uplo, A, B, X, iter, NULL);
}
