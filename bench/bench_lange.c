/**
 * @file bench_lange.c
 * @brief Benchmark routine: a norm of a general matrix (double), variant M, O, I or F.
 *
 * Rate: bytes of the matrix read once per second.  The LAPACKE peer is
 * LAPACKE_dlange_work, i.e. without LAPACKE's NaN pre-check (an extra pass over the
 * matrix that LAPACKE_dlange makes by default).  Check: relative difference to
 * LAPACKE_dlange_work on rank 0's copy of the input.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>

#include "bench_scalapack.h"

double pdlange_(const char *norm, const int *m, const int *n, const double *a, const int *ia,
                const int *ja, const int *desca, double *work);

static void setup(bench_cfg_t *c)
{
    if (!c->variant) c->variant = 'F';
    bench_add_op(c, c->m, c->n, BENCH_RANDOM);
}

static int run(bench_cfg_t *c)
{
    bench_op_t *A = &c->op[0];
    char v = c->variant;
    if (c->impl == BENCH_TILA) return tila_dlange(bench_norm(v), A->desc, &c->value);
    if (c->impl == BENCH_LAPACKE) {
        double *work = malloc(sizeof(double) * (size_t)c->m);
        c->value = LAPACKE_dlange_work(LAPACK_COL_MAJOR, v, c->m, c->n, A->full, c->m, work);
        free(work);
        return 0;
    }
    /* pdlange's work: local rows (inf) or columns (one) plus a little. */
    int one = 1, zero = 0, prow = c->rank / c->q, pcol = c->rank % c->q;
    int mloc = numroc_(&c->m, &c->nb, &prow, &zero, &c->p);
    int nloc = numroc_(&c->n, &c->nb, &pcol, &zero, &c->q);
    double *work = malloc(sizeof(double) * (size_t)(mloc + nloc + c->nb + 16));
    c->value = pdlange_(&v, &c->m, &c->n, A->local, &one, &one, A->desc_sl, work);
    free(work);
    return 0;
}

static double check(bench_cfg_t *c)
{
    double *work = malloc(sizeof(double) * (size_t)c->m);
    double ref =
        LAPACKE_dlange_work(LAPACK_COL_MAJOR, c->variant, c->m, c->n, c->op[0].in, c->m, work);
    free(work);
    return ref > 0 ? fabs(c->value - ref) / ref : fabs(c->value);
}

static double amount(const bench_cfg_t *c) { return 8.0 * c->m * c->n; }

/* No check on the device: a norm's check is LAPACK's value on rank 0's copy of the input,
 * and the matrix, which the call leaves as it was, is not gathered. */
const bench_routine_t bench_lange = { .name = "lange",
                                      .setup = setup,
                                      .run = run,
                                      .check = check,
                                      .amount = amount,
                                      .unit = "GB/s",
                                      .check_reads_inputs = 1 };
