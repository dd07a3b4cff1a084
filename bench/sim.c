/**
 * @file sim.c
 * @brief tila-sim-run: one routine of Tila on a simulated cluster (StarPU with SimGrid, each
 * rank an SMPI process; bench/tila-sim starts it under starpu_smpirun).
 *
 *   tila-sim-run potrf|potrs|geqrf|lange|gemm --n N [--m M] [--k K] [--nrhs R] [--nb NB]
 *                [--ib IB] [--p P --q Q] [--variant V] [--devmap cyclic|2d] [--warm]
 *                [--hybrid-B B --hybrid-s S --hybrid-b b]
 *
 * --hybrid-*: every operand in Song and Dongarra's two-level distribution (tila_hybrid_t:
 * top-level tiles of B over the P x Q nodes, each cut into S - 1 CPU slices of b kept on
 * the host's CPU workers and one GPU slice) instead of nb x nb tiles.
 * --devmap: the device level of the mapping on nodes of several GPUs: Tila's default
 * (cyclic by local tile column), or a user's mapping (sim_device_2d) given to the
 * descriptors through tila_dist_t's device_of.
 * --warm: the routine runs once before the timed call, which so finds the tiles where the
 * first call left them (a norm: on the GPUs that read them), as a matrix that earlier
 * work left on the GPUs would be; for routines that only read their operands.
 *
 * The real scheduler and task graph run; no kernel does (StarPU takes each task's time
 * from its performance model), tiles take no memory (runtime/desc.c, init.c), so the
 * matrices are never generated and nothing is checked.  Rank 0 prints one line:
 *   RESULT seconds=S rate=R unit=U ranks=P workers=W cpu_busy=B cuda_busy=B
 *          bytes_rank_max=X bytes_total=Y bus_bytes=Z cpu_flops=F hybrid_b=b status=INFO
 * S is simulated time; R GFLOP/s (LAPACK's flop count) or GB/s (the matrix read once);
 * the busy fractions are the share of the call's time the workers of that kind spent
 * in tasks, over all ranks; bytes are what StarPU-MPI sent during the call (the busiest
 * rank, all ranks) and what crossed the buses between each node's RAM and its GPUs;
 * cpu_flops the CPU workers' share of the tasks' flops; hybrid_b the CPU slices' width
 * (--hybrid-b 0: chosen by tila_hybrid_balance_models from the node's models).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_run.h"
#include "tila_runtime.h"

/* The operands of a simulated call. */
typedef struct sim_ops_s {
    tila_desc_t *A, *B, *C, *T;
    double value;
} sim_ops_t;

/*
 * A user's device level: the node's GPUs as a dr x dc grid (dr the largest divisor of the
 * count up to its square root) over the rank's local tiles, block-cyclic by local tile row
 * and column, where Tila's default cycles the local tile columns alone.
 */
static int sim_device_2d(int m, int n, int ndev, void *arg)
{
    const bench_cfg_t *c = arg;
    int dr = 1;
    for (int d = 1; d * d <= ndev; d++)
        if (ndev % d == 0) dr = d;
    return (m / c->p) % dr * (ndev / dr) + (n / c->q) % (ndev / dr);
}

/* The hybrid distribution of --hybrid-*, read while the descriptors are created. */
static tila_hybrid_t sim_hybrid;

/* The hybrid distribution's tiling of a dimension; one shorter than a top-level tile, as
 * potrs's right-hand sides, in one tile (the rule depends on the length alone, so
 * dimensions a routine pairs stay tiled alike). */
static int sim_hybrid_tiling(int len, int *sizes, const void *arg)
{
    const tila_hybrid_t *h = arg;
    int count = tila_hybrid_tiling(h, len, len >= h->B ? sizes : NULL); /* checks h */
    if (count <= 0 || len >= h->B) return count;
    if (sizes) sizes[0] = len;
    return 1;
}

/* An m x n operand: nb x nb tiles on the grid, or the hybrid distribution's. */
static int sim_desc(const bench_cfg_t *c, const tila_dist_t *grid, int m, int n, tila_desc_t **A)
{
    if (!c->hybrid_B) return tila_desc_create(A, TILA_REAL64, m, n, c->nb, c->nb, grid);
    tila_dist_t dist = tila_hybrid_dist(&sim_hybrid);
    return bench_desc_tiled(A, m, n, sim_hybrid_tiling, &sim_hybrid, &dist);
}

/* The operands of the routine; 0 or a Tila error. */
static int sim_setup(bench_cfg_t *c, int devmap_2d, sim_ops_t *o)
{
    tila_dist_t grid = { .p = c->p,
                         .q = c->q,
                         .device_of = devmap_2d ? sim_device_2d : NULL,
                         .device_arg = c };
    sim_hybrid = (tila_hybrid_t){
        .p = c->p, .q = c->q, .B = c->hybrid_B, .s = c->hybrid_s, .b = c->hybrid_b
    };
    /* --hybrid-b 0: b from the node's models (tila_hybrid_balance_models), in 32s. */
    if (c->hybrid_B && !c->hybrid_b) {
        int rc = tila_hybrid_balance_models(&sim_hybrid, TILA_REAL64, 32);
        if (rc) return rc;
        c->hybrid_b = sim_hybrid.b;
    }
    const char *r = c->routine;
    int m = !strcmp(r, "potrf") || !strcmp(r, "potrs") ? c->n : c->m;
    int rc = sim_desc(c, &grid, m, strcmp(r, "gemm") ? c->n : c->k, &o->A);
    if (!rc && !strcmp(r, "potrs")) rc = sim_desc(c, &grid, c->n, c->nrhs, &o->B);
    if (!rc && !strcmp(r, "gemm")) {
        rc = sim_desc(c, &grid, c->k, c->n, &o->B);
        if (!rc) rc = sim_desc(c, &grid, c->m, c->n, &o->C);
    }
    if (!rc && !strcmp(r, "geqrf"))
        rc = tila_desc_create_qr_t(&o->T, o->A, c->ib > 0 ? c->ib : (c->nb < 32 ? c->nb : 32),
                                   bench_qr_tree(c->variant));
    return rc;
}

static int sim_call(const bench_cfg_t *c, sim_ops_t *o)
{
    const char *r = c->routine;
    tila_uplo_t uplo = c->variant == 'U' ? TILA_UPPER : TILA_LOWER;
    if (!strcmp(r, "potrf")) return tila_dpotrf(uplo, o->A);
    if (!strcmp(r, "potrs")) return tila_dpotrs(uplo, o->A, o->B);
    if (!strcmp(r, "geqrf")) return tila_dgeqrf(o->A, o->T);
    if (!strcmp(r, "lange")) return tila_dlange(bench_norm(c->variant), o->A, &o->value);
    return tila_dgemm(TILA_NOTRANS, TILA_NOTRANS, 1.0, o->A, o->B, 0.0, o->C);
}

/* LAPACK's flop count, or the bytes of the matrix (lange). */
static double sim_amount(const bench_cfg_t *c)
{
    double m = c->m, n = c->n, k = c->k;
    const char *r = c->routine;
    if (!strcmp(r, "potrf")) return n * n * n / 3;
    if (!strcmp(r, "potrs")) return 2 * n * n * c->nrhs;
    if (!strcmp(r, "geqrf"))
        return 2 * m * n * n - 2 * n * n * n / 3 + m * n + n * n + 14.0 / 3 * n;
    if (!strcmp(r, "lange")) return 8 * m * n;
    return 2 * m * n * k;
}

/* The routine and options; --devmap and --warm (this program's own, taken out of argv) in
 * *devmap_2d and *warm. */
static int sim_parse(int argc, char **argv, bench_cfg_t *c, int *devmap_2d, int *warm)
{
    static const char *const names[] = { "potrf", "potrs", "geqrf", "lange", "gemm" };
    for (size_t i = 0; argc > 1 && i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(argv[1], names[i])) c->routine = names[i];
    int kept = 2;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--warm")) {
            *warm = 1;
            continue;
        }
        if (strcmp(argv[i], "--devmap") || i + 1 == argc) {
            argv[kept++] = argv[i];
            continue;
        }
        *devmap_2d = !strcmp(argv[++i], "2d");
        if (!*devmap_2d && strcmp(argv[i], "cyclic")) return -1;
    }
    return c->routine ? bench_parse_options(kept, argv, 2, c) : -1;
}

/* Seconds of a profiling timespec. */
static double sim_seconds(const struct timespec *t) { return t->tv_sec + 1e-9 * t->tv_nsec; }

/* Per kind of worker (CPU, CUDA): busy seconds and workers, added to sums[0..3], and the
 * flops of the tasks they ran (the codelets' counts) to sums[4 + cuda]. */
static void sim_busy(double sums[6])
{
    for (unsigned w = 0; w < starpu_worker_get_count(); w++) {
        struct starpu_profiling_worker_info info;
        starpu_profiling_worker_get_info((int)w, &info); /* and restarts the count */
        int cuda = starpu_worker_get_type((int)w) == STARPU_CUDA_WORKER;
        sums[2 * cuda] += sim_seconds(&info.executing_time);
        sums[2 * cuda + 1] += 1;
        sums[4 + cuda] += info.flops;
    }
}

/* Bytes StarPU-MPI sent from this rank so far, and over this node's buses since the last
 * call (reading the buses' counts restarts them). */
static void sim_bytes(double *mpi, double *bus)
{
    size_t *amounts = calloc((size_t)tila_comm_size(), sizeof *amounts);
    *mpi = *bus = 0;
    if (amounts) starpu_mpi_comm_amounts_retrieve(amounts);
    for (int r = 0; amounts && r < tila_comm_size(); r++)
        *mpi += (double)amounts[r];
    free(amounts);
    for (int b = 0; b < starpu_bus_get_count(); b++) {
        struct starpu_profiling_bus_info info;
        starpu_bus_get_profiling_info(b, &info);
        *bus += (double)info.transferred_bytes;
    }
}

int main(int argc, char **argv)
{
    bench_cfg_t c = { .nrhs = 1, .nb = 256, .p = 1, .q = 1, .reps = 1 };
    sim_ops_t o = { 0 };
    int devmap_2d = 0, warm = 0;
    setenv("STARPU_COMM_STATS", "1", 0);
    if (tila_init(&argc, &argv) != TILA_SUCCESS) return 1;
    int rank = tila_comm_rank(), ranks = tila_comm_size();
    if (sim_parse(argc, argv, &c, &devmap_2d, &warm) || c.p * c.q != ranks) {
        if (rank == 0)
            fprintf(stderr,
                    "usage: tila-sim-run potrf|potrs|geqrf|lange|gemm --n N [--m M] [--k K] "
                    "[--nrhs R] [--nb NB] [--ib IB] [--p P --q Q (P Q = %d ranks)] "
                    "[--variant V] [--devmap cyclic|2d] [--warm]\n",
                    ranks);
        tila_finalize();
        return 2;
    }
    int rc = sim_setup(&c, devmap_2d, &o);
    if (!rc && warm) rc = sim_call(&c, &o);
    double busy[6] = { 0 }, before[2], after[2];
    starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
    starpu_task_wait_for_all();
    starpu_mpi_barrier(MPI_COMM_WORLD);
    sim_busy(busy); /* restart the workers' counts */
    memset(busy, 0, sizeof busy);
    sim_bytes(&before[0], &before[1]);
    tila_trace_mark("call"); /* TILA_TRACE: the timed call's window, in simulated time */
    double t0 = starpu_timing_now();
    if (!rc) rc = sim_call(&c, &o);
    double seconds = (starpu_timing_now() - t0) * 1e-6;
    tila_trace_mark("");
    sim_busy(busy);
    sim_bytes(&after[0], &after[1]);
    /* Over the ranks: busy seconds and workers, flops (sums), bytes (sum and max). */
    double sums[8] = { busy[0],  busy[1], busy[2], busy[3], after[0] - before[0],
                       after[1], busy[4], busy[5] };
    double most = sums[4];
    tila_allreduce(sums, 8, MPI_DOUBLE, MPI_SUM);
    tila_allreduce(&most, 1, MPI_DOUBLE, MPI_MAX);
    if (rank == 0)
        printf("RESULT seconds=%.6f rate=%.4g unit=%s ranks=%d workers=%u cpu_busy=%.3f "
               "cuda_busy=%.3f bytes_rank_max=%.4g bytes_total=%.4g bus_bytes=%.4g "
               "cpu_flops=%.4f hybrid_b=%d status=%d\n",
               seconds, sim_amount(&c) / seconds * 1e-9,
               strcmp(c.routine, "lange") ? "GFLOP/s" : "GB/s", ranks, starpu_worker_get_count(),
               sums[1] ? sums[0] / (sums[1] * seconds) : 0,
               sums[3] ? sums[2] / (sums[3] * seconds) : 0, most, sums[4], sums[5],
               sums[6] + sums[7] > 0 ? sums[6] / (sums[6] + sums[7]) : 0, c.hybrid_b, rc);
    fflush(stdout);
    tila_desc_destroy(&o.T);
    tila_desc_destroy(&o.C);
    tila_desc_destroy(&o.B);
    tila_desc_destroy(&o.A);
    tila_finalize();
    return rc ? 1 : 0;
}
