/**
 * @file test_zcholqr.c
 * @brief Tiled QR by the CHOLQR scheme (Cholesky QR and Householder reconstruction):
 *        residual, orthogonality, and the consumers of its V and T, over conditioning.
 * @precisions normal z -> c d s
 *
 * What it proves: for A = U diag(s) V^H with s geometric from 1 to 1 / kappa, kappa = 1,
 * 1e5, 1e10 and 1e15 (past 1 / eps in single precision: numerically rank deficient), and
 * with half of s zero (rank deficient), on one tile column (its rows no multiple of the tile;
 * n < nb) and on several (each panel a Cholesky QR), every grid of the world for the first
 * case and a user mapping, tila_zgeqrf with a TILA_QR_TREE_CHOLQR T returns 0 and
 *  - A = Q R: ||A - Q R||_F / (n ||A||_F eps) < tol, Q the thin Q of tila_zungqr;
 *  - Q's columns are orthonormal: ||I - Q^H Q||_F / (n eps) < tol;
 *  - tila_zunmqr applies the same Q: ||Q^H A - [R; 0]||_F / (n ||A||_F eps) < tol;
 *  - tila_zgels (kappa <= 1e5, tall) solves A X = A X0: ||X - X0||_F / (||X0||_F kappa n
 *    eps) < tol.
 * Why it suffices: a backward-stable QR gives O(1) ratios whatever kappa; Cholesky QR alone
 * loses orthogonality like kappa^2 eps (1e10 and up: the Gram matrix is not positive
 * definite in double, 1e5 in single), so these matrices pass only through shifted
 * CholeskyQR3 and the Householder fallback (tests/core/test_zcholqr_col.c shows which path
 * each takes), and wrong reconstruction (V, T, the signs of R) breaks the residual or the
 * consumers.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests_z.h"

static int max1(int x) { return x > 1 ? x : 1; }

/* Uniform in [-0.5, 0.5) (both parts in complex) from a 64-bit LCG. */
static tila_complex64_t uniform(unsigned long long *state)
{
    double x[2];
    for (int i = 0; i < 2; i++) {
        *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
        x[i] = (double)(*state >> 11) / 9007199254740992.0 - 0.5;
    }
#if defined(COMPLEX)
    return x[0] + I * x[1];
#else
    return x[0];
#endif
}

/* An m x n matrix (m >= n) with orthonormal columns: Q of a random matrix's QR. */
static tila_complex64_t *orthonormal(int m, int n, unsigned long long *state)
{
    tila_complex64_t *q = malloc(sizeof *q * (size_t)m * n), *tau = malloc(sizeof *tau * n);
    for (size_t i = 0; i < (size_t)m * n; i++)
        q[i] = uniform(state);
    LAPACKE_zgeqrf(LAPACK_COL_MAJOR, m, n, q, m, tau);
    LAPACKE_zungqr(LAPACK_COL_MAJOR, m, n, n, q, m, tau);
    free(tau);
    return q;
}

/* A = U diag(s) V^H (k = min(m, n) singular values s_j = kappa^(-j / (k - 1)), or with
 * rankdef those from k / 2 on zero), m x n, leading dimension m. */
static tila_complex64_t *conditioned(int m, int n, double kappa, int rankdef,
                                     unsigned long long seed)
{
    int k = m < n ? m : n;
    unsigned long long state = seed;
    tila_complex64_t *u = orthonormal(m, k, &state), *v = orthonormal(n, k, &state);
    for (int j = 0; j < k; j++) {
        double s = k > 1 ? pow(kappa, -(double)j / (k - 1)) : 1.0;
        if (rankdef && j >= k / 2) s = 0.0;
        for (int i = 0; i < m; i++)
            u[i + (size_t)j * m] *= s;
    }
    tila_complex64_t *a = malloc(sizeof *a * (size_t)m * n), one = 1.0, zero = 0.0;
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, m, n, k, CBLAS_SADDR(one), u, m, v, n,
                CBLAS_SADDR(zero), a, m);
    free(u);
    free(v);
    return a;
}

/* A tiled copy of the m x n matrix a (rank 0's). */
static tila_desc_t *desc_of(int m, int n, int nb, const tila_dist_t *dist, tila_complex64_t *a)
{
    tila_desc_t *A;
    tila_test_desc_create(&A, TILA_COMPLEX64, m, n, nb, nb, dist);
    tila_desc_scatter(A, 0, a, max1(m));
    return A;
}

/* ||Q^H A0 - [R; 0]||_F / (n ||A0||_F eps), Q^H A0 by tila_zunmqr; r: geqrf's A. */
static double check_unmqr(tila_desc_t *A, tila_desc_t *T, tila_complex64_t *a0,
                          const tila_complex64_t *r, int nb, const tila_dist_t *dist, int *rc)
{
    int m = tila_desc_m(A), n = tila_desc_n(A);
    tila_desc_t *C = desc_of(m, n, nb, dist, a0);
    *rc = tila_zunmqr(TILA_LEFT, TILA_CONJTRANS, A, T, C);
    tila_complex64_t *c = tila_test_zgather(C);
    double err = 0;
    if (tila_comm_rank() == 0) {
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++)
                c[i + (size_t)j * m] -= i <= j ? r[i + (size_t)j * m] : 0.0;
        err = tila_test_zfro(m, n, c, m) / (tila_test_zfro(m, n, a0, m) * n * DBL_EPSILON);
    }
    free(c);
    tila_desc_destroy(&C);
    return err;
}

/* tila_zgels on (A0, A0 X0): ||X - X0||_F / (||X0||_F kappa n eps). */
static double check_gels(int m, int n, int nb, double kappa, const tila_complex64_t *a0,
                         const tila_dist_t *dist, int *rc)
{
    int nrhs = 3;
    unsigned long long state = 99;
    tila_complex64_t *x0 = malloc(sizeof *x0 * (size_t)n * nrhs);
    tila_complex64_t *b = malloc(sizeof *b * (size_t)m * nrhs), one = 1.0, zero = 0.0;
    for (int i = 0; i < n * nrhs; i++)
        x0[i] = uniform(&state);
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, nrhs, n, CBLAS_SADDR(one), a0, m, x0,
                n, CBLAS_SADDR(zero), b, m);
    tila_complex64_t *a = malloc(sizeof *a * (size_t)m * n);
    for (size_t i = 0; i < (size_t)m * n; i++)
        a[i] = a0[i];
    tila_desc_t *A = desc_of(m, n, nb, dist, a), *B, *T;
    tila_test_desc_create(&B, TILA_COMPLEX64, m, nrhs, nb, nb, dist);
    tila_desc_scatter(B, 0, b, m);
    tila_desc_create_qr_t(&T, A, tila_desc_nb(A), TILA_QR_TREE_CHOLQR);
    *rc = tila_zgels(A, T, B);
    tila_complex64_t *x = tila_test_zgather(B);
    double err = 0;
    if (tila_comm_rank() == 0) {
        for (int j = 0; j < nrhs; j++)
            for (int i = 0; i < n; i++)
                x0[i + (size_t)j * n] -= x[i + (size_t)j * m];
        tila_complex64_t *d = x0;
        err = tila_test_zfro(n, nrhs, d, n);
        state = 99;
        for (int i = 0; i < n * nrhs; i++)
            x0[i] = uniform(&state);
        err /= tila_test_zfro(n, nrhs, x0, n) * kappa * n * DBL_EPSILON;
    }
    free(x);
    free(x0);
    free(b);
    free(a);
    tila_desc_destroy(&T);
    tila_desc_destroy(&B);
    tila_desc_destroy(&A);
    return err;
}

/* " inv" while the panels' solves go by the inverse (TILA_CHOLQR_SOLVE=inv). */
static const char *solve = "";

static void run_one(const tila_test_opts_t *o, int m, int n, int nb, double kappa, int rankdef,
                    const int grid[2])
{
    char prec = tila_test_prec_letter(TILA_COMPLEX64), buf[32];
    int size = tila_comm_size(), k = m < n ? m : n;
    tila_dist_t dist = tila_test_dist(grid, &size);
    const char *on = tila_test_grid_name(grid, buf, sizeof buf);
    tila_complex64_t *a0 = conditioned(m, n, kappa, rankdef, o->seed + (unsigned)m * 7 + n);
    tila_desc_t *A = desc_of(m, n, nb, &dist, a0), *T, *Q;
    int rct = tila_desc_create_qr_t(&T, A, tila_desc_nb(A), TILA_QR_TREE_CHOLQR);
    int rc = rct ? rct : tila_zgeqrf(A, T);
    tila_test_desc_create(&Q, TILA_COMPLEX64, m, k, nb, nb, &dist);
    int rcq = rc ? rc : tila_zungqr(A, T, Q);
    tila_complex64_t *r = tila_test_zgather(A), *q = tila_test_zgather(Q);
    double err_qr = 0, err_orth = 0;
    if (tila_comm_rank() == 0) tila_test_zqr_errors(m, n, k, a0, r, q, n, &err_qr, &err_orth);
    char what[32];
    snprintf(what, sizeof what, "%s%s", rankdef ? "rank n/2" : "", solve);
    tila_test_check(rc == 0 && err_qr < o->tol, "cholqr", prec, err_qr,
                    "m=%d n=%d nb=%d kappa=%.0e %s grid=%s rc=%d", m, n, nb, kappa, what, on, rc);
    tila_test_check(rcq == 0 && err_orth < o->tol, "cholqr-orth", prec, err_orth,
                    "m=%d n=%d nb=%d kappa=%.0e %s grid=%s rc=%d", m, n, nb, kappa, what, on, rcq);
    if (m >= n) {
        int rcu;
        double err = check_unmqr(A, T, a0, r, nb, &dist, &rcu);
        tila_test_check(rcu == 0 && err < o->tol, "cholqr-unmqr", prec, err,
                        "m=%d n=%d nb=%d kappa=%.0e %s grid=%s rc=%d", m, n, nb, kappa, what, on,
                        rcu);
    }
    if (m >= n && !rankdef && kappa <= 1e5 && kappa * DBL_EPSILON < 1e-3) {
        int rcg;
        double err = check_gels(m, n, nb, kappa, a0, &dist, &rcg);
        tila_test_check(rcg == 0 && err < o->tol, "cholqr-gels", prec, err,
                        "m=%d n=%d nb=%d kappa=%.0e%s grid=%s rc=%d", m, n, nb, kappa, solve, on,
                        rcg);
    }
    free(a0);
    free(r);
    free(q);
    tila_desc_destroy(&Q);
    tila_desc_destroy(&T);
    tila_desc_destroy(&A);
}

void tila_test_zcholqr(const tila_test_opts_t *o)
{
    /* m, n, nb: one tile column (rows no multiple of the tile; n < nb), several tile columns
     * (the last panel narrower), wide (the last panel's top tile shorter than it is wide:
     * the Householder panel). */
    static const int shapes[][3] = {
        { 300, 40, 40 }, { 257, 37, 40 }, { 200, 100, 40 }, { 30, 50, 40 }
    };
    static const double kappas[] = { 1.0, 1e5, 1e10, 1e15 };
    int grids[9][2], ngrids = tila_test_grids(grids, 8);
    if (tila_comm_size() > 1) grids[ngrids][0] = grids[ngrids][1] = 0, ngrids++;
    int square = (ngrids - (tila_comm_size() > 1)) / 2;
    for (int g = 0; g < ngrids; g++)
        run_one(o, 300, 40, 40, 1e5, 0, grids[g]);
    /* Every shape and condition with the panels' solves by TRSM (CPUs' default) and by
     * R's inverse (GPUs' default; tests/core/test_zcholqr_col.c proves which solves take
     * it). */
    const char *saved = getenv("TILA_CHOLQR_SOLVE");
    char *keep = saved ? strdup(saved) : NULL;
    for (int v = 0; v < 2; v++) {
        tila_test_setenv("TILA_CHOLQR_SOLVE", v ? "inv" : "trsm");
        solve = v ? " inv" : "";
        for (int s = 0; s < 4; s++)
            for (int c = 0; c < 5; c++) {
                if (shapes[s][0] < shapes[s][1] && c > 0) continue;
                run_one(o, shapes[s][0], shapes[s][1], shapes[s][2], c < 4 ? kappas[c] : 1e3,
                        c == 4, grids[square]);
            }
    }
    solve = "";
    tila_test_setenv("TILA_CHOLQR_SOLVE", keep);
    free(keep);
}
