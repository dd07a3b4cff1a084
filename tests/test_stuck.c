/**
 * @file test_stuck.c
 * @brief tila-stuck-test: the calls that hung in issue 58, in a loop under competing load;
 *        and a call that can no longer finish fails with TILA_ERR_STUCK on every rank.
 *
 * Stress (no argument): a QR factorization of a tall and skinny matrix with the PANEL
 * tree and tiles far larger than its width (20000 x 128 in tiles of 8192, ib 64: issue
 * 58's `tila-bench geqrf --m 100000 --n 128 --tree panel`, whose tiles of 8192 were chosen
 * automatically) ROUNDS times (12), each call after a pause of 0 to 5 ms (idle workers
 * nap, then rest after 1 ms: every hand-over between the two is crossed), while two
 * threads of the program spin beside Tila's on the rank's cores.  StarPU counts 1 GB for
 * the node (STARPU_LIMIT_CPU_MEM=1024, a small node's view, as issue 58's VM showed 5 of
 * its 24 GB): a buffer sized by the nominal tile instead of the panel (a scratch of m x nb)
 * can then never be allocated, and the call would wait for ever.  Each call's R is
 * checked where it lies (the owner of tile (0, 0)): A^T A x = R^T R x, scaled by
 * ||A||_F^2 ||x|| m eps, below 50.  A call that does not return within its time (300 s)
 * fails the test (an alarm), and the watch (TILA_STUCK_TIMEOUT, 30 s here) turns a hang
 * into TILA_ERR_STUCK before that.
 *
 * --stuck fetch|deps: TILA_TEST_STUCK gives the second wait of the last rank (fetch) or of
 * rank 0 (deps) a task that never starts (runtime/watch.c), with TILA_STUCK_TIMEOUT=2:
 * the norm of that wait must fail with TILA_ERR_STUCK on every rank, after at least the
 * 2 s and within 60, then the next call and tila_finalize return TILA_ERR_STUCK at once.
 * Without the watch the norm never returns: the alarm fails the test after 120 s.
 *
 * One line per check, then "N passed, N failed, N skipped"; exit 0 when nothing failed.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <float.h>
#include <math.h>
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tila.h"

static int passed, failed, rank, size;

static void check(int ok, const char *what)
{
    if (rank == 0) printf("%s stuck %s\n", ok ? "PASS" : "FAIL", what);
    ok ? passed++ : failed++;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* A call that never returns: the test fails instead of waiting with it. */
static void alarm_fired(int sig)
{
    (void)sig;
    static const char msg[] = "FAIL stuck: a call did not return in its time (a hang)\n";
    if (write(STDOUT_FILENO, msg, sizeof msg - 1) < 0) _exit(3);
    _exit(2);
}

/* ---- competing load: threads of the program's own that spin ------------------------- */

static volatile int spinning;

static void *spin(void *arg)
{
    (void)arg;
    volatile double x = 1;
    while (__atomic_load_n(&spinning, __ATOMIC_RELAXED))
        for (int k = 0; k < 100000; k++)
            x = x * 1.0000001 + 1e-9;
    return NULL;
}

/* ---- the QR of issue 58 --------------------------------------------------------------- */

/* A deterministic m x n matrix, the same on every rank. */
static void fill(double *a, int m, int n, unsigned seed)
{
    unsigned long long s = 0x9e3779b97f4a7c15ULL * (seed + 1);
    for (size_t k = 0; k < (size_t)m * n; k++) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        a[k] = (double)(s >> 11) / 9007199254740992.0 - 0.5;
    }
}

/* ||A^T A x - R^T R x|| / (||A||_F^2 ||x|| m eps): R the upper triangle of f's n x n top. */
static double qr_residual(const double *a, const double *f, int m, int n, int ldf)
{
    double *x = malloc(sizeof(double) * (size_t)n), *y = calloc((size_t)n, sizeof(double));
    double *ax = calloc((size_t)m, sizeof(double)), *rx = calloc((size_t)n, sizeof(double));
    double an = 0, xn = 0, rn = 0;
    for (int j = 0; j < n; j++) {
        x[j] = (double)((j * 7919) % 1000) / 1000 - 0.5;
        xn += x[j] * x[j];
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            ax[i] += a[(size_t)j * m + i] * x[j];
            an += a[(size_t)j * m + i] * a[(size_t)j * m + i];
        }
    for (int j = 0; j < n; j++) /* y = A^T (A x) */
        for (int i = 0; i < m; i++)
            y[j] += a[(size_t)j * m + i] * ax[i];
    for (int i = 0; i < n; i++) /* rx = R x */
        for (int j = i; j < n; j++)
            rx[i] += f[(size_t)j * ldf + i] * x[j];
    for (int j = 0; j < n; j++) { /* y -= R^T (R x) */
        double s = 0;
        for (int i = 0; i <= j; i++)
            s += f[(size_t)j * ldf + i] * rx[i];
        y[j] -= s;
        rn += y[j] * y[j];
    }
    free(x);
    free(y);
    free(ax);
    free(rx);
    return sqrt(rn) / (an * sqrt(xn) * m * DBL_EPSILON);
}

static int stress(void)
{
    const int m = 20000, n = 128, nb = 8192, ib = 64, rounds = 12;
    double *a = malloc(sizeof(double) * (size_t)m * n), *f = malloc(sizeof(double) * (size_t)m * n);
    fill(a, m, n, 58);
    pthread_t hog[2];
    __atomic_store_n(&spinning, 1, __ATOMIC_RELAXED);
    for (int k = 0; k < 2; k++)
        pthread_create(&hog[k], NULL, spin, NULL);
    int bad = 0, rc = 0;
    double worst = 0, slowest = 0;
    for (int r = 0; r < rounds && !rc; r++) {
        /* 0, 0.5, 1, 2, 5 ms of nothing before the call */
        static const long gap_us[] = { 0, 500, 1000, 2000, 5000 };
        usleep((useconds_t)gap_us[r % 5]);
        memcpy(f, a, sizeof(double) * (size_t)m * n);
        tila_desc_t *A = NULL, *T = NULL;
        alarm(300);
        double t0 = now();
        rc = tila_desc_create_lapack(&A, TILA_REAL64, f, m, m, n, nb, nb, NULL);
        if (!rc) rc = tila_desc_create_qr_t(&T, A, ib, TILA_QR_TREE_PANEL);
        if (!rc) rc = tila_dgeqrf(A, T);
        tila_desc_destroy(&T);
        tila_desc_destroy(&A);
        double t = now() - t0;
        alarm(0);
        slowest = t > slowest ? t : slowest;
        /* rank 0 owns tile (0, 0) with the default grid: R is in its copy */
        double res = rank == 0 && !rc ? qr_residual(a, f, m, n, m) : 0;
        worst = res > worst ? res : worst;
        bad += !(res < 50);
    }
    __atomic_store_n(&spinning, 0, __ATOMIC_RELAXED);
    for (int k = 0; k < 2; k++)
        pthread_join(hog[k], NULL);
    int mine[2] = { rc, bad }, all[2];
    MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&mine[1], &all[1], 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    char what[300];
    snprintf(what, sizeof what,
             "np=%d: %d calls of tila_dgeqrf, %d x %d in tiles of %d, PANEL tree, under load: "
             "status %d (%s), worst residual %.2g (below 50), slowest call %.2f s",
             size, rounds, m, n, nb, all[0], tila_strerror(all[0]), worst, slowest);
    check(all[0] == 0 && all[1] == 0, what);
    free(a);
    free(f);
    return 0;
}

/* ---- a call that can no longer finish ------------------------------------------------ */

static void stuck(const char *kind)
{
    tila_desc_t *A = NULL;
    double value = 0;
    int rc = tila_desc_create(&A, TILA_REAL64, 400, 400, 100, 100, NULL);
    if (!rc) rc = tila_dplrnt(A, 3); /* the first wait */
    char what[300];
    snprintf(what, sizeof what, "np=%d %s: the call before returns %d", size, kind, rc);
    check(rc == 0, what);
    alarm(120);
    double t0 = now();
    rc = tila_dlange(TILA_NORM_MAX, A, &value); /* the second: a task never starts */
    double t = now() - t0;
    alarm(0);
    int lo, hi;
    MPI_Allreduce(&rc, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&rc, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    snprintf(what, sizeof what,
             "np=%d %s: the call fails with %d..%d on the ranks (TILA_ERR_STUCK %d) after "
             "%.1f s (2 s watched, at most 60)",
             size, kind, lo, hi, TILA_ERR_STUCK, t);
    check(lo == TILA_ERR_STUCK && hi == TILA_ERR_STUCK && t >= 2 && t < 60, what);
    alarm(60);
    t0 = now();
    rc = tila_dlange(TILA_NORM_MAX, A, &value);
    int rf = tila_finalize();
    t = now() - t0;
    alarm(0);
    snprintf(what, sizeof what, "np=%d %s: then a call returns %d and tila_finalize %d in %.2f s",
             size, kind, rc, rf, t);
    check(rc == TILA_ERR_STUCK && rf == TILA_ERR_STUCK && t < 10, what);
}

int main(int argc, char **argv)
{
    int provided;
    const char *kind = argc > 2 && !strcmp(argv[1], "--stuck") ? argv[2] : NULL;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    signal(SIGALRM, alarm_fired);
    if (kind) {
        char hook[64];
        snprintf(hook, sizeof hook, "%d:2:%s", strcmp(kind, "deps") ? size - 1 : 0, kind);
        setenv("TILA_TEST_STUCK", hook, 1);
        setenv("TILA_STUCK_TIMEOUT", "2", 1);
    }
    else {
        setenv("STARPU_LIMIT_CPU_MEM", "1024", 1);
        if (!getenv("TILA_STUCK_TIMEOUT")) setenv("TILA_STUCK_TIMEOUT", "30", 1);
    }
    int rc = tila_init(&argc, &argv);
    if (rc) {
        if (rank == 0) printf("FAIL stuck tila_init: %s\n", tila_strerror(rc));
        failed++;
    }
    else if (kind) {
        stuck(kind);
    }
    else {
        stress();
        tila_finalize();
    }
    if (rank == 0) printf("%d passed, %d failed, 0 skipped\n", passed, failed);
    MPI_Finalize();
    return failed != 0;
}
