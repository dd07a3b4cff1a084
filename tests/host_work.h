/**
 * @file host_work.h
 * @brief The program's own work, as the layer tests time it before and after Tila's calls:
 *        a cache-resident single-threaded loop (a program's grid or FFT code between
 *        library calls), run by every rank at once, its median time over 9 runs; and the
 *        CPU time the threads started after it was first timed (Tila's, StarPU's) take
 *        while it runs again.
 *
 * What Tila may cost the program between calls is CPU time its threads take then (a worker
 * or progress thread polling instead of sleeping): that share of a core is the test.  The
 * work's time against its time before Tila started is reported beside it, not tested: on
 * 2 shared cores its medians moved by 0.86-1.06x from one run to the next with nothing of
 * Tila's running, while threads left polling take most of a core.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_TESTS_HOST_WORK_H
#define TILA_TESTS_HOST_WORK_H

/* gettid: its includers define _GNU_SOURCE before any header. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

/* CPU seconds taken so far by one thread of this process: the scheduler's nanoseconds on a
 * CPU (schedstat), else user + system clock ticks (stat, 10 ms). */
static inline double host_thread_cpu(long tid)
{
    char path[64], line[1024];
    snprintf(path, sizeof path, "/proc/self/task/%ld/schedstat", tid);
    FILE *f = fopen(path, "r");
    unsigned long long ns, ut, st;
    if (f) {
        int ok = fscanf(f, "%llu", &ns) == 1;
        fclose(f);
        if (ok) return 1e-9 * (double)ns;
    }
    snprintf(path, sizeof path, "/proc/self/task/%ld/stat", tid);
    if (!(f = fopen(path, "r"))) return 0; /* the thread has ended */
    size_t len = fread(line, 1, sizeof line - 1, f);
    fclose(f);
    line[len] = 0;
    /* after the name (in parentheses, spaces allowed): utime and stime are fields 14, 15 */
    char *p = strrchr(line, ')');
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
        return 0;
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

#define HOST_MAX_THREADS 256

/* The program before Tila started: its work's time (host_time) and its threads (its own,
 * OpenBLAS's pool, MPI's), whose CPU time is the program's business, not Tila's. */
typedef struct {
    double seconds;
    long tids[HOST_MAX_THREADS];
    int n;
} host_before_t;

static inline int host_listed(const host_before_t *b, long tid)
{
    for (int k = 0; k < b->n; k++)
        if (b->tids[k] == tid) return 1;
    return 0;
}

static inline void host_before(long reps, host_before_t *b)
{
    b->n = 0;
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (atol(e->d_name) > 0 && b->n < HOST_MAX_THREADS) b->tids[b->n++] = atol(e->d_name);
    if (d) closedir(d);
    b->seconds = host_time(reps);
}

/* CPU seconds taken so far by the threads the process has gained since b. */
static inline double host_new_threads_cpu(const host_before_t *b)
{
    DIR *d = opendir("/proc/self/task");
    if (!d) return 0;
    double cpu = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        long tid = atol(e->d_name);
        if (tid > 0 && !host_listed(b, tid)) cpu += host_thread_cpu(tid);
    }
    closedir(d);
    return cpu;
}

typedef struct {
    double slowdown; /**< the work's median time over its time before Tila started */
    double share;    /**< the new threads' CPU time meanwhile, in cores */
} host_cost_t;

/* host_time(reps) after Tila's calls against its time in b, and the CPU time the threads
 * started since b (Tila's, StarPU's) took meanwhile: the largest of every rank's.  A first
 * round untimed: OpenBLAS's pool, which Tila's finalize or pause may have grown back to
 * the program's count with new threads, spins for a while after the program's own last
 * BLAS call (0.3-0.5 of a core here) before it sleeps; threads Tila left polling do not. */
static inline host_cost_t host_cost(long reps, const host_before_t *b)
{
    (void)host_time(reps);
    double cpu0 = host_new_threads_cpu(b), t0 = host_now();
    double after = host_time(reps);
    double mine[2] = { after / b->seconds, (host_new_threads_cpu(b) - cpu0) / (host_now() - t0) };
    double all[2];
    MPI_Allreduce(mine, all, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return (host_cost_t){ all[0], all[1] };
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
