/**
 * @file cuda_rates.c
 * @brief tila-cuda-rates: the rate of each CUDA tile kernel alone, on one tile already on
 * the device, without StarPU.
 *
 *   tila-cuda-rates [--nb LIST] [--ib IB|auto] [--reps R] [--csv FILE]
 *
 * For each tile edge nb of --nb (default 2048,1024: the GPU benchmarks' tiles) it times the
 * kernels the tiled algorithms run on a GPU, each called as its codelet calls it (the same
 * functions, libtila_cuda_kernels), on nb x nb tiles in device memory, on one stream:
 * Cholesky's (gemm A B^T, trsm right lower transposed, syrk, potrf) in d and s, with, in
 * d, trmm (the same shape) and cuSOLVER's trtri (the inverse of trsm's triangle: trsm's
 * B L^-T as trtri once a panel and a trmm a tile is the candidate), QR's
 * (geqrt, ormqr, tpqrt, tpmqrt with inner blocks --ib; auto, the default: nb / 4 rounded
 * down to a multiple of 8, at least 32, tila-bench's ib on a square matrix) in d,
 * and the memory-bound ones in d (the four norms of lange, lacpy, plrnt, colamax, lag2s)
 * beside cuBLAS's dasum, a pure read of the same tile: the norms' target is that rate.
 * Each kernel runs once to warm up, then --reps times (default 5), its outputs restored
 * from a copy and the L2 cache flushed before each run (outside the timing), each run
 * timed by CUDA events; the median is kept.  Rates: GFLOP/s by LAPACK's flop counts of
 * the tile operation, GB/s by the bytes the operation must move (read once, and written
 * where it writes); check: potrf's and trtri's info (0), else "-".
 *
 * What it answers: the ceiling the tiled algorithms work under on this GPU (a tiled dpotrf
 * cannot beat its gemm, trsm and syrk tiles' rates), and, set against tila-bench's rate of
 * the whole routine, how much of a routine's time is the runtime's rather than the
 * kernels'.  A line per kernel on stdout, and one CSV row per kernel in BENCH.md's
 * format (routine = the kernel, impl = tila for Tila's kernels, cublas for dasum, cusolver
 * for trtri) appended to --csv FILE (tools/sim-node-model.py --rates reads it).
 * Then each latency-bound kernel's width (d, nb of --nb): the share of the GPU it takes
 * while a stream of gemms runs beside it on a second stream (potrf, trsm, trtri, syrk,
 * geqrt with a series of nb-tile gemms): w = (G' - G) / t, with G the gemms' time alone, G'
 * with the kernel running among them, t the kernel's time alone.  A kernel that uses the
 * whole GPU gives 1, one that leaves most of it to the gemms nearly 0: what
 * tools/stream-model.py takes for the fluid model of several streams per GPU (the rows
 * routine "width", variant the kernel, rate w, unit "share", seconds the kernel's time
 * among the gemms).
 * Exits 77 without a CUDA device.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include "cuda_d.h"
#include "cuda_ds.h"
#include "cuda_kernel.h"
#include "cuda_s.h"
#include "perfmodels/calibrate.h"
#include "tila_codelet.h"

#define MAXNB 16
#define MAXOUT 3
#define MAXREPS 64

typedef struct rates_s {
    cudaStream_t stream;
    cudaStream_t stream2; /**< the gemms beside a kernel (width()) */
    cublasHandle_t blas, blas2;
    cusolverDnHandle_t solver;
    cusolverDnParams_t params;
    cudaEvent_t start, stop;
    int nb, ib, reps;
    FILE *csv;
    /* Device buffers: tiles A B C (nb x nb, of doubles: room for either precision), a copy
     * of each output, T (ib x nb), tau, work, the kernels' scratch and a status. */
    void *a, *b, *c, *a0, *b0, *c0, *t, *tau, *work, *scratch, *dwork, *hwork;
    void *c2;    /**< the gemms' output beside a kernel (width()) */
    void *flush; /**< twice the L2 cache, zeros (flush()) */
    size_t flush_bytes;
    int *info;
    size_t work_bytes, dbytes, hbytes;
} rates_t;

/* One kernel: launch enqueues one call on r->stream; before it (untimed) its outputs are
 * restored from their copies and its partial zeroed (zero). */
typedef struct kernel_s {
    const char *name, *variant, *prec, *impl, *unit;
    double amount; /**< flops or bytes of one call */
    void (*launch)(rates_t *r);
    int zero, nout;
    void **out[MAXOUT], **copy[MAXOUT];
} kernel_t;

static void *dalloc(size_t bytes)
{
    void *p = NULL;
    TILA_CUDA_ASSERT(cudaMalloc(&p, bytes ? bytes : 1));
    return p;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static size_t tile_bytes(const rates_t *r) { return sizeof(double) * (size_t)r->nb * r->nb; }

/* ---- Cholesky's kernels: C -= A B^T, B = B L^-T, C -= A A^T, L L^T = A ---------------- */

static void dgemm(rates_t *r)
{
    int nb = r->nb;
    TILA_CUDA_ASSERT(tila_cuda_dgemm(r->blas, TILA_NOTRANS, TILA_TRANS, nb, nb, nb, -1, r->a, nb,
                                     r->b, nb, 1, r->c, nb));
}

static void sgemm(rates_t *r)
{
    int nb = r->nb;
    TILA_CUDA_ASSERT(tila_cuda_sgemm(r->blas, TILA_NOTRANS, TILA_TRANS, nb, nb, nb, -1, r->a, nb,
                                     r->b, nb, 1, r->c, nb));
}

static void dtrsm(rates_t *r)
{
    int nb = r->nb;
    TILA_CUDA_ASSERT(tila_cuda_dtrsm(r->blas, TILA_RIGHT, TILA_LOWER, TILA_TRANS, TILA_NONUNIT, nb,
                                     nb, 1, r->a, nb, r->b, nb));
}

static void strsm(rates_t *r)
{
    int nb = r->nb;
    TILA_CUDA_ASSERT(tila_cuda_strsm(r->blas, TILA_RIGHT, TILA_LOWER, TILA_TRANS, TILA_NONUNIT, nb,
                                     nb, 1, r->a, nb, r->b, nb));
}

/* B = B L^T in place (cuBLAS's trmm, as the codelet calls it), and L^-1 in place
 * (cuSOLVER's trtri): together a candidate for trsm's B L^-T on a GPU (MAGMA's). */
static void dtrmm(rates_t *r)
{
    int nb = r->nb;
    TILA_CUDA_ASSERT(tila_cuda_dtrmm(r->blas, TILA_RIGHT, TILA_LOWER, TILA_TRANS, TILA_NONUNIT, nb,
                                     nb, 1, r->a, nb, r->b, nb));
}

/* The same product by one gemm on the triangle made full (tila_cuda_dtrmm_gemm, as the
 * codelet runs it), its workspace in the QR kernels' scratch (2 nb^2 elements and more). */
static void dtrmm_gemm(rates_t *r)
{
    int nb = r->nb;
    TILA_CUDA_ASSERT(tila_cuda_dtrmm_gemm(r->blas, TILA_RIGHT, TILA_LOWER, TILA_TRANS,
                                          TILA_NONUNIT, nb, nb, 1, r->a, nb, r->b, nb, r->work));
}

/* trsm's solve halved down to 256-row triangles, the couplings by gemm
 * (tila_cuda_dtrsm_rec, as the codelet runs it). */
static void dtrsm_rec(rates_t *r)
{
    int nb = r->nb;
    TILA_CUDA_ASSERT(tila_cuda_dtrsm_rec(r->blas, TILA_RIGHT, TILA_LOWER, TILA_TRANS, TILA_NONUNIT,
                                         nb, nb, 1, r->a, nb, r->b, nb, 256));
}

static void dtrtri(rates_t *r)
{
    TILA_CUDA_ASSERT(cusolverDnXtrtri(r->solver, CUBLAS_FILL_MODE_LOWER, CUBLAS_DIAG_NON_UNIT,
                                      r->nb, CUDA_R_64F, r->a, r->nb, r->dwork, r->dbytes, r->hwork,
                                      r->hbytes, r->info));
}

static void dsyrk(rates_t *r)
{
    int nb = r->nb;
    TILA_CUDA_ASSERT(
        tila_cuda_dsyrk(r->blas, TILA_LOWER, TILA_NOTRANS, nb, nb, -1, r->a, nb, 1, r->c, nb));
}

static void ssyrk(rates_t *r)
{
    int nb = r->nb;
    TILA_CUDA_ASSERT(
        tila_cuda_ssyrk(r->blas, TILA_LOWER, TILA_NOTRANS, nb, nb, -1, r->a, nb, 1, r->c, nb));
}

/* potrf on C (made SPD by the setup), its workspace sized by the codelet's query. */
static void dpotrf(rates_t *r)
{
    int nb = r->nb, lwork = 0;
    TILA_CUDA_ASSERT(tila_cuda_dpotrf_lwork(r->solver, TILA_LOWER, nb, r->c, nb, &lwork));
    if (sizeof(double) * (size_t)lwork > r->work_bytes) abort();
    TILA_CUDA_ASSERT(
        tila_cuda_dpotrf(r->solver, TILA_LOWER, nb, r->c, nb, r->work, lwork, r->info));
}

static void spotrf(rates_t *r)
{
    int nb = r->nb, lwork = 0;
    TILA_CUDA_ASSERT(tila_cuda_spotrf_lwork(r->solver, TILA_LOWER, nb, r->c, nb, &lwork));
    if (sizeof(float) * (size_t)lwork > r->work_bytes) abort();
    TILA_CUDA_ASSERT(
        tila_cuda_spotrf(r->solver, TILA_LOWER, nb, r->c, nb, r->work, lwork, r->info));
}

/* ---- QR's: A = Q R (geqrt, V and T in A and T), C = Q^T C, [A; B] = Q [R; 0] ------------ */

static void dgeqrt(rates_t *r)
{
    int nb = r->nb;
    TILA_CUDA_ASSERT(tila_cuda_dgeqrt(r->blas, 128, r->solver, r->params, nb, nb, r->ib, r->a, nb,
                                      r->t, r->ib, r->tau, r->dwork, r->dbytes, r->hwork,
                                      r->hbytes));
}

/* T of nb reflectors (V: A's strictly lower part, tau all 1.5) into C: cuSOLVER's larft
 * (ut_min 0) or the UT transform (1), as tila_cuda_dlarft_blocks chooses between them. */
static void larft(rates_t *r, int ut_min)
{
    int nb = r->nb;
    TILA_CUDA_ASSERT(tila_cuda_dlarft_blocks(r->blas, ut_min, r->solver, r->params, nb, nb, nb,
                                             r->a, nb, r->tau, r->c, nb, r->dwork, r->dbytes,
                                             r->hwork, r->hbytes));
}
static void dlarft_x(rates_t *r) { larft(r, 0); }
static void dlarft_ut(rates_t *r) { larft(r, 1); }

static void dormqr(rates_t *r)
{
    int nb = r->nb;
    TILA_CUDA_ASSERT(tila_cuda_dormqr(r->blas, TILA_LEFT, TILA_TRANS, nb, nb, nb, r->ib, r->a, nb,
                                      r->t, r->ib, r->c, nb, r->work));
}

static void dtpqrt(rates_t *r)
{
    int nb = r->nb;
    TILA_CUDA_ASSERT(tila_cuda_dtpqrt(r->solver, r->params, nb, nb, 0, r->ib, r->a, nb, r->b, nb,
                                      r->t, r->ib, r->work, r->dwork, r->dbytes, r->hwork,
                                      r->hbytes));
}

static void dtpmqrt(rates_t *r)
{
    int nb = r->nb;
    TILA_CUDA_ASSERT(tila_cuda_dtpmqrt(r->blas, TILA_LEFT, TILA_TRANS, nb, nb, nb, 0, r->ib, r->b,
                                       nb, r->t, r->ib, r->c, nb, r->a, nb, r->work));
}

/* ---- Memory-bound: norms (their partials zeroed, as lan_reduce.c's), copies ------------ */

static void lange(rates_t *r, tila_norm_t norm)
{
    int nb = r->nb;
    TILA_CUDA_ASSERT(tila_cuda_dlange(r->stream, norm, nb, nb, r->a, nb, r->c, r->scratch));
}

static void lange_m(rates_t *r) { lange(r, TILA_NORM_MAX); }
static void lange_o(rates_t *r) { lange(r, TILA_NORM_ONE); }
static void lange_i(rates_t *r) { lange(r, TILA_NORM_INF); }
static void lange_f(rates_t *r) { lange(r, TILA_NORM_FRO); }

static void dasum(rates_t *r)
{
    TILA_CUDA_ASSERT(cublasSetPointerMode(r->blas, CUBLAS_POINTER_MODE_DEVICE));
    TILA_CUDA_ASSERT(cublasDasum(r->blas, r->nb * r->nb, r->a, 1, r->c));
    TILA_CUDA_ASSERT(cublasSetPointerMode(r->blas, CUBLAS_POINTER_MODE_HOST));
}

static void dlacpy(rates_t *r)
{
    TILA_CUDA_ASSERT(
        tila_cuda_dlacpy(r->stream, TILA_GENERAL, r->nb, r->nb, r->a, r->nb, r->c, r->nb));
}

static void dplrnt(rates_t *r)
{
    TILA_CUDA_ASSERT(tila_cuda_dplrnt(r->stream, r->nb, r->nb, r->c, r->nb, 0, 0, 42));
}

static void dcolamax(rates_t *r)
{
    TILA_CUDA_ASSERT(tila_cuda_dcolamax(r->stream, r->nb, r->nb, r->a, r->nb, r->c));
}

static void dlag2s(rates_t *r)
{
    TILA_CUDA_ASSERT(
        tila_cuda_dlag2s(r->stream, TILA_GENERAL, r->nb, r->nb, r->a, r->nb, r->c, r->nb, r->info));
}

/* ---- Timing --------------------------------------------------------------------------- */

/*
 * Before each timed call: a read of a buffer twice the L2 cache (cuBLAS's dasum), so that
 * the call's tiles come from device memory, not from L2 (a 1024-tile fits in an H100's 50
 * MB), and so that the GPU is still busy when the host queues the call: its launch is
 * outside the events, as it is for a codelet queued behind earlier work.
 */
static void flush(rates_t *r)
{
    TILA_CUDA_ASSERT(cublasSetPointerMode(r->blas, CUBLAS_POINTER_MODE_DEVICE));
    double *x = r->flush;
    int n = (int)(r->flush_bytes / sizeof(double));
    TILA_CUDA_ASSERT(cublasDasum(r->blas, n, x, 1, x + n)); /* the sum past the read */
    TILA_CUDA_ASSERT(cublasSetPointerMode(r->blas, CUBLAS_POINTER_MODE_HOST));
}

/* The median of --reps timed calls, each after its outputs are restored. */
static double time_kernel(rates_t *r, const kernel_t *k)
{
    double t[MAXREPS];
    int reps = r->reps;
    for (int rep = -1; rep < reps; rep++) { /* rep -1: the warm-up */
        for (int o = 0; o < k->nout; o++)
            TILA_CUDA_ASSERT(cudaMemcpyAsync(*k->out[o], *k->copy[o], tile_bytes(r),
                                             cudaMemcpyDeviceToDevice, r->stream));
        if (k->zero)
            TILA_CUDA_ASSERT(cudaMemsetAsync(r->c, 0, sizeof(double) * (size_t)r->nb, r->stream));
        flush(r);
        TILA_CUDA_ASSERT(cudaEventRecord(r->start, r->stream));
        k->launch(r);
        TILA_CUDA_ASSERT(cudaEventRecord(r->stop, r->stream));
        TILA_CUDA_ASSERT(cudaEventSynchronize(r->stop));
        float ms;
        TILA_CUDA_ASSERT(cudaEventElapsedTime(&ms, r->start, r->stop));
        if (rep >= 0) t[rep] = 1e-3 * ms;
    }
    qsort(t, (size_t)reps, sizeof t[0], cmp_double);
    return reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
}

/* check: potrf's and trtri's info after the last run (0: factored, inverted), else "-". */
static void report(rates_t *r, const kernel_t *k, double s)
{
    char check[32] = "-";
    if (!strcmp(k->name, "potrf") || !strcmp(k->name, "trtri")) {
        int info;
        TILA_CUDA_ASSERT(cudaMemcpy(&info, r->info, sizeof info, cudaMemcpyDeviceToHost));
        snprintf(check, sizeof check, "%d", info);
    }
    double rate = k->amount / s * 1e-9;
    int ib = !strcmp(k->unit, "GFLOP/s") && strstr(k->name, "qr") ? r->ib : 0; /* QR's */
    char row[256];
    snprintf(row, sizeof row, "%s,%s,%s,%s,%d,%d,%d,%d,1,1,1,1,%.6g,%.2f,%s,%s\n", k->name,
             k->variant, k->prec, k->impl, r->nb, r->nb, r->nb, ib, s, rate, k->unit, check);
    printf("[%-7s %-3s %s nb=%d] %-6s %10.3f ms %10.1f %s  check %s\n", k->name, k->variant,
           k->prec, r->nb, k->impl, 1e3 * s, rate, k->unit, check);
    if (r->csv) {
        fputs(row, r->csv);
        fflush(r->csv); /* a run cut short keeps every row so far */
    }
}

/* Elapsed seconds between two events (synchronizing on the second). */
static double elapsed(cudaEvent_t a, cudaEvent_t b)
{
    float ms;
    TILA_CUDA_ASSERT(cudaEventSynchronize(b));
    TILA_CUDA_ASSERT(cudaEventElapsedTime(&ms, a, b));
    return 1e-3 * ms;
}

/* count gemms C2 -= A0 B0^T on the second stream (their inputs never written). */
static void gemm_series(rates_t *r, int count)
{
    int nb = r->nb;
    for (int i = 0; i < count; i++)
        TILA_CUDA_ASSERT(tila_cuda_dgemm(r->blas2, TILA_NOTRANS, TILA_TRANS, nb, nb, nb, -1, r->a0,
                                         nb, r->b0, nb, 1, r->c2, nb));
}

/*
 * Kernel k's width: a series of gemms on the second stream, alone (G), then with k launched
 * on the first stream once the series' first gemm has ended (G', and k's time t2 there);
 * w = (G' - G) / t, t k's time alone.  The series lasts at least 4 t, so k runs inside it.
 * Medians of --reps; k's outputs restored before each run.
 */
static void width(rates_t *r, const kernel_t *k, double t, double gemm)
{
    int count = 2 + (int)(4 * t / gemm);
    double w[MAXREPS], t2[MAXREPS];
    cudaEvent_t e[5];
    for (int i = 0; i < 5; i++)
        TILA_CUDA_ASSERT(cudaEventCreate(&e[i]));
    for (int rep = -1; rep < r->reps; rep++) { /* rep -1: the warm-up */
        for (int o = 0; o < k->nout; o++)
            TILA_CUDA_ASSERT(cudaMemcpyAsync(*k->out[o], *k->copy[o], tile_bytes(r),
                                             cudaMemcpyDeviceToDevice, r->stream));
        TILA_CUDA_ASSERT(cudaStreamSynchronize(r->stream));
        TILA_CUDA_ASSERT(cudaEventRecord(e[0], r->stream2));
        gemm_series(r, count);
        TILA_CUDA_ASSERT(cudaEventRecord(e[1], r->stream2));
        double alone = elapsed(e[0], e[1]);
        TILA_CUDA_ASSERT(cudaEventRecord(e[0], r->stream2));
        gemm_series(r, 1);
        TILA_CUDA_ASSERT(cudaEventRecord(e[2], r->stream2)); /* the first gemm's end */
        gemm_series(r, count - 1);
        TILA_CUDA_ASSERT(cudaEventRecord(e[1], r->stream2));
        TILA_CUDA_ASSERT(cudaStreamWaitEvent(r->stream, e[2], 0));
        TILA_CUDA_ASSERT(cudaEventRecord(e[3], r->stream));
        k->launch(r);
        TILA_CUDA_ASSERT(cudaEventRecord(e[4], r->stream));
        double both = elapsed(e[0], e[1]), kt = elapsed(e[3], e[4]);
        if (rep >= 0) {
            w[rep] = (both - alone) / t;
            t2[rep] = kt;
        }
    }
    for (int i = 0; i < 5; i++)
        TILA_CUDA_ASSERT(cudaEventDestroy(e[i]));
    int n = r->reps;
    qsort(w, (size_t)n, sizeof w[0], cmp_double);
    qsort(t2, (size_t)n, sizeof t2[0], cmp_double);
    double wm = n % 2 ? w[n / 2] : 0.5 * (w[n / 2 - 1] + w[n / 2]);
    double tm = n % 2 ? t2[n / 2] : 0.5 * (t2[n / 2 - 1] + t2[n / 2]);
    printf("[width   %-5s d nb=%d] %.3f of the GPU beside %d gemms (alone %.3f ms, among "
           "them %.3f ms)\n",
           k->name, r->nb, wm, count, 1e3 * t, 1e3 * tm);
    if (r->csv) {
        fprintf(r->csv, "width,%s,d,%s,%d,%d,%d,%d,1,1,1,1,%.6g,%.4f,share,-\n", k->name, k->impl,
                r->nb, r->nb, r->nb, strstr(k->name, "qr") ? r->ib : 0, tm, wm);
        fflush(r->csv);
    }
}

/* The buffers for this nb. */
static void setup(rates_t *r)
{
    int nb = r->nb;
    size_t tb = tile_bytes(r);
    void **tiles[] = { &r->a, &r->b, &r->c, &r->a0, &r->b0, &r->c0, &r->c2 };
    for (int i = 0; i < 7; i++)
        *tiles[i] = dalloc(tb);
    r->t = dalloc(sizeof(double) * (size_t)r->ib * nb);
    r->tau = dalloc(sizeof(double) * (size_t)nb);
    r->info = dalloc(sizeof(int) * 2);
    r->scratch = dalloc(sizeof(double) * tila_cuda_dlan_scratch_elems(nb));
    /* The QR update kernels' scratch as the drivers size it; potrf's queried. */
    size_t qr = sizeof(double) * tila_qr_scratch_elems(r->ib, nb, nb, nb);
    int lw = 0;
    TILA_CUDA_ASSERT(tila_cuda_dpotrf_lwork(r->solver, TILA_LOWER, nb, r->c, nb, &lw));
    r->work_bytes = qr > sizeof(double) * (size_t)lw ? qr : sizeof(double) * (size_t)lw;
    r->work = dalloc(r->work_bytes);
    size_t d1, h1, d2, h2;
    TILA_CUDA_ASSERT(tila_cuda_dgeqrt_worksize(r->solver, r->params, nb, nb, r->ib, r->a, nb,
                                               r->tau, r->t, r->ib, &d1, &h1));
    TILA_CUDA_ASSERT(tila_cuda_dlarft_blocks_worksize(r->solver, r->params, nb, nb, nb, r->a, nb,
                                                      r->tau, r->c, nb, &d2, &h2));
    d1 = d2 > d1 ? d2 : d1;
    h1 = h2 > h1 ? h2 : h1;
    double *taus = malloc(sizeof(double) * (size_t)nb);
    if (!taus) abort();
    for (int j = 0; j < nb; j++)
        taus[j] = 1.5;
    TILA_CUDA_ASSERT(cudaMemcpy(r->tau, taus, sizeof(double) * (size_t)nb, cudaMemcpyHostToDevice));
    free(taus);
    TILA_CUDA_ASSERT(tila_cuda_dtpqrt_worksize(r->solver, r->params, nb, nb, r->ib, r->t, r->ib,
                                               r->work, &d2, &h2));
    r->dbytes = d1 > d2 ? d1 : d2;
    r->hbytes = h1 > h2 ? h1 : h2;
    TILA_CUDA_ASSERT(cusolverDnXtrtri_bufferSize(r->solver, CUBLAS_FILL_MODE_LOWER,
                                                 CUBLAS_DIAG_NON_UNIT, nb, CUDA_R_64F, r->a, nb,
                                                 &d1, &h1));
    r->dbytes = d1 > r->dbytes ? d1 : r->dbytes;
    r->hbytes = h1 > r->hbytes ? h1 : r->hbytes;
    r->dwork = dalloc(r->dbytes);
    r->hwork = malloc(r->hbytes ? r->hbytes : 1);
    if (!r->hwork) abort();
}

/* The copies in precision prec: A, B random tiles, C an SPD tile (the potrf's input and
 * trsm's triangle); A, B, C set from them. */
static void fill(rates_t *r, char prec)
{
    int nb = r->nb;
    if (prec == 'd') {
        TILA_CUDA_ASSERT(tila_cuda_dplrnt(r->stream, nb, nb, r->a0, nb, 0, 0, 1));
        TILA_CUDA_ASSERT(tila_cuda_dplrnt(r->stream, nb, nb, r->b0, nb, 0, nb, 1));
        TILA_CUDA_ASSERT(tila_cuda_dplgsy(r->stream, nb, nb, nb, r->c0, nb, 0, 0, 1));
    }
    else {
        TILA_CUDA_ASSERT(tila_cuda_splrnt(r->stream, nb, nb, r->a0, nb, 0, 0, 1));
        TILA_CUDA_ASSERT(tila_cuda_splrnt(r->stream, nb, nb, r->b0, nb, 0, nb, 1));
        TILA_CUDA_ASSERT(tila_cuda_splgsy(r->stream, (float)nb, nb, nb, r->c0, nb, 0, 0, 1));
    }
    void *to[] = { r->a, r->b, r->c }, *from[] = { r->a0, r->b0, r->c0 };
    for (int i = 0; i < 3; i++)
        TILA_CUDA_ASSERT(
            cudaMemcpyAsync(to[i], from[i], tile_bytes(r), cudaMemcpyDeviceToDevice, r->stream));
    TILA_CUDA_ASSERT(cudaStreamSynchronize(r->stream));
}

static void teardown(rates_t *r)
{
    void *p[] = { r->a, r->b,   r->c,    r->a0,   r->b0,    r->c0,     r->c2,
                  r->t, r->tau, r->info, r->work, r->dwork, r->scratch };
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        TILA_CUDA_ASSERT(cudaFree(p[i]));
    free(r->hwork);
}

/* Time and report one kernel; trsm's and trmm's triangle is C's SPD tile (well
 * conditioned) in A's place (trtri's, restored before each call), A restored after each
 * kernel (QR's write it). */
static double run_kernel(rates_t *r, const kernel_t *k)
{
    void *src = !strcmp(k->name, "trsm") || !strcmp(k->name, "trmm") ? r->c0 : NULL;
    if (src) TILA_CUDA_ASSERT(cudaMemcpy(r->a, src, tile_bytes(r), cudaMemcpyDeviceToDevice));
    double t = time_kernel(r, k);
    report(r, k, t);
    TILA_CUDA_ASSERT(cudaMemcpy(r->a, r->a0, tile_bytes(r), cudaMemcpyDeviceToDevice));
    return t;
}

/* Kernel k's width beside gemms of `gemm` seconds each (its triangle set as run_kernel's). */
static void run_width(rates_t *r, const kernel_t *k, double t, double gemm)
{
    void *src = !strcmp(k->name, "trsm") || !strcmp(k->name, "trmm") ? r->c0 : NULL;
    if (src) TILA_CUDA_ASSERT(cudaMemcpy(r->a, src, tile_bytes(r), cudaMemcpyDeviceToDevice));
    width(r, k, t, gemm);
    TILA_CUDA_ASSERT(cudaMemcpy(r->a, r->a0, tile_bytes(r), cudaMemcpyDeviceToDevice));
}

static void run_nb(rates_t *r)
{
    double nb = r->nb, n3 = nb * nb * nb, n2 = nb * nb * sizeof(double);
#define OUT1(x)                                                                                    \
    0, 1, { &r->x }, { &r->x##0 }
#define OUT2(x, y)                                                                                 \
    0, 2, { &r->x, &r->y }, { &r->x##0, &r->y##0 }
#define PART                                                                                       \
    1, 0, { 0 }, { 0 } /* writes only a partial: C's first nb reals, zeroed */
#define NONE                                                                                       \
    0, 0, { 0 }, { 0 }
    const kernel_t dk[] = {
        { "gemm", "NT", "d", "tila", "GFLOP/s", 2 * n3, dgemm, OUT1(c) },
        { "trsm", "RLT", "d", "tila", "GFLOP/s", n3, dtrsm, OUT1(b) },
        { "trsm", "RLT-rec", "d", "tila", "GFLOP/s", n3, dtrsm_rec, OUT1(b) },
        { "trmm", "RLT", "d", "tila", "GFLOP/s", n3, dtrmm, OUT1(b) },
        { "trmm", "RLT-gemm", "d", "tila", "GFLOP/s", n3, dtrmm_gemm, OUT1(b) },
        { "trtri", "L", "d", "cusolver", "GFLOP/s", n3 / 3, dtrtri, 0, 1, { &r->a }, { &r->c0 } },
        { "syrk", "LN", "d", "tila", "GFLOP/s", n3, dsyrk, OUT1(c) },
        { "potrf", "L", "d", "tila", "GFLOP/s", n3 / 3, dpotrf, OUT1(c) },
        { "geqrt", "-", "d", "tila", "GFLOP/s", 4 * n3 / 3, dgeqrt, OUT1(a) },
        { "larft", "xlarft", "d", "cusolver", "GFLOP/s", n3, dlarft_x, OUT1(c) },
        { "larft", "ut", "d", "tila", "GFLOP/s", n3, dlarft_ut, OUT1(c) },
        { "ormqr", "LT", "d", "tila", "GFLOP/s", 2 * n3, dormqr, OUT1(c) },
        { "tpqrt", "-", "d", "tila", "GFLOP/s", 2 * n3, dtpqrt, OUT2(a, b) },
        { "tpmqrt", "LT", "d", "tila", "GFLOP/s", 4 * n3, dtpmqrt, OUT2(a, c) },
        { "lange", "M", "d", "tila", "GB/s", n2, lange_m, PART },
        { "lange", "O", "d", "tila", "GB/s", n2, lange_o, PART },
        { "lange", "I", "d", "tila", "GB/s", n2, lange_i, PART },
        { "lange", "F", "d", "tila", "GB/s", n2, lange_f, PART },
        { "asum", "-", "d", "cublas", "GB/s", n2, dasum, NONE },
        { "colamax", "-", "d", "tila", "GB/s", n2, dcolamax, NONE },
        { "lacpy", "-", "d", "tila", "GB/s", 2 * n2, dlacpy, NONE },
        { "plrnt", "-", "d", "tila", "GB/s", n2, dplrnt, NONE },
        { "lag2s", "-", "d", "tila", "GB/s", 1.5 * n2, dlag2s, NONE },
    };
    const kernel_t sk[] = {
        { "gemm", "NT", "s", "tila", "GFLOP/s", 2 * n3, sgemm, OUT1(c) },
        { "trsm", "RLT", "s", "tila", "GFLOP/s", n3, strsm, OUT1(b) },
        { "syrk", "LN", "s", "tila", "GFLOP/s", n3, ssyrk, OUT1(c) },
        { "potrf", "L", "s", "tila", "GFLOP/s", n3 / 3, spotrf, OUT1(c) },
    };
#undef OUT1
#undef OUT2
#undef PART
#undef NONE
    setup(r);
    fill(r, 'd');
    /* The GPU at its clocks before the first timing: about 0.1 s of gemm on the first nb. */
    static int warm;
    for (int i = 0; !warm && i < (int)(5e12 / (2 * n3)) + 1; i++)
        dgemm(r);
    warm = 1;
    TILA_CUDA_ASSERT(cudaStreamSynchronize(r->stream));
    double t[sizeof dk / sizeof dk[0]];
    for (size_t i = 0; i < sizeof dk / sizeof dk[0]; i++)
        t[i] = run_kernel(r, &dk[i]);
    /* The latency-bound kernels' widths beside gemm (dk[0]); C2 from C's SPD tile. */
    TILA_CUDA_ASSERT(cudaMemcpy(r->c2, r->c0, tile_bytes(r), cudaMemcpyDeviceToDevice));
    for (size_t i = 0; i < sizeof dk / sizeof dk[0]; i++) {
        const char *n = dk[i].name;
        if (!strcmp(n, "potrf") || !strcmp(n, "trsm") || !strcmp(n, "trtri") ||
            !strcmp(n, "syrk") || !strcmp(n, "geqrt"))
            run_width(r, &dk[i], t[i], t[0]);
    }
    fill(r, 's');
    for (size_t i = 0; i < sizeof sk / sizeof sk[0]; i++)
        run_kernel(r, &sk[i]);
    teardown(r);
}

static int usage(void)
{
    fprintf(stderr,
            "usage: tila-cuda-rates [--nb LIST] [--ib IB|auto] [--reps R (1-%d)] [--csv FILE]\n",
            MAXREPS);
    return 2;
}

int main(int argc, char **argv)
{
    rates_t r = { .ib = 0, .reps = 5 }; /* ib 0: auto */
    int ib = 0;
    int nbs[MAXNB] = { 2048, 1024 }, nnb = 2;
    const char *csv = NULL;
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc) return usage();
        if (!strcmp(argv[i], "--nb")) {
            nnb = 0;
            for (char *s = argv[++i]; *s && nnb < MAXNB; s += *s == ',')
                nbs[nnb++] = (int)strtol(s, &s, 10);
        }
        else if (!strcmp(argv[i], "--ib")) {
            i++;
            if (strcmp(argv[i], "auto") && (ib = atoi(argv[i])) < 1) return usage();
        }
        else if (!strcmp(argv[i], "--reps"))
            r.reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--csv"))
            csv = argv[++i];
        else
            return usage();
    }
    for (int i = 0; i < nnb; i++)
        if (nbs[i] < 1) return usage();
    if (r.reps < 1 || r.reps > MAXREPS) return usage();
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        fprintf(stderr, "tila-cuda-rates: no CUDA device, skipped\n");
        return 77;
    }
    if (csv) {
        FILE *f = fopen(csv, "r");
        int fresh = !f;
        if (f) fclose(f);
        if (!(r.csv = fopen(csv, "a"))) {
            perror(csv);
            return 1;
        }
        if (fresh)
            fputs("routine,variant,prec,impl,m,n,nb,ib,p,q,ranks,workers,seconds,rate,unit,check\n",
                  r.csv);
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    struct cudaDeviceProp prop;
    TILA_CUDA_ASSERT(cudaGetDeviceProperties(&prop, 0));
    printf("# tila-cuda-rates on %s: one tile, one stream, medians of %d\n", prop.name, r.reps);
    TILA_CUDA_ASSERT(cudaStreamCreate(&r.stream));
    TILA_CUDA_ASSERT(cudaStreamCreate(&r.stream2));
    TILA_CUDA_ASSERT(cublasCreate(&r.blas));
    TILA_CUDA_ASSERT(cublasSetStream(r.blas, r.stream));
    TILA_CUDA_ASSERT(cublasCreate(&r.blas2));
    TILA_CUDA_ASSERT(cublasSetStream(r.blas2, r.stream2));
    TILA_CUDA_ASSERT(cusolverDnCreate(&r.solver));
    TILA_CUDA_ASSERT(cusolverDnSetStream(r.solver, r.stream));
    TILA_CUDA_ASSERT(cusolverDnCreateParams(&r.params));
    TILA_CUDA_ASSERT(cudaEventCreate(&r.start));
    TILA_CUDA_ASSERT(cudaEventCreate(&r.stop));
    r.flush_bytes = 2 * (size_t)(prop.l2CacheSize > 0 ? prop.l2CacheSize : 64 << 20);
    r.flush = dalloc(r.flush_bytes + sizeof(double));
    TILA_CUDA_ASSERT(cudaMemset(r.flush, 0, r.flush_bytes));
    for (int i = 0; i < nnb; i++) {
        r.nb = nbs[i];
        r.ib = ib ? ib : tila_calibrate_ib(r.nb); /* tila-bench's on a square matrix */
        run_nb(&r);
        fflush(stdout);
        if (r.csv) fflush(r.csv);
    }
    TILA_CUDA_ASSERT(cudaFree(r.flush));
    cusolverDnDestroyParams(r.params);
    cusolverDnDestroy(r.solver);
    cublasDestroy(r.blas);
    cublasDestroy(r.blas2);
    cudaStreamDestroy(r.stream);
    cudaStreamDestroy(r.stream2);
    if (r.csv) fclose(r.csv);
    return 0;
}
