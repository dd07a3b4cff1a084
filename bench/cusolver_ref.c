/**
 * @file cusolver_ref.c
 * @brief cusolver-ref: the cuSOLVER peer of the GPU benchmarks, and the device's bandwidth.
 *
 *   cusolver-ref potrf|posv|geqrf|bandwidth --n LIST [--m M] [--reps R] [--warmup W] [--seed S]
 *                [--csv FILE]
 * (--m, default n, must be n for potrf and posv and at least n for geqrf)
 *
 * potrf: cusolverDnDpotrf (lower) on the n x n SPD matrix tila-bench-run makes
 *        (tila_dplgsy(n, A, seed)); posv: the same, then cusolverDnDpotrs on one
 *        right-hand side, both timed (the peer of Tila's mixed-precision dsposv, which
 *        cuSOLVER lacks: its refinement API covers LU and least squares only); geqrf: cusolverDnDgeqrf on the m x n random matrix
 *        (tila_dplrnt(A, seed)); both generated on the host through a Tila descriptor
 *        over a host array, so they are the very matrices Tila factors, then copied to
 *        the device.  Only the factorization is timed (CUDA events), the matrix already
 *        on the device; the host-to-device copy is printed as a comment.
 * bandwidth: the device's memory bandwidth on the same m x n random matrix, twice:
 *        cudaMemcpy device to device (GB/s counting the bytes read and written) and
 *        cublasDasum, a pure read of the matrix (GB/s counting the bytes read once, as
 *        the norms' rates do).
 * Each configuration makes --warmup untimed calls (default 1), then --reps timed ones (default
 * 3), all in this process, each on the matrix put back from a pristine copy on the device
 * (untimed), as tila-bench-run times Tila's warm calls; the median of the timed ones is
 * kept, and the first call's (cold) time beside it.  One CSV row per configuration in
 * ../shared/BENCH.md's format with impl=cusolver (or memcpy/dasum for bandwidth) and
 * tila-bench's first_seconds, on stdout and in --csv FILE (appended, header when the file
 * is new).
 * check, on the last call's result: potrf (posv: its factor) ||A x - L (L^T x)|| /
 * (||A||_F ||x|| n eps), geqrf
 * ||A x - Q (R x)|| /
 * (||A||_F ||x|| m eps) for a fixed x (Q and L applied on the device, A x on the
 * host), bandwidth the relative difference of the sums of |a_ij| (device vs host).
 *
 * StarPU only generates the matrices here (STARPU_NCUDA=0 is forced and STARPU_NCPU
 * unset: every core), so the GPU is cuSOLVER's alone.  Run it on one rank.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <lapacke.h>

#include "tila.h"

#define MAXN 32
#define GEN_NB 512

#define CHECK_CUDA(call) check_status((int)(call), (int)cudaSuccess, #call, __FILE__, __LINE__)
#define CHECK_CUBLAS(call)                                                                         \
    check_status((int)(call), (int)CUBLAS_STATUS_SUCCESS, #call, __FILE__, __LINE__)
#define CHECK_CUSOLVER(call)                                                                       \
    check_status((int)(call), (int)CUSOLVER_STATUS_SUCCESS, #call, __FILE__, __LINE__)

static void check_status(int status, int success, const char *call, const char *file, int line)
{
    if (status != success) {
        fprintf(stderr, "cusolver-ref: %s:%d: %s returned %d\n", file, line, call, status);
        exit(1);
    }
}

typedef struct ref_s {
    const char *routine;
    int m, n, reps, warmup;
    unsigned long long seed;
    double *a;       /**< host: the generated matrix, m x n, lda = m */
    double *da, *dw; /**< device: the matrix being worked on, a second m x n array */
    double *dorig;   /**< device: the generated matrix, to put da back between calls */
    double first;    /**< the first call's seconds (cold) */
    cublasHandle_t blas;
    cusolverDnHandle_t solver;
    cudaEvent_t start, stop;
} ref_t;

static void *host_alloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "cusolver-ref: out of host memory (%zu bytes)\n", bytes);
        exit(1);
    }
    return p;
}

/* The matrix tila-bench-run gives Tila for this routine: its generator, its seed. */
static void generate(ref_t *r)
{
    tila_desc_t *A;
    int rc = tila_desc_create_lapack(&A, TILA_REAL64, r->a, r->m, r->m, r->n, GEN_NB, GEN_NB, NULL);
    if (rc == 0)
        rc = strcmp(r->routine, "geqrf") ? tila_dplgsy((double)r->n, A, r->seed)
                                         : tila_dplrnt(A, r->seed);
    tila_desc_destroy(&A);
    if (rc) {
        fprintf(stderr, "cusolver-ref: generating the matrix: %s\n", tila_strerror(rc));
        exit(1);
    }
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static double median(double *t, int n)
{
    qsort(t, n, sizeof *t, cmp_double);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

static void timer_start(ref_t *r) { CHECK_CUDA(cudaEventRecord(r->start, 0)); }

static double timer_stop(ref_t *r)
{
    float ms;
    CHECK_CUDA(cudaEventRecord(r->stop, 0));
    CHECK_CUDA(cudaEventSynchronize(r->stop));
    CHECK_CUDA(cudaEventElapsedTime(&ms, r->start, r->stop));
    return 1e-3 * ms;
}

static void copy_in(ref_t *r)
{
    CHECK_CUDA(cudaMemcpy(r->da, r->a, sizeof(double) * r->m * r->n, cudaMemcpyHostToDevice));
}

/* The matrix put back as generated, on the device, before a call. */
static void restore(ref_t *r)
{
    CHECK_CUDA(cudaMemcpy(r->da, r->dorig, sizeof(double) * r->m * r->n, cudaMemcpyDeviceToDevice));
    CHECK_CUDA(cudaDeviceSynchronize());
}

/* x: the fixed test vector; y on return: A x - y for the factor-applied y given. */
static double residual(const ref_t *r, const double *x, double *y)
{
    int m = r->m, n = r->n;
    if (strcmp(r->routine, "geqrf"))
        cblas_dsymv(CblasColMajor, CblasLower, n, 1.0, r->a, m, x, 1, -1.0, y, 1);
    else
        cblas_dgemv(CblasColMajor, CblasNoTrans, m, n, 1.0, r->a, m, x, 1, -1.0, y, 1);
    double anorm = LAPACKE_dlange(LAPACK_COL_MAJOR, 'F', m, n, r->a, m);
    return cblas_dnrm2(m, y, 1) / (anorm * cblas_dnrm2(n, x, 1) * m * DBL_EPSILON);
}

/* --warmup untimed factorizations, then --reps timed ones, each on the matrix put back;
 * returns the median seconds of the timed ones (the first call's in r->first). */
static double factorize(ref_t *r, double *check)
{
    int m = r->m, n = r->n, lwork = 0, info = 0, *dinfo, potrf = strcmp(r->routine, "geqrf");
    int posv = !strcmp(r->routine, "posv");
    double *work, *tau = NULL, *db = NULL, t[MAXN];
    CHECK_CUDA(cudaMalloc((void **)&dinfo, sizeof(int)));
    if (posv) CHECK_CUDA(cudaMalloc((void **)&db, sizeof(double) * n));
    if (potrf)
        CHECK_CUSOLVER(
            cusolverDnDpotrf_bufferSize(r->solver, CUBLAS_FILL_MODE_LOWER, n, r->da, m, &lwork));
    else {
        CHECK_CUDA(cudaMalloc((void **)&tau, sizeof(double) * n));
        CHECK_CUSOLVER(cusolverDnDgeqrf_bufferSize(r->solver, m, n, r->da, m, &lwork));
    }
    CHECK_CUDA(cudaMalloc((void **)&work, sizeof(double) * (lwork ? lwork : 1)));
    for (int call = 0; call < r->warmup + r->reps; call++) {
        int rep = call - r->warmup; /* timed from 0 on */
        restore(r);
        if (posv) CHECK_CUDA(cudaMemset(db, 0, sizeof(double) * n));
        timer_start(r);
        if (potrf)
            CHECK_CUSOLVER(cusolverDnDpotrf(r->solver, CUBLAS_FILL_MODE_LOWER, n, r->da, m, work,
                                            lwork, dinfo));
        if (posv)
            CHECK_CUSOLVER(
                cusolverDnDpotrs(r->solver, CUBLAS_FILL_MODE_LOWER, n, 1, r->da, m, db, n, dinfo));
        if (!potrf)
            CHECK_CUSOLVER(cusolverDnDgeqrf(r->solver, m, n, r->da, m, tau, work, lwork, dinfo));
        double seconds = timer_stop(r);
        if (call == 0) r->first = seconds;
        if (rep >= 0) t[rep] = seconds;
        CHECK_CUDA(cudaMemcpy(&info, dinfo, sizeof(int), cudaMemcpyDeviceToHost));
        if (info) {
            fprintf(stderr, "cusolver-ref: %s returned info %d\n", r->routine, info);
            exit(1);
        }
    }
    /* y = L (L^T x) or Q (R x) on the device, from the last repetition's factors. */
    double *x = host_alloc(sizeof(double) * n), *y = host_alloc(sizeof(double) * m), *dy;
    for (int j = 0; j < n; j++)
        x[j] = (double)((j * 7919) % 1000) / 1000 - 0.5;
    CHECK_CUDA(cudaMalloc((void **)&dy, sizeof(double) * m));
    CHECK_CUDA(cudaMemset(dy, 0, sizeof(double) * m));
    CHECK_CUDA(cudaMemcpy(dy, x, sizeof(double) * n, cudaMemcpyHostToDevice));
    if (potrf) {
        CHECK_CUBLAS(cublasDtrmv(r->blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT,
                                 n, r->da, m, dy, 1));
        CHECK_CUBLAS(cublasDtrmv(r->blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT,
                                 n, r->da, m, dy, 1));
    }
    else {
        int k = n, lw = 0; /* m >= n */
        double *w;
        CHECK_CUBLAS(cublasDtrmv(r->blas, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT,
                                 k, r->da, m, dy, 1));
        CHECK_CUSOLVER(cusolverDnDormqr_bufferSize(r->solver, CUBLAS_SIDE_LEFT, CUBLAS_OP_N, m, 1,
                                                   k, r->da, m, tau, dy, m, &lw));
        CHECK_CUDA(cudaMalloc((void **)&w, sizeof(double) * (lw ? lw : 1)));
        CHECK_CUSOLVER(cusolverDnDormqr(r->solver, CUBLAS_SIDE_LEFT, CUBLAS_OP_N, m, 1, k, r->da, m,
                                        tau, dy, m, w, lw, dinfo));
        CHECK_CUDA(cudaFree(w));
    }
    CHECK_CUDA(cudaMemcpy(y, dy, sizeof(double) * m, cudaMemcpyDeviceToHost));
    *check = residual(r, x, y);
    CHECK_CUDA(cudaFree(dy));
    CHECK_CUDA(cudaFree(work));
    CHECK_CUDA(cudaFree(tau));
    CHECK_CUDA(cudaFree(db));
    CHECK_CUDA(cudaFree(dinfo));
    free(x);
    free(y);
    return median(t, r->reps);
}

static double sum_abs(ref_t *r, const double *d)
{
    double s;
    CHECK_CUBLAS(cublasDasum_64(r->blas, (int64_t)r->m * r->n, d, 1, &s));
    return s;
}

/* Median seconds of a device-to-device copy (memcpy) or a read (dasum) of the matrix. */
static double bandwidth(ref_t *r, int copy, double *check)
{
    size_t bytes = sizeof(double) * (size_t)r->m * (size_t)r->n, count = bytes / sizeof(double);
    double t[MAXN], host = 0, dev = 0;
    for (size_t i = 0; i < count; i += 1 << 30) /* cblas_dasum's count is an int */
        host += cblas_dasum(count - i < (1u << 30) ? (int)(count - i) : 1 << 30, r->a + i, 1);
    restore(r);
    for (int call = 0; call < r->warmup + r->reps; call++) {
        timer_start(r);
        if (copy)
            CHECK_CUDA(cudaMemcpy(r->dw, r->da, bytes, cudaMemcpyDeviceToDevice));
        else
            dev = sum_abs(r, r->da);
        double seconds = timer_stop(r);
        if (call == 0) r->first = seconds;
        if (call >= r->warmup) t[call - r->warmup] = seconds;
    }
    if (copy) dev = sum_abs(r, r->dw);
    *check = (dev > host ? dev - host : host - dev) / host;
    return median(t, r->reps);
}

static void emit(FILE *csv, const char *line)
{
    printf("%s\n", line);
    fflush(stdout);
    if (csv) fprintf(csv, "%s\n", line);
}

static void run(ref_t *r, FILE *csv)
{
    char line[256];
    size_t bytes = sizeof(double) * r->m * r->n;
    int bw = !strcmp(r->routine, "bandwidth");
    r->a = host_alloc(bytes);
    generate(r);
    CHECK_CUDA(cudaMalloc((void **)&r->da, bytes));
    CHECK_CUDA(cudaMalloc((void **)&r->dorig, bytes));
    if (bw) CHECK_CUDA(cudaMalloc((void **)&r->dw, bytes));
    timer_start(r);
    copy_in(r);
    double h2d = timer_stop(r);
    CHECK_CUDA(cudaMemcpy(r->dorig, r->da, bytes, cudaMemcpyDeviceToDevice));
    printf("# %s m=%d n=%d: host-to-device copy of the matrix %.3f s (%.1f GB/s, not timed "
           "below)\n",
           r->routine, r->m, r->n, h2d, bytes / h2d * 1e-9);
    if (bw) {
        for (int copy = 1; copy >= 0; copy--) {
            double check, s = bandwidth(r, copy, &check);
            snprintf(line, sizeof line,
                     "bandwidth,%s,d,%s,%d,%d,0,0,1,1,1,1,%.6f,%.2f,GB/s,%.2g,%.6f",
                     copy ? "d2d" : "read", copy ? "memcpy" : "dasum", r->m, r->n, s,
                     (copy ? 2.0 : 1.0) * bytes / s * 1e-9, check, r->first);
            emit(csv, line);
        }
        CHECK_CUDA(cudaFree(r->dw));
    }
    else {
        double m = r->m, n = r->n, check, s = factorize(r, &check);
        /* The counts tila-bench-run uses (bench_potrf.c, bench_geqrf.c), so that gpu-run's
         * ratios compare like with like. */
        double flops = !strcmp(r->routine, "potrf")  ? n * n * n / 3.0
                       : !strcmp(r->routine, "posv") ? n * n * n / 3.0 + 2.0 * n * n
                                                     : 2.0 * m * n * n - 2.0 * n * n * n / 3.0 +
                                                           m * n + n * n + 14.0 / 3.0 * n;
        snprintf(line, sizeof line,
                 "%s,%s,d,cusolver,%d,%d,0,0,1,1,1,1,%.6f,%.2f,GFLOP/s,%.2g,%.6f", r->routine,
                 !strcmp(r->routine, "geqrf") ? "-" : "L", r->m, r->n, s, flops / s * 1e-9, check,
                 r->first);
        emit(csv, line);
    }
    CHECK_CUDA(cudaFree(r->da));
    CHECK_CUDA(cudaFree(r->dorig));
    free(r->a);
}

static int parse_list(const char *s, int *v, int *count)
{
    *count = 0;
    while (*s && *count < MAXN) {
        char *end;
        v[(*count)++] = (int)strtol(s, &end, 10);
        if (end == s || (*end && *end != ',')) return -1;
        s = *end ? end + 1 : end;
    }
    return *count ? 0 : -1;
}

int main(int argc, char **argv)
{
    ref_t r = { .reps = 3, .warmup = 1, .seed = 2024 };
    int ns[MAXN], count = 0, m = 0;
    const char *csvpath = NULL;
    r.routine = argc > 1 ? argv[1] : "";
    int bad = strcmp(r.routine, "potrf") && strcmp(r.routine, "posv") &&
              strcmp(r.routine, "geqrf") && strcmp(r.routine, "bandwidth");
    for (int i = 2; i < argc && !bad; i += 2) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            bad = 1;
        else if (!strcmp(a, "--n"))
            bad = parse_list(v, ns, &count);
        else if (!strcmp(a, "--m"))
            m = atoi(v);
        else if (!strcmp(a, "--reps"))
            r.reps = atoi(v);
        else if (!strcmp(a, "--warmup"))
            r.warmup = atoi(v);
        else if (!strcmp(a, "--seed"))
            r.seed = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--csv"))
            csvpath = v;
        else
            bad = 1;
    }
    for (int i = 0; i < count && !bad; i++) /* potrf, posv: square; geqrf: m >= n */
        bad = ns[i] < 1 || (m && (strcmp(r.routine, "geqrf") ? m != ns[i] : m < ns[i]));
    if (bad || !count || r.reps < 1 || r.reps > MAXN || r.warmup < 0 || m < 0) {
        fprintf(stderr,
                "usage: cusolver-ref potrf|posv|geqrf|bandwidth --n LIST [--m M] [--reps R<=%d] "
                "[--warmup W] [--seed S] [--csv FILE]\n",
                MAXN);
        return 2;
    }
    /* StarPU only generates the matrices, on every core, so that the GPU is cuSOLVER's alone. */
    setenv("STARPU_NCUDA", "0", 1);
    unsetenv("STARPU_NCPU");
    int rc = tila_init(&argc, &argv);
    if (rc || tila_comm_size() != 1) {
        fprintf(stderr, "cusolver-ref: %s\n", rc ? tila_strerror(rc) : "run it on one rank");
        if (!rc) tila_finalize();
        return 1;
    }
    FILE *csv = NULL;
    if (csvpath) {
        csv = fopen(csvpath, "a");
        if (!csv) {
            perror(csvpath);
            tila_finalize();
            return 1;
        }
        if (fseek(csv, 0, SEEK_END) == 0 && ftell(csv) == 0)
            fprintf(csv, "routine,variant,prec,impl,m,n,nb,ib,p,q,ranks,workers,seconds,rate,"
                         "unit,check,first_seconds\n");
    }
    CHECK_CUBLAS(cublasCreate(&r.blas));
    CHECK_CUSOLVER(cusolverDnCreate(&r.solver));
    CHECK_CUDA(cudaEventCreate(&r.start));
    CHECK_CUDA(cudaEventCreate(&r.stop));
    for (int i = 0; i < count; i++) {
        r.n = ns[i];
        r.m = m ? m : ns[i];
        run(&r, csv);
    }
    CHECK_CUDA(cudaEventDestroy(r.start));
    CHECK_CUDA(cudaEventDestroy(r.stop));
    CHECK_CUSOLVER(cusolverDnDestroy(r.solver));
    CHECK_CUBLAS(cublasDestroy(r.blas));
    if (csv) fclose(csv);
    tila_finalize();
    return 0;
}
