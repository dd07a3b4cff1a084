/**
 * @file test_zgels.c
 * @brief Tiled least squares (geqrf + unmqr + trsm): normal equations and residual.
 * @precisions normal z -> c d s
 *
 * What it proves: for tall (flat and binary trees, the PANEL scheme), square and n < nb
 * problems (or the sizes given with m >= n, see main.c) with several right-hand sides (and
 * none), edge tiles and every P x Q grid of the world,
 * X = tila_zgels(A, B) satisfies the normal equations, the defining property of a
 * least-squares solution of full-rank A:
 *   ||A^H (B - A X)||_F / ((||A||_F ||B - A X||_F + ||A||_F^2 ||X||_F) m eps) < tol
 * (the rounding error of forming the residual is of order eps ||A|| (||B|| + ||A|| ||X||),
 * hence the scale), and B's rows n .. m - 1 on exit carry the residual's norm column by
 * column: | ||B(n:m, j)||_2 - ||b_j - A x_j||_2 | / ((||A||_F ||X||_F + ||B||_F) m eps) < tol.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>

#include "tests_z.h"

static int max1(int x) { return x > 1 ? x : 1; }

static void run_one(const tila_test_opts_t *o, int m, int n, int nrhs, int nb, int ib,
                    tila_qr_tree_t tree, const int grid[2])
{
    char prec = tila_test_prec_letter(TILA_COMPLEX64);
    tila_dist_t dist = { .p = grid[0], .q = grid[1] };
    tila_desc_t *A, *B, *T;
    tila_test_desc_create(&A, TILA_COMPLEX64, m, n, nb, nb, &dist);
    /* Right-hand sides in one tile column where they outnumber nb: C tiles wider than A's,
     * which the update kernels' scratch must hold. */
    tila_test_desc_create(&B, TILA_COMPLEX64, m, nrhs, nb, nrhs > nb ? nrhs : nb, &dist);
    tila_zplrnt(A, o->seed);
    tila_zplrnt(B, o->seed + 3);
    tila_complex64_t *a = tila_test_zgather(A), *b0 = tila_test_zgather(B);
    tila_desc_create_qr_t(&T, A, tila_test_qr_ib(A, ib), tree);
    int rc = tila_zgels(A, T, B);
    tila_complex64_t *x = tila_test_zgather(B);

    double err_ne = 0, err_res = 0;
    if (tila_comm_rank() == 0 && m > 0 && nrhs > 0) {
        tila_complex64_t one = 1, mone = -1, zero = 0;
        /* r = B0 - A X, then A^H r. */
        tila_complex64_t *r = malloc(sizeof *r * (size_t)m * nrhs);
        tila_complex64_t *g = calloc((size_t)max1(n) * nrhs, sizeof *g);
        for (size_t i = 0; i < (size_t)m * nrhs; i++)
            r[i] = b0[i];
        if (n > 0) {
            cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, nrhs, n, CBLAS_SADDR(mone), a,
                        m, x, m, CBLAS_SADDR(one), r, m);
            cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, n, nrhs, m, CBLAS_SADDR(one),
                        a, m, r, m, CBLAS_SADDR(zero), g, n);
        }
        double na = tila_test_zfro(m, n, a, m), nx = tila_test_zfro(n, nrhs, x, m);
        double nr = tila_test_zfro(m, nrhs, r, m);
        double nb0 = tila_test_zfro(m, nrhs, b0, m);
        double scale = (na * nr + na * na * nx) * m * DBL_EPSILON;
        err_ne = tila_test_zfro(n, nrhs, g, max1(n)) / (scale > 0 ? scale : 1);
        for (int j = 0; j < nrhs; j++) {
            double tail = tila_test_zfro(m - n, 1, x + (size_t)j * m + n, m);
            double res = tila_test_zfro(m, 1, r + (size_t)j * m, m);
            double e = fabs(tail - res) / ((na * nx + nb0) * m * DBL_EPSILON);
            err_res = e > err_res ? e : err_res;
        }
        free(r);
        free(g);
    }
    const char *tn = tila_test_qr_tree_name(T);
    tila_test_check(rc == 0 && err_ne < o->tol && err_res<o->tol, "gels", prec, err_ne> err_res
                        ? err_ne
                        : err_res,
                    "m=%d n=%d nrhs=%d nb=%d ib=%d tree=%s grid=%dx%d rc=%d", m, n, nrhs, nb, ib,
                    tn, grid[0], grid[1], rc);
    free(a);
    free(b0);
    free(x);
    tila_desc_destroy(&T);
    tila_desc_destroy(&A);
    tila_desc_destroy(&B);
}

void tila_test_zgels(const tila_test_opts_t *o)
{
    /* m, n, nrhs, nb, ib, tree, grids: the first three (both trees, the PANEL scheme) on
     * every grid (1), the others on the squarest one (0). */
    static const int cases[][7] = {
        { 37, 20, 5, 8, 3, TILA_QR_TREE_FLAT, 1 },  { 160, 10, 3, 4, 3, TILA_QR_TREE_BINARY, 1 },
        { 37, 20, 5, 8, 3, TILA_QR_TREE_PANEL, 1 }, { 45, 45, 2, 16, 5, TILA_QR_TREE_AUTO, 0 },
        { 5, 3, 2, 16, 4, TILA_QR_TREE_AUTO, 0 },   { 30, 10, 0, 8, 3, TILA_QR_TREE_AUTO, 0 },
        { 12, 0, 3, 4, 2, TILA_QR_TREE_AUTO, 0 },   { 40, 12, 37, 4, 3, TILA_QR_TREE_FLAT, 1 },
        { 40, 12, 37, 4, 3, TILA_QR_TREE_BINARY, 0 }, { 40, 12, 37, 4, 3, TILA_QR_TREE_PANEL, 0 },
    };
    tila_test_seen_t seen = { 0 };
    int grids[8][2], ngrids = tila_test_grids(grids, 8);
    int square = ngrids / 2; /* the squarest: P and Q > 1 from 4 ranks on */
    char prec = tila_test_prec_letter(TILA_COMPLEX64);
    for (int g = 0; g < ngrids; g++)
        for (int c = 0; c < (int)(sizeof cases / sizeof cases[0]); c++) {
            if (!cases[c][6] && g != square) continue;
            tila_test_sizes_t z;
            for (tila_test_sizes(&z, 4,
                                 (const tila_test_list_t *[]){ &o->m, &o->n, &o->nb, &o->ib },
                                 (int[]){ cases[c][0], cases[c][1], cases[c][3], cases[c][4] });
                 tila_test_sizes_next(&z);) {
                int m = z.v[0], n = z.v[1], nb = z.v[2], ib = z.v[3];
                int nrhs = cases[c][2], tree = cases[c][5];
                /* Least squares needs m >= n; see geqrf's test for ib. */
                int skip = m < n || (o->ib.n && ib > nb);
                ib = skip || ib < nb ? ib : nb;
                if (!tila_test_once(&seen, 7, (int[]){ g, m, n, nrhs, nb, ib, tree })) continue;
                if (skip)
                    tila_test_report("SKIP", "gels", prec, 0,
                                     "m=%d n=%d nrhs=%d nb=%d ib=%d grid=%dx%d: %s", m, n, nrhs, nb,
                                     ib, grids[g][0], grids[g][1], m < n ? "m < n" : "ib > nb");
                else
                    run_one(o, m, n, nrhs, nb, ib, (tila_qr_tree_t)tree, grids[g]);
            }
        }
    tila_test_seen_free(&seen);
}
