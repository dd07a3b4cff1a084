/**
 * @file wake.c
 * @brief tila-bench-wake: what a call costs after Tila sat idle, against back to back.
 *
 *   mpirun -np RANKS tila-bench-wake [--n N] [--nb NB] [--idle SECONDS] [--reps R]
 *
 * Each of R rounds times four calls, every rank starting together (a barrier), each call's
 * time the slowest rank's: a max norm (tila_dlange) of an N x N matrix right after another
 * one (back to back), then one after SECONDS of nothing (the program sleeps: idle workers
 * rest then, runtime/node/nap_workers.c); a Cholesky factorization (tila_dpotrf) of a matrix
 * generated just before it, then one generated before the sleep.  Rank 0 prints the
 * medians in milliseconds and the ratio idle / back to back.  Defaults: N = 1000, NB = 250,
 * 0.5 s, 15 rounds.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tila.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void idle(double seconds)
{
    struct timespec t = { .tv_sec = (time_t)seconds,
                          .tv_nsec = (long)((seconds - (double)(time_t)seconds) * 1e9) };
    nanosleep(&t, NULL);
}

/* The slowest rank's time of one call: a norm (potrf 0) or a factorization (1). */
static double timed(tila_desc_t *A, int potrf, int *rc)
{
    double value, t, worst;
    MPI_Barrier(MPI_COMM_WORLD);
    t = now();
    int r = potrf ? tila_dpotrf(TILA_LOWER, A) : tila_dlange(TILA_NORM_MAX, A, &value);
    t = now() - t;
    if (r && !*rc) *rc = r;
    MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return worst;
}

int main(int argc, char **argv)
{
    int n = 1000, nb = 250, reps = 15, provided, rank, size, rc = 0;
    double pause = 0.5;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--n"))
            n = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--nb"))
            nb = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--idle"))
            pause = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--reps"))
            reps = atoi(argv[i + 1]);
    }
    if (tila_init(&argc, &argv)) return 1;
    rank = tila_comm_rank();
    size = tila_comm_size();
    tila_desc_t *A = NULL, *L = NULL;
    if (tila_desc_create(&A, TILA_REAL64, n, n, nb, nb, NULL) ||
        tila_desc_create(&L, TILA_REAL64, n, n, nb, nb, NULL) || tila_dplrnt(A, 7)) {
        tila_finalize();
        MPI_Finalize();
        return 1;
    }
    double *t[4];
    for (int k = 0; k < 4; k++)
        t[k] = malloc(sizeof(double) * (size_t)reps);
    /* warm: every kernel, workspace and message path once */
    timed(A, 0, &rc);
    tila_dplgsy((double)n, L, 11);
    timed(L, 1, &rc);
    for (int r = 0; r < reps; r++) {
        timed(A, 0, &rc);
        t[0][r] = timed(A, 0, &rc);
        idle(pause);
        t[1][r] = timed(A, 0, &rc);
        tila_dplgsy((double)n, L, 11);
        t[2][r] = timed(L, 1, &rc);
        tila_dplgsy((double)n, L, 11);
        idle(pause);
        t[3][r] = timed(L, 1, &rc);
    }
    if (rank == 0) {
        double m[4];
        for (int k = 0; k < 4; k++)
            m[k] = median(t[k], reps);
        printf("# tila-bench-wake: %d rank(s), n = %d, nb = %d, idle %.2f s, medians of %d, ms; "
               "status %d\n",
               size, n, nb, pause, reps, rc);
        printf("dlange M: back to back %.3f, after idle %.3f (%.2fx)\n", 1e3 * m[0], 1e3 * m[1],
               m[1] / m[0]);
        printf("dpotrf:   back to back %.3f, after idle %.3f (%.2fx)\n", 1e3 * m[2], 1e3 * m[3],
               m[3] / m[2]);
    }
    for (int k = 0; k < 4; k++)
        free(t[k]);
    tila_desc_destroy(&A);
    tila_desc_destroy(&L);
    tila_finalize();
    MPI_Finalize();
    return rc != 0;
}
