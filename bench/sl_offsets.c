/**
 * @file sl_offsets.c
 * @brief tila-bench-offsets: a plain ScaLAPACK program timing pdlange, pdgeqrf and pdgemm on
 *        a submatrix that starts inside a block (IA = JA), for bench/layer-offsets.sh to run
 *        as it is (ScaLAPACK) and with a libtila_scalapack preloaded.
 *
 * Usage: tila-bench-offsets ROUTINE N NB IA REPS, ROUTINE one of lange (the four norms one
 * after the other, each timed), geqrf, gemm; sub(A) = A(IA:IA+N-1, IA:IA+N-1) of an
 * (N + IA - 1)^2 matrix in NB x NB blocks on the squarest row-major grid of the ranks.
 * Each repetition restores the operands, then times the call between barriers; rank 0 prints
 * one CSV line per routine: routine,n,nb,ia,ranks,path,median_s,rate where rate is GFLOP/s
 * (geqrf, gemm) or GB/s of the matrix read (the norms), and path what the preloaded layer
 * did with the timed calls (tila_scalapack_calls, found at run time: "in-place", "copy",
 * "scalapack"), or "scalapack" without the layer.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

void Cblacs_get(int ctxt, int what, int *val);
void Cblacs_gridinit(int *ctxt, const char *order, int p, int q);
void Cblacs_gridexit(int ctxt);
int numroc_(const int *n, const int *nb, const int *iproc, const int *isrc, const int *nprocs);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb, const int *rsrc,
               const int *csrc, const int *ctxt, const int *lld, int *info);
double pdlange_(const char *norm, const int *m, const int *n, const double *a, const int *ia,
                const int *ja, const int *desca, double *work, size_t len);
void pdgeqrf_(const int *m, const int *n, double *a, const int *ia, const int *ja, const int *desca,
              double *tau, double *work, const int *lwork, int *info);
void pdgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
             const double *alpha, const double *a, const int *ia, const int *ja, const int *desca,
             const double *b, const int *ib, const int *jb, const int *descb, const double *beta,
             double *c, const int *ic, const int *jc, const int *descc, size_t l1, size_t l2);

typedef long calls_fn(const char *name, int path);
enum { PATH_INPLACE = 0, PATH_COPY = 1 };

static int rank, size;

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* What the layer did with NAME's calls since `before` (in place, copies), or "scalapack". */
static const char *path(calls_fn *calls, const char *name, const long before[2])
{
    if (!calls) return "scalapack";
    if (calls(name, PATH_INPLACE) > before[0]) return "in-place";
    return calls(name, PATH_COPY) > before[1] ? "copy" : "scalapack";
}

static void mark(calls_fn *calls, const char *name, long before[2])
{
    before[0] = calls ? calls(name, PATH_INPLACE) : 0;
    before[1] = calls ? calls(name, PATH_COPY) : 0;
}

static void print(const char *routine, int n, int nb, int ia, const char *how, double *t, int reps,
                  double amount)
{
    qsort(t, (size_t)reps, sizeof *t, cmp);
    double med = t[reps / 2];
    if (rank == 0)
        printf("%s,%d,%d,%d,%d,%s,%.6f,%.2f\n", routine, n, nb, ia, size, how, med,
               amount / med / 1e9);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 6) {
        if (rank == 0) fprintf(stderr, "usage: tila-bench-offsets lange|geqrf|gemm N NB IA REPS\n");
        MPI_Finalize();
        return 2;
    }
    const char *routine = argv[1];
    int n = atoi(argv[2]), nb = atoi(argv[3]), ia = atoi(argv[4]), reps = atoi(argv[5]);
    int p = (int)sqrt((double)size);
    while (size % p)
        p--;
    int q = size / p, ctxt, zero = 0, info, g = n + ia - 1;
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", p, q);
    int prow = rank / q, pcol = rank % q;
    int mloc = numroc_(&g, &nb, &prow, &zero, &p), nloc = numroc_(&g, &nb, &pcol, &zero, &q);
    int lld = mloc > 1 ? mloc : 1, desc[9];
    descinit_(desc, &g, &g, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
    size_t len = (size_t)lld * (nloc > 0 ? nloc : 1);
    double *a0 = malloc(sizeof(double) * len), *a = malloc(sizeof(double) * len);
    double *b = malloc(sizeof(double) * len), *c = malloc(sizeof(double) * len);
    srand48(17 + rank);
    for (size_t i = 0; i < len; i++)
        a0[i] = drand48() - 0.5, b[i] = drand48() - 0.5;
    double *t = malloc(sizeof(double) * (size_t)reps);
    calls_fn *calls = (calls_fn *)dlsym(RTLD_DEFAULT, "tila_scalapack_calls");
    long before[2];
    if (!strcmp(routine, "lange")) {
        double *w = malloc(sizeof(double) * (size_t)(2 * (mloc + nloc) + 64));
        static const char norms[] = "MOIF";
        for (int k = 0; k < 4; k++) {
            char name[16];
            snprintf(name, sizeof name, "pdlange-%c", norms[k]);
            mark(calls, "PDLANGE", before);
            for (int r = 0; r < reps; r++) {
                MPI_Barrier(MPI_COMM_WORLD);
                double t0 = MPI_Wtime();
                pdlange_(&norms[k], &n, &n, a0, &ia, &ia, desc, w, 1);
                MPI_Barrier(MPI_COMM_WORLD);
                t[r] = MPI_Wtime() - t0;
            }
            print(name, n, nb, ia, path(calls, "PDLANGE", before), t, reps, 8.0 * n * n);
        }
        free(w);
    }
    else if (!strcmp(routine, "geqrf")) {
        int lwork = -1;
        double query, *tau = malloc(sizeof(double) * (size_t)(nloc + nb));
        pdgeqrf_(&n, &n, a0, &ia, &ia, desc, tau, &query, &lwork, &info);
        lwork = (int)query;
        double *w = malloc(sizeof(double) * (size_t)lwork);
        mark(calls, "PDGEQRF", before);
        for (int r = 0; r < reps; r++) {
            memcpy(a, a0, sizeof(double) * len);
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            pdgeqrf_(&n, &n, a, &ia, &ia, desc, tau, w, &lwork, &info);
            MPI_Barrier(MPI_COMM_WORLD);
            t[r] = MPI_Wtime() - t0;
        }
        print("pdgeqrf", n, nb, ia, path(calls, "PDGEQRF", before), t, reps,
              4.0 / 3.0 * n * (double)n * n);
        free(w), free(tau);
    }
    else {
        const double one = 1, half = 0.5;
        mark(calls, "PDGEMM", before);
        for (int r = 0; r < reps; r++) {
            memcpy(c, a0, sizeof(double) * len);
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            pdgemm_("N", "N", &n, &n, &n, &half, a0, &ia, &ia, desc, b, &ia, &ia, desc, &one, c,
                    &ia, &ia, desc, 1, 1);
            MPI_Barrier(MPI_COMM_WORLD);
            t[r] = MPI_Wtime() - t0;
        }
        print("pdgemm", n, nb, ia, path(calls, "PDGEMM", before), t, reps,
              2.0 * n * (double)n * n);
    }
    free(t), free(a0), free(a), free(b), free(c);
    Cblacs_gridexit(ctxt);
    MPI_Finalize();
    return 0;
}
