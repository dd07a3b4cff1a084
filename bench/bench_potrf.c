/**
 * @file bench_potrf.c
 * @brief Benchmark routine: Cholesky factorization A = L L^T (double, lower).
 *
 * Check: ||A x - L (L^T x)|| / (||A||_F ||x|| n eps) for a random x, LAPACK's scaled
 * factorization residual applied to a vector (O(n^2), so it stays cheap at large n).
 * On the device (--check device): the factor solves A y = b for a random b (tila_dpotrs),
 * then ||b - A y|| / (||A||_F ||y|| n eps) with A generated again: LAPACK's solve
 * residual (dpot02), small for a right factor and about 1 / (n eps) for a wrong one.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>

#include "bench_scalapack.h"

static void setup(bench_cfg_t *c) { bench_add_op(c, c->n, c->n, BENCH_SPD); }

/* The triangle: the variant (tila-bench --uplo), lower unless it says U. */
static int upper(const bench_cfg_t *c) { return c->variant == 'U'; }

static int run(bench_cfg_t *c)
{
    bench_op_t *A = &c->op[0];
    char uplo = upper(c) ? 'U' : 'L';
    if (c->impl == BENCH_TILA) return tila_dpotrf(upper(c) ? TILA_UPPER : TILA_LOWER, A->desc);
    if (c->impl == BENCH_LAPACKE)
        return LAPACKE_dpotrf(LAPACK_COL_MAJOR, uplo, c->n, A->full, c->n);
    int one = 1, info;
    pdpotrf_(&uplo, &c->n, A->local, &one, &one, A->desc_sl, &info);
    return info;
}

/* ||A x - F^H (F x)|| / (||A|| ||x|| n eps), F = L^T (lower: A = L L^T) or U (A = U^T U). */
static double check(bench_cfg_t *c)
{
    int n = c->n;
    const double *a = c->op[0].in, *f = c->op[0].full;
    enum CBLAS_UPLO uplo = upper(c) ? CblasUpper : CblasLower;
    enum CBLAS_TRANSPOSE first = upper(c) ? CblasNoTrans : CblasTrans;
    enum CBLAS_TRANSPOSE second = upper(c) ? CblasTrans : CblasNoTrans;
    double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
    for (int j = 0; j < n; j++)
        x[j] = y[j] = (double)((j * 7919) % 1000) / 1000 - 0.5;
    cblas_dtrmv(CblasColMajor, uplo, first, CblasNonUnit, n, f, n, y, 1);
    cblas_dtrmv(CblasColMajor, uplo, second, CblasNonUnit, n, f, n, y, 1);
    cblas_dsymv(CblasColMajor, uplo, n, 1.0, a, n, x, 1, -1.0, y, 1);
    double res = cblas_dnrm2(n, y, 1) / (LAPACKE_dlange(LAPACK_COL_MAJOR, 'F', n, n, a, n) *
                                         cblas_dnrm2(n, x, 1) * n * DBL_EPSILON);
    free(x);
    free(y);
    return res;
}

static double check_device(bench_cfg_t *c)
{
    int n = c->n;
    tila_desc_t *A = bench_like(c, n, n), *b = bench_like(c, n, 1), *y = bench_like(c, n, 1);
    double res = -1;
    if (A && b && y) {
        tila_uplo_t uplo = upper(c) ? TILA_UPPER : TILA_LOWER;
        bench_fill_as(c, 0, A);
        tila_dplrnt(b, c->seed + 99);
        tila_dlacpy(TILA_GENERAL, b, y);
        if (!tila_dpotrs(uplo, c->op[0].desc, y) &&
            !tila_dgemm(TILA_NOTRANS, TILA_NOTRANS, -1.0, A, y, 1.0, b))
            res = bench_fro(b) / (bench_fro(A) * bench_fro(y) * n * DBL_EPSILON);
    }
    tila_desc_destroy(&y);
    tila_desc_destroy(&b);
    tila_desc_destroy(&A);
    return res;
}

static double amount(const bench_cfg_t *c) { return (double)c->n * c->n * c->n / 3.0; }

const bench_routine_t bench_potrf = { .name = "potrf",
                                      .setup = setup,
                                      .prepare = NULL,
                                      .run = run,
                                      .check = check,
                                      .amount = amount,
                                      .unit = "GFLOP/s",
                                      .check_device = check_device };
