/**
 * @file gemm.c
 * @brief Example: C = A B on a P x Q grid of ranks, timed, with an optional check.
 *
 *   mpirun -np 4 examples/gemm --n 4096 --nb 256 --p 2 --q 2 --check
 *
 * Generates A (m x k), B (k x n) and C (m x n) with the seeded generator on their
 * owners, runs tila_dgemm, prints the time and GFLOP/s and, with --check, the
 * residual ||C x - A (B x)|| / (||A||_F ||B||_F ||x|| k eps) for a random vector x,
 * computed with tiled gemms and norms on the distributed matrices.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <float.h>
#include <stdio.h>

#include "example_env.h"

int main(int argc, char **argv)
{
    example_opts_t o = { .n = 2048, .nb = 256, .seed = 42 };
    int start = example_start(&argc, &argv, &o,
                              "gemm [--m M] [--n N] [--k K] [--nb NB] "
                              "[--p P --q Q] [--seed S] [--check]");
    if (start) return start;
    if (!o.m) o.m = o.n;
    if (!o.k) o.k = o.n;
    example_check_env();
    tila_desc_t *A = example_desc("gemm", o.m, o.k, &o), *B = example_desc("gemm", o.k, o.n, &o);
    tila_desc_t *C = example_desc("gemm", o.m, o.n, &o);
    tila_dplrnt(A, o.seed);
    tila_dplrnt(B, o.seed + 1);

    MPI_Barrier(MPI_COMM_WORLD);
    tila_seconds_t t0 = example_now();
    int rc = tila_dgemm(TILA_NOTRANS, TILA_NOTRANS, 1.0, A, B, 0.0, C);
    tila_seconds_t t = example_now() - t0;
    double gflops = 2.0 * o.m * o.n * o.k / t * 1e-9;
    if (tila_comm_rank() == 0)
        printf("gemm: m=%d n=%d k=%d nb=%d ranks=%d grid=%dx%d workers/rank=%u "
               "time=%.3f s  %.1f GFLOP/s  status=%d\n",
               o.m, o.n, o.k, o.nb, tila_comm_size(), o.p ? o.p : 0, o.q ? o.q : 0,
               starpu_worker_get_count(), t, gflops, rc);

    if (o.check && rc == 0) {
        /* r = C x - A (B x) for a random x: ||r|| / (||A|| ||B|| ||x|| k eps). */
        tila_desc_t *x = example_desc("gemm", o.n, 1, &o), *y = example_desc("gemm", o.k, 1, &o);
        tila_desc_t *r = example_desc("gemm", o.m, 1, &o);
        double na, nbb, nx, nr;
        tila_dplrnt(x, o.seed + 2);
        tila_dgemm(TILA_NOTRANS, TILA_NOTRANS, 1.0, B, x, 0.0, y);
        tila_dgemm(TILA_NOTRANS, TILA_NOTRANS, 1.0, C, x, 0.0, r);
        tila_dgemm(TILA_NOTRANS, TILA_NOTRANS, -1.0, A, y, 1.0, r);
        tila_dlange(TILA_NORM_FRO, A, &na);
        tila_dlange(TILA_NORM_FRO, B, &nbb);
        tila_dlange(TILA_NORM_FRO, x, &nx);
        tila_dlange(TILA_NORM_FRO, r, &nr);
        double res = nr / (na * nbb * nx * o.k * DBL_EPSILON);
        if (tila_comm_rank() == 0)
            printf("gemm: residual ||C x - A (B x)|| / (||A|| ||B|| ||x|| k eps) = %.3g (%s)\n",
                   res, res < 10 ? "ok" : "FAILED");
        rc = res < 10 ? 0 : 1;
        tila_desc_destroy(&x);
        tila_desc_destroy(&y);
        tila_desc_destroy(&r);
    }
    tila_desc_destroy(&A);
    tila_desc_destroy(&B);
    tila_desc_destroy(&C);
    tila_finalize();
    return rc ? 1 : 0;
}
