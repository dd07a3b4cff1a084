/**
 * @file bench_geqrf.c
 * @brief Benchmark routine: QR factorization A = Q R (double, m >= n).
 *
 * Check, the same whatever the implementation stores for Q: A^T A = R^T R since Q is
 * orthogonal, applied to a vector x (O(m n), so it stays cheap at any size):
 * ||A^T (A x) - R^T (R x)|| / (||A||_F^2 ||x|| m eps) is small for a right R and about
 * 1 / (m eps) for a wrong one.
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

static int run(bench_cfg_t *c)
{
    bench_op_t *A = &c->op[0];
    if (c->impl == BENCH_TILA) {
        tila_desc_t *T;
        int ib = c->ib > 0 ? c->ib : (c->nb < 32 ? c->nb : 32);
        int rc = tila_desc_create_qr_t(&T, A->desc, ib, bench_qr_tree(c->variant));
        if (!rc) rc = tila_dgeqrf(A->desc, T);
        tila_desc_destroy(&T);
        return rc;
    }
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

static double amount(const bench_cfg_t *c)
{
    double m = c->m, n = c->n;
    return 2.0 * m * n * n - 2.0 * n * n * n / 3.0 + m * n + n * n + 14.0 / 3.0 * n;
}

const bench_routine_t bench_geqrf = { "geqrf", setup, NULL, run, check, amount, "GFLOP/s" };
