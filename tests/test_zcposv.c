/**
 * @file test_zcposv.c
 * @brief Tests of the mixed-precision solve tila_zcposv (tila_dsposv in real).
 * @precisions mixed zc -> ds
 *
 * Matrices of a chosen condition number come from LAPACK's zlatms (Hermitian, positive
 * eigenvalues from 1 down to 1 / cond, geometrically spaced) on rank 0, scattered to the
 * grid.  For each: X's residual ratio max_j ||B_j - A X_j||_1 / (||A||_1 ||X_j||_1 n eps)
 * must be below the tolerance and, when refinement succeeded, within twice LAPACKE_zposv's
 * on the same matrices (LAPACK's stopping test alone stops well above that for large n:
 * the step past it is what brings it there); the iteration count must be what the
 * conditioning calls for:
 *  - cond 1e2 and 1e6 (cond * single's eps < 1): refinement converges (iter >= 0; at
 *    1e6, after at least one step);
 *  - cond 1e9 (beyond single precision): the fall back (iter < 0), still solved;
 *  - A or B scaled beyond single's range: iter = -2; a non-definite A: iter = -3 and info
 *    as LAPACKE_zposv's;
 * A is unchanged when refinement succeeded, B always.  The async form is also run, with
 * the calls that must be refused while its matrices are held; then empty sizes and bad
 * arguments, and two solves and a norm in one sequence (continuations re-entered: the
 * same bits as one by one).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <cblas.h>
#include <complex.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests_z.h"
#include "tests_zc.h"

static char uplo_char(tila_uplo_t uplo) { return uplo == TILA_LOWER ? 'L' : 'U'; }

/* The refinement's correction under test, in the cases' names: "" (the default's) or
 * " fused" (TILA_POSV_FUSED=on: one task a block column, fused()). */
static const char *correction = "";

/* The kinds of matrix the cases use. */
enum zcposv_kind { WELL, COND6, COND9, HUGE_A, HUGE_B, NOT_DEFINITE };
static const char *const kind_name[] = { "cond=1e2",  "cond=1e6",  "cond=1e9",
                                         "A>FLT_MAX", "B>FLT_MAX", "not-definite" };

/* On rank 0: the n x n Hermitian A of the kind (full storage) and the n x nrhs B; cond
 * > 0 replaces the kind's condition number.  @return zlatms's info (0). */
static int make_problem_cond(enum zcposv_kind kind, double cond, int n, int nrhs,
                             unsigned long long seed, tila_complex64_t *a, tila_complex64_t *b)
{
    int iseed[4] = { (int)(seed % 4096), (int)(seed / 4096 % 4096), 17,
                     2 * (int)(seed % 2000) + 1 };
    if (!(cond > 0)) cond = kind == COND6 ? 1e6 : kind == COND9 ? 1e9 : 1e2;
    /* d is only written in mode 3, but LAPACKE rejects a NaN in it: zeroed. */
    double *d = calloc((size_t)(n > 0 ? n : 1), sizeof *d);
    int info = n > 0 ? (int)LAPACKE_zlatms(LAPACK_COL_MAJOR, n, n, 'U', iseed, 'P', d, 3, cond, 1.0,
                                           n, n, 'N', a, n)
                     : 0;
    free(d);
    for (int j = 0; j < nrhs; j++)
        for (int i = 0; i < n; i++) {
            double re = ((i * 7 + j * 13 + (int)seed) % 97) / 97.0 - 0.5;
#if defined(COMPLEX)
            b[(size_t)j * n + i] = re + I * (((i * 3 + j) % 89) / 89.0 - 0.5);
#else
            b[(size_t)j * n + i] = re;
#endif
        }
    if (kind == HUGE_A)
        for (size_t k = 0; k < (size_t)n * n; k++)
            a[k] *= 1e40;
    if (kind == HUGE_B)
        for (size_t k = 0; k < (size_t)n * nrhs; k++)
            b[k] *= 1e40;
    if (kind == NOT_DEFINITE && n > 0) a[(size_t)(n / 2) * n + n / 2] = -1; /* info n/2+1 */
    return info;
}

static int make_problem(enum zcposv_kind kind, int n, int nrhs, unsigned long long seed,
                        tila_complex64_t *a, tila_complex64_t *b)
{
    return make_problem_cond(kind, 0, n, nrhs, seed, a, b);
}

/* max_j ||b_j - a x_j||_1 / (||a||_1 ||x_j||_1 n eps); r is scratch (n x nrhs). */
static double ratio(int n, int nrhs, const tila_complex64_t *a, const tila_complex64_t *b,
                    const tila_complex64_t *x, tila_complex64_t *r)
{
    tila_complex64_t one = 1, mone = -1;
    memcpy(r, b, sizeof *r * (size_t)n * nrhs);
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, nrhs, n, CBLAS_SADDR(mone), a, n, x,
                n, CBLAS_SADDR(one), r, n);
    double anorm = LAPACKE_zlange(LAPACK_COL_MAJOR, '1', n, n, a, n), worst = 0;
    for (int j = 0; j < nrhs; j++) {
        double rn = LAPACKE_zlange(LAPACK_COL_MAJOR, '1', n, 1, r + (size_t)j * n, n);
        double xn = LAPACKE_zlange(LAPACK_COL_MAJOR, '1', n, 1, x + (size_t)j * n, n);
        double q = rn / (anorm * xn * n * DBL_EPSILON);
        if (!(q <= worst)) worst = q; /* NaN stays */
    }
    return worst;
}

/* Does iter fit the kind? */
static int iter_expected(enum zcposv_kind kind, int iter)
{
    switch (kind) {
    case WELL: return iter >= 0;
    case COND6: return iter >= 1;
    case COND9: return iter < 0;
    case HUGE_A:
    case HUGE_B: return iter == -2;
    default: return iter == -3;
    }
}

/*
 * On rank 0, the solve's outcome against LAPACKE_zposv's on the same a0, b0: X's residual
 * ratio (when info is 0) and LAPACK's (when its info is 0), LAPACK's info, whether B is
 * unchanged and A too where refinement succeeded (at: Tila's A as it was given).
 * Collective (the gathers).
 */
static void against_lapack(tila_uplo_t uplo, int n, int nrhs, const tila_complex64_t *a0,
                           const tila_complex64_t *b0, const tila_complex64_t *at, tila_desc_t *A,
                           tila_desc_t *B, tila_desc_t *X, int iter, int info, double *mine,
                           double *lapack, int *linfo, int *a_kept, int *b_kept)
{
    size_t na = (size_t)n * n, nbx = (size_t)n * nrhs;
    tila_complex64_t *x = tila_test_zgather(X), *a1 = tila_test_zgather(A),
                     *b1 = tila_test_zgather(B);
    if (tila_comm_rank() == 0 && n > 0) {
        tila_complex64_t *r = malloc(sizeof *r * nbx), *la = malloc(sizeof *la * na),
                         *lx = malloc(sizeof *lx * nbx);
        memcpy(la, a0, sizeof *la * na);
        memcpy(lx, b0, sizeof *lx * nbx);
        *linfo = LAPACKE_zposv(LAPACK_COL_MAJOR, uplo_char(uplo), n, nrhs, la, n, lx, n);
        if (info == 0) *mine = ratio(n, nrhs, a0, b0, x, r);
        if (*linfo == 0) *lapack = ratio(n, nrhs, a0, b0, lx, r);
        *b_kept = !memcmp(b1, b0, sizeof *b0 * nbx);
        *a_kept = iter < 0 || !memcmp(a1, at, sizeof *at * na);
        free(r), free(la), free(lx);
    }
    free(x), free(a1), free(b1);
}

static void one_case(const tila_test_opts_t *o, enum zcposv_kind kind, tila_uplo_t uplo, int n,
                     int nrhs, int nb, const int grid[2], int async)
{
    int root = tila_comm_rank() == 0;
    size_t na = (size_t)(n > 0 ? n : 1) * (n > 0 ? n : 1), nbx = (size_t)(n > 0 ? n : 1) * nrhs;
    tila_complex64_t *a0 = calloc(na, sizeof *a0), *b0 = calloc(nbx + 1, sizeof *b0);
    int made =
        root ? make_problem(kind, n, nrhs, o->seed + (unsigned long long)n * 31 + nrhs, a0, b0) : 0;
    tila_dist_t dist = { .p = grid[0], .q = grid[1] };
    tila_desc_t *A, *B, *X;
    tila_test_desc_create(&A, TILA_COMPLEX64, n, n, nb, nb, &dist);
    tila_test_desc_create(&B, TILA_COMPLEX64, n, nrhs, nb, nb, &dist);
    tila_test_desc_create(&X, TILA_COMPLEX64, n, nrhs, nb, nb, &dist);
    /* Tila's A: the triangle uplo of a0, NaN in the other (never to be read). */
    tila_complex64_t *at = malloc(sizeof *at * na);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            at[(size_t)j * n + i] =
                (uplo == TILA_LOWER ? i >= j : i <= j) ? a0[(size_t)j * n + i] : NAN;
    tila_desc_scatter(A, 0, at, n > 0 ? n : 1);
    tila_desc_scatter(B, 0, b0, n > 0 ? n : 1);
    tila_zlaset(TILA_GENERAL, 0, 0, X);
    int iter = -99, info, refused = 1;
    if (async) {
        tila_sequence_t *seq;
        tila_request_t req = TILA_REQUEST_INITIALIZER;
        tila_sequence_create(&seq);
        info = tila_zcposv_async(uplo, A, B, X, &iter, seq, &req);
        /* Held until the wait: a routine given A, B or X, or their destruction, refuses. */
        refused = tila_zlacpy(TILA_GENERAL, B, X) < 0 && tila_zlaset(TILA_GENERAL, 0, 0, A) < 0 &&
                  tila_desc_destroy(&X) < 0 && X;
        int status = tila_sequence_wait(seq);
        info = info ? info : status;
        refused = refused && req.status == status;
        tila_sequence_destroy(&seq);
    }
    else
        info = tila_zcposv(uplo, A, B, X, &iter);
    double mine = 0, lapack = 0;
    int linfo = 0, a_kept = 1, b_kept = 1;
    against_lapack(uplo, n, nrhs, a0, b0, at, A, B, X, iter, info, &mine, &lapack, &linfo,
                   &a_kept, &b_kept);
    /* Refined: the backward error within twice dposv's (one step past LAPACK's test). */
    int as_dposv = iter < 0 || info || mine <= 2 * lapack + 1e-3;
    int ok = made == 0 && info == linfo && iter_expected(kind, iter) && mine < o->tol && a_kept &&
             b_kept && refused && as_dposv;
    tila_test_check(ok, "posv_mixed", tila_test_prec_letter(TILA_COMPLEX64), mine,
                    "%s uplo=%c n=%d nrhs=%d nb=%d grid=%dx%d%s%s iter=%d info=%d "
                    "lapack-info=%d lapack-ratio=%.3g A-kept=%d B-kept=%d latms=%d",
                    kind_name[kind], uplo_char(uplo), n, nrhs, nb, grid[0], grid[1],
                    async ? " async" : "", correction, iter, info, linfo, lapack, a_kept, b_kept,
                    made);
    tila_desc_destroy(&A);
    tila_desc_destroy(&B);
    tila_desc_destroy(&X);
    free(a0), free(b0), free(at);
}

/* The async form where it does not get to refine: the caller's sequence failed before it
 * (its tasks do nothing: X keeps its value, the status is the earlier failure's), and a
 * sequence destroyed without its wait (the matrices are released, nothing leaks). */
static void async_edges(void)
{
    const int n = 24, nb = 8;
    tila_desc_t *A, *B, *X, *F;
    tila_test_desc_create(&A, TILA_COMPLEX64, n, n, nb, nb, NULL);
    tila_test_desc_create(&B, TILA_COMPLEX64, n, 2, nb, nb, NULL);
    tila_test_desc_create(&X, TILA_COMPLEX64, n, 2, nb, nb, NULL);
    tila_test_desc_create(&F, TILA_COMPLEX64, n, n, nb, nb, NULL);
    tila_zplghe(n, A, 11);
    tila_zplrnt(B, 12);
    tila_zlaset(TILA_GENERAL, 7, 7, X);
    tila_zlaset(TILA_GENERAL, 0, -1, F); /* not definite: potrf fails at column 1 */
    tila_sequence_t *seq;
    tila_request_t req = TILA_REQUEST_INITIALIZER, r0 = TILA_REQUEST_INITIALIZER;
    int iter = -99;
    tila_sequence_create(&seq);
    tila_zpotrf_async(TILA_LOWER, F, seq, &r0);
    int rc = tila_zcposv_async(TILA_LOWER, A, B, X, &iter, seq, &req);
    int status = tila_sequence_wait(seq);
    tila_sequence_destroy(&seq);
    tila_complex64_t *x = tila_test_zgather(X);
    int kept = 1;
    for (int i = 0; tila_comm_rank() == 0 && i < n * 2; i++)
        kept &= x[i] == 7;
    /* Destroyed without a wait: released, the matrices usable again. */
    tila_sequence_create(&seq);
    int rc2 = tila_zcposv_async(TILA_LOWER, A, B, X, &iter, seq, &req);
    tila_sequence_destroy(&seq);
    int usable = tila_zlaset(TILA_GENERAL, 0, 0, X) == 0 && tila_desc_destroy(&A) == 0 && !A;
    tila_test_check(rc == 0 && status == 1 && kept && rc2 == 0 && usable, "posv_mixed_async_edges",
                    tila_test_prec_letter(TILA_COMPLEX64), 0,
                    "failed-before: rc=%d status=%d X-kept=%d; destroyed-unwaited: rc=%d usable=%d",
                    rc, status, kept, rc2, usable);
    tila_desc_destroy(&A);
    tila_desc_destroy(&B);
    tila_desc_destroy(&X);
    tila_desc_destroy(&F);
    free(x);
}

/* A problem of the kind on rank 0, scattered: A (its triangle uplo; full storage), B, X = 0. */
static void continuation_problem(const tila_test_opts_t *o, enum zcposv_kind kind, int n,
                                 int nrhs, int nb, tila_desc_t **A, tila_desc_t **B,
                                 tila_desc_t **X)
{
    tila_complex64_t *a = calloc((size_t)n * n, sizeof *a), *b = calloc((size_t)n * nrhs, sizeof *b);
    if (tila_comm_rank() == 0) make_problem(kind, n, nrhs, o->seed + (unsigned)kind, a, b);
    tila_test_desc_create(A, TILA_COMPLEX64, n, n, nb, nb, NULL);
    tila_test_desc_create(B, TILA_COMPLEX64, n, nrhs, nb, nb, NULL);
    tila_test_desc_create(X, TILA_COMPLEX64, n, nrhs, nb, nb, NULL);
    tila_desc_scatter(*A, 0, a, n);
    tila_desc_scatter(*B, 0, b, n);
    tila_zlaset(TILA_GENERAL, 0, 0, *X);
    free(a), free(b);
}

/*
 * Continuations (tila_sequence_then) re-entered: two solves and a norm in one sequence,
 * one wait.  The first solve refines (cond 1e6: rounds of tasks, each round a wait whose
 * hooks fold the stopping test's maxima), the second falls back (cond 1e9: synchronous
 * zlacpy and zposv), the norm between them is a wait hook.  Each continuation waits on
 * sequences of its own inside the caller's wait, after the hooks, in the order added: the
 * iterations, X and the norm must be those of the same calls made one by one, bit for bit.
 */
static void continuations(const tila_test_opts_t *o)
{
    const int n = 37, nrhs = 2, nb = 8;
    tila_desc_t *A[2], *B[2], *X[2], *A1[2], *B1[2], *X1[2];
    int iter[2] = { -99, -99 }, iter1[2] = { -99, -99 };
    double norm = -1, norm1 = -2;
    for (int p = 0; p < 2; p++) {
        continuation_problem(o, p ? COND9 : COND6, n, nrhs, nb, &A[p], &B[p], &X[p]);
        continuation_problem(o, p ? COND9 : COND6, n, nrhs, nb, &A1[p], &B1[p], &X1[p]);
    }
    tila_sequence_t *seq;
    tila_request_t req = TILA_REQUEST_INITIALIZER;
    tila_sequence_create(&seq);
    int rc = tila_zcposv_async(TILA_LOWER, A[0], B[0], X[0], &iter[0], seq, &req);
    if (!rc) rc = tila_zlange_async(TILA_NORM_ONE, B[1], &norm, seq, &req);
    if (!rc) rc = tila_zcposv_async(TILA_LOWER, A[1], B[1], X[1], &iter[1], seq, &req);
    int status = tila_sequence_wait(seq);
    tila_sequence_destroy(&seq);
    /* One by one. */
    int rc1 = tila_zcposv(TILA_LOWER, A1[0], B1[0], X1[0], &iter1[0]);
    if (!rc1) rc1 = tila_zlange(TILA_NORM_ONE, B1[1], &norm1);
    if (!rc1) rc1 = tila_zcposv(TILA_LOWER, A1[1], B1[1], X1[1], &iter1[1]);
    int same = 1;
    for (int p = 0; p < 2; p++) {
        tila_complex64_t *x = tila_test_zgather(X[p]), *x1 = tila_test_zgather(X1[p]);
        same &= tila_comm_rank() != 0 || !memcmp(x, x1, sizeof *x * (size_t)n * nrhs);
        free(x), free(x1);
    }
    int ok = rc == 0 && status == 0 && rc1 == 0 && iter[0] == iter1[0] && iter[0] > 0 &&
             iter[1] == iter1[1] && iter[1] < 0 && norm == norm1 && same;
    tila_test_check(ok, "posv_mixed_continuations", tila_test_prec_letter(TILA_COMPLEX64), 0,
                    "refine+norm+fallback in one wait: rc=%d status=%d iter=%d,%d (one by one "
                    "%d,%d) norm-same=%d X-same=%d",
                    rc ? rc : rc1, status, iter[0], iter[1], iter1[0], iter1[1], norm == norm1,
                    same);
    for (int p = 0; p < 2; p++) {
        tila_desc_destroy(&A[p]), tila_desc_destroy(&B[p]), tila_desc_destroy(&X[p]);
        tila_desc_destroy(&A1[p]), tila_desc_destroy(&B1[p]), tila_desc_destroy(&X1[p]);
    }
}

/* Empty sizes and bad arguments. */
static void edges(void)
{
    tila_desc_t *A, *B, *X, *S;
    int iter = 5;
    tila_test_desc_create(&A, TILA_COMPLEX64, 0, 0, 4, 4, NULL);
    tila_test_desc_create(&B, TILA_COMPLEX64, 0, 3, 4, 4, NULL);
    tila_test_desc_create(&X, TILA_COMPLEX64, 0, 3, 4, 4, NULL);
    int rc = tila_zcposv(TILA_LOWER, A, B, X, &iter);
    tila_test_check(rc == 0 && iter == 0, "posv_mixed_empty", tila_test_prec_letter(TILA_COMPLEX64),
                    0, "n=0 nrhs=3 rc=%d iter=%d", rc, iter);
    tila_desc_destroy(&A), tila_desc_destroy(&B), tila_desc_destroy(&X);
    tila_test_desc_create(&A, TILA_COMPLEX64, 8, 8, 4, 4, NULL);
    tila_test_desc_create(&B, TILA_COMPLEX64, 8, 2, 4, 4, NULL);
    tila_test_desc_create(&X, TILA_COMPLEX64, 8, 2, 4, 4, NULL);
    tila_test_desc_create(&S, TILA_COMPLEX32, 8, 2, 4, 4, NULL);
    tila_zplghe(8, A, 3);
    tila_zplrnt(B, 4);
    int r1 = tila_zcposv(TILA_GENERAL, A, B, X, &iter),
        r2 = tila_zcposv(TILA_LOWER, A, B, B, &iter), r3 = tila_zcposv(TILA_LOWER, A, B, X, NULL),
        r4 = tila_zcposv(TILA_LOWER, A, S, X, &iter), r5 = tila_zcposv(TILA_LOWER, A, B, S, &iter),
        r6 = tila_zcposv(TILA_LOWER, NULL, B, X, &iter);
    tila_test_check(r1 == -1 && r2 == -4 && r3 == -5 && r4 == -3 && r5 == -4 && r6 == -2,
                    "posv_mixed_errors", tila_test_prec_letter(TILA_COMPLEX64), 0,
                    "uplo=G:%d X=B:%d iter=NULL:%d B-single:%d X-single:%d A=NULL:%d", r1, r2, r3,
                    r4, r5, r6);
    tila_desc_destroy(&A), tila_desc_destroy(&B), tila_desc_destroy(&X), tila_desc_destroy(&S);
}

static const char *const factor_name[] = { "env", "fp32", "tf32", "bf16", "fp16" };
static const char *const refine_name[] = { "auto", "classic", "gmres" };
static const char *const path_name[] = { "none", "classic", "gmres", "fallback" };

/*
 * One solve by tila_zcposv_x in `factor`'s arithmetic with `refine`: A of condition cond
 * (zlatms), n x n in nb-tiles, nrhs right-hand sides, on the grid.  As one_case's checks
 * (LAPACK's info, the residual ratio, within twice LAPACKE_zposv's backward error where
 * refinement converged, A kept then, B always), and the report: the path `path` (0: any),
 * the arithmetic used, iter's sign as the path's, and the counts each path implies (classic:
 * no GMRES; GMRES: at least one Krylov vector; fallback: iter < 0).
 */
static void lp_case_scaled(const tila_test_opts_t *o, tila_factor_t factor,
                           tila_refine_t refine, double cond, double scale, tila_uplo_t uplo,
                           int n, int nrhs, int nb, const int grid[2], tila_mixed_path_t path,
                           int shifted)
{
    int root = tila_comm_rank() == 0;
    size_t na = (size_t)n * n, nbx = (size_t)n * nrhs;
    tila_complex64_t *a0 = calloc(na, sizeof *a0), *b0 = calloc(nbx, sizeof *b0),
                     *at = malloc(sizeof *at * na);
    int made = root ? make_problem_cond(WELL, cond, n, nrhs, o->seed + (unsigned)n * 7 + nrhs, a0,
                                        b0)
                    : 0;
    for (size_t e = 0; e < na; e++)
        a0[e] *= scale;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            at[(size_t)j * n + i] =
                (uplo == TILA_LOWER ? i >= j : i <= j) ? a0[(size_t)j * n + i] : NAN;
    tila_dist_t dist = { .p = grid[0], .q = grid[1] };
    tila_desc_t *A, *B, *X;
    tila_test_desc_create(&A, TILA_COMPLEX64, n, n, nb, nb, &dist);
    tila_test_desc_create(&B, TILA_COMPLEX64, n, nrhs, nb, nb, &dist);
    tila_test_desc_create(&X, TILA_COMPLEX64, n, nrhs, nb, nb, &dist);
    tila_desc_scatter(A, 0, at, n);
    tila_desc_scatter(B, 0, b0, n);
    tila_zlaset(TILA_GENERAL, 0, 0, X);
    int iter = -99;
    tila_mixed_t mx = { .factor = factor, .refine = refine };
    int info = tila_zcposv_x(uplo, A, B, X, &iter, &mx);
    double mine = 0, lapack = 0;
    int linfo = 0, a_kept = 1, b_kept = 1;
    against_lapack(uplo, n, nrhs, a0, b0, at, A, B, X, iter, info, &mine, &lapack, &linfo,
                   &a_kept, &b_kept);
    int as_dposv = iter < 0 || info || mine <= 2 * lapack + 1e-3;
    int counts = mx.path == TILA_PATH_CLASSIC   ? iter >= 0 && mx.gmres == 0 && mx.cycles == 0
                 : mx.path == TILA_PATH_GMRES   ? iter >= 0 && mx.gmres > 0 && mx.cycles > 0
                 : mx.path == TILA_PATH_FALLBACK ? iter < 0
                                                 : 0;
    int ok = made == 0 && info == linfo && mine < o->tol && a_kept && b_kept && as_dposv &&
             counts && (!path || mx.path == path) && (shifted < 0 || (mx.shift > 0) == shifted) &&
             mx.used == (factor ? factor : TILA_FACTOR_FP32) && mx.refine == refine;
    tila_test_check(ok, "posv_mixed_factor", tila_test_prec_letter(TILA_COMPLEX64), mine,
                    "factor=%s refine=%s cond=%.0e A*%.0e uplo=%c n=%d nrhs=%d nb=%d grid=%dx%d "
                    "path=%s (want %s) iter=%d classic=%d gmres=%d cycles=%d shift=%g%s%s "
                    "info=%d lapack-info=%d lapack-ratio=%.3g A-kept=%d B-kept=%d",
                    factor_name[factor], refine_name[refine], cond, scale, uplo_char(uplo), n, nrhs,
                    nb,
                    grid[0], grid[1], path_name[mx.path], path ? path_name[path] : "any", iter,
                    mx.classic, mx.gmres, mx.cycles, mx.shift,
                    shifted < 0 ? "" : shifted ? " (want a shift)" : " (want none)", correction,
                    info, linfo, lapack, a_kept, b_kept);
    tila_desc_destroy(&A);
    tila_desc_destroy(&B);
    tila_desc_destroy(&X);
    free(a0), free(b0), free(at);
}

static void lp_case(const tila_test_opts_t *o, tila_factor_t factor, tila_refine_t refine,
                    double cond, tila_uplo_t uplo, int n, int nrhs, int nb, const int grid[2],
                    tila_mixed_path_t path)
{
    lp_case_scaled(o, factor, refine, cond, 1, uplo, n, nrhs, nb, grid, path, -1);
}

/* TILA_FACTOR_ENV: TILA_POSV_FACTOR (rank 0's) names the arithmetic; unknown: FP32. */
static void factor_env(void)
{
    static const char *const values[] = { "bf16", "fp16", "tf32", "half" };
    static const tila_factor_t want[] = { TILA_FACTOR_BF16, TILA_FACTOR_FP16, TILA_FACTOR_TF32,
                                          TILA_FACTOR_FP32 };
    const char *saved = getenv("TILA_POSV_FACTOR");
    char *keep = saved ? strdup(saved) : NULL;
    tila_desc_t *A, *B, *X;
    tila_test_desc_create(&A, TILA_COMPLEX64, 24, 24, 8, 8, NULL);
    tila_test_desc_create(&B, TILA_COMPLEX64, 24, 1, 8, 8, NULL);
    tila_test_desc_create(&X, TILA_COMPLEX64, 24, 1, 8, 8, NULL);
    tila_zplrnt(B, 5);
    for (int v = 0; v < 4; v++) {
        tila_zplghe(24, A, 6); /* a fallback leaves the factor in A */
        setenv("TILA_POSV_FACTOR", values[v], 1);
        int iter = -99;
        tila_mixed_t mx = { .factor = TILA_FACTOR_ENV };
        int rc = tila_zcposv_x(TILA_LOWER, A, B, X, &iter, &mx);
        tila_test_check(rc == 0 && mx.used == want[v] && mx.path != TILA_PATH_NONE,
                        "posv_mixed_factor_env", tila_test_prec_letter(TILA_COMPLEX64), 0,
                        "TILA_POSV_FACTOR=%s used=%s rc=%d path=%s", values[v],
                        factor_name[mx.used], rc, path_name[mx.path]);
    }
    tila_test_setenv("TILA_POSV_FACTOR", keep);
    free(keep);
    tila_desc_destroy(&A), tila_desc_destroy(&B), tila_desc_destroy(&X);
}

/* tila_zcposv_x's own arguments, and n = 0 with a report. */
static void factor_errors(void)
{
    tila_desc_t *A, *B, *X;
    tila_test_desc_create(&A, TILA_COMPLEX64, 8, 8, 4, 4, NULL);
    tila_test_desc_create(&B, TILA_COMPLEX64, 8, 2, 4, 4, NULL);
    tila_test_desc_create(&X, TILA_COMPLEX64, 8, 2, 4, 4, NULL);
    tila_zplghe(8, A, 3);
    tila_zplrnt(B, 4);
    int iter = 0;
    tila_request_t req = TILA_REQUEST_INITIALIZER;
    tila_mixed_t bad_factor = { .factor = (tila_factor_t)9 },
                 bad_refine = { .refine = (tila_refine_t)-1 }, good = { 0 };
    int r1 = tila_zcposv_x(TILA_LOWER, A, B, X, &iter, &bad_factor),
        r2 = tila_zcposv_x(TILA_LOWER, A, B, X, &iter, &bad_refine),
        r3 = tila_zcposv_x_async(TILA_LOWER, A, B, X, &iter, &good, NULL, &req),
        r4 = tila_zcposv_async(TILA_LOWER, A, B, X, &iter, NULL, &req),
        r5 = tila_zcposv_x(TILA_LOWER, A, B, B, &iter, &good);
    tila_test_check(r1 == -6 && r2 == -6 && r3 == -7 && r4 == -6 && r5 == -4,
                    "posv_mixed_factor_errors", tila_test_prec_letter(TILA_COMPLEX64), 0,
                    "factor=9:%d refine=-1:%d x_async-seq=NULL:%d async-seq=NULL:%d X=B:%d", r1,
                    r2, r3, r4, r5);
    tila_desc_destroy(&A), tila_desc_destroy(&B), tila_desc_destroy(&X);
    tila_test_desc_create(&A, TILA_COMPLEX64, 0, 0, 4, 4, NULL);
    tila_test_desc_create(&B, TILA_COMPLEX64, 0, 2, 4, 4, NULL);
    tila_test_desc_create(&X, TILA_COMPLEX64, 0, 2, 4, 4, NULL);
    tila_mixed_t mx = { .factor = TILA_FACTOR_FP16, .classic = 5, .path = TILA_PATH_GMRES };
    iter = 5;
    int rc = tila_zcposv_x(TILA_LOWER, A, B, X, &iter, &mx);
    tila_test_check(rc == 0 && iter == 0 && mx.path == TILA_PATH_NONE && mx.classic == 0 &&
                        mx.used == TILA_FACTOR_FP16,
                    "posv_mixed_factor_empty", tila_test_prec_letter(TILA_COMPLEX64), 0,
                    "n=0 fp16: rc=%d iter=%d path=%s", rc, iter, path_name[mx.path]);
    tila_desc_destroy(&A), tila_desc_destroy(&B), tila_desc_destroy(&X);
}

/*
 * The factorization's arithmetic (tila_factor_t) and the refinements: every arithmetic on
 * matrices of condition 1e1 to 1e10 (the backward error as dposv's wherever refinement
 * converged), and the cases that prove each path taken:
 *  - classic: single precision, cond 1e1;
 *  - GMRES where classic stalls: BF16 (8 bits) at cond 1e4 breaks down, is retried with a
 *    shift, and classic steps on it stall (AUTO: GMRES converges; CLASSIC: it falls back);
 *    GMRES from the start (TILA_REFINE_GMRES) at TF32 and cond 1e4;
 *  - the fallback: cond 1e10 in single precision (the factorization fails) and in BF16
 *    (neither refinement converges);
 *  - FP16's scaling: A times 1e12 and 1e-12 refined as A is;
 *  - the shifted retry: BF16 at cond 3e4 breaks down, A + s I's factor and GMRES solve.
 * n = 1 and n not a multiple of nb, one and three right-hand sides; the sweep on the
 * first grid, the paths on every grid the rank count allows.
 */
static void factors(const tila_test_opts_t *o)
{
    int grids[8][2], ngrids = tila_test_grids(grids, 8);
    static const double conds[] = { 1e1, 1e4, 1e7, 1e10 };
    const tila_factor_t fp32 = TILA_FACTOR_FP32, tf32 = TILA_FACTOR_TF32, bf16 = TILA_FACTOR_BF16;
    const tila_refine_t rauto = TILA_REFINE_AUTO;
    for (int g = 0; g < ngrids; g++) {
        for (int f = TILA_FACTOR_FP32; f <= TILA_FACTOR_FP16; f++) {
            for (int c = 0; c < 4 && g == 0; c++) /* the sweep on one grid */
                lp_case(o, (tila_factor_t)f, rauto, conds[c], c % 2 ? TILA_UPPER : TILA_LOWER, 45,
                        2, 8, grids[g], 0);
            lp_case(o, (tila_factor_t)f, rauto, 1, TILA_LOWER, 1, 1, 4, grids[g],
                    TILA_PATH_CLASSIC);
        }
        lp_case(o, fp32, rauto, 1e1, TILA_LOWER, 37, 3, 8, grids[g], TILA_PATH_CLASSIC);
        lp_case(o, bf16, rauto, 1e4, TILA_LOWER, 37, 3, 8, grids[g], TILA_PATH_GMRES);
        lp_case(o, bf16, TILA_REFINE_CLASSIC, 1e4, TILA_LOWER, 37, 3, 8, grids[g],
                TILA_PATH_FALLBACK);
        lp_case(o, tf32, TILA_REFINE_GMRES, 1e4, TILA_UPPER, 37, 3, 8, grids[g], TILA_PATH_GMRES);
        lp_case(o, fp32, rauto, 1e10, TILA_LOWER, 37, 3, 8, grids[g], TILA_PATH_FALLBACK);
        lp_case(o, bf16, rauto, 1e10, TILA_UPPER, 37, 3, 8, grids[g], TILA_PATH_FALLBACK);
        /* FP16's scaling: without it, A's factor's entries of 1e6 are Inf in half, those
         * of 1e-6 keep a few bits. */
        lp_case_scaled(o, TILA_FACTOR_FP16, rauto, 1e2, 1e12, TILA_LOWER, 37, 3, 8, grids[g],
                       TILA_PATH_CLASSIC, 0);
        lp_case_scaled(o, TILA_FACTOR_FP16, rauto, 1e2, 1e-12, TILA_UPPER, 37, 3, 8, grids[g],
                       TILA_PATH_CLASSIC, 0);
        /* BF16 at cond 3e4 breaks down; A + s I's factor takes GMRES there. */
        lp_case_scaled(o, bf16, rauto, 3e4, 1, TILA_LOWER, 37, 3, 8, grids[g], TILA_PATH_GMRES,
                       1);
    }
    factor_env();
    factor_errors();
}

/*
 * A classic step's correction in one task a block column of R (TILA_POSV_FUSED=on; what a
 * rank with GPUs takes): taken on one rank, and on more ranks not (the tile tasks there,
 * the same checks).  Every kind of matrix (entries beyond single's range among them), both
 * triangles, one to 16 right-hand sides, a last tile of other sizes; the lower arithmetics'
 * classic steps, FP16's scaling (mu != 1) among them, and TF32's GMRES after classic steps.
 */
static void fused(const tila_test_opts_t *o)
{
    static const int sizes[][3] = { { 1, 1, 4 }, { 37, 1, 8 }, { 61, 16, 16 }, { 100, 3, 24 } };
    int grids[8][2];
    tila_test_grids(grids, 8);
    const char *saved = getenv("TILA_POSV_FUSED");
    char *keep = saved ? strdup(saved) : NULL;
    tila_test_setenv("TILA_POSV_FUSED", "on");
    correction = " fused";
    for (int u = 0; u < 2; u++) {
        tila_uplo_t uplo = u ? TILA_UPPER : TILA_LOWER;
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (int kind = WELL; kind <= NOT_DEFINITE; kind++)
                if (sizes[s][0] > 1 || kind == WELL || kind == HUGE_A || kind == HUGE_B)
                    one_case(o, (enum zcposv_kind)kind, uplo, sizes[s][0], sizes[s][1],
                             sizes[s][2], grids[0], kind == COND6);
        lp_case_scaled(o, TILA_FACTOR_FP16, TILA_REFINE_AUTO, 1e2, u ? 1e-12 : 1e12, uplo, 37, 3,
                       8, grids[0], TILA_PATH_CLASSIC, 0);
        lp_case(o, TILA_FACTOR_BF16, TILA_REFINE_CLASSIC, 1e2, uplo, 45, 2, 8, grids[0],
                TILA_PATH_CLASSIC);
        lp_case(o, TILA_FACTOR_TF32, TILA_REFINE_AUTO, 1e4, uplo, 37, 3, 8, grids[0], 0);
    }
    correction = "";
    tila_test_setenv("TILA_POSV_FUSED", keep);
    free(keep);
}

void tila_test_zcposv(const tila_test_opts_t *o)
{
    static const tila_uplo_t uplos[] = { TILA_LOWER, TILA_UPPER };
    /* n, nrhs, nb: tiles of odd sizes, one and 16 right-hand sides. */
    static const int sizes[][3] = { { 1, 1, 4 }, { 37, 1, 8 }, { 61, 16, 16 }, { 400, 1, 64 } };
    int grids[8][2], ngrids = tila_test_grids(grids, 8);
    for (int g = 0; g < ngrids; g++)
        for (int u = 0; u < 2; u++)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                int n = sizes[s][0], nrhs = sizes[s][1], nb = sizes[s][2];
                for (int kind = WELL; kind <= NOT_DEFINITE; kind++) {
                    if (n == 1 && (kind == COND6 || kind == COND9 || kind == NOT_DEFINITE))
                        continue; /* a 1 x 1 has no condition; its minor is the matrix */
                    one_case(o, (enum zcposv_kind)kind, uplos[u], n, nrhs, nb, grids[g], 0);
                }
                one_case(o, n > 1 ? COND6 : WELL, uplos[u], n, nrhs, nb, grids[g], 1);
            }
    edges();
    async_edges();
    continuations(o);
    factors(o);
    fused(o);
}
