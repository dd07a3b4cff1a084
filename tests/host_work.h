/**
 * @file host_work.h
 * @brief The program's own work, as the layer tests time it before and after Tila's calls:
 *        a cache-resident single-threaded loop (a program's grid or FFT code between
 *        library calls), run by every rank at once, its median time over 9 runs.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_TESTS_HOST_WORK_H
#define TILA_TESTS_HOST_WORK_H

#include <stdlib.h>
#include <time.h>

#include <mpi.h>

static inline double host_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* `reps` sweeps of 32 KiB. */
static inline double host_work(long reps)
{
    static double x[4096];
    double s = 0;
    for (long r = 0; r < reps; r++)
        for (int i = 0; i < 4096; i++) {
            x[i] = x[i] * 0.999 + 1e-3 * (double)(i & 7);
            s += x[i];
        }
    return s;
}

static inline int host_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The slowest rank's median of 9 runs of host_work(reps), every rank at once. */
static inline double host_time(long reps)
{
    double t[9], med, worst;
    volatile double sink = 0;
    for (int k = 0; k < 9; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = host_now();
        sink += host_work(reps);
        t[k] = host_now() - t0;
    }
    (void)sink;
    qsort(t, 9, sizeof *t, host_cmp);
    med = t[4];
    MPI_Allreduce(&med, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return worst;
}

/* Sweeps for about 40 ms of one core, agreed by every rank. */
static inline long host_reps(void)
{
    double t0 = host_now();
    volatile double sink = host_work(200);
    (void)sink;
    long reps = (long)(0.04 / ((host_now() - t0) / 200)), all;
    MPI_Allreduce(&reps, &all, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    return all;
}

#endif /* TILA_TESTS_HOST_WORK_H */
