/**
 * @file geqrf.c
 * @brief bench-geqrf: Tila's dgeqrf against LAPACKE_dgeqrf and ScaLAPACK's pdgeqrf.
 *
 * Usage: bench-geqrf [--sizes MxN,MxN,...] [--nb NB] [--ib IB] [--tree auto|flat|tree]
 *                    [--reps R] [--threads T]
 * On one rank the peer is LAPACKE_dgeqrf (OpenBLAS with T threads, default: the StarPU
 * CPU workers' count), timed in the same process, alternating with Tila; on several
 * ranks it is ScaLAPACK's pdgeqrf on a 1 x np grid of nb x nb blocks (where built with
 * ScaLAPACK).  Prints one progress line per run, then the CSV of BENCH.md and a table of
 * medians with Tila's ratio to the peer.  The check column is the relative difference of
 * |diag(R)| from the peer's (unique for a full-rank matrix).  Flops: LAPACK's count
 * 2 m n^2 - 2 n^3 / 3 (m >= n).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tila.h"
#include "tila_config.h"

#define MAXSIZES 16
#define MAXREPS 15

#ifdef TILA_HAVE_SCALAPACK
void Cblacs_get(int ctxt, int what, int *val);
void Cblacs_gridinit(int *ctxt, const char *order, int nprow, int npcol);
void Cblacs_gridexit(int ctxt);
int numroc_(const int *n, const int *nb, const int *iproc, const int *isrc, const int *nprocs);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb,
               const int *irsrc, const int *icsrc, const int *ctxt, const int *lld, int *info);
void pdgeqrf_(const int *m, const int *n, double *a, const int *ia, const int *ja,
              const int *desca, double *tau, double *work, const int *lwork, int *info);
#endif

typedef struct bench_opts_s {
    int nsizes, m[MAXSIZES], n[MAXSIZES];
    int nb, ib, reps, threads;
    tila_qr_tree_t tree;
} bench_opts_t;

static tila_seconds_t now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (tila_seconds_t)t.tv_sec + 1e-9 * (tila_seconds_t)t.tv_nsec;
}

static int parse(int argc, char **argv, bench_opts_t *o)
{
    *o = (bench_opts_t){ .nsizes = 3, .m = { 2048, 4096, 32768 }, .n = { 2048, 4096, 512 },
                         .nb = 256, .ib = 32, .reps = 3, .tree = TILA_QR_TREE_AUTO };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            return -1;
        if (!strcmp(a, "--sizes")) {
            o->nsizes = 0;
            for (const char *s = v; *s && o->nsizes < MAXSIZES;) {
                char *end;
                o->m[o->nsizes] = (int)strtol(s, &end, 10);
                o->n[o->nsizes] = *end == 'x' ? (int)strtol(end + 1, &end, 10)
                                              : o->m[o->nsizes];
                o->nsizes++;
                s = *end == ',' ? end + 1 : end;
                if (*end && *end != ',')
                    return -1;
            }
        }
        else if (!strcmp(a, "--nb")) o->nb = atoi(v);
        else if (!strcmp(a, "--ib")) o->ib = atoi(v);
        else if (!strcmp(a, "--reps")) o->reps = atoi(v) < MAXREPS ? atoi(v) : MAXREPS;
        else if (!strcmp(a, "--threads")) o->threads = atoi(v);
        else if (!strcmp(a, "--tree"))
            o->tree = !strcmp(v, "flat") ? TILA_QR_TREE_FLAT
                    : !strcmp(v, "tree") ? TILA_QR_TREE_BINARY : TILA_QR_TREE_AUTO;
        else
            return -1;
        i++;
    }
    return o->reps > 0 && o->nb > 0 && o->ib > 0 ? 0 : -1;
}

static double flops_geqrf(double m, double n)
{
    double k = m < n ? m : n, big = m > n ? m : n;
    return 2 * big * k * k - 2 * k * k * k / 3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* || |diag(R)| - |diag(Rref)| ||_2 / ||diag(Rref)||_2 (both column-major, ld m). */
static double diag_check(int m, int n, const double *r, const double *ref)
{
    double num = 0, den = 0;
    for (int i = 0; i < (m < n ? m : n); i++) {
        double d = fabs(r[(size_t)i * m + i]) - fabs(ref[(size_t)i * m + i]);
        num += d * d;
        den += ref[(size_t)i * m + i] * ref[(size_t)i * m + i];
    }
    return den > 0 ? sqrt(num / den) : sqrt(num);
}

/* Tila: A = random (seed), T, one timed dgeqrf; R gathered into `r` on rank 0. */
static double run_tila(const bench_opts_t *o, int m, int n, double *r, const char **variant)
{
    tila_desc_t *A, *T;
    tila_desc_create(&A, TILA_REAL64, m, n, o->nb, o->nb, NULL);
    tila_dplrnt(A, 5);
    tila_desc_create_qr_t(&T, A, o->ib, o->tree);
    *variant = tila_desc_qr_tree(T) == TILA_QR_TREE_BINARY ? "tree" : "flat";
    MPI_Barrier(MPI_COMM_WORLD);
    tila_seconds_t t0 = now();
    int rc = tila_dgeqrf(A, T);
    tila_seconds_t t = now() - t0;
    if (rc)
        fprintf(stderr, "tila_dgeqrf returned %d\n", rc);
    tila_desc_gather(A, 0, r, m);
    tila_desc_destroy(&T);
    tila_desc_destroy(&A);
    return t;
}

/* LAPACKE on rank 0 with `threads` OpenBLAS threads, on the same random matrix. */
static double run_lapacke(const bench_opts_t *o, int m, int n, double *a, double *tau)
{
    tila_desc_t *A;
    tila_desc_create(&A, TILA_REAL64, m, n, o->nb, o->nb, NULL);
    tila_dplrnt(A, 5);
    tila_desc_gather(A, 0, a, m);
    tila_desc_destroy(&A);
    /* Idle StarPU workers must not compete with OpenBLAS's threads for the cores. */
    starpu_pause();
    openblas_set_num_threads(o->threads);
    tila_seconds_t t0 = now();
    int rc = (int)LAPACKE_dgeqrf(LAPACK_COL_MAJOR, m, n, a, m, tau);
    tila_seconds_t t = now() - t0;
    openblas_set_num_threads(1);
    starpu_resume();
    if (rc)
        fprintf(stderr, "LAPACKE_dgeqrf returned %d\n", rc);
    return t;
}

#ifdef TILA_HAVE_SCALAPACK
/* ScaLAPACK pdgeqrf on a 1 x np grid; R's diagonal blocks gathered into `r` on rank 0. */
static double run_scalapack(const bench_opts_t *o, int m, int n, double *r)
{
    int np = tila_comm_size(), me = tila_comm_rank(), ctxt, zero = 0, one = 1, info;
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", 1, np);
    int lm = numroc_(&m, &o->nb, &zero, &zero, &one), ln = numroc_(&n, &o->nb, &me, &zero, &np);
    int lld = lm > 1 ? lm : 1, desc[9];
    descinit_(desc, &m, &n, &o->nb, &o->nb, &zero, &zero, &ctxt, &lld, &info);
    double *a = calloc((size_t)lld * (ln > 0 ? ln : 1), sizeof *a);
    double *tau = calloc((size_t)(ln > 0 ? ln : 1), sizeof *tau), wq;
    /* The same random matrix, through Tila's generator and a copy into the local array. */
    tila_desc_t *A, *As;
    tila_desc_create(&A, TILA_REAL64, m, n, o->nb, o->nb, &(tila_dist_t){ .p = 1, .q = np });
    tila_desc_create_scalapack(&As, TILA_REAL64, a, lld, m, n, o->nb, o->nb, 1, np);
    tila_dplrnt(A, 5);
    tila_dlacpy(TILA_GENERAL, A, As);
    tila_desc_destroy(&A);
    int lwork = -1;
    pdgeqrf_(&m, &n, a, &one, &one, desc, tau, &wq, &lwork, &info);
    lwork = (int)wq;
    double *work = malloc(sizeof *work * (size_t)(lwork > 0 ? lwork : 1));
    MPI_Barrier(MPI_COMM_WORLD);
    tila_seconds_t t0 = now();
    pdgeqrf_(&m, &n, a, &one, &one, desc, tau, work, &lwork, &info);
    tila_seconds_t t = now() - t0;
    if (info)
        fprintf(stderr, "pdgeqrf info %d\n", info);
    tila_desc_gather(As, 0, r, m);
    tila_desc_destroy(&As);
    free(work);
    free(tau);
    free(a);
    Cblacs_gridexit(ctxt);
    return t;
}
#endif

int main(int argc, char **argv)
{
    bench_opts_t o;
    if (tila_init(&argc, &argv) != TILA_SUCCESS)
        return 1;
    int me = tila_comm_rank(), np = tila_comm_size();
    if (parse(argc, argv, &o)) {
        if (me == 0)
            fprintf(stderr, "usage: bench-geqrf [--sizes MxN,...] [--nb NB] [--ib IB] "
                    "[--tree auto|flat|tree] [--reps R] [--threads T]\n");
        tila_finalize();
        return 2;
    }
    int workers = (int)starpu_cpu_worker_get_count();
    if (o.threads <= 0)
        o.threads = workers;
    const char *peer = np == 1 ? "lapacke" : "scalapack";
#ifndef TILA_HAVE_SCALAPACK
    if (np > 1) {
        if (me == 0)
            fprintf(stderr, "bench-geqrf: built without ScaLAPACK, run it on one rank\n");
        tila_finalize();
        return 77;
    }
#endif
    if (me == 0)
        printf("# bench-geqrf: OpenBLAS core %s, %d rank(s) x %d StarPU CPU worker(s), "
               "peer %s (%d OpenBLAS thread(s) per process), scheduler %s\n",
               openblas_get_corename(), np, workers, peer, np == 1 ? o.threads : 1,
               getenv("STARPU_SCHED") ? getenv("STARPU_SCHED") : "default");
    char csv[MAXSIZES * 2][512];
    int ncsv = 0;
    double med[MAXSIZES][2];
    const char *variants[MAXSIZES];
    for (int s = 0; s < o.nsizes; s++) {
        int m = o.m[s], n = o.n[s];
        double ts[MAXREPS], tp[MAXREPS], check_t = 0, check_p = 0;
        size_t sz = (size_t)m * n;
        double *r = me == 0 ? malloc(sizeof *r * sz) : calloc(1, sizeof *r);
        double *rp = me == 0 ? malloc(sizeof *rp * sz) : calloc(1, sizeof *rp);
        double *tau = malloc(sizeof *tau * (size_t)(n > 0 ? n : 1));
        for (int k = 0; k < o.reps; k++) {
            /* Alternate which runs first, so that neither always meets a cold cache. */
            for (int w = 0; w < 2; w++) {
                if ((w + k) % 2 == 0)
                    ts[k] = run_tila(&o, m, n, r, &variants[s]);
                else
#ifdef TILA_HAVE_SCALAPACK
                    tp[k] = np == 1 ? run_lapacke(&o, m, n, rp, tau)
                                    : run_scalapack(&o, m, n, rp);
#else
                    tp[k] = run_lapacke(&o, m, n, rp, tau);
#endif
            }
            if (me == 0) {
                check_t = diag_check(m, n, r, rp);
                check_p = 0;
                printf("# %d x %d rep %d: tila %.3f s (%.1f GFLOP/s), %s %.3f s (%.1f GFLOP/s)\n",
                       m, n, k, ts[k], flops_geqrf(m, n) / ts[k] * 1e-9, peer, tp[k],
                       flops_geqrf(m, n) / tp[k] * 1e-9);
                fflush(stdout);
            }
        }
        med[s][0] = median(ts, o.reps);
        med[s][1] = median(tp, o.reps);
        snprintf(csv[ncsv++], sizeof csv[0], "geqrf,%s,d,tila,%d,%d,%d,%d,1,%d,%d,%d,%.4f,%.2f,"
                 "GFLOP/s,%.1e", variants[s], m, n, o.nb, o.ib, np, np, workers, med[s][0],
                 flops_geqrf(m, n) / med[s][0] * 1e-9, check_t);
        snprintf(csv[ncsv++], sizeof csv[0], "geqrf,-,d,%s,%d,%d,%d,0,1,%d,%d,%d,%.4f,%.2f,"
                 "GFLOP/s,%.1e", peer, m, n, np == 1 ? 0 : o.nb, np, np,
                 np == 1 ? o.threads : 1, med[s][1], flops_geqrf(m, n) / med[s][1] * 1e-9,
                 check_p);
        free(r);
        free(rp);
        free(tau);
    }
    if (me == 0) {
        printf("routine,variant,prec,impl,m,n,nb,ib,p,q,ranks,workers,seconds,rate,unit,check\n");
        for (int i = 0; i < ncsv; i++)
            printf("%s\n", csv[i]);
        printf("\n%-14s %-5s %10s %10s %8s\n", "m x n", "tree", "tila", peer, "ratio");
        for (int s = 0; s < o.nsizes; s++) {
            char dims[32];
            snprintf(dims, sizeof dims, "%dx%d", o.m[s], o.n[s]);
            printf("%-14s %-5s %10.1f %10.1f %8.2f\n", dims, variants[s],
                   flops_geqrf(o.m[s], o.n[s]) / med[s][0] * 1e-9,
                   flops_geqrf(o.m[s], o.n[s]) / med[s][1] * 1e-9, med[s][1] / med[s][0]);
        }
    }
    tila_finalize();
    return 0;
}
