/**
 * @file test_host.c
 * @brief A plain LAPACK program (no MPI of its own), run with libtila_lapack preloaded, in
 *        the situations a library meets in programs it did not choose.
 *
 * What it proves, one mode per run (argument 1), one line per check (PASS|FAIL|SKIP
 * lapack-host MODE ...), exit 0 when nothing failed.  Each dgeqrf (m = 301, n = 300, so
 * that m is not a multiple of the tile) is compared with the real LAPACK's on the same
 * matrix: R within 30 n eps of LAPACK's (relative to R's largest entry), TAU within 30 n
 * eps; the path is read back from the layer (tila_lapack_calls).
 *  - alone: started by mpirun -np 2 as independent runs are; each process's matrix is its
 *    own (seeded by the launcher's rank): Tila takes the call on each process alone and
 *    each gets LAPACK's answer.  "alone-one": only the launcher's first process calls
 *    (the other exits at once): no wait for it.
 *  - signals: the program's own SIGINT and SIGSEGV handlers (and every other signal's
 *    disposition) are the same after a call that started Tila, and a raised SIGINT reaches
 *    the program's handler.
 *  - fork: after a call that started Tila, the program forks; the child's dgeqrf returns
 *    LAPACK's answer (the real routine: Tila cannot run in a child) and the child exits
 *    normally through exit() (its atexit handlers, the layer's among them) within 60 s;
 *    the parent's next call still runs on Tila.
 *  - home: run with a StarPU home where nothing can be written (the script's choice): Tila
 *    starts anyway and takes the call (the script checks the line that says where the models
 *    went).
 *  - nomem: the allocation of dgeqrf's TAU gather fails (this program's malloc fails the
 *    second block of exactly that size, 8 nb n bytes, nb = TILA_LAPACK_NB: the first is
 *    T's): it is taken before A is written, so the call goes to LAPACK with A intact and
 *    gives LAPACK's answer (no INFO = -10000).
 *  - omp: with OpenBLAS built with OpenMP (else SKIP), the program's own OpenMP thread
 *    count (3) is the same after a call on Tila.
 *  - noreal: run with TILA_TEST_NO_REAL=dgeqrf_,dlange_ (the layer finds no real routine of
 *    these): a dgeqrf that falls to LAPACK (TILA_LAPACK_MIN_N above its order) returns
 *    INFO = -10001 with A and TAU as they were, a dlange NaN, and the process goes on (no
 *    abort); a dgeqrf that Tila takes still gives LAPACK's answer with INFO = 0.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE /* dladdr, RTLD_DEFAULT */
#include <dlfcn.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../real_routine.h"

void dgeqrf_(const int *m, const int *n, double *a, const int *lda, double *tau, double *work,
             const int *lwork, int *info);
double dlange_(const char *norm, const int *m, const int *n, const double *a, const int *lda,
               double *work, size_t norm_len);

static const char *mode;
static int failures;

static void report(int ok, const char *what, double value)
{
    failures += !ok;
    printf("%s lapack-host %s: %s %.3g\n", ok ? "PASS" : "FAIL", mode, what, value);
    fflush(stdout);
}

/* ---- a malloc that fails once, on request ---------------------------------------------- */

extern void *__libc_malloc(size_t size);
static size_t fail_size; /* mallocs of exactly this size are counted */
static int fail_at;      /* and the one with this count fails */
static int fail_seen, fail_hits;

/* exported (Makefile.am), so that it is every library's malloc */
__attribute__((visibility("default"))) void *malloc(size_t size)
{
    if (size && size == __atomic_load_n(&fail_size, __ATOMIC_ACQUIRE) &&
        __atomic_add_fetch(&fail_seen, 1, __ATOMIC_ACQ_REL) == fail_at) {
        __atomic_add_fetch(&fail_hits, 1, __ATOMIC_RELAXED);
        errno = ENOMEM;
        return NULL;
    }
    return __libc_malloc(size);
}

/* ---- the layer and the real LAPACK ----------------------------------------------------- */

/* Calls of `symbol` that took path `path` so far (0: Tila; 4: LAPACK, Tila cannot run; 5:
 * Tila failed after writing), from the preloaded layer; -1 without it. */
static long calls(const char *symbol, int path)
{
    typedef long calls_fn(const char *, int);
    calls_fn *fn = (calls_fn *)dlsym(RTLD_DEFAULT, "tila_lapack_calls");
    return fn ? fn(symbol, path) : -1;
}

static void *real(const char *symbol) { return real_lapack_routine("test_host", symbol); }

enum { M = 301, N = 300, LDA = 303 };

/* Entries in [-1, 1) from a linear congruential sequence of its own seed; NaN below row M
 * (ld > m: never read). */
static void fill(double *a, unsigned seed)
{
    unsigned long long x = 0x9E3779B97F4A7C15ULL * (seed + 1);
    for (int j = 0; j < N; j++)
        for (int i = 0; i < LDA; i++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            a[(size_t)j * LDA + i] = i < M ? (double)(x >> 11) / 4503599627370496.0 - 1 : NAN;
        }
}

/*
 * dgeqrf through the layer (whatever path it takes) and the real one on the same matrix
 * (seed): the largest difference of R relative to R's largest entry, or of TAU, whichever
 * is worse; +inf when either failed.  *info is the layer's INFO.
 */
static double geqrf_error(unsigned seed, int *info)
{
    typeof(dgeqrf_) *rgeqrf = real("dgeqrf_");
    double *a = malloc(sizeof(double) * LDA * N), *b = malloc(sizeof(double) * LDA * N);
    double ta[N], tb[N], w[64 * N];
    int m = M, n = N, lda = LDA, lwork = 64 * N, info2;
    fill(a, seed);
    memcpy(b, a, sizeof(double) * LDA * N);
    dgeqrf_(&m, &n, a, &lda, ta, w, &lwork, info);
    rgeqrf(&m, &n, b, &lda, tb, w, &lwork, &info2);
    double e = 0, big = 0, et = 0;
    for (int j = 0; j < N; j++) {
        for (int i = 0; i <= j; i++) {
            e = fmax(e, fabs(a[(size_t)j * LDA + i] - b[(size_t)j * LDA + i]));
            big = fmax(big, fabs(b[(size_t)j * LDA + i]));
        }
        et = fmax(et, fabs(ta[j] - tb[j]));
    }
    free(a);
    free(b);
    if (*info || info2 || !(big > 0)) return INFINITY;
    e /= big;
    return e > et ? e : et;
}

static const double tol = 30 * N * DBL_EPSILON;

/* One checked dgeqrf: "what" taking `path` (its calls count up by one), LAPACK's answer. */
static void check_call(const char *what, unsigned seed, int path)
{
    long before = calls("dgeqrf_", path);
    int info = -1;
    double e = geqrf_error(seed, &info);
    char line[300];
    snprintf(line, sizeof line, "%s (path %d, INFO %d), error against LAPACK", what, path, info);
    report(calls("dgeqrf_", path) == before + 1 && e <= tol, line, e);
}

/* ---- the modes ------------------------------------------------------------------------- */

static void alone(int only_first)
{
    const char *r = getenv("OMPI_COMM_WORLD_RANK");
    if (!r) r = getenv("PMI_RANK");
    int rank = r ? atoi(r) : 0;
    if (only_first && rank > 0) return; /* exits at once, never calling LAPACK */
    char what[120];
    snprintf(what, sizeof what, "launcher's process %d, its own matrix, on Tila alone", rank);
    check_call(what, 3 + 7 * (unsigned)rank, 0);
}

static volatile sig_atomic_t got_int;
static void on_int(int sig, siginfo_t *si, void *ctx)
{
    (void)sig, (void)si, (void)ctx;
    got_int = 1;
}
static void on_segv(int sig)
{
    (void)sig;
    _exit(3);
}

static void signals(void)
{
    struct sigaction sa = { 0 }, before[NSIG], after[NSIG];
    sa.sa_sigaction = on_int;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sa.sa_handler = on_segv;
    sa.sa_flags = 0;
    sigaction(SIGSEGV, &sa, NULL);
    for (int s = 1; s < NSIG; s++)
        if (sigaction(s, NULL, &before[s])) memset(&before[s], 0, sizeof before[s]);
    check_call("a call that starts Tila", 5, 0);
    int changed = 0, first = 0;
    for (int s = 1; s < NSIG; s++) {
        if (sigaction(s, NULL, &after[s])) memset(&after[s], 0, sizeof after[s]);
        if (after[s].sa_handler != before[s].sa_handler ||
            (after[s].sa_flags & SA_SIGINFO) != (before[s].sa_flags & SA_SIGINFO)) {
            changed++;
            if (!first) first = s;
        }
    }
    report(after[SIGINT].sa_sigaction == on_int && (after[SIGINT].sa_flags & SA_SIGINFO),
           "the program's SIGINT handler after the call", SIGINT);
    report(after[SIGSEGV].sa_handler == on_segv, "the program's SIGSEGV handler after the call",
           SIGSEGV);
    char what[120];
    snprintf(what, sizeof what, "signals whose disposition changed (first: %d, %s)", first,
             first ? strsignal(first) : "none");
    report(changed == 0, what, changed);
    raise(SIGINT);
    report(got_int, "a raised SIGINT reaches the program's handler", got_int);
}

static void forking(void)
{
    check_call("the parent's call before fork", 11, 0);
    pid_t pid = fork();
    if (pid == 0) {
        mode = "fork (child)";
        check_call("the child's call: LAPACK's routine", 13, 4);
        exit(failures ? 1 : 0); /* through the atexit handlers */
    }
    int status = -1, waited = 0;
    for (; waited < 600 && pid > 0; waited++) {
        if (waitpid(pid, &status, WNOHANG) == pid) break;
        nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
    }
    if (waited == 600) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    report(pid > 0 && waited < 600 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
           "the child exits normally within 60 s (seconds)", waited / 10.0);
    check_call("the parent's call after the child", 17, 0);
}

static void home(void) { check_call("a call with a home where nothing can be written", 19, 0); }

static void nomem(void)
{
    const char *nb = getenv("TILA_LAPACK_NB");
    int t = nb ? atoi(nb) : 0;
    if (t <= 0) {
        report(0, "TILA_LAPACK_NB is not set (the gather's size)", 0);
        return;
    }
    /* T (nb x n, PANEL scheme) is the first block of that size, the gather the second */
    fail_at = 2;
    __atomic_store_n(&fail_size, sizeof(double) * (size_t)t * N, __ATOMIC_RELEASE);
    check_call("no memory for TAU's gather: LAPACK runs the call", 23, 4);
    __atomic_store_n(&fail_size, 0, __ATOMIC_RELEASE);
    report(fail_hits == 1 && fail_seen == 2,
           "the second block of the gather's size (T's, then the gather's) failed (blocks)",
           fail_seen);
    report(calls("dgeqrf_", 5) == 0, "no call failed after writing A (INFO = -10000)",
           calls("dgeqrf_", 5));
    check_call("a call with memory again: Tila", 29, 0);
}

static void omp(void)
{
    typedef int get_fn(void);
    typedef void set_fn(int);
    get_fn *parallel = (get_fn *)dlsym(RTLD_DEFAULT, "openblas_get_parallel");
    get_fn *get = (get_fn *)dlsym(RTLD_DEFAULT, "omp_get_max_threads");
    set_fn *set = (set_fn *)dlsym(RTLD_DEFAULT, "omp_set_num_threads");
    if (!parallel || parallel() != 2 || !get || !set) {
        printf("SKIP lapack-host omp: OpenBLAS is not the OpenMP build here\n");
        return;
    }
    set(3);
    check_call("a call on Tila with OpenBLAS built with OpenMP", 31, 0);
    report(get() == 3, "the program's OpenMP thread count after the call (3)", get());
    check_call("a second call", 37, 0);
    report(get() == 3, "the program's OpenMP thread count after the second call (3)", get());
}

static void noreal(void)
{
    setenv("TILA_LAPACK_MIN_N", "100000", 1);
    double *a = malloc(sizeof(double) * LDA * N), *a0 = malloc(sizeof(double) * LDA * N);
    double tau[N], w[64 * N];
    int m = M, n = N, lda = LDA, lwork = 64 * N, info = 0, same = 1;
    fill(a, 41);
    for (int j = 0; j < N; j++) {
        a[(size_t)j * LDA + M] = 0; /* the rows below M defined, to compare them too */
        a[(size_t)j * LDA + M + 1] = 0;
        tau[j] = -2;
    }
    memcpy(a0, a, sizeof(double) * LDA * N);
    long before = calls("dgeqrf_", 1);
    dgeqrf_(&m, &n, a, &lda, tau, w, &lwork, &info);
    for (size_t i = 0; i < (size_t)LDA * N; i++)
        same &= a[i] == a0[i];
    for (int j = 0; j < N; j++)
        same &= tau[j] == -2;
    report(info == -10001 && same && calls("dgeqrf_", 1) == before + 1,
           "dgeqrf for LAPACK without its routine: INFO -10001, A and TAU untouched", info);
    double v = dlange_("M", &m, &n, a, &lda, w, 1);
    report(v != v, "dlange for LAPACK without its routine: NaN", v);
    free(a);
    free(a0);
    setenv("TILA_LAPACK_MIN_N", "0", 1);
    check_call("a call Tila takes, without the real routine (its workspace query skipped)", 43, 0);
}

int main(int argc, char **argv)
{
    mode = argc > 1 ? argv[1] : "";
    if (calls("dgeqrf_", 0) < 0) {
        printf("FAIL lapack-host %s: libtila_lapack is not preloaded\n", mode);
        return 1;
    }
    setenv("TILA_LAPACK_MIN_N", "0", 1);
    if (!strcmp(mode, "alone"))
        alone(0);
    else if (!strcmp(mode, "alone-one"))
        alone(1);
    else if (!strcmp(mode, "signals"))
        signals();
    else if (!strcmp(mode, "fork"))
        forking();
    else if (!strcmp(mode, "home"))
        home();
    else if (!strcmp(mode, "nomem"))
        nomem();
    else if (!strcmp(mode, "omp"))
        omp();
    else if (!strcmp(mode, "noreal"))
        noreal();
    else {
        fprintf(stderr, "usage: test-host alone|alone-one|signals|fork|home|nomem|omp|noreal\n");
        return 2;
    }
    return failures ? 1 : 0;
}
