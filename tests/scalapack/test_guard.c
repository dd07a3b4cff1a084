/**
 * @file test_guard.c
 * @brief libtila_scalapack in a program that a cluster would run: ranks whose environments
 *        differ, the program's own work between calls, a copy that cannot be allocated.
 *
 * What it proves, at any rank count (one line each: PASS|FAIL scalapack-guard ...):
 *  - decisions agreed by every rank: rank 0 alone sets TILA_SCALAPACK_MIN_N=0 (the
 *    others 10^9) and TILA_SCALAPACK_MIN_NB=1 (the others the default, above the blocks of
 *    32): pdpotrf and pdlange of order 192 must take the same path on every rank (rank 0's:
 *    Tila, in place), without a hang, and give ScaLAPACK's result (the path is read back
 *    from the layer's counts: tila_scalapack_calls);
 *  - no cost to the program between calls: while the program's own single-threaded work (a
 *    cache-resident loop, every rank at once) runs after Tila has taken calls, Tila's
 *    threads take at most a hundredth of a core (host_work.h); its time against its time before
 *    Tila started is reported;
 *  - a copy the layer cannot allocate (the address space limited to less than the copy
 *    needs, RLIMIT_AS, on every rank, or on the last one only): the call goes to
 *    ScaLAPACK's pdpotrf on every rank, and A is what it gives (within 30 n eps: its own
 *    PBLAS calls may go through the layer);
 *  - a Tila call after all that still runs on Tila;
 *  - a copy whose exchange with the caller's blocks cannot be allocated (blocks of 16:
 *    room for the copy and half as much again, RLIMIT_AS, on every rank): ScaLAPACK's
 *    pdpotrf on every rank (p?gemr2d, which filled such copies before, exits the program
 *    when it runs out of memory);
 *  - pdgeqrf in place (blocks of 32) whose TAU gather on rank 0 cannot be allocated (this
 *    program's malloc fails the first block of exactly its size, 8 nb n bytes): taken before
 *    A is written, so ScaLAPACK's pdgeqrf runs on every rank with A intact, and A and TAU
 *    are its result (within 30 n eps), not INFO = -10000.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE /* dladdr */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <mpi.h>

#include "../host_work.h"
#include "scalapack_decl.h"

static int rank, size, failures;

/* ---- a malloc that fails once, on request (exported: Makefile.am) ------------------------ */

extern void *__libc_malloc(size_t size);
static size_t fail_size; /* the next malloc of exactly this size fails */
static int fail_hits;

__attribute__((visibility("default"))) void *malloc(size_t size)
{
    if (size && size == __atomic_load_n(&fail_size, __ATOMIC_ACQUIRE) &&
        __atomic_exchange_n(&fail_size, 0, __ATOMIC_ACQ_REL) == size) {
        __atomic_add_fetch(&fail_hits, 1, __ATOMIC_RELAXED);
        return NULL;
    }
    return __libc_malloc(size);
}

static void report(int ok, const char *fmt, double value)
{
    int all = ok;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    failures += !all;
    if (rank == 0) {
        printf("%s scalapack-guard np=%d ", all ? "PASS" : "FAIL", size);
        printf(fmt, value);
        printf("\n");
        fflush(stdout);
    }
}

typedef struct {
    int desc[9], mloc, nloc;
    size_t len;
    double *a;
} mat_t;

/* An SPD matrix of order n in nb-blocks over the grid of ctxt. */
static void mat_make(mat_t *A, int ctxt, int n, int nb)
{
    int p, q, r, c, info, zero = 0;
    blacs_gridinfo_(&ctxt, &p, &q, &r, &c);
    A->mloc = numroc_(&n, &nb, &r, &zero, &p);
    A->nloc = numroc_(&n, &nb, &c, &zero, &q);
    int lld = A->mloc > 1 ? A->mloc : 1;
    descinit_(A->desc, &n, &n, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
    A->len = (size_t)lld * (size_t)(A->nloc > 0 ? A->nloc : 1);
    A->a = malloc(sizeof(double) * A->len);
    for (int lj = 1; lj <= A->nloc; lj++)
        for (int li = 1; li <= A->mloc; li++) {
            int i = indxl2g_(&li, &nb, &r, &zero, &p), j = indxl2g_(&lj, &nb, &c, &zero, &q);
            A->a[(size_t)(lj - 1) * lld + li - 1] =
                i == j ? 2.0 * n : 0.5 * sin(0.37 * (i + j) + 0.11 * abs(i - j));
        }
}

static double *mat_copy(const mat_t *A)
{
    double *x = malloc(sizeof(double) * A->len);
    memcpy(x, A->a, sizeof(double) * A->len);
    return x;
}

/* Largest |x - y| relative to the largest |y|, over all ranks. */
static double diff(const mat_t *A, const double *x, const double *y)
{
    double d[2] = { 0, 0 }, all[2];
    for (size_t k = 0; k < A->len; k++) {
        d[0] = fmax(d[0], fabs(x[k] - y[k]));
        d[1] = fmax(d[1], fabs(y[k]));
    }
    MPI_Allreduce(d, all, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return all[1] > 0 ? all[0] / all[1] : all[0];
}

/*
 * The path of `name`'s last call, if that call was its only one since the previous
 * look and every rank saw the same; else -1.
 */
static int agreed_path(const char *name)
{
    static long seen[3][PATH_COUNT];
    int k = !strcmp(name, "PDPOTRF") ? 1 : !strcmp(name, "PDGEQRF") ? 2 : 0;
    int mine = -1, calls = 0, lo, hi;
    for (int p = 0; p < PATH_COUNT; p++) {
        long c = tila_scalapack_calls(name, p);
        if (c != seen[k][p]) mine = p, calls += (int)(c - seen[k][p]);
        seen[k][p] = c;
    }
    if (calls != 1) mine = -1;
    MPI_Allreduce(&mine, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return lo == hi ? lo : -1;
}

/* ---- Address space ---------------------------------------------------------------- */

/* This process's address space now (bytes), from /proc/self/statm. */
static size_t address_space(void)
{
    unsigned long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%lu", &pages) != 1) pages = 0;
        fclose(f);
    }
    return pages * 4096UL;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* Rank 0's settings are not the others': the layer must follow one of them everywhere. */
    setenv("TILA_SCALAPACK_MIN_N", rank == 0 ? "0" : "1000000000", 1);
    if (rank == 0)
        setenv("TILA_SCALAPACK_MIN_NB", "1", 1);
    else
        unsetenv("TILA_SCALAPACK_MIN_NB");

    long reps = host_reps();
    host_before_t before;
    host_before(reps, &before);

    int ctxt, zero = 0, one = 1, p = 1, q = size, info1, info2, n = 192, nb = 32;
    blacs_get_(&zero, &zero, &ctxt);
    blacs_gridinit_(&ctxt, "R", &p, &q, 1);
    typeof(pdpotrf_) *rpotrf = real_routine("pdpotrf_");
    typeof(pdlange_) *rlange = real_routine("pdlange_");
    mat_t A;
    mat_make(&A, ctxt, n, nb);

    /* Agreed decisions: rank 0's thresholds, on every rank. */
    double work[4096];
    double t = pdlange_("F", &n, &n, A.a, &one, &one, A.desc, work, 1);
    int path = agreed_path("PDLANGE");
    double r = rlange("F", &n, &n, A.a, &one, &one, A.desc, work, 1);
    report(path == PATH_INPLACE && fabs(t - r) <= n * DBL_EPSILON * r,
           "pdlange F n=192 nb=32, MIN_N and MIN_NB set on rank 0 only: Tila in place on every "
           "rank, relative error %.1e",
           fabs(t - r) / r);
    double *a1 = mat_copy(&A), *a2 = mat_copy(&A);
    pdpotrf_("L", &n, a1, &one, &one, A.desc, &info1, 1);
    path = agreed_path("PDPOTRF");
    rpotrf("L", &n, a2, &one, &one, A.desc, &info2, 1);
    double e = diff(&A, a1, a2);
    report(path == PATH_INPLACE && info1 == 0 && info2 == 0 && e <= 30 * n * DBL_EPSILON,
           "pdpotrf L n=192 nb=32, thresholds on rank 0 only: Tila in place on every rank, "
           "error against ScaLAPACK %.1e",
           e);

    /* The program's own work after Tila's calls: Tila's threads asleep meanwhile. */
    host_cost_t cost = host_cost(reps, &before);
    char what[200];
    snprintf(what, sizeof what,
             "the program's own work after Tila's calls: Tila's threads took %%.4f of a core "
             "meanwhile (at most 0.01); the work %.3fx its time before Tila started (median of 9)",
             cost.slowdown);
    report(cost.share <= 0.01, what, cost.share);

    /* Copies that cannot be allocated: ScaLAPACK's result, on every rank.  Blocks of 16:
     * a ScaLAPACK array (the layer's exchange), no memory on any rank; blocks of 32: Tila's own tiles
     * (retiled), no memory on the last rank only. */
    unsetenv("TILA_SCALAPACK_MIN_NB"); /* blocks of 16 and 32: Tila would copy them */
    int n2 = 1500;
    for (int nb2 = 16; nb2 <= 32; nb2 *= 2) {
        mat_t B;
        mat_make(&B, ctxt, n2, nb2);
        double *b1 = mat_copy(&B), *b2 = mat_copy(&B);
        rpotrf("L", &n2, b2, &one, &one, B.desc, &info2, 1);
        struct rlimit old, lim;
        getrlimit(RLIMIT_AS, &old);
        /* Room for a tenth of the copy (the copy: this rank's share of B, 18 MB in all). */
        lim = old;
        lim.rlim_cur = address_space() + B.len * sizeof(double) / 10;
        int limited = nb2 == 16 || rank == size - 1;
        if (limited) setrlimit(RLIMIT_AS, &lim);
        pdpotrf_("L", &n2, b1, &one, &one, B.desc, &info1, 1);
        if (limited) setrlimit(RLIMIT_AS, &old);
        path = agreed_path("PDPOTRF");
        e = diff(&B, b1, b2);
        char what[200];
        snprintf(what, sizeof what,
                 "pdpotrf n=1500 nb=%d, no memory for the copy on %s: ScaLAPACK's pdpotrf on "
                 "every rank, error against ScaLAPACK %%.1e",
                 nb2, nb2 == 16 ? "every rank" : "the last rank");
        report(path == PATH_OFF && info1 == info2 && e <= 30 * n2 * DBL_EPSILON, what, e);

        /* And Tila again afterwards. */
        memcpy(b1, B.a, sizeof(double) * B.len);
        pdpotrf_("L", &n2, b1, &one, &one, B.desc, &info1, 1);
        path = agreed_path("PDPOTRF");
        e = diff(&B, b1, b2);
        snprintf(what, sizeof what,
                 "pdpotrf n=1500 nb=%d with memory again: Tila on copies, error against "
                 "ScaLAPACK %%.1e",
                 nb2);
        report(path == PATH_COPY && info1 == 0 && e <= 30 * n2 * DBL_EPSILON, what, e);
        free(b1), free(b2), free(B.a);
    }

    /* The exchange of a copy in blocks of 16 with no room (the copy fits, and half as much
     * again): ScaLAPACK's pdpotrf, on every rank. */
    {
        mat_t B;
        mat_make(&B, ctxt, n2, 16);
        double *b1 = mat_copy(&B), *b2 = mat_copy(&B);
        rpotrf("L", &n2, b2, &one, &one, B.desc, &info2, 1);
        struct rlimit old, lim;
        getrlimit(RLIMIT_AS, &old);
        lim = old;
        lim.rlim_cur = address_space() + B.len * sizeof(double) * 3 / 2;
        setrlimit(RLIMIT_AS, &lim);
        pdpotrf_("L", &n2, b1, &one, &one, B.desc, &info1, 1);
        setrlimit(RLIMIT_AS, &old);
        path = agreed_path("PDPOTRF");
        e = diff(&B, b1, b2);
        report(path == PATH_OFF && info1 == info2 && e <= 30 * n2 * DBL_EPSILON,
               "pdpotrf n=1500 nb=16, room for the copy but not its exchange: ScaLAPACK's "
               "pdpotrf on every rank, error against ScaLAPACK %.1e",
               e);
        free(b1), free(b2), free(B.a);
    }

    /* pdgeqrf in place, no memory for TAU's gather on rank 0 (T: min(nb, m) x n). */
    {
        int n3 = 200, nb3 = 32, lwork = -1;
        setenv("TILA_SCALAPACK_MIN_NB", "1", 1);
        mat_t Q;
        mat_make(&Q, ctxt, n3, nb3);
        double *q1 = mat_copy(&Q), *q2 = mat_copy(&Q), wq;
        double *tau1 = calloc((size_t)Q.nloc + 1, sizeof(double));
        double *tau2 = calloc((size_t)Q.nloc + 1, sizeof(double));
        typeof(pdgeqrf_) *rgeqrf = real_routine("pdgeqrf_");
        rgeqrf(&n3, &n3, q2, &one, &one, Q.desc, tau2, &wq, &lwork, &info2);
        lwork = (int)wq;
        double *w = malloc(sizeof(double) * (size_t)lwork);
        rgeqrf(&n3, &n3, q2, &one, &one, Q.desc, tau2, w, &lwork, &info2);
        fail_hits = 0;
        if (rank == 0) __atomic_store_n(&fail_size, sizeof(double) * nb3 * n3, __ATOMIC_RELEASE);
        pdgeqrf_(&n3, &n3, q1, &one, &one, Q.desc, tau1, w, &lwork, &info1);
        __atomic_store_n(&fail_size, 0, __ATOMIC_RELEASE);
        path = agreed_path("PDGEQRF");
        int hits = fail_hits, all_hits = 0;
        MPI_Allreduce(&hits, &all_hits, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        e = diff(&Q, q1, q2);
        double et = 0, all_et = 0;
        for (int j = 0; j < Q.nloc; j++)
            et = fmax(et, fabs(tau1[j] - tau2[j]));
        MPI_Allreduce(&et, &all_et, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        char what[200];
        snprintf(what, sizeof what,
                 "pdgeqrf n=200 nb=32 in place, no memory for TAU's gather on rank 0 (%d "
                 "failed): ScaLAPACK's pdgeqrf on every rank (path %d, INFO %d), A and TAU "
                 "against it %%.1e",
                 all_hits, path, info1);
        report(all_hits == 1 && path == PATH_OFF && info1 == 0 &&
                   fmax(e, all_et) <= 30 * n3 * DBL_EPSILON,
               what, fmax(e, all_et));
        unsetenv("TILA_SCALAPACK_MIN_NB");
        free(q1), free(q2), free(tau1), free(tau2), free(w), free(Q.a);
    }

    free(a1), free(a2), free(A.a);
    blacs_gridexit_(&ctxt);
    MPI_Finalize();
    return failures ? 1 : 0;
}
