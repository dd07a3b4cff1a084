/**
 * @file layer.c
 * @brief libtila_lapack's core: starting Tila on the first call it takes, choosing each
 *        call's path, Tila's views of LAPACK arrays, and the real routines behind.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tila_config.h"
#include "tila_lapack.h"
#include "tila_layer.h"

#ifdef TILA_HAVE_OPENBLAS
int openblas_get_num_threads(void);
void openblas_set_num_threads(int num_threads);
int openblas_get_parallel(void);
#endif

static void stop(void);

static struct {
    int started; /* tila_init was called here: tila_finalize at exit */
    int failed;  /* Tila could not start: every call goes to the real routines */
    int forked;  /* a child of fork() of a process where Tila ran: the real routines */
    int blas_threads, omp_threads;
} la;

/* One call at a time in Tila; a call from another thread meanwhile goes to LAPACK. */
static pthread_mutex_t la_lock = PTHREAD_MUTEX_INITIALIZER;

/* This thread's depth of calls into the library: a call made while another one is in
 * progress (by the real routine it went to) goes to the real routine too. */
static __thread int la_depth;

static const char *const path_text[TILA_LA_NPATHS] = {
    "Tila, in place on the caller's arrays",
    "LAPACK (below TILA_LAPACK_MIN_N)",
    "LAPACK (an illegal argument, which it reports, or a workspace query)",
    "LAPACK (a case this library leaves to it)",
    "LAPACK (Tila cannot run: not started, several MPI ranks, busy in another thread, or a "
    "child of fork(); or failed before it wrote the caller's arrays)",
    "failed in Tila after it had begun to write the caller's arrays (INFO = -10000)",
};

/*
 * Below this order the real routine runs: TILA_LAPACK_MIN_N, else 4096, from where Tila's
 * QR is ahead of OpenBLAS's threaded LAPACK, and 16384 for the Cholesky routines, which
 * Tila runs at par with OpenBLAS's dpotrf per call (both at dgemm's rate) while its start
 * (MPI, StarPU) is paid once: a program's one Cholesky would only be slower (bench/LOG.md,
 * session 30, has the measurements).
 */
static int min_n(const tila_la_routine_t *r)
{
    const char *s = r->symbol;
    int cholesky = s[0] && !strncmp(s + 1, "po", 2);
    return tila_layer_env_int("TILA_LAPACK_MIN_N", cholesky ? 16384 : 4096);
}

void *tila_la_real(tila_la_routine_t *r)
{
    return tila_layer_real(r, "LAPACK", "-ltila_lapack -llapack");
}

/* The book of calls (dropin/calls.c). */
static tila_layer_book_t book = { .path_text = path_text,
                                  .npaths = TILA_LA_NPATHS,
                                  .lock = PTHREAD_MUTEX_INITIALIZER };

/*
 * For tests and diagnostics: how many calls of routine `symbol` ("dpotrf_") took path
 * `path` (tila_la_path_t) so far; -1 for a path out of range.
 */
TILA_LA_EXPORT long tila_lapack_calls(const char *symbol, int path)
{
    return tila_layer_calls(&book, symbol, path);
}

/*
 * fork(): the child has the caller's thread alone, without Tila's (StarPU's workers,
 * StarPU-MPI's progress thread), and MPI does not survive fork, so Tila cannot run there
 * nor start again: the child's calls go to the real routines (counted TILA_LA_OFF), and its
 * exit does not stop Tila (libtila's own fork handler makes tila_finalize do nothing
 * there).  A lock that another thread of the parent held at the fork is free in the child.
 * The parent goes on as before.
 */
static void forked_child(void)
{
    la.forked = 1;
    la.started = 0;
    pthread_mutex_init(&la_lock, NULL);
    pthread_mutex_init(&book.lock, NULL);
}

/* At the first call: the summary at the program's exit, whether Tila ran or not; the fork
 * handler. */
static void first_call(void)
{
    atexit(stop);
    pthread_atfork(NULL, NULL, forked_child);
}

static void count(tila_la_routine_t *r, tila_la_path_t path)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, first_call);
    tila_layer_count(&book, r, path, 1);
}

/* Where the calls went, and Tila's end when this library started it. */
static void stop(void)
{
    tila_layer_summary(&book, 1);
    if (la.started) tila_finalize();
    la.started = 0;
}

/*
 * Start Tila, on this process alone; 0 when it cannot run here.  A LAPACK call is one
 * process's: Tila runs on the process alone (tila_init_comm on MPI_COMM_SELF), also in a
 * process that a launcher started without the program starting MPI (mpirun -np 2 of a
 * plain LAPACK program, as job scripts start independent runs: each process starts MPI
 * alone, outside the launcher's job, and shares the node's CPUs with the others).  In a
 * program that started MPI itself with several ranks, the calls go to LAPACK: StarPU-MPI
 * 1.3 ends with a barrier on MPI_COMM_WORLD, which ranks that never called would not enter.
 */
static int start(tila_la_routine_t *r)
{
    int up = 0, down = 0, world = 1;
    if (la.forked) return 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    if (down) return 0;
    if (up) MPI_Comm_size(MPI_COMM_WORLD, &world);
    if (world > 1) return 0;
    if (tila_initialized()) return tila_comm_size() == 1;
    if (la.failed) return 0;
    int rc = tila_init_comm(NULL, NULL, MPI_COMM_SELF);
    if (rc) {
        char name[32];
        tila_layer_name(r, name, sizeof name);
        fprintf(stderr, "[tila] %s: Tila did not start (%s): LAPACK runs every call\n", name,
                tila_strerror(rc));
        la.failed = 1;
        return 0;
    }
    la.started = 1;
    /* Tila's end: at the start of MPI_Finalize when the program started MPI itself, else
     * (MPI started by tila_init) at the program's exit (count's atexit). */
    if (up) tila_layer_at_finalize(stop);
    return 1;
}

#ifdef TILA_HAVE_OPENBLAS
/* The calling thread's OpenMP thread count where OpenBLAS is built with OpenMP, else 0. */
static int omp_threads(void)
{
    typedef int get_fn(void);
    get_fn *get =
        openblas_get_parallel() == 2 ? (get_fn *)dlsym(RTLD_DEFAULT, "omp_get_max_threads") : NULL;
    return get ? get() : 0;
}

/*
 * OpenBLAS's thread count set to n, and the calling thread's OpenMP count put back to omp
 * (when not 0): OpenBLAS built with OpenMP sets that too (omp_set_num_threads), and the
 * program's own parallel regions would run with Tila's count, or with the count OpenBLAS
 * had, which need not be the program's.
 */
static void blas_set(int n, int omp)
{
    typedef void set_fn(int);
    set_fn *set = omp > 0 ? (set_fn *)dlsym(RTLD_DEFAULT, "omp_set_num_threads") : NULL;
    openblas_set_num_threads(n);
    if (set) set(omp);
}
#endif

/* Is this thread a StarPU worker (a tile kernel calling LAPACK)? */
static int on_worker(void) { return tila_initialized() && starpu_worker_get_id() >= 0; }

int tila_la_begin(tila_la_routine_t *r, int size, int args_ok)
{
    if (la_depth++ > 0 || on_worker()) return 0;
    tila_la_path_t path = !args_ok ? TILA_LA_ARGS : size < min_n(r) ? TILA_LA_SMALL : TILA_LA_TILA;
#ifdef TILA_HAVE_OPENBLAS
    /* The program's count, read before Tila's first start sets it to 1; with OpenBLAS
     * built with OpenMP, the calling thread's OpenMP count too (blas_set). */
    int threads = path == TILA_LA_TILA ? openblas_get_num_threads() : 0;
    int omp = path == TILA_LA_TILA ? omp_threads() : 0;
#endif
    if (path == TILA_LA_TILA && pthread_mutex_trylock(&la_lock) != 0) path = TILA_LA_OFF;
    if (path == TILA_LA_TILA && !start(r)) {
        pthread_mutex_unlock(&la_lock);
        path = TILA_LA_OFF;
    }
    if (path != TILA_LA_TILA) {
        count(r, path);
        return 0;
    }
#ifdef TILA_HAVE_OPENBLAS
    /* One BLAS thread per worker inside Tila, the program's own count outside it. */
    la.blas_threads = threads;
    la.omp_threads = omp;
    blas_set(1, omp);
#endif
    return 1;
}

static void give_back(void)
{
#ifdef TILA_HAVE_OPENBLAS
    blas_set(la.blas_threads, la.omp_threads);
#endif
    pthread_mutex_unlock(&la_lock);
}

/* The end of a call Tila took, counted under `path`. */
static void end(tila_la_routine_t *r, tila_la_path_t path)
{
    count(r, path);
    /* The program's own work gets the cores back until the next call. */
    if (la.started) tila_pause();
    give_back();
    la_depth--;
}

void tila_la_end(tila_la_routine_t *r) { end(r, TILA_LA_TILA); }

int tila_la_finish(tila_la_routine_t *r, tila_desc_t **D, int count, int rc, int begun)
{
    for (int k = 0; k < count; k++)
        tila_desc_destroy(&D[k]);
    if (!rc) {
        end(r, TILA_LA_TILA);
        return 0;
    }
    char name[32];
    tila_layer_name(r, name, sizeof name);
    if (!begun) {
        fprintf(stderr, "[tila] %s: Tila failed (%s): LAPACK runs the call\n", name,
                tila_strerror(rc));
        tila_la_refuse(r, TILA_LA_OFF);
        return 1;
    }
    fprintf(stderr,
            "[tila] %s: Tila failed (%s) after it had begun to write the caller's arrays, which "
            "are undefined (INFO = %d where the routine has one)\n",
            name, tila_strerror(rc), TILA_LA_LOST_INFO);
    end(r, TILA_LA_LOST);
    return -1;
}

void tila_la_refuse(tila_la_routine_t *r, tila_la_path_t path)
{
    count(r, path);
    if (la.started) tila_pause();
    give_back();
}

void tila_la_leave(void) { la_depth--; }

int tila_la_tile(tila_la_shape_t shape, int m, int n)
{
    /* Never past the matrix: a tile is at most its larger dimension (TILA_LAPACK_NB far
     * above the order would otherwise size every per-tile workspace by it). */
    int most = m > n ? m : n, nb = tila_layer_env_int("TILA_LAPACK_NB", 0);
    if (nb <= 0 && shape == TILA_LA_NORM) nb = 1024;
    if (nb <= 0)
        nb = shape == TILA_LA_CHOLESKY ? tila_layer_tile(n, 768)
                                       : tila_layer_tile(m < n ? m : n, 384);
    return nb < most ? nb : most > 1 ? most : 1;
}

tila_desc_t *tila_la_desc(tila_la_routine_t *r, tila_prec_t prec, void *a, int lda, int m, int n,
                          int nb)
{
    tila_desc_t *A = NULL;
    int rc = tila_desc_create_lapack(&A, prec, a, lda, m, n, nb, nb, NULL);
    if (rc) {
        char name[32];
        tila_layer_name(r, name, sizeof name);
        fprintf(stderr, "[tila] %s: no view of the caller's array: %s\n", name, tila_strerror(rc));
    }
    return A;
}
