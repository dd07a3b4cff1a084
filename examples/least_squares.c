/**
 * @file least_squares.c
 * @brief Example: a tall least-squares problem min ||B - A X||_F by tiled QR, on P x Q ranks.
 *
 *   mpirun -np 4 examples/least_squares --m 32768 --n 512 --k 4 --nb 2048 --check
 *
 * Generates A (m x n, m >= n) and B (m x k) with the seeded generators on their owners,
 * makes the T factors with the automatic reduction tree (a binary tree over the tile rows
 * when A is tall and skinny), solves with tila_dgels and prints the time and GFLOP/s.
 * Without --p/--q the ranks form a P x 1 column, so that every rank holds tile rows of
 * a one-tile-column matrix.  With --check it keeps copies of A and B, takes X = B's first
 * n rows (X = P^T B with P = [I; 0], by tila_dgemm) and prints, for r = B - A X, the
 * normal equations' residual ||A^T r||_F / (||A||_F ||r||_F m eps) (the residual of a
 * least-squares solution is orthogonal to A's columns) and the backward error
 * ||r||_F / (||A||_F ||X||_F m eps) (a system with an exact solution, m = n for one, has
 * r at rounding level, whose direction means nothing): either below 10 is LAPACK quality.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "example_env.h"

static const char *prog = "least_squares";

/*
 * With X = B(0:n, :) and r = B0 - A X: ||A^T r|| / (||A|| ||r|| m eps), returned, and
 * ||r|| / (||A|| ||X|| m eps) and ||r|| / ||B0|| in *berr and *relres.  B0 is overwritten.
 */
static double normal_equations(const example_opts_t *o, tila_desc_t *A0, tila_desc_t *B0,
                               tila_desc_t *B, double *berr, double *relres)
{
    tila_desc_t *P = example_desc(prog, o->m, o->n, o), *X = example_desc(prog, o->n, o->k, o);
    double anorm, bnorm, xnorm, rnorm, arnorm;
    tila_dlaset(TILA_GENERAL, 0.0, 1.0, P);                  /* P = [I; 0] */
    tila_dgemm(TILA_TRANS, TILA_NOTRANS, 1.0, P, B, 0.0, X); /* X = B(0:n, :) */
    tila_dlange(TILA_NORM_FRO, X, &xnorm);
    tila_dlange(TILA_NORM_FRO, A0, &anorm);
    tila_dlange(TILA_NORM_FRO, B0, &bnorm);
    tila_dgemm(TILA_NOTRANS, TILA_NOTRANS, -1.0, A0, X, 1.0, B0); /* B0 = r = B - A X */
    tila_dlange(TILA_NORM_FRO, B0, &rnorm);
    tila_dgemm(TILA_TRANS, TILA_NOTRANS, 1.0, A0, B0, 0.0, X); /* X = A^T r */
    tila_dlange(TILA_NORM_FRO, X, &arnorm);
    tila_desc_destroy(&P);
    tila_desc_destroy(&X);
    double scale = anorm * o->m * DBL_EPSILON;
    *relres = bnorm > 0 ? rnorm / bnorm : 0;
    *berr = xnorm > 0 ? rnorm / (scale * xnorm) : rnorm > 0 ? INFINITY : 0;
    return rnorm > 0 ? arnorm / (scale * rnorm) : 0;
}

int main(int argc, char **argv)
{
    example_opts_t o = { .m = 16384, .n = 512, .k = 4, .nb = 1024, .ib = 64, .seed = 42 };
    int start = example_start(&argc, &argv, &o,
                              "least_squares [--m M] [--n N] [--k NRHS] [--nb NB] "
                              "[--ib IB] [--p P --q Q] [--seed S] [--check]");
    if (start) return start;
    o.ib = o.ib < o.nb ? o.ib : o.nb;
    if (!o.p && !o.q) {
        o.p = tila_comm_size();
        o.q = 1;
    }
    example_check_env();
    tila_desc_t *A = example_desc(prog, o.m, o.n, &o), *B = example_desc(prog, o.m, o.k, &o);
    tila_desc_t *A0 = NULL, *B0 = NULL, *T = NULL;
    int rc = tila_desc_create_qr_t(&T, A, o.ib, TILA_QR_TREE_AUTO);
    if (rc) {
        tila_desc_destroy(&A);
        tila_desc_destroy(&B);
        tila_finalize();
        return 1;
    }
    tila_dplrnt(A, o.seed);
    tila_dplrnt(B, o.seed + 1);
    if (o.check) {
        A0 = example_desc(prog, o.m, o.n, &o);
        B0 = example_desc(prog, o.m, o.k, &o);
        tila_dlacpy(TILA_GENERAL, A, A0);
        tila_dlacpy(TILA_GENERAL, B, B0);
    }

    MPI_Barrier(MPI_COMM_WORLD);
    tila_seconds_t t0 = example_now();
    rc = tila_dgels(A, T, B);
    tila_seconds_t t1 = example_now();
    if (tila_comm_rank() == 0) {
        double m = o.m, n = o.n, k = o.k;
        double flops = 2 * m * n * n - 2 * n * n * n / 3 + 4 * m * n * k - n * n * k;
        printf("least_squares: m=%d n=%d nrhs=%d nb=%d ib=%d tree=%s grid=%dx%d ranks=%d "
               "workers/rank=%u sched=%s\n",
               o.m, o.n, o.k, o.nb, o.ib,
               tila_desc_qr_tree(T) == TILA_QR_TREE_BINARY ? "binary" : "flat", o.p, o.q,
               tila_comm_size(), starpu_worker_get_count(), example_sched());
        printf("least_squares: dgels %.3f s  %.1f GFLOP/s  rc=%d\n", t1 - t0,
               flops / (t1 - t0) * 1e-9, rc);
    }
    if (o.check && rc == 0) {
        double berr, relres, ratio = normal_equations(&o, A0, B0, B, &berr, &relres);
        int ok = ratio < 10 || berr < 10;
        if (tila_comm_rank() == 0)
            printf("least_squares: r = B - A X: ||r|| / ||B|| = %.3g, ||A^T r|| / "
                   "(||A|| ||r|| m eps) = %.3g, ||r|| / (||A|| ||X|| m eps) = %.3g (%s)\n",
                   relres, ratio, berr, ok ? "ok" : "FAILED");
        rc = !ok;
    }
    if (A0) {
        tila_desc_destroy(&A0);
        tila_desc_destroy(&B0);
    }
    tila_desc_destroy(&T);
    tila_desc_destroy(&A);
    tila_desc_destroy(&B);
    tila_finalize();
    return rc ? 1 : 0;
}
