/**
 * @file test_layer.c
 * @brief libtila_scalapack linked in front of ScaLAPACK (relink mode), against the real
 *        routines, on what ScaLAPACK's own testers never use: column-major BLACS grids,
 *        submatrices at offsets, blocks on and off Tila's tile boundaries.
 *
 * What it proves: on every grid of the run's ranks in both BLACS orders, pdpotrf, pdpotrs
 * (B starting inside a block column: Tila works on copies) and pdposv called through
 * libtila_scalapack give what the real ScaLAPACK routines (found in the loaded ScaLAPACK
 * library itself) give on the same local arrays: every local entry within 30 n eps of the
 * real result, relative to the matrix's largest (the matrix is diagonally dominant, so both
 * factors are accurate to a few n eps, and every entry outside sub(A) must be left
 * untouched: any stray write shows); so do pdgeqrf (reflectors and TAU), pdormqr (both
 * sides, both ops) and pdorgqr on the real pdgeqrf's reflectors, and pdgels (A and B);
 * pdlange, pdlansy and pdlantr (4 norms each, on and off block boundaries) are within n eps
 * of the norm computed from its definition in long double (not of ScaLAPACK's: its pdlantr
 * adds the diagonal to the infinity norm of a unit triangle, 85.39 for 10.505 here); illegal
 * arguments give the real routine's INFO.  Tila takes the calls in place
 * (TILA_SCALAPACK_MIN_NB=1) and on copies (the default, blocks of 4 and 32 being below it;
 * the layer's exchange (MPI_Alltoallv) makes the copies of blocks of 4, Tila's retiling those
 * of 32).  One line per
 * check: PASS|FAIL scalapack-layer ROUTINE grid ... error; and per grid, each routine
 * checked has calls that Tila took on every rank (the paths read back from the layer,
 * tila_scalapack_calls), the norms on copies aside.  Submatrices that start inside a block
 * (IA = JA = 38 in blocks of 8, and JA = 35 for pdlange) run in place on tiles of their own
 * sizes: pdlange, pdlansy, pdlantr, pdgeqrf, pdgemm and pdtrsm against the definition or the
 * real routine, and each counted in place on every rank.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE /* dladdr */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "scalapack_decl.h"

static int rank, failures;

/*
 * The routines each grid's checks must have run on Tila (the layer would pass every value
 * check by sending everything to ScaLAPACK): the factorizations and solves always, the
 * norms when in place (the norm of blocks below Tila's tile minimum is ScaLAPACK's).
 */
static const char *const tila_routines[] = {
    "PDPOTRF", "PDPOTRS", "PDPOSV",  "PDGEQRF", "PDORMQR",
    "PDORGQR", "PDGELS",  "PDLANGE", "PDLANSY", "PDLANTR"
};
enum { NROUTINES = sizeof tila_routines / sizeof *tila_routines, NFACTOR = 7 };

static long tila_calls(int k)
{
    return tila_scalapack_calls(tila_routines[k], PATH_INPLACE) +
           tila_scalapack_calls(tila_routines[k], PATH_COPY);
}

/* One distributed test matrix: global gm x gn in nb x nb blocks, its local array. */
typedef struct {
    int desc[9], mloc, nloc;
    double *a;
} mat_t;

/* Symmetric, diagonally dominant for the leading n + 8 rows: a(i, j) = a(j, i). */
static double entry(int i, int j, int n)
{
    return i == j ? 2.0 * n + 16 : 0.5 * sin(0.37 * (i + j) + 0.11 * abs(i - j));
}

static void mat_make(mat_t *A, int ctxt, int gm, int gn, int mb, int nb, int rsrc, int csrc, int n)
{
    int p, q, r, c, info;
    blacs_gridinfo_(&ctxt, &p, &q, &r, &c);
    A->mloc = numroc_(&gm, &mb, &r, &rsrc, &p);
    A->nloc = numroc_(&gn, &nb, &c, &csrc, &q);
    int lld = A->mloc > 1 ? A->mloc : 1;
    descinit_(A->desc, &gm, &gn, &mb, &nb, &rsrc, &csrc, &ctxt, &lld, &info);
    A->a = malloc(sizeof(double) * (size_t)lld * (A->nloc > 0 ? A->nloc : 1));
    for (int lj = 1; lj <= A->nloc; lj++)
        for (int li = 1; li <= A->mloc; li++) {
            int gi = indxl2g_(&li, &mb, &r, &rsrc, &p), gj = indxl2g_(&lj, &nb, &c, &csrc, &q);
            A->a[(size_t)(lj - 1) * lld + li - 1] = entry(gi, gj, n);
        }
}

static double *dup(const mat_t *A)
{
    size_t len = (size_t)A->desc[8] * (A->nloc > 0 ? A->nloc : 1);
    double *x = malloc(sizeof(double) * len);
    memcpy(x, A->a, sizeof(double) * len);
    return x;
}

/* Largest |x - y| over every local entry, relative to the largest |y|, over all ranks. */
static double diff(const mat_t *A, const double *x, const double *y)
{
    double d[2] = { 0, 0 }, all[2];
    for (int j = 0; j < A->nloc; j++)
        for (int i = 0; i < A->mloc; i++) {
            size_t k = (size_t)j * A->desc[8] + i;
            d[0] = fmax(d[0], fabs(x[k] - y[k]));
            d[1] = fmax(d[1], fabs(y[k]));
        }
    MPI_Allreduce(d, all, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return all[1] > 0 ? all[0] / all[1] : all[0];
}

/* Largest |x - y| over n local entries, relative to the largest |y|, over all ranks. */
static double diffv(int n, const double *x, const double *y)
{
    double d[2] = { 0, 0 }, all[2];
    for (int i = 0; i < n; i++) {
        d[0] = fmax(d[0], fabs(x[i] - y[i]));
        d[1] = fmax(d[1], fabs(y[i]));
    }
    MPI_Allreduce(d, all, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return all[1] > 0 ? all[0] / all[1] : all[0];
}

static void report(int ok, const char *what, const char *grid, double err)
{
    failures += !ok;
    if (rank == 0)
        printf("%s scalapack-layer %s grid %s error %.2e\n", ok ? "PASS" : "FAIL", what, grid, err);
}

/*
 * The norm by its definition, from entry(), in long double: of the m x n submatrix at
 * 1-based (i0, j0); `part` 'G' all of it, 'L' / 'U' its lower / upper trapezoid, with a
 * unit diagonal if `unit`, or ('S') the symmetric matrix whose `uplo` triangle is stored.
 */
/* The two QR factorizations of one case: through the layer (a1, t1) and by the real
 * routine (a2, t2), both with workspace w of lwork elements; the caller frees them. */
typedef struct {
    double *a1, *a2, *t1, *t2, *w;
    int lwork;
} qr_twins_t;

/* pdgeqrf of the m x n block at (ia, ia) of copies of A, by the layer and by the real routine
 * (whose workspace query sizes both); one line, `what` and the two infos, that passes when
 * the infos agree and the factors and TAUs differ by at most tol. */
static void geqrf_twins(qr_twins_t *q, const mat_t *A, int m, int n, int ia, double tol,
                        const char *what, const char *grid)
{
    typeof(pdgeqrf_) *rgeqrf = real_routine("pdgeqrf_");
    int info1, info2;
    double query;
    char line[200];
    q->a1 = dup(A), q->a2 = dup(A), q->lwork = -1;
    q->t1 = calloc((size_t)A->nloc + 1, sizeof(double));
    q->t2 = calloc((size_t)A->nloc + 1, sizeof(double));
    rgeqrf(&m, &n, q->a2, &ia, &ia, A->desc, q->t2, &query, &q->lwork, &info2);
    q->lwork = (int)query;
    q->w = malloc(sizeof(double) * (size_t)q->lwork);
    pdgeqrf_(&m, &n, q->a1, &ia, &ia, A->desc, q->t1, q->w, &q->lwork, &info1);
    rgeqrf(&m, &n, q->a2, &ia, &ia, A->desc, q->t2, q->w, &q->lwork, &info2);
    double e = fmax(diff(A, q->a1, q->a2), diffv(A->nloc, q->t1, q->t2));
    snprintf(line, sizeof line, "%s info %d/%d", what, info1, info2);
    report(info1 == info2 && e <= tol, line, grid, e);
}

static double norm_ref(char norm, char part, char uplo, int unit, int i0, int j0, int m, int n,
                       int order)
{
    long double big = 0, fro = 0, col[64] = { 0 }, row[64] = { 0 };
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            int r = i, c = j;
            if (part == 'S' && (uplo == 'L' ? i < j : i > j)) r = j, c = i;
            if ((part == 'L' && i < j) || (part == 'U' && i > j)) continue;
            long double x = i == j && unit ? 1 : fabsl(entry(i0 + r, j0 + c, order));
            big = x > big ? x : big;
            fro += x * x;
            col[j] += x;
            row[i] += x;
        }
    long double one = 0, inf = 0;
    for (int k = 0; k < 64; k++) {
        one = col[k] > one ? col[k] : one;
        inf = row[k] > inf ? row[k] : inf;
    }
    return (double)(norm == 'M' ? big : norm == 'O' ? one : norm == 'I' ? inf : sqrtl(fro));
}

/* A norm through the layer against its definition: within n eps. */
static void check_norm(const char *what, const char *grid, double t, double r, int n)
{
    char line[256];
    double e = fabs(t - r) / r;
    snprintf(line, sizeof line, "%s value %.17g exact %.17g", what, t, r);
    report(e <= n * DBL_EPSILON, line, grid, e);
}

/*
 * Everything on one grid; n is sub(A)'s order, at (ia, ia) of an (n + 8)^2 matrix.
 * `copies`: blocks below Tila's tile minimum, so the norms go to ScaLAPACK.
 */
static void check_grid(int ctxt, const char *grid, int n, int nb, int ia, int copies)
{
    const double eps = DBL_EPSILON;
    char what[128];
    int g = n + 8, nrhs = 3, jb = 2, info1, info2, one = 1;
    mat_t A, B;
    mat_make(&A, ctxt, g, g, nb, nb, 0, 0, n);
    mat_make(&B, ctxt, g, nrhs + jb, nb, nb, 0, 0, n);
    typeof(pdpotrf_) *rpotrf = real_routine("pdpotrf_");
    typeof(pdpotrs_) *rpotrs = real_routine("pdpotrs_");
    typeof(pdposv_) *rposv = real_routine("pdposv_");
    double work[1024]; /* p?lansy's WORK: 2 Nq0 + Np0 + LDW at most */

    /* Norms: on and off block boundaries (off: the real routine, through the layer). */
    const char *norms = "MOIF";
    for (int k = 0; k < 4; k++)
        for (int off = 0; off < (n > 3 ? 2 : 1); off++) {
            int i0 = ia + off, j0 = ia + 2 * off, m = n - off, nn = n - 3 * off;
            double t = pdlange_(&norms[k], &m, &nn, A.a, &i0, &j0, A.desc, work, 1);
            double r = norm_ref(norms[k], 'G', 0, 0, i0, j0, m, nn, n);
            snprintf(what, sizeof what, "pdlange %c m=%d n=%d nb=%d ia=%d ja=%d", norms[k], m, nn,
                     nb, i0, j0);
            check_norm(what, grid, t, r, n);
            for (int u = 0; u < 2 && !off; u++) {
                const char *uplo = u ? "U" : "L";
                t = pdlansy_(&norms[k], uplo, &n, A.a, &i0, &j0, A.desc, work, 1, 1);
                r = norm_ref(norms[k], 'S', *uplo, 0, i0, j0, n, n, n);
                snprintf(what, sizeof what, "pdlansy %c %s n=%d nb=%d ia=%d", norms[k], uplo, n, nb,
                         i0);
                check_norm(what, grid, t, r, n);
                if (copies && norms[k] == 'I' && n > 1) {
                    /* ScaLAPACK's pdlantr adds the (unit) diagonal's entries. */
                    if (rank == 0)
                        printf("SKIP scalapack-layer pdlantr I %s unit grid %s: the layer "
                               "passes it to ScaLAPACK, whose value is wrong\n",
                               uplo, grid);
                    continue;
                }
                t = pdlantr_(&norms[k], uplo, "U", &n, &m, A.a, &i0, &j0, A.desc, work, 1, 1, 1);
                r = norm_ref(norms[k], *uplo, 0, 1, i0, j0, n, m, n);
                snprintf(what, sizeof what, "pdlantr %c %s unit n=%d nb=%d ia=%d", norms[k], uplo,
                         n, nb, i0);
                check_norm(what, grid, t, r, n);
            }
        }

    /* Cholesky, solve, and both at once; B's columns start inside a block (jb = 2). */
    for (int u = 0; u < 2; u++) {
        const char *uplo = u ? "U" : "L";
        double *a1 = dup(&A), *a2 = dup(&A), *b1 = dup(&B), *b2 = dup(&B);
        pdpotrf_(uplo, &n, a1, &ia, &ia, A.desc, &info1, 1);
        rpotrf(uplo, &n, a2, &ia, &ia, A.desc, &info2, 1);
        double e = diff(&A, a1, a2);
        snprintf(what, sizeof what, "pdpotrf %s n=%d nb=%d ia=%d info %d/%d", uplo, n, nb, ia,
                 info1, info2);
        report(info1 == info2 && e <= 30 * n * eps, what, grid, e);
        pdpotrs_(uplo, &n, &nrhs, a2, &ia, &ia, A.desc, b1, &ia, &jb, B.desc, &info1, 1);
        rpotrs(uplo, &n, &nrhs, a2, &ia, &ia, A.desc, b2, &ia, &jb, B.desc, &info2, 1);
        e = diff(&B, b1, b2);
        snprintf(what, sizeof what, "pdpotrs %s n=%d nrhs=%d nb=%d ib=%d jb=%d info %d/%d", uplo, n,
                 nrhs, nb, ia, jb, info1, info2);
        report(info1 == info2 && e <= 30 * n * eps, what, grid, e);
        memcpy(a1, A.a, sizeof(double) * (size_t)A.desc[8] * A.nloc);
        memcpy(a2, A.a, sizeof(double) * (size_t)A.desc[8] * A.nloc);
        memcpy(b1, B.a, sizeof(double) * (size_t)B.desc[8] * B.nloc);
        memcpy(b2, B.a, sizeof(double) * (size_t)B.desc[8] * B.nloc);
        pdposv_(uplo, &n, &nrhs, a1, &ia, &ia, A.desc, b1, &ia, &jb, B.desc, &info1, 1);
        rposv(uplo, &n, &nrhs, a2, &ia, &ia, A.desc, b2, &ia, &jb, B.desc, &info2, 1);
        e = fmax(diff(&A, a1, a2), diff(&B, b1, b2));
        snprintf(what, sizeof what, "pdposv %s n=%d nrhs=%d nb=%d ia=%d info %d/%d", uplo, n, nrhs,
                 nb, ia, info1, info2);
        report(info1 == info2 && e <= 30 * n * eps, what, grid, e);
        /* p?porfs's work vector: n x 1 in blocks of nb x 1, from A's row ia on the grid's
         * last process column. */
        int p, q, r, c;
        blacs_gridinfo_(&ctxt, &p, &q, &r, &c);
        mat_t V;
        mat_make(&V, ctxt, n, 1, nb, 1, (ia - 1) / nb % p, q - 1, n);
        double *v1 = dup(&V), *v2 = dup(&V);
        pdpotrs_(uplo, &n, &one, a2, &ia, &ia, A.desc, v1, &one, &one, V.desc, &info1, 1);
        rpotrs(uplo, &n, &one, a2, &ia, &ia, A.desc, v2, &one, &one, V.desc, &info2, 1);
        e = diff(&V, v1, v2);
        snprintf(what, sizeof what,
                 "pdpotrs %s n=%d one column of nb=1 from process (%d,%d) info %d/%d", uplo, n,
                 V.desc[6], q - 1, info1, info2);
        report(info1 == info2 && e <= 30 * n * eps, what, grid, e);
        free(v1), free(v2), free(V.a);
        free(a1), free(a2), free(b1), free(b2);
    }

    /* QR of a wide and a tall submatrix: the reflectors below R and TAU as ScaLAPACK's. */
    for (int wide = 0; wide < 2; wide++) {
        int mq = wide ? n - n / 3 : n, nq = wide ? n : n - n / 3;
        qr_twins_t q;
        snprintf(what, sizeof what, "pdgeqrf m=%d n=%d nb=%d ia=%d", mq, nq, nb, ia);
        geqrf_twins(&q, &A, mq, nq, ia, 30 * n * eps, what, grid);
        free(q.a1), free(q.a2), free(q.t1), free(q.t2), free(q.w);
    }

    /*
     * What is done with a QR factorization, on reflectors and TAU from the real pdgeqrf of
     * sub(A)'s first kq columns: Q applied to C (pdormqr, each side and op), formed (pdorgqr),
     * and least squares (pdgels, overdetermined through Tila, transposed through the layer to
     * ScaLAPACK), each against the real routine on the same local arrays.
     */
    typeof(pdgeqrf_) *rgeqrf = real_routine("pdgeqrf_");
    typeof(pdormqr_) *rormqr = real_routine("pdormqr_");
    typeof(pdorgqr_) *rorgqr = real_routine("pdorgqr_");
    typeof(pdgels_) *rgels = real_routine("pdgels_");
    int kq = n - n / 3, lwork = -1, nc = n > 2 ? n - 2 : n;
    double query, *f = dup(&A), *tau = calloc((size_t)A.nloc + 1, sizeof(double));
    rgeqrf(&n, &kq, f, &ia, &ia, A.desc, tau, &query, &lwork, &info2);
    lwork = 4 * (int)query + 64 * (n + 8); /* more than any of the routines below asks */
    double *w = malloc(sizeof(double) * (size_t)lwork);
    rgeqrf(&n, &kq, f, &ia, &ia, A.desc, tau, w, &lwork, &info2);
    mat_t C;
    mat_make(&C, ctxt, g, g, nb, nb, 0, 0, n);
    for (int s = 0; s < 4; s++) {
        const char *side = s < 2 ? "L" : "R", *op = s % 2 ? "T" : "N";
        int mc = s < 2 ? n : nc, ncol = s < 2 ? nc : n;
        double *c1 = dup(&C), *c2 = dup(&C);
        pdormqr_(side, op, &mc, &ncol, &kq, f, &ia, &ia, A.desc, tau, c1, &ia, &ia, C.desc, w,
                 &lwork, &info1, 1, 1);
        rormqr(side, op, &mc, &ncol, &kq, f, &ia, &ia, A.desc, tau, c2, &ia, &ia, C.desc, w, &lwork,
               &info2, 1, 1);
        double e = diff(&C, c1, c2);
        snprintf(what, sizeof what, "pdormqr %s %s m=%d n=%d k=%d nb=%d ia=%d info %d/%d", side, op,
                 mc, ncol, kq, nb, ia, info1, info2);
        report(info1 == info2 && e <= 30 * n * eps, what, grid, e);
        free(c1), free(c2);
    }
    for (int k = kq; k >= kq - 1 && k >= 0; k--) {
        double *q1 = dup(&A), *q2 = dup(&A);
        memcpy(q1, f, sizeof(double) * (size_t)A.desc[8] * A.nloc);
        memcpy(q2, f, sizeof(double) * (size_t)A.desc[8] * A.nloc);
        pdorgqr_(&n, &kq, &k, q1, &ia, &ia, A.desc, tau, w, &lwork, &info1);
        rorgqr(&n, &kq, &k, q2, &ia, &ia, A.desc, tau, w, &lwork, &info2);
        double e = diff(&A, q1, q2);
        snprintf(what, sizeof what, "pdorgqr m=%d n=%d k=%d nb=%d ia=%d info %d/%d", n, kq, k, nb,
                 ia, info1, info2);
        report(info1 == info2 && e <= 30 * n * eps, what, grid, e);
        free(q1), free(q2);
    }
    for (int t = 0; t < 2; t++) {
        const char *op = t ? "T" : "N";
        double *a1 = dup(&A), *a2 = dup(&A), *b1 = dup(&C), *b2 = dup(&C);
        pdgels_(op, &n, &kq, &nrhs, a1, &ia, &ia, A.desc, b1, &ia, &ia, C.desc, w, &lwork, &info1,
                1);
        rgels(op, &n, &kq, &nrhs, a2, &ia, &ia, A.desc, b2, &ia, &ia, C.desc, w, &lwork, &info2, 1);
        double e = fmax(diff(&A, a1, a2), diff(&C, b1, b2));
        snprintf(what, sizeof what, "pdgels %s m=%d n=%d nrhs=%d nb=%d ia=%d info %d/%d", op, n, kq,
                 nrhs, nb, ia, info1, info2);
        report(info1 == info2 && e <= 30 * n * eps, what, grid, e);
        free(a1), free(a2), free(b1), free(b2);
    }

    /* Illegal arguments: the real routine's INFO (it prints its PXERBLA message). */
    int bad = ia + 1;
    pdpotrf_("X", &n, A.a, &ia, &ia, A.desc, &info1, 1);
    report(info1 == -1, "pdpotrf uplo X: info -1", grid, info1);
    pdpotrf_("L", &n, A.a, &bad, &bad, A.desc, &info1, 1);
    report(info1 == -4, "pdpotrf ia off a block boundary: info -4", grid, info1);
    pdpotrs_("L", &n, &one, A.a, &ia, &ia, A.desc, B.a, &bad, &one, B.desc, &info1, 1);
    report(info1 == -9, "pdpotrs ib off A's block row: info -9", grid, info1);
    double w1;
    pdgeqrf_(&n, &n, A.a, &ia, &ia, A.desc, &w1, &w1, &one, &info1);
    report(info1 == -9, "pdgeqrf lwork 1: info -9", grid, info1);
    pdormqr_("X", "N", &n, &n, &kq, f, &ia, &ia, A.desc, tau, C.a, &ia, &ia, C.desc, w, &lwork,
             &info1, 1, 1);
    report(info1 == -1, "pdormqr side X: info -1", grid, info1);
    pdorgqr_(&n, &kq, &kq, f, &ia, &ia, A.desc, tau, w, &one, &info1);
    report(info1 == -10, "pdorgqr lwork 1: info -10", grid, info1);
    pdgels_("N", &n, &kq, &nrhs, f, &ia, &ia, A.desc, C.a, &bad, &ia, C.desc, w, &lwork, &info1, 1);
    report(info1 == -10, "pdgels ib off A's row offset: info -10", grid, info1);
    free(f), free(tau), free(w), free(C.a);
    free(A.a), free(B.a);
}

/*
 * In place at offsets inside a block (TILA_SCALAPACK_MIN_NB=1): sub(A) at (38, 38) of a
 * 100 x 100 matrix in blocks of 8 (5 rows and columns into block 4), for the norms, QR,
 * product and triangular solve, against the definition or the real routine; each of them
 * counted on Tila's in-place path on every rank.
 */
/*
 * The norms' minimum block (TILA_SCALAPACK_MIN_NB = 8 here): in place from blocks of 8 for
 * the norms ScaLAPACK computes slowly (pdlange I and F, pdlansy O, I and F), from blocks of
 * 16 for the others; each value against the definition whichever path took it.
 */
static void check_norm_blocks(int ctxt, const char *grid)
{
    const int order = 64;
    double work[4096];
    char what[160];
    setenv("TILA_SCALAPACK_MIN_NB", "8", 1);
    for (int nb = 8; nb <= 16; nb *= 2) {
        mat_t A;
        mat_make(&A, ctxt, order, order, nb, nb, 0, 0, order);
        for (int k = 0; k < 4; k++)
            for (int sy = 0; sy < 2; sy++) {
                char norm = "MOIF"[k];
                int n = order, one = 1, slow = norm == 'I' || norm == 'F' || (sy && norm == 'O');
                const char *name = sy ? "PDLANSY" : "PDLANGE";
                long before = tila_scalapack_calls(name, PATH_INPLACE), took, all;
                double t = sy ? pdlansy_(&norm, "L", &n, A.a, &one, &one, A.desc, work, 1, 1)
                              : pdlange_(&norm, &n, &n, A.a, &one, &one, A.desc, work, 1);
                took = tila_scalapack_calls(name, PATH_INPLACE) - before;
                MPI_Allreduce(&took, &all, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
                int want = slow || nb >= 16;
                snprintf(what, sizeof what, "%s %c n=%d nb=%d MIN_NB=8: %s (%s expected)",
                         sy ? "pdlansy" : "pdlange", norm, n, nb, all ? "in place" : "ScaLAPACK",
                         want ? "in place" : "ScaLAPACK");
                double r = norm_ref(norm, sy ? 'S' : 'G', 'L', 0, 1, 1, n, n, order);
                double e = fabs(t - r) / r;
                report(all == want && e <= n * DBL_EPSILON, what, grid, e);
            }
        free(A.a);
    }
    setenv("TILA_SCALAPACK_MIN_NB", "1", 1);
}

static void check_offsets(int ctxt, const char *grid)
{
    static const char *const names[] = { "PDLANGE", "PDLANSY", "PDLANTR",
                                         "PDGEQRF", "PDGEMM",  "PDTRSM" };
    enum { N = sizeof names / sizeof *names };
    long before[N];
    for (int k = 0; k < N; k++)
        before[k] = tila_scalapack_calls(names[k], PATH_INPLACE);
    const int g = 100, nb = 8, n = 45, ia = 38, ja2 = 35, order = 50;
    char what[160];
    double work[4096];
    mat_t A, B, C;
    mat_make(&A, ctxt, g, g, nb, nb, 0, 0, order);
    mat_make(&B, ctxt, g, g, nb, nb, 0, 0, order);
    mat_make(&C, ctxt, g, g, nb, nb, 0, 0, order);
    for (int k = 0; k < 4; k++) {
        char norm = "MOIF"[k];
        double t = pdlange_(&norm, &n, &n, A.a, &ia, &ja2, A.desc, work, 1);
        snprintf(what, sizeof what, "pdlange %c m=%d n=%d nb=%d ia=%d ja=%d in place", norm, n, n,
                 nb, ia, ja2);
        check_norm(what, grid, t, norm_ref(norm, 'G', 0, 0, ia, ja2, n, n, order), n);
        t = pdlansy_(&norm, "L", &n, A.a, &ia, &ia, A.desc, work, 1, 1);
        snprintf(what, sizeof what, "pdlansy %c L n=%d nb=%d ia=ja=%d in place", norm, n, nb, ia);
        check_norm(what, grid, t, norm_ref(norm, 'S', 'L', 0, ia, ia, n, n, order), n);
        t = pdlantr_(&norm, "U", "N", &n, &n, A.a, &ia, &ia, A.desc, work, 1, 1, 1);
        snprintf(what, sizeof what, "pdlantr %c U n=%d nb=%d ia=ja=%d in place", norm, n, nb, ia);
        check_norm(what, grid, t, norm_ref(norm, 'U', 0, 0, ia, ia, n, n, order), n);
    }
    const double eps = DBL_EPSILON, one = 1, half = 0.5;
    int info1, info2;
    qr_twins_t q;
    snprintf(what, sizeof what, "pdgeqrf m=n=%d nb=%d ia=ja=%d in place", n, nb, ia);
    geqrf_twins(&q, &A, n, n, ia, 30 * n * eps, what, grid);
    double *a2 = q.a2, *t2 = q.t2, e;
    int lwork = q.lwork;
    /* What is done with it at the offset, from the real pdgeqrf's reflectors (a2, t2): Q
     * formed, applied, and least squares, against the real routines; Tila takes each. */
    static const char *const uses[] = { "PDORGQR", "PDORMQR", "PDGELS" };
    long took[3];
    for (int u = 0; u < 3; u++)
        took[u] = tila_scalapack_calls(uses[u], PATH_INPLACE) +
                  tila_scalapack_calls(uses[u], PATH_COPY);
    typeof(pdorgqr_) *rorgqr = real_routine("pdorgqr_");
    typeof(pdormqr_) *rormqr = real_routine("pdormqr_");
    typeof(pdgels_) *rgels = real_routine("pdgels_");
    int lw = 64 * (g + nb) * 4 + lwork, nrhs = 3;
    double *ww = malloc(sizeof(double) * (size_t)lw);
    double *q1 = dup(&A), *q2 = dup(&A);
    memcpy(q1, a2, sizeof(double) * (size_t)A.desc[8] * A.nloc);
    memcpy(q2, a2, sizeof(double) * (size_t)A.desc[8] * A.nloc);
    pdorgqr_(&n, &n, &n, q1, &ia, &ia, A.desc, t2, ww, &lw, &info1);
    rorgqr(&n, &n, &n, q2, &ia, &ia, A.desc, t2, ww, &lw, &info2);
    e = diff(&A, q1, q2);
    snprintf(what, sizeof what, "pdorgqr m=n=k=%d nb=%d ia=ja=%d info %d/%d", n, nb, ia, info1,
             info2);
    report(info1 == info2 && e <= 30 * n * eps, what, grid, e);
    double *d1 = dup(&B), *d2 = dup(&B);
    pdormqr_("L", "T", &n, &n, &n, a2, &ia, &ia, A.desc, t2, d1, &ia, &ia, B.desc, ww, &lw, &info1,
             1, 1);
    rormqr("L", "T", &n, &n, &n, a2, &ia, &ia, A.desc, t2, d2, &ia, &ia, B.desc, ww, &lw, &info2, 1,
           1);
    e = diff(&B, d1, d2);
    snprintf(what, sizeof what, "pdormqr L T m=n=k=%d nb=%d ia=ja=%d info %d/%d", n, nb, ia, info1,
             info2);
    report(info1 == info2 && e <= 30 * n * eps, what, grid, e);
    memcpy(q1, A.a, sizeof(double) * (size_t)A.desc[8] * A.nloc);
    memcpy(q2, A.a, sizeof(double) * (size_t)A.desc[8] * A.nloc);
    memcpy(d1, B.a, sizeof(double) * (size_t)B.desc[8] * B.nloc);
    memcpy(d2, B.a, sizeof(double) * (size_t)B.desc[8] * B.nloc);
    pdgels_("N", &n, &n, &nrhs, q1, &ia, &ia, A.desc, d1, &ia, &ia, B.desc, ww, &lw, &info1, 1);
    rgels("N", &n, &n, &nrhs, q2, &ia, &ia, A.desc, d2, &ia, &ia, B.desc, ww, &lw, &info2, 1);
    e = fmax(diff(&A, q1, q2), diff(&B, d1, d2));
    snprintf(what, sizeof what, "pdgels N m=n=%d nrhs=%d nb=%d ia=ja=%d info %d/%d", n, nrhs, nb,
             ia, info1, info2);
    report(info1 == info2 && e <= 30 * n * eps, what, grid, e);
    for (int u = 0; u < 3; u++) {
        long t = tila_scalapack_calls(uses[u], PATH_INPLACE) +
                     tila_scalapack_calls(uses[u], PATH_COPY) - took[u],
             all;
        MPI_Allreduce(&t, &all, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
        snprintf(what, sizeof what, "%s at IA = JA = %d in blocks of %d: Tila on every rank",
                 uses[u], ia, nb);
        report(all > 0, what, grid, (double)all);
    }
    free(q1), free(q2), free(d1), free(d2), free(ww);
    free(q.w), free(q.t1), free(q.t2);
    /* C(38:, 38:) = A B' / 2 + C, then B's block solved with A's upper triangle. */
    typeof(pdgemm_) *rgemm = real_routine("pdgemm_");
    typeof(pdtrsm_) *rtrsm = real_routine("pdtrsm_");
    double *c1 = dup(&C), *c2 = dup(&C);
    pdgemm_("N", "T", &n, &n, &n, &half, A.a, &ia, &ia, A.desc, B.a, &ia, &ia, B.desc, &one, c1,
            &ia, &ia, C.desc, 1, 1);
    rgemm("N", "T", &n, &n, &n, &half, A.a, &ia, &ia, A.desc, B.a, &ia, &ia, B.desc, &one, c2, &ia,
          &ia, C.desc, 1, 1);
    e = diff(&C, c1, c2);
    snprintf(what, sizeof what, "pdgemm N T m=n=k=%d nb=%d ia=ja=%d in place", n, nb, ia);
    report(e <= 30 * n * eps, what, grid, e);
    memcpy(c1, C.a, sizeof(double) * (size_t)C.desc[8] * C.nloc);
    memcpy(c2, C.a, sizeof(double) * (size_t)C.desc[8] * C.nloc);
    pdtrsm_("L", "U", "N", "N", &n, &n, &one, A.a, &ia, &ia, A.desc, c1, &ia, &ia, C.desc, 1, 1, 1,
            1);
    rtrsm("L", "U", "N", "N", &n, &n, &one, A.a, &ia, &ia, A.desc, c2, &ia, &ia, C.desc, 1, 1, 1,
          1);
    e = diff(&C, c1, c2);
    snprintf(what, sizeof what, "pdtrsm L U N N m=n=%d nb=%d ia=ja=%d in place", n, nb, ia);
    report(e <= 30 * n * eps, what, grid, e);
    free(c1), free(c2), free(q.a1), free(q.a2);
    free(A.a), free(B.a), free(C.a);
    for (int k = 0; k < N; k++) {
        long took = tila_scalapack_calls(names[k], PATH_INPLACE) - before[k], all;
        MPI_Allreduce(&took, &all, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
        snprintf(what, sizeof what, "%s at IA = JA = %d in blocks of %d: in place on every rank",
                 names[k], ia, nb);
        report(all > 0, what, grid, (double)all);
    }
}

int main(int argc, char **argv)
{
    int size, provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    setenv("TILA_SCALAPACK_MIN_N", "0", 1);
    for (int pass = 0; pass < 2; pass++) {
        /* In place on blocks of 4, then on copies (blocks of 4 are below the default). */
        if (pass == 0)
            setenv("TILA_SCALAPACK_MIN_NB", "1", 1);
        else
            unsetenv("TILA_SCALAPACK_MIN_NB");
        for (int p = 1; p <= size; p++) {
            if (size % p) continue;
            for (int o = 0; o < 2; o++) {
                int ctxt, zero = 0, q = size / p;
                const char *order = o ? "C" : "R";
                char grid[64];
                blacs_get_(&zero, &zero, &ctxt);
                blacs_gridinit_(&ctxt, order, &p, &q, 1);
                snprintf(grid, sizeof grid, "%dx%d %s-major%s", p, q, o ? "col" : "row",
                         pass ? " copies" : " in-place");
                long before[NROUTINES];
                for (int k = 0; k < NROUTINES; k++)
                    before[k] = tila_calls(k);
                check_grid(ctxt, grid, 29, 4, 5, pass);
                check_grid(ctxt, grid, 1, 4, 1, pass);
                /* Blocks of 32: copies made by Tila's retiling rather than the exchange. */
                check_grid(ctxt, grid, 60, 32, 1, pass);
                if (!pass) check_offsets(ctxt, grid);
                if (!pass) check_norm_blocks(ctxt, grid);
                for (int k = 0; k < (pass ? NFACTOR : NROUTINES); k++) {
                    char what[96];
                    long took = tila_calls(k) - before[k], all;
                    MPI_Allreduce(&took, &all, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
                    snprintf(what, sizeof what, "%s: calls Tila took on every rank",
                             tila_routines[k]);
                    report(all > 0, what, grid, (double)all);
                }
                blacs_gridexit_(&ctxt);
            }
        }
    }
    MPI_Finalize();
    return failures ? 1 : 0;
}
