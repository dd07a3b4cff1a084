/**
 * @file bench_scalapack.c
 * @brief The ScaLAPACK peer: BLACS grid, local arrays, gathering them for the check.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_scalapack.h"

int bench_scalapack_grid(bench_cfg_t *c)
{
    if (c->p == 0 && c->q == 0) {
        c->p = (int)sqrt((double)c->size);
        while (c->size % c->p)
            c->p--;
        c->q = c->size / c->p;
    }
    if (c->p * c->q != c->size) {
        if (c->rank == 0)
            fprintf(stderr, "tila-bench-run: grid %d x %d for %d ranks\n", c->p, c->q, c->size);
        return -1;
    }
    Cblacs_get(-1, 0, &c->ictxt);
    /* Row-major grid: rank = prow * q + pcol, as tila_desc_create_scalapack expects. */
    Cblacs_gridinit(&c->ictxt, "Row", c->p, c->q);
    return 0;
}

void bench_scalapack_alloc(bench_cfg_t *c, bench_op_t *op)
{
    int zero = 0, info, prow = c->rank / c->q, pcol = c->rank % c->q;
    int mloc = numroc_(&op->m, &c->nb, &prow, &zero, &c->p);
    int nloc = numroc_(&op->n, &c->nb, &pcol, &zero, &c->q);
    op->lld = mloc > 1 ? mloc : 1;
    op->nloc = nloc > 1 ? nloc : 1;
    op->local = calloc(bench_scalapack_bytes(op), 1);
    descinit_(op->desc_sl, &op->m, &op->n, &c->nb, &c->nb, &zero, &zero, &c->ictxt, &op->lld,
              &info);
}

size_t bench_scalapack_bytes(const bench_op_t *op)
{
    return sizeof(double) * (size_t)op->lld * (size_t)op->nloc;
}

void bench_scalapack_gather(const bench_cfg_t *c, const bench_op_t *op, double *full)
{
    int nb = c->nb;
    for (int r = 0; r < c->size; r++) {
        int prow = r / c->q, pcol = r % c->q, zero = 0;
        int mloc = numroc_(&op->m, &nb, &prow, &zero, &c->p);
        int nloc = numroc_(&op->n, &nb, &pcol, &zero, &c->q);
        int lld = mloc > 1 ? mloc : 1;
        double *buf = op->local;
        if (r != 0) {
            if (c->rank == r) MPI_Send(op->local, lld * nloc, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD);
            if (c->rank != 0) continue;
            buf = malloc(sizeof(double) * (size_t)lld * (nloc ? nloc : 1));
            MPI_Recv(buf, lld * nloc, MPI_DOUBLE, r, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        else if (c->rank != 0) {
            continue;
        }
        /* Local entry (li, lj) of process (prow, pcol) is global (i, j). */
        for (int lj = 0; lj < nloc; lj++)
            for (int li = 0; li < mloc; li++) {
                int i = (li / nb * c->p + prow) * nb + li % nb;
                int j = (lj / nb * c->q + pcol) * nb + lj % nb;
                full[(size_t)j * op->m + i] = buf[(size_t)lj * lld + li];
            }
        if (buf != op->local) free(buf);
    }
}

void bench_scalapack_exit(bench_cfg_t *c) { Cblacs_gridexit(c->ictxt); }
