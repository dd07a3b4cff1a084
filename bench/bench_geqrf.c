/**
 * @file bench_geqrf.c
 * @brief Benchmark routine: QR factorization A = Q R (double, m >= n).
 *
 * Check, the same whatever the implementation stores for Q: A^T A = R^T R since Q is
 * orthogonal, applied to a vector x (O(m n), so it stays cheap at any size):
 * ||A^T (A x) - R^T (R x)|| / (||A||_F^2 ||x|| m eps) is small for a right R and about
 * 1 / (m eps) for a wrong one.  On the device (--check device) the same by Tila's calls:
 * R copied out of A (its upper triangle), A generated again, products with vectors.
 * Tila's T is made before the first call and kept (as a program reuses it), untimed.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <stdlib.h>
#include <string.h>

#include "bench_scalapack.h"

void pdgeqrf_(const int *m, const int *n, double *a, const int *ia, const int *ja, const int *desca,
              double *tau, double *work, const int *lwork, int *info);

static void setup(bench_cfg_t *c) { bench_add_op(c, c->m, c->n, BENCH_RANDOM); }

static int run_scalapack(bench_cfg_t *c, bench_op_t *A)
{
    int one = 1, zero = 0, info, lwork = -1, pcol = c->rank % c->q;
    int nloc = numroc_(&c->n, &c->nb, &pcol, &zero, &c->q);
    double *tau = malloc(sizeof(double) * (size_t)(nloc > 0 ? nloc : 1)), query;
    pdgeqrf_(&c->m, &c->n, A->local, &one, &one, A->desc_sl, tau, &query, &lwork, &info);
    lwork = (int)query;
    double *work = malloc(sizeof(double) * (size_t)(lwork > 0 ? lwork : 1));
    pdgeqrf_(&c->m, &c->n, A->local, &one, &one, A->desc_sl, tau, work, &lwork, &info);
    free(work);
    free(tau);
    return info;
}

/* Tila's T, once (c->aux, destroyed with the operands). */
static int prepare(bench_cfg_t *c)
{
    if (c->impl != BENCH_TILA || c->aux) return 0;
    /* At most the tile's width, which is at most n (Tila clamps the tile to the matrix). */
    int ib = c->ib > 0 ? c->ib : 32, width = c->nb < c->n ? c->nb : c->n;
    if (ib > width) ib = width;
    return tila_desc_create_qr_t(&c->aux, c->op[0].desc, ib, bench_qr_tree(c->variant));
}

static int run(bench_cfg_t *c)
{
    bench_op_t *A = &c->op[0];
    if (c->impl == BENCH_TILA) return tila_dgeqrf(A->desc, c->aux);
    if (c->impl == BENCH_LAPACKE) {
        double *tau = malloc(sizeof(double) * (size_t)c->n);
        int info = LAPACKE_dgeqrf(LAPACK_COL_MAJOR, c->m, c->n, A->full, c->m, tau);
        free(tau);
        return info;
    }
    return run_scalapack(c, A);
}

static double check(bench_cfg_t *c)
{
    int m = c->m, n = c->n;
    const double *a = c->op[0].in, *f = c->op[0].full;
    double *x = malloc(sizeof(double) * (size_t)n), *y = malloc(sizeof(double) * (size_t)n);
    double *ax = malloc(sizeof(double) * (size_t)m);
    for (int j = 0; j < n; j++)
        x[j] = y[j] = (double)((j * 7919) % 1000) / 1000 - 0.5;
    /* y = R^T (R x) - A^T (A x); R is the upper triangle of f's first n rows. */
    cblas_dtrmv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, n, f, m, y, 1);
    cblas_dtrmv(CblasColMajor, CblasUpper, CblasTrans, CblasNonUnit, n, f, m, y, 1);
    cblas_dgemv(CblasColMajor, CblasNoTrans, m, n, 1.0, a, m, x, 1, 0.0, ax, 1);
    cblas_dgemv(CblasColMajor, CblasTrans, m, n, -1.0, a, m, ax, 1, 1.0, y, 1);
    double anorm = LAPACKE_dlange(LAPACK_COL_MAJOR, 'F', m, n, a, m);
    double res = cblas_dnrm2(n, y, 1) / (anorm * anorm * cblas_dnrm2(n, x, 1) * m * DBL_EPSILON);
    free(x);
    free(y);
    free(ax);
    return res;
}

static double check_device(bench_cfg_t *c)
{
    int m = c->m, n = c->n;
    tila_desc_t *A = bench_like(c, m, n), *R = bench_like(c, m, n), *x = bench_like(c, n, 1);
    tila_desc_t *y = bench_like(c, m, 1), *z = bench_like(c, n, 1);
    double res = -1;
    /* z = R^T (R x) - A^T (A x), R the upper triangle of the result (zero below). */
    if (A && R && x && y && z) {
        bench_fill_as(c, 0, A);
        tila_dplrnt(x, c->seed + 99);
        if (!tila_dlaset(TILA_GENERAL, 0.0, 0.0, R) && !tila_dlacpy(TILA_UPPER, c->op[0].desc, R) &&
            !tila_dgemm(TILA_NOTRANS, TILA_NOTRANS, 1.0, R, x, 0.0, y) &&
            !tila_dgemm(TILA_TRANS, TILA_NOTRANS, 1.0, R, y, 0.0, z) &&
            !tila_dgemm(TILA_NOTRANS, TILA_NOTRANS, 1.0, A, x, 0.0, y) &&
            !tila_dgemm(TILA_TRANS, TILA_NOTRANS, -1.0, A, y, 1.0, z)) {
            double anorm = bench_fro(A);
            res = bench_fro(z) / (anorm * anorm * bench_fro(x) * m * DBL_EPSILON);
        }
    }
    tila_desc_destroy(&z);
    tila_desc_destroy(&y);
    tila_desc_destroy(&x);
    tila_desc_destroy(&R);
    tila_desc_destroy(&A);
    return res;
}

static double amount(const bench_cfg_t *c)
{
    double m = c->m, n = c->n;
    return 2.0 * m * n * n - 2.0 * n * n * n / 3.0 + m * n + n * n + 14.0 / 3.0 * n;
}

const bench_routine_t bench_geqrf = { .name = "geqrf",
                                      .setup = setup,
                                      .prepare = prepare,
                                      .run = run,
                                      .check = check,
                                      .amount = amount,
                                      .unit = "GFLOP/s",
                                      .check_device = check_device };
