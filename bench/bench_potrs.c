/**
 * @file bench_potrs.c
 * @brief Benchmark routines: solve A X = B with A symmetric positive definite (double,
 * lower), potrs (A already factored, outside the timing), posv (factor and solve) and
 * posv_mixed (dsposv: factor in single, refine in double; --factor tf32|bf16|fp16: Tila's
 * factorization's updates in that arithmetic, tila_dsposv_x; --double 1: dposv instead, the
 * peer to beat; ScaLAPACK has no mixed solve, so its pdposv).
 *
 * B has --nrhs columns; --cond C gives A that 2-norm condition number (run.c's spd_cond),
 * else Tila's diagonally dominant generator.  Check: ||B - A X||_F / (||A||_F ||X||_F n
 * eps) on rank 0's copies of the input and of the solution, or (--check device) by Tila's
 * calls on A and B generated again.  posv_mixed's flop count is
 * dposv's, so that its rate compares with dposv's as the ratio of their times.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_scalapack.h"

void pdpotrs_(const char *uplo, const int *n, const int *nrhs, const double *a, const int *ia,
              const int *ja, const int *desca, double *b, const int *ib, const int *jb,
              const int *descb, int *info);
void pdposv_(const char *uplo, const int *n, const int *nrhs, double *a, const int *ia,
             const int *ja, const int *desca, double *b, const int *ib, const int *jb,
             const int *descb, int *info);

static void setup(bench_cfg_t *c)
{
    bench_add_op(c, c->n, c->n, BENCH_SPD);
    bench_add_op(c, c->n, c->nrhs, BENCH_RANDOM);
}

/* potrs's untimed part: the factorization, by the implementation being timed. */
static int factor(bench_cfg_t *c)
{
    bench_op_t *A = &c->op[0];
    if (c->impl == BENCH_TILA) return tila_dpotrf(TILA_LOWER, A->desc);
    if (c->impl == BENCH_LAPACKE) return LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', c->n, A->full, c->n);
    int one = 1, info;
    pdpotrf_("L", &c->n, A->local, &one, &one, A->desc_sl, &info);
    return info;
}

static int potrs(bench_cfg_t *c)
{
    bench_op_t *A = &c->op[0], *B = &c->op[1];
    if (c->impl == BENCH_TILA) return tila_dpotrs(TILA_LOWER, A->desc, B->desc);
    if (c->impl == BENCH_LAPACKE)
        return LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', c->n, c->nrhs, A->full, c->n, B->full, c->n);
    int one = 1, info;
    pdpotrs_("L", &c->n, &c->nrhs, A->local, &one, &one, A->desc_sl, B->local, &one, &one,
             B->desc_sl, &info);
    return info;
}

static int posv(bench_cfg_t *c)
{
    bench_op_t *A = &c->op[0], *B = &c->op[1];
    if (c->impl == BENCH_TILA) return tila_dposv(TILA_LOWER, A->desc, B->desc);
    if (c->impl == BENCH_LAPACKE)
        return LAPACKE_dposv(LAPACK_COL_MAJOR, 'L', c->n, c->nrhs, A->full, c->n, B->full, c->n);
    int one = 1, info;
    pdposv_("L", &c->n, &c->nrhs, A->local, &one, &one, A->desc_sl, B->local, &one, &one,
            B->desc_sl, &info);
    return info;
}

/* posv_mixed: A, B, and X (the mixed solves' solution). */
static void setup_mixed(bench_cfg_t *c)
{
    bench_add_op(c, c->n, c->n, c->cond > 0 ? BENCH_SPD_COND : BENCH_SPD);
    c->op[0].cond = c->cond;
    bench_add_op(c, c->n, c->nrhs, BENCH_RANDOM);
    bench_add_op(c, c->n, c->nrhs, BENCH_ZERO);
}

/* Whether the solution is in B (posv, pdposv, --double) rather than X. */
static int in_b(const bench_cfg_t *c)
{
    return c->nops < 3 || c->dbl || c->impl == BENCH_SCALAPACK;
}

static int posv_mixed(bench_cfg_t *c)
{
    bench_op_t *A = &c->op[0], *B = &c->op[1], *X = &c->op[2];
    if (in_b(c)) return posv(c);
    if (c->impl == BENCH_TILA) {
        /* No --factor: TILA_FACTOR_ENV (0), tila_dsposv's own choice. */
        tila_mixed_t mx = { .factor = (tila_factor_t)c->factor };
        static const char *const paths[] = { "none", "classic", "gmres", "fallback" };
        int rc = tila_dsposv_x(TILA_LOWER, A->desc, B->desc, X->desc, &c->iter, &mx);
        snprintf(c->mixed, sizeof c->mixed, " path=%s classic=%d gmres=%d cycles=%d",
                 mx.path >= 0 && mx.path <= 3 ? paths[mx.path] : "?", mx.classic, mx.gmres,
                 mx.cycles);
        return rc;
    }
    return LAPACKE_dsposv(LAPACK_COL_MAJOR, 'L', c->n, c->nrhs, A->full, c->n, B->full, c->n,
                          X->full, c->n, &c->iter);
}

static double check(bench_cfg_t *c)
{
    int n = c->n, nrhs = c->nrhs;
    const double *a = c->op[0].in, *x = in_b(c) ? c->op[1].full : c->op[2].full;
    double *r = malloc(sizeof(double) * (size_t)n * nrhs);
    memcpy(r, c->op[1].in, sizeof(double) * (size_t)n * nrhs);
    cblas_dsymm(CblasColMajor, CblasLeft, CblasLower, n, nrhs, -1.0, a, n, x, n, 1.0, r, n);
    double res = LAPACKE_dlange(LAPACK_COL_MAJOR, 'F', n, nrhs, r, n) /
                 (LAPACKE_dlansy(LAPACK_COL_MAJOR, 'F', 'L', n, a, n) *
                  LAPACKE_dlange(LAPACK_COL_MAJOR, 'F', n, nrhs, x, n) * n * DBL_EPSILON);
    free(r);
    return res;
}

static double check_device(bench_cfg_t *c)
{
    int n = c->n, nrhs = c->nrhs;
    tila_desc_t *A = bench_like(c, n, n), *R = bench_like(c, n, nrhs);
    tila_desc_t *X = in_b(c) ? c->op[1].desc : c->op[2].desc;
    double res = -1;
    if (A && R) {
        bench_fill_as(c, 0, A);
        bench_fill_as(c, 1, R);
        if (!tila_dgemm(TILA_NOTRANS, TILA_NOTRANS, -1.0, A, X, 1.0, R))
            res = bench_fro(R) / (bench_fro(A) * bench_fro(X) * n * DBL_EPSILON);
    }
    tila_desc_destroy(&R);
    tila_desc_destroy(&A);
    return res;
}

static double solve_flops(const bench_cfg_t *c) { return 2.0 * c->n * c->n * c->nrhs; }

static double posv_flops(const bench_cfg_t *c)
{
    return (double)c->n * c->n * c->n / 3.0 + solve_flops(c);
}

const bench_routine_t bench_potrs = { .name = "potrs",
                                      .setup = setup,
                                      .prepare = factor,
                                      .run = potrs,
                                      .check = check,
                                      .amount = solve_flops,
                                      .unit = "GFLOP/s",
                                      .check_device = check_device };
const bench_routine_t bench_posv = { .name = "posv",
                                     .setup = setup,
                                     .prepare = NULL,
                                     .run = posv,
                                     .check = check,
                                     .amount = posv_flops,
                                     .unit = "GFLOP/s",
                                     .check_device = check_device };
const bench_routine_t bench_posv_mixed = { .name = "posv_mixed",
                                           .setup = setup_mixed,
                                           .prepare = NULL,
                                           .run = posv_mixed,
                                           .check = check,
                                           .amount = posv_flops,
                                           .unit = "GFLOP/s",
                                           .check_device = check_device };
