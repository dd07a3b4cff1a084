/**
 * @file test_lifecycle.c
 * @brief tila-lifecycle-test: starting and stopping Tila leaves the host program as it was.
 *
 * A program that initialises MPI itself (MPI_THREAD_MULTIPLE) takes a snapshot of its
 * environment and of OpenBLAS's thread count, then three times: tila_init, a norm of a
 * generated matrix (the same value each time), tila_finalize, and compares: the
 * environment (every variable, sorted) and OpenBLAS's thread count (3, the program's
 * choice) must be as before, and MPI must still work.  Run without OPENBLAS_NUM_THREADS,
 * so that tila_init makes OpenBLAS single-threaded, and at rank counts where it sets
 * StarPU's variables.  While Tila runs a Cholesky factorization that moves tiles between
 * ranks, each rank has its own receive posted on MPI_COMM_WORLD from any source with any
 * tag, as an application with its own traffic would: it must get the application's
 * message, and Tila its tiles.  And a thread of the program named "MPI", as StarPU-MPI
 * names its progress thread, tests a pending request 2000 times while Tila runs: Tila's
 * MPI_Test must pass its calls through as they are, the thread's scheduling policy
 * unchanged (Tila makes StarPU-MPI's own thread SCHED_BATCH when it naps it).  tila_pause
 * on every rank, tila_resume on rank 0 alone, tila_pause again (collective whatever each
 * rank's state), then a norm: the same value.  The program's own SIGINT and SIGSEGV
 * handlers, and every signal's disposition, are as before after each tila_init.
 * And before the program starts MPI, the launcher's first process forks a process of its
 * own that never calls MPI itself (as a program under the LAPACK layer): there
 * tila_init_comm(MPI_COMM_SELF) starts Tila alone, outside the launcher's job (a world of
 * one), its handlers as they were (MPI's too: Tila started it), a norm runs; a child forked
 * from it finds Tila stopped (tila_initialized 0, a call TILA_ERR_NOT_INITIALIZED,
 * tila_finalize nothing, tila_init TILA_ERR_MPI) and exits normally within 60 s; and after
 * tila_finalize, which finalized the MPI it started, tila_init returns TILA_ERR_MPI
 * instead of aborting in MPI.  One line per check, then "N passed, N failed, N skipped";
 * exit 0 when nothing failed.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tila.h"
#include "tila_config.h"

extern char **environ;
#ifdef TILA_HAVE_OPENBLAS
int openblas_get_num_threads(void);
void openblas_set_num_threads(int num_threads);
#endif

static int passed, failed;

static int blas_threads(void)
{
#ifdef TILA_HAVE_OPENBLAS
    return openblas_get_num_threads();
#else
    return 0;
#endif
}

/* A program's thread named "MPI": 2000 tests of a receive that never comes; the seconds
 * they took, or -1 if the thread's scheduling policy changed meanwhile. */
static void *mpi_named_thread(void *arg)
{
    double *seconds = arg;
    int policy = sched_getscheduler(0);
    int x;
    MPI_Request req;
    prctl(PR_SET_NAME, "MPI");
    MPI_Irecv(&x, 1, MPI_INT, 0, 4242, MPI_COMM_SELF, &req);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int k = 0, flag = 0; k < 2000; k++)
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    MPI_Cancel(&req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    *seconds = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
    if (sched_getscheduler(0) != policy) *seconds = -1;
    return NULL;
}

static int by_string(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The environment as one string, its variables sorted. */
static char *snapshot(void)
{
    size_t n = 0, len = 1;
    while (environ[n])
        len += strlen(environ[n++]) + 1;
    char **v = malloc(sizeof *v * (n + 1)), *s = malloc(len);
    memcpy(v, environ, sizeof *v * n);
    qsort(v, n, sizeof *v, by_string);
    s[0] = 0;
    for (size_t k = 0; k < n; k++) {
        strcat(s, v[k]);
        strcat(s, "\n");
    }
    free(v);
    return s;
}

/* The first line of a that b lacks, or "" (for the report). */
static const char *first_difference(const char *a, const char *b, char *line, size_t size)
{
    line[0] = 0;
    for (const char *p = a; *p;) {
        const char *e = strchr(p, '\n');
        size_t l = (size_t)(e - p);
        int found = 0;
        for (const char *q = b; *q && !found;) {
            const char *f = strchr(q, '\n');
            found = (size_t)(f - q) == l && !strncmp(p, q, l);
            q = f + 1;
        }
        if (!found) {
            snprintf(line, size, "%.*s", (int)l, p);
            break;
        }
        p = e + 1;
    }
    return line;
}

static void check(int rank, int ok, const char *what, const char *detail)
{
    int all = ok;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (all)
        passed++;
    else
        failed++;
    if (rank == 0 || !ok)
        printf("%s lifecycle %s%s%s (rank %d)\n", all ? "PASS" : "FAIL", what, *detail ? ": " : "",
               detail, rank);
}

/* ---- Signals -------------------------------------------------------------------------- */

static void on_signal(int sig) { (void)sig; }

/* Every signal's handler; 1 when they are the same in a and b (*first: the first that is not). */
static void dispositions(void (**h)(int))
{
    for (int s = 1; s < NSIG; s++) {
        struct sigaction sa;
        h[s] = sigaction(s, NULL, &sa) ? SIG_ERR : sa.sa_handler;
    }
}

static int same_dispositions(void (**a)(int), void (**b)(int), int *first)
{
    *first = 0;
    for (int s = 1; s < NSIG && !*first; s++)
        if (a[s] != b[s]) *first = s;
    return !*first;
}

/* ---- A process of its own (before the program starts MPI) -------------------------------- */

enum {
    ALONE_START = 1,   /* tila_init_comm(MPI_COMM_SELF) on a world of one */
    ALONE_SIGNALS = 2, /* every signal's handler as before it */
    ALONE_NORM = 4,    /* a norm */
    ALONE_FORK = 8,    /* a forked child finds Tila stopped and exits normally */
    ALONE_AGAIN = 16   /* tila_init after tila_finalize: TILA_ERR_MPI */
};

/* What the checks found, one bit each. */
static int alone(void)
{
    int ok = 0, first;
    struct sigaction sa = { 0 };
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGSEGV, &sa, NULL);
    void (*before[NSIG])(int), (*after[NSIG])(int);
    dispositions(before);
    int rc = tila_init_comm(NULL, NULL, MPI_COMM_SELF), world = 0;
    if (!rc) MPI_Comm_size(MPI_COMM_WORLD, &world);
    if (!rc && tila_comm_size() == 1 && world == 1) ok |= ALONE_START;
    dispositions(after);
    if (same_dispositions(before, after, &first)) ok |= ALONE_SIGNALS;
    if (first) fprintf(stderr, "lifecycle alone: signal %d's handler changed\n", first);
    tila_desc_t *A = NULL;
    double v = -1;
    if (!rc && !tila_desc_create(&A, TILA_REAL64, 300, 200, 64, 64, NULL) && !tila_dplrnt(A, 7) &&
        !tila_dlange(TILA_NORM_FRO, A, &v) && v > 0)
        ok |= ALONE_NORM;
    fflush(NULL);
    pid_t pid = rc ? -1 : fork();
    if (pid == 0) {
        double w = -1;
        int fine = !tila_initialized() &&
                   tila_dlange(TILA_NORM_FRO, A, &w) == TILA_ERR_NOT_INITIALIZED &&
                   tila_finalize() == TILA_SUCCESS && tila_init(NULL, NULL) == TILA_ERR_MPI;
        exit(fine ? 0 : 1); /* through the atexit handlers */
    }
    int status = -1, waited = 0;
    for (; pid > 0 && waited < 600; waited++) {
        if (waitpid(pid, &status, WNOHANG) == pid) break;
        nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
    }
    if (pid > 0 && waited == 600) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    if (pid > 0 && waited < 600 && WIFEXITED(status) && WEXITSTATUS(status) == 0) ok |= ALONE_FORK;
    tila_desc_destroy(&A);
    tila_finalize();
    if (!rc && tila_init(NULL, NULL) == TILA_ERR_MPI &&
        tila_init_comm(NULL, NULL, MPI_COMM_SELF) == TILA_ERR_MPI)
        ok |= ALONE_AGAIN;
    return ok;
}

/* Run alone() in a process of its own, before this one starts MPI: its bits, or -1 when it
 * said nothing within 120 s. */
static int alone_in_child(void)
{
    int fds[2], ok = -1;
    if (pipe(fds)) return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        int bits = alone();
        if (write(fds[1], &bits, sizeof bits) != sizeof bits) bits = -1;
        exit(0);
    }
    close(fds[1]);
    struct pollfd p = { .fd = fds[0], .events = POLLIN };
    if (pid > 0 && poll(&p, 1, 120000) == 1 && read(fds[0], &ok, sizeof ok) != sizeof ok) ok = -1;
    close(fds[0]);
    if (pid > 0) {
        kill(pid, SIGKILL); /* nothing, when it is gone already */
        waitpid(pid, NULL, 0);
    }
    return ok;
}

int main(int argc, char **argv)
{
    int provided, rank;
    const char *launched = getenv("OMPI_COMM_WORLD_RANK");
    if (!launched) launched = getenv("PMI_RANK");
    int first_process = !launched || !strcmp(launched, "0");
    int alone_ok = first_process ? alone_in_child() : 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    static const struct {
        int bit;
        const char *what;
    } alone_checks[] = {
        { ALONE_START, "a process of its own: tila_init_comm(MPI_COMM_SELF), a world of one" },
        { ALONE_SIGNALS, "a process of its own: every signal's handler as before tila_init_comm" },
        { ALONE_NORM, "a process of its own: a norm on Tila" },
        { ALONE_FORK, "a process of its own: its forked child finds Tila stopped, exits normally" },
        { ALONE_AGAIN, "a process of its own: tila_init after tila_finalize stopped its MPI: "
                       "TILA_ERR_MPI" },
    };
    for (size_t k = 0; k < sizeof alone_checks / sizeof *alone_checks; k++) {
        char got[40];
        snprintf(got, sizeof got, "checks 0x%x", alone_ok);
        check(rank, !first_process || (alone_ok >= 0 && (alone_ok & alone_checks[k].bit)),
              alone_checks[k].what, got);
    }
    struct sigaction sa = { 0 };
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGSEGV, &sa, NULL);
    void (*handlers[NSIG])(int), (*now[NSIG])(int);
    dispositions(handlers); /* the program's, and its MPI's */
    char *before = snapshot(), detail[512];
#ifdef TILA_HAVE_OPENBLAS
    openblas_set_num_threads(3); /* the program's own choice, which tila_init changes */
#endif
    int threads = blas_threads();
    double first = -1;
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int cycle = 1; cycle <= 3; cycle++) {
        int rc = tila_init(&argc, &argv);
        int first_changed;
        dispositions(now);
        char sigwhat[80], sigdetail[40];
        snprintf(sigwhat, sizeof sigwhat, "cycle %d: every signal's handler as before tila_init",
                 cycle);
        sigdetail[0] = 0;
        int same = same_dispositions(handlers, now, &first_changed);
        if (!same) snprintf(sigdetail, sizeof sigdetail, "signal %d changed", first_changed);
        check(rank, same, sigwhat, sigdetail);
        double value = -1;
        int got = -1, from = (rank + size - 1) % size, mine = 1000 * cycle + rank, tag = -1;
        if (rc == TILA_SUCCESS) {
            MPI_Request req;
            MPI_Status st;
            MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req);
            tila_desc_t *A = NULL, *S = NULL;
            rc = tila_desc_create(&A, TILA_REAL64, 300, 200, 64, 64, NULL);
            if (!rc) rc = tila_desc_create(&S, TILA_REAL64, 400, 400, 64, 64, NULL);
            if (!rc) rc = tila_dplrnt(A, 7);
            if (!rc) rc = tila_dplgsy(400.0, S, 11);
            if (!rc) rc = tila_dpotrf(TILA_LOWER, S);
            if (!rc) rc = tila_dlange(TILA_NORM_FRO, A, &value);
            pthread_t named;
            double seconds = -1;
            pthread_create(&named, NULL, mpi_named_thread, &seconds);
            pthread_join(named, NULL);
            snprintf(detail, sizeof detail, "%.4f s", seconds);
            char what1[96];
            snprintf(what1, sizeof what1,
                     "cycle %d: a program thread named MPI: its MPI_Test left alone", cycle);
            check(rank, seconds >= 0, what1, detail);
            /* tila_pause is collective even after one rank resumed alone; a Tila call after
             * it runs (its workers resumed) */
            int prc = tila_pause();
            if (!prc && rank == 0) prc = tila_resume();
            if (!prc) prc = tila_pause();
            double again = -1;
            if (!prc) prc = tila_dlange(TILA_NORM_FRO, A, &again);
            snprintf(detail, sizeof detail, "rc=%d value=%.17g, before %.17g", prc, again, value);
            char what2[96];
            snprintf(what2, sizeof what2,
                     "cycle %d: tila_pause after rank 0 alone resumed, then a norm", cycle);
            check(rank, prc == 0 && again == value, what2, detail);
            MPI_Send(&mine, 1, MPI_INT, (rank + 1) % size, 77, MPI_COMM_WORLD);
            MPI_Wait(&req, &st);
            tag = st.MPI_TAG;
            tila_desc_destroy(&A);
            tila_desc_destroy(&S);
            tila_finalize();
        }
        snprintf(detail, sizeof detail, "got %d with tag %d, want %d with tag 77", got, tag,
                 1000 * cycle + from);
        char what0[80];
        snprintf(what0, sizeof what0,
                 "cycle %d: the application's any-tag receive during Tila's work", cycle);
        check(rank, got == 1000 * cycle + from && tag == 77, what0, detail);
        if (cycle == 1) first = value;
        snprintf(detail, sizeof detail, "rc=%d value=%.17g", rc, value);
        char what[64];
        snprintf(what, sizeof what, "cycle %d: init, norm, finalize", cycle);
        check(rank, rc == TILA_SUCCESS && value > 0 && value == first, what, detail);
        char *after = snapshot();
        const char *d = first_difference(after, before, detail, sizeof detail);
        if (!*d) d = first_difference(before, after, detail, sizeof detail);
        snprintf(what, sizeof what, "cycle %d: environment as before tila_init", cycle);
        check(rank, !strcmp(after, before), what, *d ? d : "");
        free(after);
        snprintf(detail, sizeof detail, "before %d, after %d", threads, blas_threads());
        snprintf(what, sizeof what, "cycle %d: OpenBLAS threads as before", cycle);
        check(rank, blas_threads() == threads, what, detail);
    }
    int one = 1, sum = 0;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    check(rank, sum == size, "MPI works after tila_finalize", "");
    if (rank == 0) printf("%d passed, %d failed, 0 skipped\n", passed, failed);
    free(before);
    MPI_Finalize();
    return failed ? 1 : 0;
}
