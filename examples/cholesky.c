/**
 * @file cholesky.c
 * @brief Example: factor a symmetric positive definite matrix and solve, on P x Q ranks.
 *
 *   mpirun -np 4 examples/cholesky --n 8192 --nb 320 --p 2 --q 2 --check
 *
 * Generates A (n x n, symmetric positive definite) and B (n x nrhs) with the seeded
 * generators on their owners, factors A = L L^T with tila_dpotrf, solves with
 * tila_dpotrs, and prints the times and GFLOP/s.  With --check it keeps copies of A and
 * B and prints the backward error ||B - A X||_F / (||A||_F ||X||_F n eps), computed on
 * the distributed matrices (tila_dgemm, tila_dlange): below 1 or so is LAPACK quality.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>

#include "example_env.h"

int main(int argc, char **argv)
{
    example_opts_t o = { .n = 4096, .nb = 320, .k = 1, .seed = 42 };
    int start = example_start(&argc, &argv, &o,
                              "cholesky [--n N] [--nb NB] [--k NRHS] [--p P --q Q] "
                              "[--seed S] [--check]");
    if (start) return start;
    example_check_env();
    tila_desc_t *A = example_desc("cholesky", o.n, o.n, &o);
    tila_desc_t *B = example_desc("cholesky", o.n, o.k, &o), *A0 = NULL, *B0 = NULL;
    int rc = 0;
    tila_dplgsy((double)o.n, A, o.seed);
    tila_dplrnt(B, o.seed + 1);
    if (o.check) {
        A0 = example_desc("cholesky", o.n, o.n, &o);
        B0 = example_desc("cholesky", o.n, o.k, &o);
        tila_dlacpy(TILA_GENERAL, A, A0);
        tila_dlacpy(TILA_GENERAL, B, B0);
    }

    MPI_Barrier(MPI_COMM_WORLD);
    tila_seconds_t t0 = example_now();
    int info = tila_dpotrf(TILA_LOWER, A);
    tila_seconds_t t1 = example_now();
    if (info == 0) rc = tila_dpotrs(TILA_LOWER, A, B);
    tila_seconds_t t2 = example_now();
    if (tila_comm_rank() == 0) {
        printf("cholesky: n=%d nb=%d nrhs=%d ranks=%d workers/rank=%u sched=%s\n", o.n, o.nb, o.k,
               tila_comm_size(), starpu_worker_get_count(), example_sched());
        printf("cholesky: dpotrf %.3f s  %.1f GFLOP/s  info=%d\n", t1 - t0,
               (double)o.n * o.n * o.n / 3.0 / (t1 - t0) * 1e-9, info);
        printf("cholesky: dpotrs %.3f s  %.1f GFLOP/s\n", t2 - t1,
               2.0 * o.n * o.n * o.k / (t2 - t1) * 1e-9);
    }
    if (o.check && info == 0 && rc == 0) {
        double anorm, xnorm, rnorm;
        tila_dlange(TILA_NORM_FRO, A0, &anorm);
        tila_dlange(TILA_NORM_FRO, B, &xnorm);
        tila_dgemm(TILA_NOTRANS, TILA_NOTRANS, -1.0, A0, B, 1.0, B0); /* B0 = B - A X */
        tila_dlange(TILA_NORM_FRO, B0, &rnorm);
        double berr = rnorm / (anorm * xnorm * o.n * DBL_EPSILON);
        if (tila_comm_rank() == 0)
            printf("cholesky: backward error ||B - A X|| / (||A|| ||X|| n eps) = %.3g (%s)\n", berr,
                   berr < 10 ? "ok" : "FAILED");
        rc = berr < 10 ? 0 : 1;
    }
    if (A0) {
        tila_desc_destroy(&A0);
        tila_desc_destroy(&B0);
    }
    tila_desc_destroy(&A);
    tila_desc_destroy(&B);
    tila_finalize();
    return info || rc ? 1 : 0;
}
