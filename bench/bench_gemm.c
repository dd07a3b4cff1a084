/**
 * @file bench_gemm.c
 * @brief Benchmark routine: C = A B (double).
 *
 * Check: ||C x - A (B x)|| / (||A||_F ||B||_F ||x|| k eps) for a random x; a wrong
 * product gives about 1 / (k eps), a right one a small number; on the device (--check
 * device) the same by Tila's products with vectors.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>

#include "bench_scalapack.h"

static void setup(bench_cfg_t *c)
{
    bench_add_op(c, c->m, c->k, BENCH_RANDOM);
    bench_add_op(c, c->k, c->n, BENCH_RANDOM);
    bench_add_op(c, c->m, c->n, BENCH_ZERO);
}

static int run(bench_cfg_t *c)
{
    bench_op_t *A = &c->op[0], *B = &c->op[1], *C = &c->op[2];
    if (c->impl == BENCH_TILA)
        return tila_dgemm(TILA_NOTRANS, TILA_NOTRANS, 1.0, A->desc, B->desc, 0.0, C->desc);
    if (c->impl == BENCH_LAPACKE) {
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, c->m, c->n, c->k, 1.0, A->full, c->m,
                    B->full, c->k, 0.0, C->full, c->m);
        return 0;
    }
    int one = 1;
    double alpha = 1, beta = 0;
    pdgemm_("N", "N", &c->m, &c->n, &c->k, &alpha, A->local, &one, &one, A->desc_sl, B->local, &one,
            &one, B->desc_sl, &beta, C->local, &one, &one, C->desc_sl);
    return 0;
}

static double check(bench_cfg_t *c)
{
    const double *a = c->op[0].in, *b = c->op[1].in, *cc = c->op[2].full;
    double *x = malloc(sizeof(double) * c->n), *y = malloc(sizeof(double) * c->k);
    double *r = malloc(sizeof(double) * c->m);
    for (int j = 0; j < c->n; j++)
        x[j] = (double)((j * 7919) % 1000) / 1000 - 0.5;
    cblas_dgemv(CblasColMajor, CblasNoTrans, c->k, c->n, 1.0, b, c->k, x, 1, 0.0, y, 1);
    cblas_dgemv(CblasColMajor, CblasNoTrans, c->m, c->k, 1.0, a, c->m, y, 1, 0.0, r, 1);
    cblas_dgemv(CblasColMajor, CblasNoTrans, c->m, c->n, 1.0, cc, c->m, x, 1, -1.0, r, 1);
    double res =
        cblas_dnrm2(c->m, r, 1) / (LAPACKE_dlange(LAPACK_COL_MAJOR, 'F', c->m, c->k, a, c->m) *
                                   LAPACKE_dlange(LAPACK_COL_MAJOR, 'F', c->k, c->n, b, c->k) *
                                   cblas_dnrm2(c->n, x, 1) * c->k * DBL_EPSILON);
    free(x);
    free(y);
    free(r);
    return res;
}

static double check_device(bench_cfg_t *c)
{
    tila_desc_t *A = c->op[0].desc, *B = c->op[1].desc, *C = c->op[2].desc;
    tila_desc_t *x = bench_like(c, c->n, 1), *y = bench_like(c, c->k, 1),
                *r = bench_like(c, c->m, 1);
    double res = -1;
    if (x && y && r) {
        tila_dplrnt(x, c->seed + 99);
        if (!tila_dgemm(TILA_NOTRANS, TILA_NOTRANS, 1.0, B, x, 0.0, y) &&
            !tila_dgemm(TILA_NOTRANS, TILA_NOTRANS, 1.0, C, x, 0.0, r) &&
            !tila_dgemm(TILA_NOTRANS, TILA_NOTRANS, -1.0, A, y, 1.0, r))
            res = bench_fro(r) / (bench_fro(A) * bench_fro(B) * bench_fro(x) * c->k * DBL_EPSILON);
    }
    tila_desc_destroy(&r);
    tila_desc_destroy(&y);
    tila_desc_destroy(&x);
    return res;
}

static double amount(const bench_cfg_t *c) { return 2.0 * c->m * c->n * c->k; }

const bench_routine_t bench_gemm = { .name = "gemm",
                                     .setup = setup,
                                     .prepare = NULL,
                                     .run = run,
                                     .check = check,
                                     .amount = amount,
                                     .unit = "GFLOP/s",
                                     .check_device = check_device };
