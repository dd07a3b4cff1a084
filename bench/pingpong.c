/**
 * @file pingpong.c
 * @brief tila-pingpong: the floor of one tile's round trip between two ranks, raw MPI
 * against StarPU-MPI tasks, in the same run.
 *
 *   mpirun -np 2 tila-pingpong [--bytes LIST] [--iters N] [--reps N] [--csv FILE]
 *
 * For each message size B (--bytes, default 8,8192,131072,524288: a scalar and a 32 x 32,
 * 128 x 128 and 256 x 256 double tile) it times, alternating them in each of --reps
 * repetitions of --iters round trips, and keeps the median:
 *   mpi           MPI_Send / MPI_Recv ping-pong of B bytes between ranks 0 and 1 on a
 *                 duplicate of MPI_COMM_WORLD, after tila_init: StarPU and StarPU-MPI's
 *                 progress thread are running, as inside any Tila program;
 *   starpu_mpi    a chain of 2 iters tasks, each touching one byte of a B-byte vector
 *                 (STARPU_RW) owned by rank 0, executed alternately on ranks 1 and 0, so
 *                 that the vector travels 0 -> 1 -> 0 once per round trip;
 *   starpu_local  the same chain with every task on rank 0: two tasks' overhead, no message.
 * Times run from the first submission until starpu_mpi_wait_for_all returns (all tasks
 * done and every rank past a barrier).  A round trip of starpu_mpi is thus 2 tasks plus 2
 * messages, and starpu_mpi - starpu_local estimates what the two messages cost through
 * StarPU-MPI.  Before tila_init the raw ping-pong is also timed once with MPI alone
 * (mpi_nostarpu: no StarPU thread running), the floor the progress thread is judged by.
 *
 * Rank 0 prints the environment (each rank's CPU affinity, StarPU's CPU workers, whether
 * StarPU-MPI's progress thread shares a core with a worker), one line per measurement in
 * microseconds per round trip, and writes the CSV
 *   impl,bytes,iters,seconds_per_round_trip,min,max
 * (median, minimum and maximum over the repetitions).  Exit 0, 1 on a runtime failure, 2
 * on bad arguments or a rank count other than 2.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <starpu_mpi.h>

#include "tila.h"

/*
 * Tag of the vector.  Tila gives each descriptor the next range of tags counting up from 0
 * (its tag book, runtime/tags.c, internal to the library), one tag per tile and workspace
 * vector, so a tag above 2^40 cannot collide with Tila's.  One tag per size (the vector of
 * a size is unregistered before the next one is registered, but a fresh tag costs
 * nothing).
 */
#define PINGPONG_TAG (INT64_C(1) << 40)

#define MAX_SIZES 64

enum { IMPL_NOSTARPU, IMPL_MPI, IMPL_STARPU_MPI, IMPL_STARPU_LOCAL, NIMPL };
static const char *const impl_name[NIMPL] = { "mpi_nostarpu", "mpi", "starpu_mpi", "starpu_local" };

typedef struct {
    int nbytes;
    long bytes[MAX_SIZES];
    int iters, reps;
    const char *csv;
} options_t;

/* Parse a positive integer no larger than max; 0 on success. */
static int parse_long(const char *s, long max, long *out)
{
    char *end;
    if (!s || !*s) return -1;
    long v = strtol(s, &end, 10);
    if (*end || v < 1 || v > max) return -1;
    *out = v;
    return 0;
}

static int parse_bytes(const char *s, options_t *o)
{
    char buf[1024];
    if (!s || strlen(s) >= sizeof buf) return -1;
    strcpy(buf, s);
    o->nbytes = 0;
    for (char *save, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (o->nbytes == MAX_SIZES || parse_long(t, 1L << 30, &o->bytes[o->nbytes])) return -1;
        o->nbytes++;
    }
    return o->nbytes > 0 ? 0 : -1;
}

/* Fill o from argv; 0, or -1 with the reason in msg. */
static int parse(int argc, char **argv, options_t *o, char *msg, size_t len)
{
    *o = (options_t){ .nbytes = 4, .bytes = { 8, 8192, 131072, 524288 }, .iters = 200, .reps = 5 };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long x;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            snprintf(msg, len, "help");
            return -1;
        }
        if (!v) {
            snprintf(msg, len, "%s: %s", a,
                     strncmp(a, "--", 2) ? "unknown argument" : "missing value");
            return -1;
        }
        if (!strcmp(a, "--bytes")) {
            if (parse_bytes(v, o)) {
                snprintf(msg, len,
                         "--bytes %s: expected a comma-separated list of at most %d sizes, "
                         "each in [1, 2^30]",
                         v, MAX_SIZES);
                return -1;
            }
        }
        else if (!strcmp(a, "--iters") || !strcmp(a, "--reps")) {
            if (parse_long(v, 1000000, &x)) {
                snprintf(msg, len, "%s %s: expected an integer in [1, 1000000]", a, v);
                return -1;
            }
            *(!strcmp(a, "--iters") ? &o->iters : &o->reps) = (int)x;
        }
        else if (!strcmp(a, "--csv")) {
            o->csv = v;
        }
        else {
            snprintf(msg, len, "%s: unknown argument", a);
            return -1;
        }
        i++;
    }
    return 0;
}

/* ---- raw MPI ---------------------------------------------------------------------------- */

/* Seconds per round trip of iters MPI_Send/MPI_Recv ping-pongs of `bytes` (rank 0's clock). */
static double time_mpi(MPI_Comm comm, int rank, char *buf, long bytes, int iters)
{
    int peer = 1 - rank;
    MPI_Barrier(comm);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++) {
        if (rank == 0) {
            MPI_Send(buf, (int)bytes, MPI_BYTE, peer, 0, comm);
            MPI_Recv(buf, (int)bytes, MPI_BYTE, peer, 0, comm, MPI_STATUS_IGNORE);
        }
        else {
            MPI_Recv(buf, (int)bytes, MPI_BYTE, peer, 0, comm, MPI_STATUS_IGNORE);
            MPI_Send(buf, (int)bytes, MPI_BYTE, peer, 0, comm);
        }
    }
    return (MPI_Wtime() - t0) / iters;
}

/* ---- StarPU-MPI tasks -------------------------------------------------------------------- */

/* The task: touch the first byte, so that it needs the vector's latest contents. */
static void touch_cpu(void *buffers[], void *arg)
{
    (void)arg;
    unsigned char *x = (unsigned char *)STARPU_VECTOR_GET_PTR(buffers[0]);
    x[0]++;
}

static struct starpu_codelet touch_cl = {
    .cpu_funcs = { touch_cpu },
    .cpu_funcs_name = { "touch_cpu" },
    .nbuffers = 1,
    .modes = { STARPU_RW },
    .name = "pingpong_touch",
};

/*
 * Seconds per round trip of a chain of 2 iters tasks on h: alternately on ranks 1 and 0
 * (remote), or all on rank 0.  Returns a negative value when a submission fails.
 *
 * The chain ends on rank 0, h's owner.  A task on rank 1 that writes h makes rank 1 send
 * it back to rank 0, and rank 0 posts that receive with no task waiting for it.
 * StarPU-MPI 1.3.10's starpu_mpi_barrier does not count a receive whose envelope has not
 * arrived (an "early request"): rank 0 passed the barrier's checks, its progress thread
 * blocked in MPI_Barrier, never read rank 1's envelope, and rank 1 waited forever for its
 * send to complete (with CMA, every run at 1.2 MB; attached with gdb: rank 0 one early
 * request, rank 1 one send pending).  Ending on the owner makes that receive a task's
 * input, which starpu_task_wait_for_all waits for.
 */
static double time_starpu(MPI_Comm comm, starpu_data_handle_t h, int iters, int remote)
{
    int rc = 0;
    MPI_Barrier(comm);
    double t0 = MPI_Wtime();
    for (int i = 0; i < 2 * iters && !rc; i++)
        rc = starpu_mpi_task_insert(MPI_COMM_WORLD, &touch_cl, STARPU_RW, h, STARPU_EXECUTE_ON_NODE,
                                    remote ? 1 - i % 2 : 0, 0);
    starpu_task_wait_for_all();
    starpu_mpi_wait_for_all(MPI_COMM_WORLD);
    double t = (MPI_Wtime() - t0) / iters;
    int worst = rc;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MIN, comm);
    return worst ? -1.0 : t;
}

/* ---- statistics and output --------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sort t[0..n) and report it: one line, one CSV row. */
static void report(FILE *csv, int impl, long bytes, int iters, double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    double med = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
    printf("%-13s bytes=%-8ld iters=%-5d round_trip_us median=%9.2f min=%9.2f max=%9.2f  "
           "(%.3g MB/s one way)\n",
           impl_name[impl], bytes, iters, med * 1e6, t[0] * 1e6, t[n - 1] * 1e6,
           2.0 * bytes / med * 1e-6);
    if (csv)
        fprintf(csv, "%s,%ld,%d,%.9e,%.9e,%.9e\n", impl_name[impl], bytes, iters, med, t[0],
                t[n - 1]);
}

static double median_of(const double *t, int n)
{
    double s[n];
    memcpy(s, t, sizeof s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

/* Each rank's affinity, STARPU_NCPU and CPU worker count, printed by rank 0. */
static void print_environment(MPI_Comm comm, int rank, int ncores)
{
    const char *ncpu = getenv("STARPU_NCPU"), *yield = getenv("OMPI_MCA_mpi_yield_when_idle");
    int mine[2] = { ncores, (int)starpu_cpu_worker_get_count() }, all[4];
    MPI_Gather(mine, 2, MPI_INT, all, 2, MPI_INT, 0, comm);
    if (rank != 0) return;
    printf("# environment: STARPU_NCPU=%s OMPI_MCA_mpi_yield_when_idle=%s STARPU_SCHED=%s\n",
           ncpu ? ncpu : "(unset)", yield ? yield : "(unset)",
           getenv("STARPU_SCHED") ? getenv("STARPU_SCHED") : "(unset)");
    for (int r = 0; r < 2; r++) {
        int cores = all[2 * r], workers = all[2 * r + 1];
        printf("# rank %d: %d core(s) in its affinity, %d StarPU CPU worker(s); MPI progress "
               "thread %s a core with a worker (%d workers + 1 %s %d cores)\n",
               r, cores, workers, workers + 1 > cores ? "SHARES" : "does not share", workers,
               workers + 1 > cores ? ">" : "<=", cores);
    }
}

int main(int argc, char **argv)
{
    /* MPI first (Tila keeps it, and tila_finalize leaves it to us): the arguments are
     * checked and the raw floor is timed before any StarPU thread exists. */
    int provided, rank, size;
    if (MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) return 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    options_t o;
    char msg[256] = "";
    int bad = parse(argc, argv, &o, msg, sizeof msg);
    if (!bad && size != 2) {
        snprintf(msg, sizeof msg, "needs exactly 2 MPI ranks, got %d: run mpirun -np 2 ...", size);
        bad = -1;
    }
    if (bad) {
        if (rank == 0) {
            if (strcmp(msg, "help")) fprintf(stderr, "tila-pingpong: %s\n", msg);
            fprintf(stderr, "usage: mpirun -np 2 tila-pingpong [--bytes B1,B2,...] [--iters N] "
                            "[--reps N] [--csv FILE]\n");
        }
        MPI_Finalize();
        return strcmp(msg, "help") ? 2 : 0;
    }
    cpu_set_t set;
    int ncores = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : -1;
    FILE *csv = NULL;
    int csv_ok = 1;
    if (rank == 0 && o.csv) {
        csv = fopen(o.csv, "w");
        if (!csv) {
            perror(o.csv);
            csv_ok = 0;
        }
    }
    MPI_Bcast(&csv_ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!csv_ok) {
        MPI_Finalize();
        return 2;
    }
    if (csv) fprintf(csv, "impl,bytes,iters,seconds_per_round_trip,min,max\n");

    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    long maxbytes = 0;
    for (int s = 0; s < o.nbytes; s++)
        maxbytes = o.bytes[s] > maxbytes ? o.bytes[s] : maxbytes;
    char *buf = calloc((size_t)maxbytes, 1);
    double *t = malloc(sizeof(double) * (size_t)NIMPL * o.reps);
    if (!buf || !t) {
        fprintf(stderr, "tila-pingpong: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    /* The floor: MPI alone, no StarPU thread (one warm-up of each size first). */
    double bare[MAX_SIZES];
    for (int s = 0; s < o.nbytes; s++) {
        time_mpi(comm, rank, buf, o.bytes[s], o.iters < 20 ? o.iters : 20);
        for (int r = 0; r < o.reps; r++)
            t[r] = time_mpi(comm, rank, buf, o.bytes[s], o.iters);
        bare[s] = median_of(t, o.reps);
        if (rank == 0) report(csv, IMPL_NOSTARPU, o.bytes[s], o.iters, t, o.reps);
    }

    int rc = tila_init(&argc, &argv);
    if (rc != TILA_SUCCESS) {
        if (rank == 0) fprintf(stderr, "tila-pingpong: tila_init: %s\n", tila_strerror(rc));
        MPI_Finalize();
        return 1;
    }
    print_environment(comm, rank, ncores);

    int status = 0;
    for (int s = 0; s < o.nbytes && !status; s++) {
        long bytes = o.bytes[s];
        /* The vector lives on rank 0; rank 1 registers a placeholder StarPU-MPI fills. */
        unsigned char *vec = rank == 0 ? calloc((size_t)bytes, 1) : NULL;
        if (rank == 0 && !vec) MPI_Abort(MPI_COMM_WORLD, 1);
        starpu_data_handle_t h;
        starpu_vector_data_register(&h, rank == 0 ? STARPU_MAIN_RAM : -1, (uintptr_t)vec,
                                    (uint32_t)bytes, 1);
        starpu_mpi_data_register(h, PINGPONG_TAG + s, 0);

        /* Warm-up of each (first transfers, allocations), then the timed repetitions,
         * the implementations alternating within each repetition. */
        int warm = o.iters < 20 ? o.iters : 20;
        long ntasks = 4L * warm + 4L * o.iters * o.reps;
        time_mpi(comm, rank, buf, bytes, warm);
        if (time_starpu(comm, h, warm, 1) < 0 || time_starpu(comm, h, warm, 0) < 0) status = 1;
        for (int r = 0; r < o.reps && !status; r++) {
            t[IMPL_MPI * o.reps + r] = time_mpi(comm, rank, buf, bytes, o.iters);
            t[IMPL_STARPU_MPI * o.reps + r] = time_starpu(comm, h, o.iters, 1);
            t[IMPL_STARPU_LOCAL * o.reps + r] = time_starpu(comm, h, o.iters, 0);
            if (t[IMPL_STARPU_MPI * o.reps + r] < 0 || t[IMPL_STARPU_LOCAL * o.reps + r] < 0)
                status = 1;
        }
        starpu_data_unregister(h);
        if (status) {
            if (rank == 0) fprintf(stderr, "tila-pingpong: starpu_mpi_task_insert failed\n");
            free(vec);
            break;
        }
        /* Every task ran once on the latest contents: the byte counts them (mod 256). */
        if (rank == 0 && vec[0] != (unsigned char)ntasks) {
            fprintf(stderr, "tila-pingpong: %ld bytes: the vector's counter is %d, expected %d\n",
                    bytes, vec[0], (int)(unsigned char)ntasks);
            status = 1;
        }
        free(vec);
        if (rank == 0) {
            double m_mpi = median_of(t + IMPL_MPI * o.reps, o.reps);
            double m_smpi = median_of(t + IMPL_STARPU_MPI * o.reps, o.reps);
            double m_loc = median_of(t + IMPL_STARPU_LOCAL * o.reps, o.reps);
            for (int impl = IMPL_MPI; impl < NIMPL; impl++)
                report(csv, impl, bytes, o.iters, t + impl * o.reps, o.reps);
            printf("# %ld bytes: starpu_mpi round trip = 2 x task %.2f us + messages %.2f us "
                   "(raw MPI %.2f us with StarPU running, %.2f us without)\n",
                   bytes, 0.5 * m_loc * 1e6, (m_smpi - m_loc) * 1e6, m_mpi * 1e6, bare[s] * 1e6);
        }
        fflush(stdout);
        MPI_Bcast(&status, 1, MPI_INT, 0, comm);
    }

    free(buf);
    free(t);
    if (csv && fclose(csv)) {
        perror(o.csv);
        status = 1;
    }
    MPI_Comm_free(&comm);
    tila_finalize();
    MPI_Finalize();
    return status;
}
