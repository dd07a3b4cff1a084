/**
 * @file test_zpotrf.c
 * @brief Tiled Cholesky (potrf, trsm, potrs, posv) against LAPACK on the gathered matrices.
 * @precisions normal z -> c d s
 *
 * What it proves, on every P x Q grid of the world, lower and upper, with edge tiles,
 * n < nb and n = 0 (or the n and nb given, see main.c):
 * - potrf: ||A - L L^H||_F / (n ||A||_F eps) < tol (the LAPACK test ratio), info = 0;
 * - potrf with each way of solving the panels (TILA_POTRF_TRSM: trsm; inv:inf, the diagonal
 *   tile's inverse applied by GEMM everywhere; inv:0, every solve falling back to TRSM):
 *   the same residual check, and where the workers are of one kind, inv:0's factor has
 *   TRSM's bits and inv:inf's not (potrf_paths says why that proves the fallback);
 * - ill-conditioned SPD matrices (condition 1e2 to 1e14, 1e7 in single; three families,
 *   spd_cond): TRSM's and the guarded inverse's residuals < tol, beside LAPACK's and the
 *   unguarded inverse's (printed: bench/LOG.md's error study);
 * - the non-definite cases below also with the inverse in every panel;
 * - trsm, all sides, triangles, op and diag: ||op(A) X - alpha B|| / (||A|| ||X|| n eps);
 * - posv, and posv_async waited on in a sequence: backward error
 *   ||B - A X||_F / (||A||_F ||X||_F n eps) < tol (of order 1 for a backward-stable solve,
 *   about 1 / eps for a wrong X), info 0, and for the async form the call, the wait and the
 *   request 0;
 * - not positive definite (a negative pivot planted at a column whose diagonal tile
 *   rank 1 owns): potrf and posv return LAPACKE_?potrf's info on every rank, nothing
 *   hangs, and posv leaves B bit-for-bit untouched;
 * - posv_async on that A: the call returns 0 (its tasks are submitted), and the wait, the
 *   sequence's status and the request's are LAPACKE_?potrf's info, the same on every rank.
 *   Its contract on B is weaker than posv's: the solve's tasks that run on the rank that
 *   records the failure after it do nothing; the other ranks learn of it only at the wait.
 *   When the failure is in the first tile column every task of the solve comes after it,
 *   so that rank's tiles of B (all of B on one rank) must be bit-for-bit untouched: on
 *   several ranks a second case plants it there to check this.  Planted further on, tasks
 *   of the solve may run before the failure: B's values are unspecified and not checked;
 * - a failed sequence stays failed, and its later tasks that depend on the failure do
 *   nothing (checked where every task is local: one rank); the failure reaches the
 *   request within 60 s, else that is a FAIL, and the program ends rather than hangs if
 *   the sequence's tasks never complete.
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
#include <time.h>
#include <unistd.h>

#include "tests_z.h"

static char uplo_char(tila_uplo_t uplo) { return uplo == TILA_LOWER ? 'L' : 'U'; }

/* Whole seconds of the monotonic clock (time_t: a type the precision generator keeps). */
static time_t monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec;
}

/* A new n x nrhs descriptor on a grid, filled by plghe (herm) or plrnt. */
static tila_desc_t *make(int m, int n, int nb, const int grid[2], int herm, unsigned long long seed)
{
    tila_desc_t *A;
    tila_dist_t dist = { .p = grid[0], .q = grid[1] };
    tila_test_desc_create(&A, TILA_COMPLEX64, m, n, nb, nb, &dist);
    if (herm)
        tila_zplghe((double)m, A, seed);
    else
        tila_zplrnt(A, seed);
    return A;
}

/* ||A0 - L L^H||_F / (n ||A0||_F eps) on the triangle (U^H U for upper), L the factor's
 * triangle in f (rank 0's copies, n x n; n >= 1). */
static double potrf_residual(tila_uplo_t uplo, int n, const tila_complex64_t *a0,
                             const tila_complex64_t *f)
{
    tila_complex64_t *t = calloc((size_t)n * n, sizeof *t), *r = malloc(sizeof *r * (size_t)n * n);
    memcpy(r, a0, sizeof *r * (size_t)n * n);
    LAPACKE_zlacpy(LAPACK_COL_MAJOR, uplo_char(uplo), n, n, f, n, t, n);
    double anorm = LAPACKE_zlange(LAPACK_COL_MAJOR, 'F', n, n, a0, n);
    cblas_zherk(CblasColMajor, (enum CBLAS_UPLO)uplo,
                uplo == TILA_LOWER ? CblasNoTrans : CblasConjTrans, n, n, -1.0, t, n, 1.0, r, n);
    double err =
        LAPACKE_zlanhe(LAPACK_COL_MAJOR, 'F', uplo_char(uplo), n, r, n) / (n * anorm * DBL_EPSILON);
    free(t);
    free(r);
    return err;
}

/*
 * TILA_POTRF_TRSM on every rank: `path` (NULL: unset); returns the value it had (NULL:
 * unset), for path_restore.
 */
static char *path_set(const char *path)
{
    const char *v = getenv("TILA_POTRF_TRSM");
    char *old = v ? strdup(v) : NULL;
    tila_test_setenv("TILA_POTRF_TRSM", path);
    return old;
}

static void path_restore(char *old)
{
    path_set(old);
    free(old);
}

/* potrf on plghe's matrix, the panels solved as the run's TILA_POTRF_TRSM says. */
static void potrf_one(const tila_test_opts_t *o, tila_uplo_t uplo, int n, int nb, const int grid[2])
{
    tila_desc_t *A = make(n, n, nb, grid, 1, o->seed);
    tila_complex64_t *a0 = tila_test_zgather(A);
    int info = tila_zpotrf(uplo, A);
    tila_complex64_t *f = tila_test_zgather(A);
    double err = 0;
    if (tila_comm_rank() == 0 && n > 0) err = potrf_residual(uplo, n, a0, f);
    tila_test_check(info == 0 && err < o->tol, "potrf", tila_test_prec_letter(TILA_COMPLEX64), err,
                    "uplo=%c n=%d nb=%d grid=%dx%d info=%d", uplo_char(uplo), n, nb, grid[0],
                    grid[1], info);
    tila_desc_destroy(&A);
    free(a0);
    free(f);
}

/*
 * plghe's matrix factored with each way of solving the panels (TILA_POTRF_TRSM): trsm;
 * inv:inf, the diagonal tile's inverse applied in every panel; inv:0, every solve falling
 * back to TRSM after the inverse.  Each factor's residual < tol, info 0; and where every
 * worker is of one kind (the same kernels whatever the schedule: a GPU's TRSM and a CPU's
 * round differently), inv:0's factor has TRSM's bits (the record read and the fallback
 * taken) and, with several tile columns, inv:inf's has not (the inverse applied).  The
 * other ranks set another path than rank 0 (inv:inf for trsm and inv:0, trsm for
 * inv:inf): rank 0's must hold on every rank, or their tasks would not match.
 */
static void potrf_paths(const tila_test_opts_t *o, tila_uplo_t uplo, int n, int nb,
                        const int grid[2])
{
    static const char *const paths[] = { "trsm", "inv:inf", "inv:0" };
    static const char *const others[] = { "inv:inf", "trsm", "inv:inf" };
    tila_desc_t *A = make(n, n, nb, grid, 1, o->seed);
    tila_complex64_t *a0 = tila_test_zgather(A), *f[3];
    int info[3];
    double err[3] = { 0, 0, 0 };
    for (int p = 0; p < 3; p++) {
        tila_desc_scatter(A, 0, a0, n > 0 ? n : 1);
        char *old = path_set(tila_comm_rank() == 0 ? paths[p] : others[p]);
        info[p] = tila_zpotrf(uplo, A);
        path_restore(old);
        f[p] = tila_test_zgather(A);
        if (tila_comm_rank() == 0 && n > 0 && info[p] == 0)
            err[p] = potrf_residual(uplo, n, a0, f[p]);
    }
    size_t bytes = sizeof *a0 * (size_t)n * n;
    int one_kind = starpu_cpu_worker_get_count() == 0 || starpu_cuda_worker_get_count() == 0;
    int fallback_bits = !memcmp(f[2], f[0], bytes), inverse_bits = memcmp(f[1], f[0], bytes) != 0;
    int several = tila_desc_nt(A) > 1;
    int ok = info[0] == 0 && info[1] == 0 && info[2] == 0 && err[0] < o->tol && err[1] < o->tol &&
             err[2] < o->tol && (!one_kind || (fallback_bits && (!several || inverse_bits)));
    double worst = err[0] > err[1] ? err[0] : err[1];
    tila_test_check(ok, "potrf-paths", tila_test_prec_letter(TILA_COMPLEX64),
                    worst > err[2] ? worst : err[2],
                    "uplo=%c n=%d nb=%d grid=%dx%d trsm=%.3g inv=%.3g fallback=%.3g info=%d,%d,%d "
                    "bits: fallback-is-trsm=%s inverse-differs=%s",
                    uplo_char(uplo), n, nb, grid[0], grid[1], err[0], err[1], err[2], info[0],
                    info[1], info[2], one_kind ? fallback_bits ? "yes" : "NO" : "unchecked",
                    !one_kind || !several ? "unchecked" : inverse_bits ? "yes" : "NO");
    tila_desc_destroy(&A);
    free(a0);
    for (int p = 0; p < 3; p++)
        free(f[p]);
}

/* ---- Ill-conditioned matrices: the panel by the inverse against TRSM and LAPACK ---- */

/* Uniform in [-0.5, 0.5) from the state *x. */
static double uniform(unsigned long long *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*x >> 11) * 0x1.0p-53 - 0.5;
}

static tila_complex64_t random_entry(unsigned long long *x)
{
    tila_complex64_t v = uniform(x);
#if defined(COMPLEX)
    v += uniform(x) * I;
#endif
    return v;
}

/* How the matrices of condition `cond` are made (each Q D Q^H, D's eigenvalues
 * cond^(-i / (n - 1)), i = 0 ... n - 1, all of them, so the 2-norm condition is cond):
 * - TILE: Q block diagonal, a random unitary Q_b of order bs in each diagonal block, whose
 *   D_b takes every nb-th eigenvalue (the whole range in every block: each diagonal tile,
 *   so each L_kk, as ill-conditioned as A allows, cond(L_kk) ~ cond(A)^1/2, the inverse's
 *   worst case), then four reflections across the whole matrix couple the blocks;
 * - GRADED: D in order on the diagonal, then the four reflections (bench/run.c's spd_cond:
 *   the eigenvalues a tile sees span cond^(nb / n), its L_kk is near diagonal);
 * - DENSE: Q unitary and dense (the QR of a random matrix): each diagonal tile is a
 *   random compression, far better conditioned than A. */
enum family { FAMILY_TILE, FAMILY_GRADED, FAMILY_DENSE };
static const char *const family_name[] = { "tile", "graded", "dense" };

/* Q from the QR of a random k x k matrix (ld k), into q. */
static void random_unitary(int k, tila_complex64_t *q, unsigned long long *x)
{
    tila_complex64_t *tau = malloc(sizeof *tau * (size_t)(k > 0 ? k : 1));
    for (size_t i = 0; i < (size_t)k * k; i++)
        q[i] = random_entry(x);
    LAPACKE_zgeqrf(LAPACK_COL_MAJOR, k, k, q, k, tau);
    LAPACKE_zungqr(LAPACK_COL_MAJOR, k, k, k, q, k, tau);
    free(tau);
}

/* a (ld lda) += Q diag(d) Q^H for the k x k Q (ld k). */
static void add_qdq(int k, const tila_complex64_t *q, const double *d, tila_complex64_t *a,
                    int lda)
{
    tila_complex64_t *b = malloc(sizeof *b * (size_t)k * k), one = 1;
    for (int j = 0; j < k; j++)
        for (int i = 0; i < k; i++)
            b[(size_t)j * k + i] = q[(size_t)j * k + i] * d[j];
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, k, k, k, CBLAS_SADDR(one), b, k, q, k,
                CBLAS_SADDR(one), a, lda);
    free(b);
}

/* a = H a H for the reflector H = I - tau v v^H of a random v (n x n, ld n). */
static void reflect(int n, tila_complex64_t *a, unsigned long long *x)
{
    tila_complex64_t *v = malloc(sizeof *v * (size_t)n), *w = malloc(sizeof *w * (size_t)n);
    double vv = 0;
    for (int i = 0; i < n; i++) {
        v[i] = random_entry(x);
        vv += creal(conj(v[i]) * v[i]);
    }
    double tau = 2 / vv;
    /* w = tau a v - tau^2 / 2 (v^H a v) v; then a - v w^H - w v^H = H a H. */
    tila_complex64_t vaw = 0;
    for (int i = 0; i < n; i++) {
        tila_complex64_t s = 0;
        for (int j = 0; j < n; j++)
            s += a[(size_t)j * n + i] * v[j];
        w[i] = tau * s;
    }
    for (int i = 0; i < n; i++)
        vaw += conj(v[i]) * w[i];
    for (int i = 0; i < n; i++)
        w[i] -= 0.5 * tau * vaw * v[i];
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            a[(size_t)j * n + i] -= v[i] * conj(w[j]) + w[i] * conj(v[j]);
    free(v);
    free(w);
}

/* A Hermitian positive definite n x n matrix (ld n) of 2-norm condition cond (family f,
 * diagonal blocks of order bs), exactly Hermitian. */
static tila_complex64_t *spd_cond(enum family f, int n, int bs, double cond,
                                  unsigned long long seed)
{
    tila_complex64_t *a = calloc((size_t)n * n, sizeof *a);
    double *lambda = malloc(sizeof *lambda * (size_t)n), *d = malloc(sizeof *d * (size_t)n);
    unsigned long long x = seed * 0x9e3779b97f4a7c15ull + 1;
    for (int i = 0; i < n; i++)
        lambda[i] = n > 1 ? pow(cond, -(double)i / (n - 1)) : 1;
    if (f == FAMILY_TILE) {
        /* Eigenvalue e goes to row r of block b, in the order r first: block b holds
         * eigenvalues nblocks apart from the largest to the smallest. */
        int nblocks = (n + bs - 1) / bs, e = 0;
        for (int r = 0; r < bs; r++)
            for (int b = 0; b < nblocks; b++)
                if (b * bs + r < n) d[b * bs + r] = lambda[e++];
        for (int b = 0; b < nblocks; b++) {
            int k = n - b * bs < bs ? n - b * bs : bs;
            tila_complex64_t *q = malloc(sizeof *q * (size_t)k * k);
            random_unitary(k, q, &x);
            add_qdq(k, q, d + b * bs, a + (size_t)b * bs * n + b * bs, n);
            free(q);
        }
    }
    else if (f == FAMILY_GRADED) {
        for (int i = 0; i < n; i++)
            a[(size_t)i * n + i] = lambda[i];
    }
    else {
        tila_complex64_t *q = malloc(sizeof *q * (size_t)n * n);
        random_unitary(n, q, &x);
        add_qdq(n, q, lambda, a, n);
        free(q);
    }
    for (int r = 0; r < 4 && n > 1 && f != FAMILY_DENSE; r++)
        reflect(n, a, &x);
    for (int j = 0; j < n; j++) {
        for (int i = j + 1; i < n; i++)
            a[(size_t)j * n + i] = conj(a[(size_t)i * n + j]);
        a[(size_t)j * n + j] = creal(a[(size_t)j * n + j]);
    }
    free(lambda);
    free(d);
    return a;
}

/* The largest cond_1(L_kk) over A's diagonal tiles, L the factor's triangle in f (rank 0's
 * n x n copy). */
static double diag_cond_max(const tila_desc_t *A, tila_uplo_t uplo, const tila_complex64_t *f)
{
    int n = tila_desc_n(A);
    double worst = 0;
    tila_complex64_t *t = malloc(sizeof *t * (size_t)n * n);
    for (int k = 0, at = 0; k < tila_desc_nt(A); at += tila_desc_tile_cols(A, k++)) {
        int nk = tila_desc_tile_cols(A, k);
        const tila_complex64_t *l = f + (size_t)at * n + at;
        LAPACKE_zlacpy(LAPACK_COL_MAJOR, uplo_char(uplo), nk, nk, l, n, t, nk);
        double ln = LAPACKE_zlantr(LAPACK_COL_MAJOR, '1', uplo_char(uplo), 'N', nk, nk, l, n);
        double c = LAPACKE_ztrtri(LAPACK_COL_MAJOR, uplo_char(uplo), 'N', nk, t, nk)
                       ? INFINITY
                       : ln * LAPACKE_zlantr(LAPACK_COL_MAJOR, '1', uplo_char(uplo), 'N', nk, nk,
                                             t, nk);
        worst = c > worst || isnan(c) ? c : worst;
    }
    free(t);
    return worst;
}

/* TILA_POTRF_TRSM=path's factor of a0 (rank 0's, scattered into A) and its residual (on
 * rank 0), its info in *info; the factor's largest cond_1(L_kk) in *cond when not NULL. */
static double potrf_path(tila_desc_t *A, tila_uplo_t uplo, const tila_complex64_t *a0,
                         const char *path, int *info, double *cond)
{
    int n = tila_desc_n(A);
    tila_desc_scatter(A, 0, a0, n);
    char *old = path_set(path);
    *info = tila_zpotrf(uplo, A);
    path_restore(old);
    tila_complex64_t *f = tila_test_zgather(A);
    double err = 0;
    if (tila_comm_rank() == 0 && *info == 0) {
        err = potrf_residual(uplo, n, a0, f);
        if (cond) *cond = diag_cond_max(A, uplo, f);
    }
    free(f);
    return err;
}

/*
 * One matrix of condition cond (family f) factored three ways, and by LAPACK: the panel by
 * TRSM, by the inverse with the default bound (both checked: residual < tol, info 0), and
 * by the inverse whatever the condition (inv:inf, printed, not checked: the error study of
 * bench/LOG.md, which places the default bound); the largest cond_1(L_kk) of the factor.
 * A matrix LAPACK cannot factor is skipped.
 */
static void potrf_cond_one(const tila_test_opts_t *o, enum family f, double cond, tila_uplo_t uplo,
                           int n, int nb, const int grid[2])
{
    tila_desc_t *A;
    tila_dist_t dist = { .p = grid[0], .q = grid[1] };
    tila_test_desc_create(&A, TILA_COMPLEX64, n, n, nb, nb, &dist);
    tila_complex64_t *a0 = NULL;
    int lapack_info = 0;
    double lapack = 0;
    if (tila_comm_rank() == 0) {
        a0 = spd_cond(f, n, nb, cond, o->seed + 7);
        tila_complex64_t *c = malloc(sizeof *c * (size_t)n * n);
        memcpy(c, a0, sizeof *c * (size_t)n * n);
        lapack_info = LAPACKE_zpotrf(LAPACK_COL_MAJOR, uplo_char(uplo), n, c, n);
        if (!lapack_info) lapack = potrf_residual(uplo, n, a0, c);
        free(c);
    }
    else
        a0 = calloc((size_t)n * n, sizeof *a0);
    MPI_Bcast(&lapack_info, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (lapack_info) {
        tila_test_report("SKIP", "potrf-inv-cond", tila_test_prec_letter(TILA_COMPLEX64), 0,
                         "family=%s cond=%.0e uplo=%c n=%d nb=%d grid=%dx%d: LAPACK's potrf "
                         "fails (info %d)",
                         family_name[f], cond, uplo_char(uplo), n, nb, grid[0], grid[1],
                         lapack_info);
    }
    else {
        int info_trsm, info_inv, info_all;
        double cond_lkk = 0;
        double trsm = potrf_path(A, uplo, a0, "trsm", &info_trsm, &cond_lkk);
        double inv = potrf_path(A, uplo, a0, "inv", &info_inv, NULL);
        double all = potrf_path(A, uplo, a0, "inv:inf", &info_all, NULL);
        tila_test_check(info_trsm == 0 && info_inv == 0 && trsm < o->tol && inv < o->tol,
                        "potrf-inv-cond", tila_test_prec_letter(TILA_COMPLEX64), inv,
                        "family=%s cond=%.0e uplo=%c n=%d nb=%d grid=%dx%d cond1-Lkk=%.1e "
                        "lapack=%.3g trsm=%.3g inv=%.3g inv-unguarded=%.3g info=%d,%d,%d",
                        family_name[f], cond, uplo_char(uplo), n, nb, grid[0], grid[1], cond_lkk,
                        lapack, trsm, inv, all, info_trsm, info_inv, info_all);
    }
    tila_desc_destroy(&A);
    free(a0);
}

/* posv, or posv_async (async) in a sequence of its own: the backward error of X. */
static void posv_one(const tila_test_opts_t *o, tila_uplo_t uplo, int n, int nrhs, int nb,
                     const int grid[2], int async)
{
    tila_desc_t *A = make(n, n, nb, grid, 1, o->seed), *B = make(n, nrhs, nb, grid, 0, o->seed + 1);
    tila_complex64_t *a0 = tila_test_zgather(A), *b0 = tila_test_zgather(B);
    int info = 0, rc = 0, request = 0;
    if (async) {
        tila_sequence_t *seq;
        tila_request_t req = TILA_REQUEST_INITIALIZER;
        tila_sequence_create(&seq);
        rc = tila_zposv_async(uplo, A, B, seq, &req);
        info = tila_sequence_wait(seq);
        request = req.status;
        tila_sequence_destroy(&seq);
    }
    else
        info = tila_zposv(uplo, A, B);
    tila_complex64_t *x = tila_test_zgather(B);
    double err = 0;
    if (tila_comm_rank() == 0 && n > 0 && nrhs > 0) {
        double anorm = LAPACKE_zlange(LAPACK_COL_MAJOR, 'F', n, n, a0, n);
        double xnorm = LAPACKE_zlange(LAPACK_COL_MAJOR, 'F', n, nrhs, x, n);
        tila_complex64_t one = 1, mone = -1;
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, nrhs, n, CBLAS_SADDR(mone), a0, n,
                    x, n, CBLAS_SADDR(one), b0, n);
        err = LAPACKE_zlange(LAPACK_COL_MAJOR, 'F', n, nrhs, b0, n) /
              (anorm * xnorm * n * DBL_EPSILON);
    }
    int ok = rc == 0 && info == 0 && request == 0 && err < o->tol;
    if (async)
        tila_test_check(ok, "posv_async", tila_test_prec_letter(TILA_COMPLEX64), err,
                        "uplo=%c n=%d nrhs=%d nb=%d grid=%dx%d rc=%d status=%d request=%d",
                        uplo_char(uplo), n, nrhs, nb, grid[0], grid[1], rc, info, request);
    else
        tila_test_check(ok, "posv", tila_test_prec_letter(TILA_COMPLEX64), err,
                        "uplo=%c n=%d nrhs=%d nb=%d grid=%dx%d info=%d", uplo_char(uplo), n, nrhs,
                        nb, grid[0], grid[1], info);
    tila_desc_destroy(&A);
    tila_desc_destroy(&B);
    free(a0);
    free(b0);
    free(x);
}

static void trsm_one(const tila_test_opts_t *o, tila_side_t side, tila_uplo_t uplo,
                     tila_trans_t trans, tila_diag_t diag, int m, int n, int nb, const int grid[2])
{
    int na = side == TILA_LEFT ? m : n;
    tila_complex64_t alpha = 0.5;
#if defined(COMPLEX)
    alpha += 0.25 * I;
#endif
    tila_desc_t *A = make(na, na, nb, grid, 1, o->seed), *B = make(m, n, nb, grid, 0, o->seed + 2);
    tila_complex64_t *a = tila_test_zgather(A), *b0 = tila_test_zgather(B);
    int rc = tila_ztrsm(side, uplo, trans, diag, alpha, A, B);
    tila_complex64_t *x = tila_test_zgather(B);
    double err = 0;
    if (tila_comm_rank() == 0 && m > 0 && n > 0) {
        double anorm = LAPACKE_zlantr(LAPACK_COL_MAJOR, 'F', uplo_char(uplo),
                                      diag == TILA_UNIT ? 'U' : 'N', na, na, a, na);
        double xnorm = LAPACKE_zlange(LAPACK_COL_MAJOR, 'F', m, n, x, m);
        tila_complex64_t one = 1;
        /* x := op(A) x (or x op(A)); then x - alpha b0. */
        cblas_ztrmm(CblasColMajor, (enum CBLAS_SIDE)side, (enum CBLAS_UPLO)uplo,
                    (enum CBLAS_TRANSPOSE)trans, (enum CBLAS_DIAG)diag, m, n, CBLAS_SADDR(one), a,
                    na, x, m);
        for (size_t i = 0; i < (size_t)m * n; i++)
            x[i] -= alpha * b0[i];
        err =
            LAPACKE_zlange(LAPACK_COL_MAJOR, 'F', m, n, x, m) / (anorm * xnorm * na * DBL_EPSILON);
    }
    tila_test_check(rc == 0 && err < o->tol, "trsm", tila_test_prec_letter(TILA_COMPLEX64), err,
                    "side=%c uplo=%c trans=%c diag=%c m=%d n=%d nb=%d grid=%dx%d",
                    side == TILA_LEFT ? 'L' : 'R', uplo_char(uplo),
                    trans == TILA_NOTRANS ? 'N'
                    : trans == TILA_TRANS ? 'T'
                                          : 'C',
                    diag == TILA_UNIT ? 'U' : 'N', m, n, nb, grid[0], grid[1]);
    tila_desc_destroy(&A);
    tila_desc_destroy(&B);
    free(a);
    free(b0);
    free(x);
}

/* A column a few into the first diagonal tile that rank `target` owns (tile 0 if none). */
static int planted_column(const tila_desc_t *A, int target)
{
    int n = tila_desc_n(A), nb = tila_desc_nb(A), t = 0;
    while (t < tila_desc_nt(A) && tila_desc_tile_rank(A, t, t) != target)
        t++;
    if (t == tila_desc_nt(A)) t = 0;
    int width = n - t * nb < nb ? n - t * nb : nb;
    return t * nb + (width > 3 ? 3 : width - 1);
}

/*
 * Scatter a0 (rank 0's copy of A, n >= 1) into A with -1 planted at diagonal entry k;
 * returns LAPACKE_zpotrf's info on that matrix, on every rank.
 */
static int plant(tila_desc_t *A, const tila_complex64_t *a0, int k, tila_uplo_t uplo)
{
    int n = tila_desc_n(A), info = 0;
    size_t size = sizeof *a0 * (size_t)n * n;
    tila_complex64_t *a = malloc(size);
    memcpy(a, a0, size);
    if (tila_comm_rank() == 0) {
        a[(size_t)k * n + k] = -1;
        tila_complex64_t *c = malloc(size);
        memcpy(c, a, size);
        info = LAPACKE_zpotrf(LAPACK_COL_MAJOR, uplo_char(uplo), n, c, n);
        free(c);
    }
    MPI_Bcast(&info, 1, MPI_INT, 0, MPI_COMM_WORLD);
    tila_desc_scatter(A, 0, a, n);
    free(a);
    return info;
}

/*
 * posv_async with A not definite at column k (planted: LAPACK's info `expect`) and B = b0
 * (rank 0's copy): what its contract guarantees (see the file's comment).
 */
static void posv_async_not_definite(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B,
                                    const tila_complex64_t *b0, int k, int expect,
                                    const int grid[2])
{
    int n = tila_desc_n(A), nb = tila_desc_nb(A), nrhs = tila_desc_n(B);
    tila_desc_scatter(B, 0, b0, n);
    tila_sequence_t *seq;
    tila_request_t req = TILA_REQUEST_INITIALIZER;
    tila_sequence_create(&seq);
    int rc = tila_zposv_async(uplo, A, B, seq, &req);
    int status = tila_sequence_wait(seq);
    int mine[4] = { rc, status, tila_sequence_status(seq), req.status }, lo[4], hi[4];
    tila_sequence_destroy(&seq);
    MPI_Allreduce(mine, lo, 4, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(mine, hi, 4, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    int agreed = !memcmp(lo, hi, sizeof lo);
    int ok = agreed && rc == 0 && expect == k + 1 && mine[1] == expect && mine[2] == expect &&
             mine[3] == expect;
    /* B on the tiles of the rank that records the failure, when it is in tile column 0. */
    int owner = tila_desc_tile_rank(A, k / nb, k / nb), checked = k < nb, same = 1;
    tila_complex64_t *b = tila_test_zgather(B);
    if (checked && tila_comm_rank() == 0)
        for (int j = 0; j < nrhs; j++)
            for (int i = 0; i < n; i++)
                if (tila_desc_tile_rank(B, i / nb, j / nb) == owner &&
                    memcmp(&b[(size_t)j * n + i], &b0[(size_t)j * n + i], sizeof *b))
                    same = 0;
    tila_test_check(ok && same, "posv_async-not-definite", tila_test_prec_letter(TILA_COMPLEX64), 0,
                    "uplo=%c n=%d nb=%d grid=%dx%d planted-col=%d rc=%d status=%d sequence=%d "
                    "request=%d lapack=%d same-on-every-rank=%d B-on-rank-%d=%s",
                    uplo_char(uplo), n, nb, grid[0], grid[1], k + 1, rc, mine[1], mine[2], mine[3],
                    expect, agreed, owner,
                    !checked ? "unspecified"
                    : same   ? "untouched"
                             : "CHANGED");
    free(b);
}

static void not_definite(tila_uplo_t uplo, int n, int nb, const int grid[2],
                         unsigned long long seed)
{
    if (n < 1) {
        tila_test_report("SKIP", "posv-not-definite", tila_test_prec_letter(TILA_COMPLEX64), 0,
                         "uplo=%c n=%d nb=%d grid=%dx%d: no column to make non-definite",
                         uplo_char(uplo), n, nb, grid[0], grid[1]);
        return;
    }
    tila_desc_t *A = make(n, n, nb, grid, 1, seed), *B = make(n, 2, nb, grid, 0, seed + 1);
    int k = planted_column(A, tila_comm_size() > 1 ? 1 : 0);
    tila_complex64_t *a0 = tila_test_zgather(A), *b0 = tila_test_zgather(B);
    int expect = plant(A, a0, k, uplo);
    int info = tila_zposv(uplo, A, B);
    tila_complex64_t *b = tila_test_zgather(B);
    int same = tila_comm_rank() != 0 || !memcmp(b, b0, sizeof *b * (size_t)n * 2);
    tila_test_check(info == expect && expect == k + 1 && same, "posv-not-definite",
                    tila_test_prec_letter(TILA_COMPLEX64), 0,
                    "uplo=%c n=%d nb=%d grid=%dx%d planted-col=%d info=%d lapack=%d "
                    "B-untouched=%d",
                    uplo_char(uplo), n, nb, grid[0], grid[1], k + 1, info, expect, same);
    plant(A, a0, k, uplo);
    info = tila_zpotrf(uplo, A);
    tila_test_check(info == expect, "potrf-not-definite", tila_test_prec_letter(TILA_COMPLEX64), 0,
                    "uplo=%c n=%d nb=%d grid=%dx%d info=%d lapack=%d", uplo_char(uplo), n, nb,
                    grid[0], grid[1], info, expect);
    plant(A, a0, k, uplo);
    posv_async_not_definite(uplo, A, B, b0, k, expect, grid);
    /* Planted in rank 1's tile, B is not checked: plant in the first tile column too. */
    if (k >= nb) {
        k = planted_column(A, 0);
        expect = plant(A, a0, k, uplo);
        posv_async_not_definite(uplo, A, B, b0, k, expect, grid);
    }
    tila_desc_destroy(&A);
    tila_desc_destroy(&B);
    free(a0);
    free(b0);
    free(b);
}

/* After a failure, the sequence stays failed and dependent tasks do nothing. */
static void failed_sequence(unsigned long long seed)
{
    if (tila_comm_size() != 1) {
        tila_test_report("SKIP", "sequence-failed", tila_test_prec_letter(TILA_COMPLEX64), 0,
                         "needs one rank (each rank knows its own failures until the wait)");
        return;
    }
    const int n = 24, nb = 8;
    const int grid[2] = { 1, 1 };
    tila_desc_t *A = make(n, n, nb, grid, 1, seed), *C;
    tila_test_desc_create(&C, TILA_COMPLEX64, n, n, nb, nb, NULL);
    tila_zlaset(TILA_GENERAL, 7, 7, C);
    tila_complex64_t *a = tila_test_zgather(A);
    a[(size_t)2 * n + 2] = -1; /* fails in the first tile: info 3 */
    tila_desc_scatter(A, 0, a, n);
    tila_sequence_t *seq;
    tila_request_t r1 = TILA_REQUEST_INITIALIZER;
    tila_sequence_create(&seq);
    tila_zpotrf_async(TILA_LOWER, A, seq, &r1);
    /* Once the failure is recorded, a second call on the same request (as posv makes
     * potrs's) keeps it; every tile of the lower triangle is written after the failing
     * first POTRF.  The wait for the failure is bounded: 60 s is ages for an 8 x 8 POTRF. */
    time_t deadline = monotonic_seconds() + 60;
    while (__atomic_load_n(&r1.status, __ATOMIC_ACQUIRE) == 0 && monotonic_seconds() < deadline)
        usleep(100);
    if (__atomic_load_n(&r1.status, __ATOMIC_ACQUIRE) == 0) {
        tila_test_report("FAIL", "sequence-failed", tila_test_prec_letter(TILA_COMPLEX64), 0,
                         "the failing POTRF's info 3 did not reach the request in 60 s");
        /* No submitted task can be cancelled: were the potrf's tasks still pending, the
         * wait, the destroys and tila_finalize would all wait for them.  Give them 10 s
         * more (after which nothing is left and the cleanup returns), else end the
         * program: this runs on one rank, so no other rank is left waiting for it. */
        while (starpu_task_nsubmitted() > 0 && monotonic_seconds() < deadline + 10)
            usleep(1000);
        if (starpu_task_nsubmitted() > 0) {
            fprintf(stderr,
                    "tila-tests: sequence-failed: %d task(s) of tila_zpotrf_async "
                    "never completed; stopping\n",
                    starpu_task_nsubmitted());
            fflush(stdout);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        tila_sequence_wait(seq);
        tila_sequence_destroy(&seq);
        tila_desc_destroy(&A);
        tila_desc_destroy(&C);
        free(a);
        return;
    }
    /* Later tasks that overwrite tiles without reading them (the whole tiles below the
     * diagonal, C of a gemm with beta = 0) keep them too, wherever they run: next to a
     * GPU, the laset may have run on the GPU and the skipped task on a CPU. */
    tila_desc_t *D;
    tila_test_desc_create(&D, TILA_COMPLEX64, n, n, nb, nb, NULL);
    tila_zlaset(TILA_GENERAL, 7, 7, D);
    tila_zlacpy_async(TILA_LOWER, A, C, seq, &r1);
    tila_zgemm_async(TILA_NOTRANS, TILA_NOTRANS, 1, A, A, 0, D, seq, &r1);
    int status = tila_sequence_wait(seq);
    int again = tila_sequence_wait(seq);
    tila_sequence_destroy(&seq);
    tila_complex64_t *c = tila_test_zgather(C), *d = tila_test_zgather(D);
    int changed = -1;
    for (int i = 0; i < 2 * n * n && changed < 0; i++)
        if ((i < n * n ? c[i] : d[i - n * n]) != 7) changed = i;
    char where[64] = "none";
    if (changed >= 0)
        snprintf(where, sizeof where, "%c(%d,%d)", changed < n * n ? 'C' : 'D',
                 changed % (n * n) % n, changed % (n * n) / n);
    tila_test_check(status == 3 && again == 3 && r1.status == 3 && changed < 0, "sequence-failed",
                    tila_test_prec_letter(TILA_COMPLEX64), 0,
                    "status=%d again=%d request=%d later-tasks-skipped=%d first-changed=%s", status,
                    again, r1.status, changed < 0, where);
    tila_desc_destroy(&A);
    tila_desc_destroy(&C);
    tila_desc_destroy(&D);
    free(a);
    free(c);
    free(d);
}

/*
 * The ill-conditioned cases on grid g: conditions 1e2 to 1e14 in double (1e2 to 1e5 in
 * single, below 1 / (n eps) where LAPACK's own factor holds), the worst family (TILE) on
 * every grid, the other two on the first; n and nb from the options, or 96 in tiles of 24
 * and 90 in tiles of 32 (edge tiles).
 */
static void potrf_conds(const tila_test_opts_t *o, tila_uplo_t uplo, int g, const int grid[2])
{
    static const int sizes[][2] = { { 96, 24 }, { 90, 32 } };
    int single = sizeof(double) == 4, top = single ? 7 : 14, step = single ? 1 : 2;
    for (int s = 0; s < 2; s++) {
        tila_test_list_t ns = tila_test_values(&o->n, sizes[s][0]);
        tila_test_list_t nbs = tila_test_values(&o->nb, sizes[s][1]);
        /* Given sizes replace both of the suite's own: run them once. */
        if (s > 0 && o->n.n > 0 && o->nb.n > 0) break;
        for (int i = 0; i < ns.n; i++)
            for (int j = 0; j < nbs.n; j++)
                for (int f = 0; f < 3; f++)
                    for (int e = 2; e <= top && (f == FAMILY_TILE || g == 0); e += step)
                        if (ns.v[i] > 0)
                            potrf_cond_one(o, (enum family)f, pow(10, e), uplo, ns.v[i],
                                           nbs.v[j], grid);
    }
}

void tila_test_zpotrf(const tila_test_opts_t *o)
{
    /* n, nb, posv's nrhs: edge tiles, n < nb, 1 x 1 and empty. */
    static const int sizes[][3] = {
        { 45, 8, 3 }, { 64, 16, 7 }, { 5, 16, 3 }, { 1, 4, 7 }, { 0, 4, 3 }
    };
    static const tila_uplo_t uplos[] = { TILA_LOWER, TILA_UPPER };
    tila_test_seen_t potrf_seen = { 0 }, posv_seen = { 0 };
    /* The failing cases: several tiles, so that rank 1 owns a diagonal one. */
    tila_test_list_t bad_ns = tila_test_values(&o->n, 40), bad_nbs = tila_test_values(&o->nb, 8);
    int grids[8][2], ngrids = tila_test_grids(grids, 8);
    for (int g = 0; g < ngrids; g++)
        for (int u = 0; u < 2; u++) {
            for (int s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); s++) {
                tila_test_list_t ns = tila_test_values(&o->n, sizes[s][0]);
                tila_test_list_t nbs = tila_test_values(&o->nb, sizes[s][1]);
                for (int i = 0; i < ns.n; i++)
                    for (int j = 0; j < nbs.n; j++) {
                        int n = ns.v[i], nb = nbs.v[j], nrhs = sizes[s][2];
                        if (tila_test_once(&potrf_seen, 4, (int[]){ g, u, n, nb })) {
                            potrf_one(o, uplos[u], n, nb, grids[g]);
                            potrf_paths(o, uplos[u], n, nb, grids[g]);
                        }
                        if (!tila_test_once(&posv_seen, 5, (int[]){ g, u, n, nb, nrhs })) continue;
                        posv_one(o, uplos[u], n, nrhs, nb, grids[g], 0);
                        posv_one(o, uplos[u], n, nrhs, nb, grids[g], 1);
                    }
            }
            for (int i = 0; i < bad_ns.n; i++)
                for (int j = 0; j < bad_nbs.n; j++) {
                    not_definite(uplos[u], bad_ns.v[i], bad_nbs.v[j], grids[g], o->seed);
                    /* The same failures with the panel by the inverse. */
                    char *old = path_set("inv:inf");
                    not_definite(uplos[u], bad_ns.v[i], bad_nbs.v[j], grids[g], o->seed);
                    path_restore(old);
                }
            potrf_conds(o, uplos[u], g, grids[g]);
        }
    tila_test_seen_free(&potrf_seen);
    tila_test_seen_free(&posv_seen);
    failed_sequence(o->seed);
}

/* trsm's 24 variants (side, uplo, op, diag) of one size on one grid. */
static void trsm_variants(const tila_test_opts_t *o, int m, int n, int nb, const int grid[2])
{
    static const tila_trans_t ops[] = { TILA_NOTRANS, TILA_TRANS, TILA_CONJTRANS };
    for (int side = 0; side < 2; side++)
        for (int u = 0; u < 2; u++)
            for (int t = 0; t < 3; t++)
                for (int d = 0; d < 2; d++)
                    trsm_one(o, side ? TILA_RIGHT : TILA_LEFT, u ? TILA_UPPER : TILA_LOWER, ops[t],
                             d ? TILA_UNIT : TILA_NONUNIT, m, n, nb, grid);
}

void tila_test_ztrsm(const tila_test_opts_t *o)
{
    /* m, n, nb, grids (1: the first and the last, 0: the first): small tiles; tiles large
     * enough for the tile kernel's recursion (two levels, uneven halves, edge tiles); a B
     * narrower than half a tile (left: the updates run on A's owners into partial sums
     * on several ranks). */
    static const int sizes[3][4] = { { 29, 19, 8, 1 }, { 150, 140, 136, 0 }, { 45, 3, 8, 1 } };
    tila_test_seen_t seen = { 0 };
    int grids[8][2], ngrids = tila_test_grids(grids, 8);
    for (int c = 0; c < 3; c++) {
        tila_test_list_t ms = tila_test_values(&o->m, sizes[c][0]);
        tila_test_list_t ns = tila_test_values(&o->n, sizes[c][1]);
        tila_test_list_t nbs = tila_test_values(&o->nb, sizes[c][2]);
        for (int g = 0; g<(sizes[c][3] ? ngrids : 1); g += ngrids> 1 ? ngrids - 1 : 1)
            for (int i = 0; i < ms.n; i++)
                for (int j = 0; j < ns.n; j++)
                    for (int l = 0; l < nbs.n; l++)
                        if (tila_test_once(&seen, 4, (int[]){ g, ms.v[i], ns.v[j], nbs.v[l] }))
                            trsm_variants(o, ms.v[i], ns.v[j], nbs.v[l], grids[g]);
    }
    tila_test_seen_free(&seen);
}
