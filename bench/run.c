/**
 * @file run.c
 * @brief tila-bench-run: time one routine of one implementation on one configuration.
 *
 *   tila-bench-run ROUTINE IMPL [--m M] [--n N] [--k K] [--nrhs R] [--nb NB] [--ib IB]
 *                  [--p P --q Q] [--variant V] [--cond C] [--double 1] [--seed S]
 *                  [--warmup W] [--reps R] [--check host|device]
 * IMPL is tila, lapacke or scalapack.  Every implementation gets the same matrices, made
 * by Tila's seeded generators in its own layout (Tila's descriptor, LAPACK's array on
 * rank 0, ScaLAPACK's local arrays), then Tila is stopped before a peer runs so that no
 * StarPU thread competes with it.  The process makes W untimed calls (default 1), then R
 * timed ones (default 1): warm calls, as a program that calls the routine more than once
 * sees them (a process's first call pays library and GPU module loading, workspace growth,
 * pinning).  Before each call but the first the operands are put back as generated, in the
 * implementation's own layout and place (Tila's tiles by the same generators, as tasks where
 * the tiles live: on a GPU for a GPU's tiles; a peer's arrays from a copy), untimed; the
 * result of the last call alone is checked: gathered to rank 0 and checked there against its
 * copy of the input (--check host, the default), or (--check device, Tila only) by Tila's
 * own calls on the operands where they lie, the same residual without a copy of the
 * operands on rank 0 nor gathering them (what a GPU run affords: at n = 20000 each is 3.2
 * GB through the host; bench_*.c say which routines can).  With --check device Tila's
 * operands (of uniform tiles) and the check's matrices have no host storage
 * (tila_desc_create_nohome): they are made where their tiles' tasks run, on a GPU for a
 * GPU's tiles, as cuSOLVER's peer holds its matrix on the device, and no host memory is
 * pinned for them; the first call then moves no matrix from the host either.
 * Rank 0 prints one line:
 *   RESULT seconds=S rate=R unit=U check=C workers=W status=INFO first=F reps=T1,T2,..
 *          [iter=I [path=P classic=K gmres=G cycles=C]]
 * where S is the median of the timed calls' seconds (T1, T2, ...), F the first call's
 * (cold: the first untimed one, or the first timed one without --warmup), R in GFLOP/s
 * (LAPACK's flop count) or GB/s (bytes of the matrix read once) at S, C the routine's
 * scaled residual (see bench_*.c), I a mixed-precision solve's iteration count (LAPACK's
 * ITER) and, Tila's, its report of the last timed call (tila_mixed_t: the path that gave X,
 * classic steps, GMRES iterations and cycles); before it, where the program's time went (tila-bench shows it on stderr when
 * TILA_BENCH_PHASES=1; calls: every call, restore: putting operands back between them):
 *   PHASES init=S generate=S calls=S restore=S collect=S finalize=S check=S
 * With TILA_TRACE=FILE (Tila only), each call is a window of the trace named "warmup K" or
 * "rep K" (tila_trace_mark; bench/tila-trace reports on it).
 * With TILA_BENCH_PROFILE=1 (Tila only), every rank also prints, for the last timed call
 * alone, one line per StarPU worker and one for the process:
 *   PROFILE rank=R worker=W executing=S sleeping=S tasks=N
 *   PROFILE rank=R cpu_user=S cpu_sys=S switches_voluntary=N switches_involuntary=N
 * (StarPU's worker profiling and getrusage): time lost waiting shows as sleeping, time
 * lost inside the tasks as executing above one rank's, context switches as switches;
 * and one line per bus that moved data during the call (main RAM to a GPU, ...):
 *   PROFILE rank=R bus=SRC->DST bytes=B transfers=N seconds=S
 * (StarPU's bus counters are reset by each reading: with TILA_TRACE too, the trace's bus
 * lines miss what this one read.)
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <cblas.h>
#include <starpu_profiling.h>

#include "tila_config.h"
#include "bench_run.h"
#include "bench_scalapack.h"

#ifdef TILA_HAVE_OPENBLAS
char *openblas_get_corename(void);
#define CORENAME openblas_get_corename()
#else
#define CORENAME "unknown"
#endif

static const bench_routine_t *const routines[] = { &bench_gemm, &bench_potrf,      &bench_potrs,
                                                   &bench_posv, &bench_posv_mixed, &bench_geqrf,
                                                   &bench_lange };

void bench_add_op(bench_cfg_t *c, int m, int n, bench_fill_t fill)
{
    bench_op_t *op = &c->op[c->nops++];
    memset(op, 0, sizeof *op);
    op->m = m;
    op->n = n;
    op->fill = fill;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int root_rank(int m, int n, void *arg)
{
    (void)m;
    (void)n;
    (void)arg;
    return 0;
}

static void fill(bench_op_t *op, tila_desc_t *A, unsigned long long seed)
{
    if (op->fill == BENCH_SPD)
        tila_dplgsy((double)op->n, A, seed);
    else if (op->fill == BENCH_RANDOM)
        tila_dplrnt(A, seed);
    else
        tila_dlaset(TILA_GENERAL, 0, 0, A);
}

/*
 * a = Q diag(lambda) Q^T (n x n), lambda_i = cond^(-i / (n - 1)) from 1 down to 1 / cond, Q
 * the product of four Householder reflectors of seeded random vectors: symmetric positive
 * definite of exactly that 2-norm condition number, dense, made in O(n^2) (LAPACK's dlatms
 * takes O(n^3), minutes at n = 8192).  H A H = A - v w^T - w v^T with p = tau A v,
 * w = p - (tau / 2) (v^T p) v.
 */
static void spd_cond(int n, double cond, unsigned long long seed, double *a)
{
    memset(a, 0, sizeof *a * (size_t)n * n);
    for (int i = 0; i < n; i++)
        a[(size_t)i * n + i] = n > 1 ? pow(cond, -(double)i / (n - 1)) : 1;
    double *v = malloc(sizeof *v * (size_t)n), *w = malloc(sizeof *w * (size_t)n);
    unsigned long long x = seed * 0x9e3779b97f4a7c15ull + 1;
    for (int r = 0; r < 4 && n > 1; r++) {
        for (int i = 0; i < n; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            v[i] = (double)(x >> 11) * 0x1.0p-53 - 0.5;
        }
        double tau = 2 / cblas_ddot(n, v, 1, v, 1);
        cblas_dgemv(CblasColMajor, CblasNoTrans, n, n, tau, a, n, v, 1, 0, w, 1);
        cblas_daxpy(n, -0.5 * tau * cblas_ddot(n, v, 1, w, 1), v, 1, w, 1);
        cblas_dger(CblasColMajor, n, n, -1, v, 1, w, 1, a, n);
        cblas_dger(CblasColMajor, n, n, -1, w, 1, v, 1, a, n);
    }
    free(v);
    free(w);
}

/* Operand op into A (any layout): a generator's, or rank 0's BENCH_SPD_COND scattered. */
static void fill_into(bench_op_t *op, tila_desc_t *A, unsigned long long seed)
{
    if (op->fill == BENCH_SPD_COND)
        tila_desc_scatter(A, 0, op->in, op->m > 1 ? op->m : 1);
    else
        fill(op, A, seed);
}

static double *alloc_full(const bench_op_t *op)
{
    double *a = calloc((size_t)(op->m ? op->m : 1) * (op->n ? op->n : 1), sizeof *a);
    if (!a) {
        fprintf(stderr, "tila-bench-run: out of memory for a %d x %d matrix\n", op->m, op->n);
        exit(1);
    }
    return a;
}

/* Tila's matrix for an operand: nb x nb tiles, or tiles shrinking toward the end of each
 * dimension (--shrink-ratio). */
/* --shrink-ratio's tiling of a dimension (tila_tiling_shrink from nb down to --shrink-min). */
static int shrink_tiling(int len, int *sizes, const void *arg)
{
    const bench_cfg_t *c = arg;
    int lo = c->shrink_min > 0 ? c->shrink_min : c->nb;
    return tila_tiling_shrink(len, c->nb, lo, c->shrink_ratio, sizes);
}

/* Tila's matrix for an operand: nb x nb tiles, or tiles shrinking toward the end of each
 * dimension (--shrink-ratio). */
static int create_tiles(const bench_cfg_t *c, bench_op_t *op, const tila_dist_t *grid)
{
    if (!c->shrink_ratio)
        return tila_desc_create(&op->desc, TILA_REAL64, op->m, op->n, c->nb, c->nb, grid);
    return bench_desc_tiled(&op->desc, op->m, op->n, shrink_tiling, c, grid);
}

/* Whether this run checks Tila's result on the device (routine with a check_device). */
static const bench_routine_t *routine;
static int device_check(const bench_cfg_t *c)
{
    return c->check_device && c->impl == BENCH_TILA && routine->check_device;
}

/* An operand of Tila's: checked on the device, and of uniform tiles, without host storage
 * (tila_desc_create_nohome), as the peer cuSOLVER holds its matrix on the device. */
static int create_operand(const bench_cfg_t *c, bench_op_t *op, const tila_dist_t *grid)
{
    if (!device_check(c) || c->shrink_ratio) return create_tiles(c, op, grid);
    return tila_desc_create_nohome(&op->desc, TILA_REAL64, op->m, op->n, c->nb, c->nb, grid);
}

/* A matrix for a device check, tiled, mapped and stored as the operands (create_operand). */
tila_desc_t *bench_like(const bench_cfg_t *c, int m, int n)
{
    tila_dist_t grid = { .p = c->p, .q = c->q };
    bench_op_t op = { .m = m, .n = n };
    if (create_operand(c, &op, &grid)) {
        fprintf(stderr, "tila-bench-run: cannot create a %d x %d matrix for the check\n", m, n);
        return NULL;
    }
    return op.desc;
}

void bench_fill_as(bench_cfg_t *c, int i, tila_desc_t *D)
{
    fill_into(&c->op[i], D, c->seed + (unsigned long long)i);
}

double bench_fro(tila_desc_t *D)
{
    double v = 0;
    tila_dlange(TILA_NORM_FRO, D, &v);
    return v;
}

/* Make every operand in the layout of the implementation, and rank 0's copy. */
static void generate(bench_cfg_t *c)
{
    tila_dist_t on_root = { .rank_of = root_rank }, grid = { .p = c->p, .q = c->q };
    for (int i = 0; i < c->nops; i++) {
        bench_op_t *op = &c->op[i];
        unsigned long long seed = c->seed + (unsigned long long)i;
        tila_desc_t *A;
        /* rank 0's copy of the input, for the check there (and the source of a
         * BENCH_SPD_COND operand) */
        int copy = op->fill == BENCH_SPD_COND || !device_check(c);
        op->in = c->rank == 0 && copy ? alloc_full(op) : NULL;
        if (op->fill == BENCH_SPD_COND) {
            if (c->rank == 0) spd_cond(op->n, op->cond, seed, op->in);
        }
        else if (copy) {
            tila_desc_create_lapack(&A, TILA_REAL64, op->in, op->m > 1 ? op->m : 1, op->m, op->n,
                                    c->nb, c->nb, &on_root);
            fill(op, A, seed);
            tila_desc_destroy(&A);
        }
        if (c->impl == BENCH_LAPACKE && c->rank == 0) {
            op->full = alloc_full(op);
            memcpy(op->full, op->in, sizeof(double) * (size_t)op->m * op->n);
        }
        else if (c->impl == BENCH_TILA) {
            if (create_operand(c, op, &grid)) {
                fprintf(stderr, "tila-bench-run: cannot create operand %d's tiles\n", i);
                exit(1);
            }
            fill_into(op, op->desc, seed);
        }
        else if (c->impl == BENCH_SCALAPACK) {
            bench_scalapack_alloc(c, op);
            tila_desc_create_scalapack(&A, TILA_REAL64, op->local, op->lld, op->m, op->n, c->nb,
                                       c->nb, c->p, c->q);
            fill_into(op, A, seed);
            tila_desc_destroy(&A);
            if (c->reps + c->warmup > 1) {
                op->local_in = malloc(bench_scalapack_bytes(op));
                if (!op->local_in) {
                    fprintf(stderr, "tila-bench-run: out of memory for a copy of operand %d\n", i);
                    exit(1);
                }
                memcpy(op->local_in, op->local, bench_scalapack_bytes(op));
            }
        }
    }
}

/*
 * Put every operand back as generate() made it, in the implementation's own layout and
 * place: Tila's tiles by the same generators (tasks on the tiles' owners and devices), the
 * LAPACKE peer's array from rank 0's input, the ScaLAPACK peer's local arrays from their
 * copy (Tila is stopped by then).
 */
static void restore(bench_cfg_t *c)
{
    for (int i = 0; i < c->nops; i++) {
        bench_op_t *op = &c->op[i];
        if (c->impl == BENCH_TILA)
            fill_into(op, op->desc, c->seed + (unsigned long long)i);
        else if (c->impl == BENCH_LAPACKE && c->rank == 0)
            memcpy(op->full, op->in, sizeof(double) * (size_t)op->m * op->n);
        else if (c->impl == BENCH_SCALAPACK)
            memcpy(op->local, op->local_in, bench_scalapack_bytes(op));
    }
}

/* Bring every operand, as the timed call left it, to rank 0's `full` copy (none when
 * checked on the device), and free the implementation's own. */
static void collect(bench_cfg_t *c)
{
    int gather = !device_check(c) && !routine->check_reads_inputs;
    tila_desc_destroy(&c->aux);
    for (int i = 0; i < c->nops; i++) {
        bench_op_t *op = &c->op[i];
        if (c->impl == BENCH_LAPACKE) continue;
        op->full = c->rank == 0 && gather ? alloc_full(op) : NULL;
        if (c->impl == BENCH_TILA) {
            if (gather) tila_desc_gather(op->desc, 0, op->full, op->m > 1 ? op->m : 1);
            tila_desc_destroy(&op->desc);
        }
        else {
            if (gather) bench_scalapack_gather(c, op, op->full);
            free(op->local);
            free(op->local_in);
        }
    }
}

static int parse(int argc, char **argv, bench_cfg_t *c, const bench_routine_t **r)
{
    if (argc < 3) return -1;
    for (size_t i = 0; i < sizeof routines / sizeof routines[0]; i++)
        if (!strcmp(argv[1], routines[i]->name)) *r = routines[i];
    c->routine = argv[1];
    c->impl = !strcmp(argv[2], "tila")        ? BENCH_TILA
              : !strcmp(argv[2], "lapacke")   ? BENCH_LAPACKE
              : !strcmp(argv[2], "scalapack") ? BENCH_SCALAPACK
                                              : (bench_impl_t)-1;
    if (!*r || (int)c->impl < 0) return -1;
    return bench_parse_options(argc, argv, 3, c);
}

/* TILA_BENCH_PROFILE=1: StarPU's worker profiling and getrusage around the timed call. */
static int profiling(const bench_cfg_t *c)
{
    const char *v = getenv("TILA_BENCH_PROFILE");
    return c->impl == BENCH_TILA && v && strcmp(v, "0") != 0;
}

static double seconds_of(struct timeval t) { return t.tv_sec + 1e-6 * t.tv_usec; }

static void profile_begin(struct rusage *before)
{
    starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
    starpu_profiling_init(); /* counts from now */
    for (int b = 0; b < starpu_bus_get_count(); b++) {
        struct starpu_profiling_bus_info info; /* reading resets the bus's counters */
        starpu_bus_get_profiling_info(b, &info);
    }
    getrusage(RUSAGE_SELF, before);
}

static void profile_end(const bench_cfg_t *c, const struct rusage *before)
{
    struct rusage after;
    getrusage(RUSAGE_SELF, &after);
    for (int w = 0; w < (int)starpu_worker_get_count(); w++) {
        struct starpu_profiling_worker_info info;
        starpu_profiling_worker_get_info(w, &info);
        printf("PROFILE rank=%d worker=%d executing=%.4f sleeping=%.4f tasks=%d\n", c->rank, w,
               1e-6 * starpu_timing_timespec_to_us(&info.executing_time),
               1e-6 * starpu_timing_timespec_to_us(&info.sleeping_time), info.executed_tasks);
    }
    /* What moved between memory nodes (main RAM, GPUs) during the call. */
    for (int b = 0; b < starpu_bus_get_count(); b++) {
        struct starpu_profiling_bus_info info;
        char src[32], dst[32];
        starpu_bus_get_profiling_info(b, &info);
        if (info.transfer_count == 0) continue;
        starpu_memory_node_get_name((unsigned)starpu_bus_get_src(b), src, sizeof src);
        starpu_memory_node_get_name((unsigned)starpu_bus_get_dst(b), dst, sizeof dst);
        printf("PROFILE rank=%d bus=%s->%s bytes=%lld transfers=%d seconds=%.4f\n", c->rank, src,
               dst, info.transferred_bytes, info.transfer_count,
               1e-6 * starpu_timing_timespec_to_us(&info.total_time));
    }
    printf("PROFILE rank=%d cpu_user=%.4f cpu_sys=%.4f switches_voluntary=%ld "
           "switches_involuntary=%ld\n",
           c->rank, seconds_of(after.ru_utime) - seconds_of(before->ru_utime),
           seconds_of(after.ru_stime) - seconds_of(before->ru_stime),
           after.ru_nvcsw - before->ru_nvcsw, after.ru_nivcsw - before->ru_nivcsw);
    fflush(stdout);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *t, int n)
{
    double *s = malloc(sizeof *s * (size_t)n);
    memcpy(s, t, sizeof *s * (size_t)n);
    qsort(s, (size_t)n, sizeof *s, compare_doubles);
    double m = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    free(s);
    return m;
}

/*
 * The calls: c->warmup untimed, then c->reps timed (seconds[k]), each after the operands
 * are put back and the routine's untimed preparation, all ranks starting together; the
 * first call's seconds in *first.  Stops at the first call that fails.  Where the time
 * between the calls went in *restoring.
 */
static int calls(bench_cfg_t *c, const bench_routine_t *r, double *seconds, double *first,
                 double *restoring)
{
    int rc = 0, total = c->warmup + c->reps;
    MPI_Comm comm = c->impl == BENCH_LAPACKE ? MPI_COMM_SELF : MPI_COMM_WORLD;
    *restoring = 0;
    for (int k = 0; k < total && !rc; k++) {
        int timed = k >= c->warmup, last = k == total - 1;
        double t_restore = now();
        if (k > 0) restore(c);
        if (r->prepare) rc = r->prepare(c);
        *restoring += now() - t_restore;
        if (rc) break;
        char label[32];
        snprintf(label, sizeof label, timed ? "rep %d" : "warmup %d",
                 timed ? k - c->warmup + 1 : k + 1);
        MPI_Barrier(comm);
        struct rusage before;
        if (last && profiling(c)) profile_begin(&before);
        if (c->impl == BENCH_TILA) tila_trace_mark(label);
        double t0 = now();
        rc = r->run(c);
        double t = now() - t0;
        if (c->impl == BENCH_TILA) tila_trace_mark("");
        if (last && profiling(c)) profile_end(c, &before);
        if (k == 0) *first = t;
        if (timed) seconds[k - c->warmup] = t;
    }
    return rc;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    bench_cfg_t c = { .nrhs = 1, .nb = 256, .seed = 2024, .iter = INT_MIN, .reps = 1, .warmup = 1 };
    const bench_routine_t *r = NULL;
    MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &c.size);
    int bad = parse(argc, argv, &c, &r);
    routine = r;
    if (bad) {
        if (c.rank == 0)
            fprintf(stderr,
                    "usage: tila-bench-run gemm|potrf|potrs|posv|posv_mixed|geqrf|lange "
                    "tila|lapacke|scalapack --n N [--m M] [--k K] [--nrhs R] [--nb NB] [--ib IB] "
                    "[--p P --q Q] [--variant V] [--cond C] [--double 1] [--seed S] "
                    "[--warmup W] [--reps R] [--check host|device]\n");
        MPI_Finalize();
        return 2;
    }
    if (c.impl == BENCH_SCALAPACK && bench_scalapack_grid(&c)) {
        MPI_Finalize();
        return 2;
    }
    /* Ends of the phases setup+init, generate, calls (and the device check), collect. */
    double phase[4], t_start = now();
    if (tila_init(&argc, &argv) != TILA_SUCCESS) {
        MPI_Finalize();
        return 1;
    }
    int workers = (int)starpu_worker_get_count();
    const char *nt = getenv("OPENBLAS_NUM_THREADS");
    int threads = nt ? atoi(nt) : 1;
    r->setup(&c);
    phase[0] = now();
    generate(&c);
    phase[1] = now();
    int rc = 0, here = c.impl != BENCH_LAPACKE || c.rank == 0; /* LAPACKE: rank 0 alone */
    if (c.impl != BENCH_TILA) tila_finalize();
    double *seconds = calloc((size_t)c.reps, sizeof *seconds), first = 0, restoring = 0;
    if (here) rc = calls(&c, r, seconds, &first, &restoring);
    double check = 0;
    if (device_check(&c)) check = r->check_device(&c);
    phase[2] = now();
    collect(&c);
    phase[3] = now();
    if (c.impl == BENCH_TILA) tila_finalize();
    if (c.rank == 0) {
        double t_check = now();
        if (!device_check(&c)) check = r->check(&c);
        /* Where the program's time went (seconds). */
        printf("PHASES init=%.3f generate=%.3f calls=%.3f restore=%.3f collect=%.3f "
               "finalize=%.3f check=%.3f\n",
               phase[0] - t_start, phase[1] - phase[0], phase[2] - phase[1] - restoring, restoring,
               phase[3] - phase[2], t_check - phase[3], now() - t_check);
        char iter[32] = "";
        if (c.iter != INT_MIN) snprintf(iter, sizeof iter, " iter=%d", c.iter);
        double s = median(seconds, c.reps);
        printf("RESULT seconds=%.6f rate=%.4g unit=%s check=%.3g corename=%s workers=%d "
               "status=%d first=%.6f reps=",
               s, r->amount(&c) / s * 1e-9, r->unit, check, CORENAME,
               c.impl == BENCH_TILA        ? workers
               : c.impl == BENCH_SCALAPACK ? c.size
                                           : threads,
               rc, first);
        for (int k = 0; k < c.reps; k++)
            printf("%s%.6f", k ? "," : "", seconds[k]);
        printf("%s%s\n", iter, c.mixed);
    }
    free(seconds);
    for (int i = 0; i < c.nops; i++) {
        free(c.op[i].in);
        free(c.op[i].full);
    }
    if (c.impl == BENCH_SCALAPACK) bench_scalapack_exit(&c);
    MPI_Finalize();
    return rc ? 1 : 0;
}
