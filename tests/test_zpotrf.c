/**
 * @file test_zpotrf.c
 * @brief Tiled Cholesky (potrf, trsm, potrs, posv) against LAPACK on the gathered matrices.
 * @precisions normal z -> c d s
 *
 * What it proves, on every P x Q grid of the world, lower and upper, with edge tiles,
 * n < nb and n = 0:
 * - potrf: ||A - L L^H||_F / (n ||A||_F eps) < tol (the LAPACK test ratio), info = 0;
 * - trsm, all sides, triangles, op and diag: ||op(A) X - alpha B|| / (||A|| ||X|| n eps);
 * - posv: backward error ||B - A X||_F / (||A||_F ||X||_F n eps) < tol;
 * - not positive definite (a negative pivot planted at a column whose diagonal tile
 *   rank 1 owns): potrf and posv return LAPACKE_?potrf's info on every rank, nothing
 *   hangs, and posv leaves B bit-for-bit untouched;
 * - a failed sequence stays failed, and its later tasks that depend on the failure do
 *   nothing (checked where every task is local: one rank).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <cblas.h>
#include <complex.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "tests_z.h"

static char uplo_char(tila_uplo_t uplo) { return uplo == TILA_LOWER ? 'L' : 'U'; }

/* A new n x nrhs descriptor on a grid, filled by plghe (herm) or plrnt. */
static tila_desc_t *make(int m, int n, int nb, const int grid[2], int herm,
                         unsigned long long seed)
{
    tila_desc_t *A;
    tila_dist_t dist = { .p = grid[0], .q = grid[1] };
    tila_desc_create(&A, TILA_COMPLEX64, m, n, nb, nb, &dist);
    if (herm)
        tila_zplghe((double)m, A, seed);
    else
        tila_zplrnt(A, seed);
    return A;
}

static void potrf_one(const tila_test_opts_t *o, tila_uplo_t uplo, int n, int nb,
                      const int grid[2])
{
    tila_desc_t *A = make(n, n, nb, grid, 1, o->seed);
    tila_complex64_t *a0 = tila_test_zgather(A);
    int info = tila_zpotrf(uplo, A);
    tila_complex64_t *f = tila_test_zgather(A);
    double err = 0;
    if (tila_comm_rank() == 0 && n > 0) {
        /* R = A0 - T T^H on the triangle, T the factor's triangle (zeros elsewhere). */
        tila_complex64_t *t = calloc((size_t)n * n, sizeof *t);
        LAPACKE_zlacpy(LAPACK_COL_MAJOR, uplo_char(uplo), n, n, f, n, t, n);
        double anorm = LAPACKE_zlange(LAPACK_COL_MAJOR, 'F', n, n, a0, n);
        cblas_zherk(CblasColMajor, (enum CBLAS_UPLO)uplo,
                    uplo == TILA_LOWER ? CblasNoTrans : CblasConjTrans, n, n, -1.0, t, n, 1.0,
                    a0, n);
        err = LAPACKE_zlanhe(LAPACK_COL_MAJOR, 'F', uplo_char(uplo), n, a0, n) /
              (n * anorm * DBL_EPSILON);
        free(t);
    }
    tila_test_check(info == 0 && err < o->tol, "potrf", tila_test_prec_letter(TILA_COMPLEX64),
                    err, "uplo=%c n=%d nb=%d grid=%dx%d info=%d", uplo_char(uplo), n, nb,
                    grid[0], grid[1], info);
    tila_desc_destroy(&A);
    free(a0);
    free(f);
}

static void posv_one(const tila_test_opts_t *o, tila_uplo_t uplo, int n, int nrhs, int nb,
                     const int grid[2])
{
    tila_desc_t *A = make(n, n, nb, grid, 1, o->seed), *B = make(n, nrhs, nb, grid, 0, o->seed + 1);
    tila_complex64_t *a0 = tila_test_zgather(A), *b0 = tila_test_zgather(B);
    int info = tila_zposv(uplo, A, B);
    tila_complex64_t *x = tila_test_zgather(B);
    double err = 0;
    if (tila_comm_rank() == 0 && n > 0 && nrhs > 0) {
        double anorm = LAPACKE_zlange(LAPACK_COL_MAJOR, 'F', n, n, a0, n);
        double xnorm = LAPACKE_zlange(LAPACK_COL_MAJOR, 'F', n, nrhs, x, n);
        tila_complex64_t one = 1, mone = -1;
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, nrhs, n, CBLAS_SADDR(mone),
                    a0, n, x, n, CBLAS_SADDR(one), b0, n);
        err = LAPACKE_zlange(LAPACK_COL_MAJOR, 'F', n, nrhs, b0, n) /
              (anorm * xnorm * n * DBL_EPSILON);
    }
    tila_test_check(info == 0 && err < o->tol, "posv", tila_test_prec_letter(TILA_COMPLEX64),
                    err, "uplo=%c n=%d nrhs=%d nb=%d grid=%dx%d info=%d", uplo_char(uplo), n,
                    nrhs, nb, grid[0], grid[1], info);
    tila_desc_destroy(&A);
    tila_desc_destroy(&B);
    free(a0); free(b0); free(x);
}

static void trsm_one(const tila_test_opts_t *o, tila_side_t side, tila_uplo_t uplo,
                     tila_trans_t trans, tila_diag_t diag, int m, int n, int nb,
                     const int grid[2])
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
                    (enum CBLAS_TRANSPOSE)trans, (enum CBLAS_DIAG)diag, m, n, CBLAS_SADDR(one),
                    a, na, x, m);
        for (size_t i = 0; i < (size_t)m * n; i++)
            x[i] -= alpha * b0[i];
        err = LAPACKE_zlange(LAPACK_COL_MAJOR, 'F', m, n, x, m) /
              (anorm * xnorm * na * DBL_EPSILON);
    }
    tila_test_check(rc == 0 && err < o->tol, "trsm", tila_test_prec_letter(TILA_COMPLEX64), err,
                    "side=%c uplo=%c trans=%c diag=%c m=%d n=%d nb=%d grid=%dx%d",
                    side == TILA_LEFT ? 'L' : 'R', uplo_char(uplo),
                    trans == TILA_NOTRANS ? 'N' : trans == TILA_TRANS ? 'T' : 'C',
                    diag == TILA_UNIT ? 'U' : 'N', m, n, nb, grid[0], grid[1]);
    tila_desc_destroy(&A);
    tila_desc_destroy(&B);
    free(a); free(b0); free(x);
}

/* Column whose diagonal tile rank 1 (rank 0 alone) owns, a few columns into the tile. */
static int planted_column(const tila_desc_t *A)
{
    int target = tila_comm_size() > 1 ? 1 : 0;
    for (int t = 0; t < tila_desc_nt(A); t++)
        if (tila_desc_tile_rank(A, t, t) == target)
            return t * tila_desc_nb(A) + (tila_desc_n(A) - t * tila_desc_nb(A) > 3 ? 3 : 0);
    return 0;
}

static void not_definite(tila_uplo_t uplo, int n, int nb, const int grid[2],
                         unsigned long long seed)
{
    tila_desc_t *A = make(n, n, nb, grid, 1, seed), *B = make(n, 2, nb, grid, 0, seed + 1);
    int k = planted_column(A);
    tila_complex64_t *a = tila_test_zgather(A), *b0 = tila_test_zgather(B);
    int expect = 0;
    if (tila_comm_rank() == 0) {
        a[(size_t)k * n + k] = -1;
        tila_complex64_t *c = malloc(sizeof *c * (size_t)n * n);
        memcpy(c, a, sizeof *c * (size_t)n * n);
        expect = LAPACKE_zpotrf(LAPACK_COL_MAJOR, uplo_char(uplo), n, c, n);
        free(c);
    }
    MPI_Bcast(&expect, 1, MPI_INT, 0, MPI_COMM_WORLD);
    tila_desc_scatter(A, 0, a, n);
    int info = tila_zposv(uplo, A, B);
    tila_complex64_t *b = tila_test_zgather(B);
    int same = tila_comm_rank() != 0 || !memcmp(b, b0, sizeof *b * (size_t)n * 2);
    tila_test_check(info == expect && expect == k + 1 && same, "posv-not-definite",
                    tila_test_prec_letter(TILA_COMPLEX64), 0,
                    "uplo=%c n=%d nb=%d grid=%dx%d planted-col=%d info=%d lapack=%d "
                    "B-untouched=%d", uplo_char(uplo), n, nb, grid[0], grid[1], k + 1, info,
                    expect, same);
    tila_desc_scatter(A, 0, a, n);
    info = tila_zpotrf(uplo, A);
    tila_test_check(info == expect, "potrf-not-definite", tila_test_prec_letter(TILA_COMPLEX64),
                    0, "uplo=%c n=%d nb=%d grid=%dx%d info=%d lapack=%d", uplo_char(uplo), n,
                    nb, grid[0], grid[1], info, expect);
    tila_desc_destroy(&A);
    tila_desc_destroy(&B);
    free(a); free(b0); free(b);
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
    tila_desc_create(&C, TILA_COMPLEX64, n, n, nb, nb, NULL);
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
     * first POTRF. */
    while (__atomic_load_n(&r1.status, __ATOMIC_ACQUIRE) == 0)
        sched_yield();
    tila_zlacpy_async(TILA_LOWER, A, C, seq, &r1);
    int status = tila_sequence_wait(seq);
    int again = tila_sequence_wait(seq);
    tila_sequence_destroy(&seq);
    tila_complex64_t *c = tila_test_zgather(C);
    int untouched = 1;
    for (int i = 0; i < n * n; i++)
        untouched &= c[i] == 7;
    tila_test_check(status == 3 && again == 3 && r1.status == 3 && untouched, "sequence-failed",
                    tila_test_prec_letter(TILA_COMPLEX64), 0,
                    "status=%d again=%d request=%d later-tasks-skipped=%d", status, again,
                    r1.status, untouched);
    tila_desc_destroy(&A);
    tila_desc_destroy(&C);
    free(a);
    free(c);
}

void tila_test_zpotrf(const tila_test_opts_t *o)
{
    static const int sizes[][2] = { { 45, 8 }, { 64, 16 }, { 5, 16 }, { 1, 4 }, { 0, 4 } };
    static const tila_uplo_t uplos[] = { TILA_LOWER, TILA_UPPER };
    int grids[8][2], ngrids = tila_test_grids(grids, 8);
    for (int g = 0; g < ngrids; g++)
        for (int u = 0; u < 2; u++) {
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                int n = o->n.n ? o->n.v[0] : sizes[s][0], nb = o->nb.n ? o->nb.v[0] : sizes[s][1];
                potrf_one(o, uplos[u], n, nb, grids[g]);
                posv_one(o, uplos[u], n, s % 2 ? 7 : 3, nb, grids[g]);
            }
            not_definite(uplos[u], 40, 8, grids[g], o->seed);
        }
    failed_sequence(o->seed);
}

void tila_test_ztrsm(const tila_test_opts_t *o)
{
    static const tila_trans_t ops[] = { TILA_NOTRANS, TILA_TRANS, TILA_CONJTRANS };
    /* m, n, nb: small tiles on the first and last grids; tiles large enough for the tile
     * kernel's recursion (two levels, uneven halves, edge tiles) on the first; a B
     * narrower than half a tile (left: the updates run on A's owners into partial sums
     * on several ranks) on the first and last grids. */
    static const int sizes[3][3] = { { 29, 19, 8 }, { 150, 140, 136 }, { 45, 3, 8 } };
    int grids[8][2], ngrids = tila_test_grids(grids, 8);
    for (int c = 0; c < 3; c++)
        for (int g = 0; g < (c == 1 ? 1 : ngrids); g += ngrids > 1 ? ngrids - 1 : 1)
            for (int side = 0; side < 2; side++)
                for (int u = 0; u < 2; u++)
                    for (int t = 0; t < 3; t++)
                        for (int d = 0; d < 2; d++)
                            trsm_one(o, side ? TILA_RIGHT : TILA_LEFT,
                                     u ? TILA_UPPER : TILA_LOWER, ops[t],
                                     d ? TILA_UNIT : TILA_NONUNIT, sizes[c][0], sizes[c][1],
                                     sizes[c][2], grids[g]);
}
