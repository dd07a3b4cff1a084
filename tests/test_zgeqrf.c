/**
 * @file test_zgeqrf.c
 * @brief Tiled QR: geqrf, the thin Q of ungqr, and unmqr against that Q.
 * @precisions normal z -> c d s
 *
 * What it proves: for square, tall-skinny (m = 16 n), wide and degenerate (0, n < nb)
 * matrices with partial edge tiles, inner blocks ib that do not divide nb (or the sizes
 * given, see main.c), both reduction trees, the PANEL scheme, every P x Q grid of the
 * world and, on several ranks, a user mapping (panels meet the ranks in no cyclic order):
 *  - A = Q R: ||A - Q R||_F / (m ||A||_F eps) < tol, with Q the thin m x min(m, n) Q that
 *    tila_zungqr forms and R the upper trapezoid tila_zgeqrf leaves in A;
 *  - Q has orthonormal columns: ||I - Q^H Q||_F / (m eps) < tol.
 *    Together they prove the factorization (a backward-stable QR satisfies both with a
 *    modest constant; a wrong reflector, T factor or tree step breaks one of them);
 *  - tila_zunmqr applies the same Q: Q [X; 0] = Q_thin X and [X 0] Q^H = X Q_thin^H
 *    (entire results), the first min(m, n) rows of Q^H C are Q_thin^H C and the first
 *    columns of C Q are C Q_thin, each within ||C||_F m eps tol.  On square matrices these
 *    compare the entire products;
 *  - PANEL scheme: tila_zlarft rebuilds T from A's reflectors and the taus on T's diagonals
 *    (LAPACK's representation): the upper triangles agree within ||T||_F k eps tol.
 * Bad arguments return -i (checked once per precision).
 * The sweep (issue 58): tall, wide and square matrices whose rows are no multiple of the
 * tile, every scheme (flat, binary, PANEL, auto) and tile sizes given (7), at the order,
 * chosen as the drop-in layers choose them (192 to 384: past these matrices) and far past
 * the matrix (40000: the PANEL scheme's scratch and T were once sized by it, 12.8 GB that
 * StarPU waited for without end); every call returns and geqrf's residual and Q's
 * orthogonality pass, on the squarest grid.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests_z.h"

static int max1(int x) { return x > 1 ? x : 1; }

tila_complex64_t *tila_test_zgather(tila_desc_t *A)
{
    int m = tila_desc_m(A), n = tila_desc_n(A);
    tila_complex64_t *a = calloc((size_t)max1(m) * max1(n), sizeof *a);
    tila_desc_gather(A, 0, a, max1(m));
    return a;
}

void tila_test_zqr_errors(int m, int n, int k, const tila_complex64_t *a0,
                          tila_complex64_t *r, const tila_complex64_t *q, double scale,
                          double *err_qr, double *err_orth)
{
    *err_qr = *err_orth = 0;
    if (m == 0 || n == 0) return;
    tila_complex64_t one = 1, zero = 0;
    for (int j = 0; j < n; j++) /* R: the upper trapezoid of the first k rows */
        for (int i = j + 1; i < k; i++)
            r[(size_t)j * m + i] = 0;
    tila_complex64_t *qr = malloc(sizeof *qr * (size_t)m * n);
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, CBLAS_SADDR(one), q, m, r, m,
                CBLAS_SADDR(zero), qr, m);
    *err_qr = tila_test_diff_fro(TILA_COMPLEX64, m, n, qr, m, a0, m) / (scale * DBL_EPSILON);
    tila_complex64_t *w = calloc((size_t)k * k, sizeof *w);
    for (int i = 0; i < k; i++)
        w[(size_t)i * k + i] = 1;
    cblas_zherk(CblasColMajor, CblasUpper, CblasConjTrans, k, m, -1.0, q, m, 1.0, w, k);
    *err_orth = LAPACKE_zlanhe(LAPACK_COL_MAJOR, 'F', 'U', k, w, k) / (scale * DBL_EPSILON);
    free(qr);
    free(w);
}

double tila_test_zfro(int m, int n, const tila_complex64_t *a, int lda)
{
    return m > 0 && n > 0 ? LAPACKE_zlange(LAPACK_COL_MAJOR, 'F', m, n, a, lda) : 0;
}

static tila_desc_t *random_desc(int m, int n, int nb, const tila_dist_t *dist,
                                unsigned long long seed)
{
    tila_desc_t *A;
    tila_test_desc_create(&A, TILA_COMPLEX64, m, n, nb, nb, dist);
    tila_zplrnt(A, seed);
    return A;
}

/*
 * One unmqr case: C0 random with, for Q (left) and Q^H (right), zeros where it meets Q's
 * columns beyond k; returns the scaled error of the block of the result the thin Q
 * determines.
 */
static double check_unmqr(const tila_test_opts_t *o, tila_side_t side, tila_trans_t trans,
                          tila_desc_t *A, int nb, tila_desc_t *T, const tila_complex64_t *q, int nc,
                          const tila_dist_t *dist, int *rc)
{
    int m = tila_desc_m(A), k = m < tila_desc_n(A) ? m : tila_desc_n(A);
    int left = side == TILA_LEFT, cm = left ? m : nc, cn = left ? nc : m, ldc = max1(cm);
    tila_desc_t *C = random_desc(cm, cn, nb, dist, o->seed + 7);
    tila_complex64_t *c0 = tila_test_zgather(C);
    int zero_tail = (left && trans == TILA_NOTRANS) || (!left && trans != TILA_NOTRANS);
    if (tila_comm_rank() == 0 && zero_tail)
        for (int j = 0; j < cn; j++)
            for (int i = 0; i < cm; i++)
                if ((left ? i : j) >= k) c0[(size_t)j * ldc + i] = 0;
    tila_desc_scatter(C, 0, c0, ldc);
    *rc = tila_zunmqr(side, trans, A, T, C);
    tila_complex64_t *c = tila_test_zgather(C);
    double err = 0;
    if (tila_comm_rank() == 0 && cm > 0 && cn > 0) {
        tila_complex64_t one = 1, zero = 0;
        tila_complex64_t *e = calloc((size_t)ldc * cn, sizeof *e);
        /* Expected block: left N: Q_t C0(0:k,:) (m x nc); left C: Q_t^H C0 (k x nc);
         * right C: C0(:,0:k) Q_t^H (nc x m); right N: C0 Q_t (nc x k). */
        int em = cm, en = cn;
        if (left && trans == TILA_NOTRANS)
            cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, nc, k, CBLAS_SADDR(one), q,
                        max1(m), c0, ldc, CBLAS_SADDR(zero), e, ldc);
        else if (left) {
            em = k;
            cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, k, nc, m, CBLAS_SADDR(one), q,
                        max1(m), c0, ldc, CBLAS_SADDR(zero), e, ldc);
        }
        else if (trans != TILA_NOTRANS)
            cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, nc, m, k, CBLAS_SADDR(one), c0,
                        ldc, q, max1(m), CBLAS_SADDR(zero), e, ldc);
        else {
            en = k;
            cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, nc, k, m, CBLAS_SADDR(one), c0,
                        ldc, q, max1(m), CBLAS_SADDR(zero), e, ldc);
        }
        double nc0 = tila_test_zfro(cm, cn, c0, ldc);
        for (int j = 0; j < en; j++)
            for (int i = 0; i < em; i++)
                e[(size_t)j * ldc + i] -= c[(size_t)j * ldc + i];
        err = tila_test_zfro(em, en, e, ldc) / ((nc0 > 0 ? nc0 : 1) * m * DBL_EPSILON);
        free(e);
    }
    free(c0);
    free(c);
    tila_desc_destroy(&C);
    return err;
}

/*
 * PANEL scheme: T rebuilt by tila_zlarft from A's reflectors and the taus on T's diagonals
 * (broadcast from rank 0) is T: the scaled difference of each tile's k x k upper triangle
 * (T's tile n: A's tile column n, reflector j its (j - j0)-th, j0 the tile's first).
 */
static double check_larft(tila_desc_t *A, tila_desc_t *T, int *rc)
{
    int m = tila_desc_m(A), n = tila_desc_n(A), ldt = tila_desc_m(T), k = m < n ? m : n;
    int *j0 = malloc(sizeof(int) * (size_t)max1(k));
    for (int t = 0, j = 0; j < k; t++)
        for (; j < k && j < tila_desc_tile_col0(T, t + 1); j++)
            j0[j] = tila_desc_tile_col0(T, t);
    tila_complex64_t *t = tila_test_zgather(T), *tau = calloc((size_t)max1(k), sizeof *tau);
    for (int j = 0; j < k; j++)
        tau[j] = t[(size_t)j * ldt + j - j0[j]];
    MPI_Bcast(tau, k, MPI_C_DOUBLE_COMPLEX, 0, MPI_COMM_WORLD);
    tila_desc_t *T2;
    tila_desc_create_qr_t(&T2, A, tila_desc_nb(A), TILA_QR_TREE_PANEL);
    *rc = tila_zlarft(A, tau, T2);
    tila_complex64_t *t2 = tila_test_zgather(T2);
    double diff = 0, norm = 0;
    for (int j = 0; j < k; j++)
        for (int i = j0[j]; i <= j; i++) {
            size_t at = (size_t)j * ldt + i - j0[j];
            diff += pow(cabs(t2[at] - t[at]), 2);
            norm += pow(cabs(t[at]), 2);
        }
    free(t);
    free(t2);
    free(tau);
    free(j0);
    tila_desc_destroy(&T2);
    return sqrt(diff) / ((norm > 0 ? sqrt(norm) : 1) * max1(k) * DBL_EPSILON);
}

static void run_one(const tila_test_opts_t *o, int m, int n, int nb, int ib, tila_qr_tree_t tree,
                    int with_unmqr, const int grid[2])
{
    char prec = tila_test_prec_letter(TILA_COMPLEX64), buf[32];
    int size = tila_comm_size();
    tila_dist_t dist = tila_test_dist(grid, &size);
    const char *on = tila_test_grid_name(grid, buf, sizeof buf);
    int k = m < n ? m : n;
    tila_desc_t *A = random_desc(m, n, nb, &dist, o->seed), *T, *Q;
    tila_complex64_t *a0 = tila_test_zgather(A);
    tila_desc_create_qr_t(&T, A, tila_test_qr_ib(A, ib), tree);
    int rc = tila_zgeqrf(A, T);
    tila_test_desc_create(&Q, TILA_COMPLEX64, m, k, nb, nb, &dist);
    int rcq = tila_zungqr(A, T, Q);
    tila_complex64_t *r = tila_test_zgather(A), *q = tila_test_zgather(Q);
    double err_qr = 0, err_orth = 0;
    if (tila_comm_rank() == 0) tila_test_zqr_errors(m, n, k, a0, r, q, m, &err_qr, &err_orth);
    const char *tn = tila_test_qr_tree_name(T);
    tila_test_check(rc == 0 && rcq == 0 && err_qr < o->tol, "geqrf", prec, err_qr,
                    "m=%d n=%d nb=%d ib=%d tree=%s grid=%s rc=%d", m, n, nb, ib, tn, on, rc);
    tila_test_check(rcq == 0 && err_orth < o->tol, "ungqr", prec, err_orth,
                    "m=%d n=%d nb=%d ib=%d tree=%s grid=%s rc=%d", m, n, nb, ib, tn, on, rcq);
    if (tree == TILA_QR_TREE_PANEL) {
        int rcl;
        double err = check_larft(A, T, &rcl);
        tila_test_check(rcl == 0 && err < o->tol, "larft", prec, err,
                        "m=%d n=%d nb=%d grid=%s rc=%d", m, n, nb, on, rcl);
    }
    static const tila_side_t sides[] = { TILA_LEFT, TILA_RIGHT };
    static const tila_trans_t transs[] = { TILA_NOTRANS, TILA_CONJTRANS };
    for (int s = 0; s < 2 * with_unmqr; s++)
        for (int t = 0; t < 2; t++) {
            int rcu;
            double err = check_unmqr(o, sides[s], transs[t], A, nb, T, q, 5, &dist, &rcu);
            tila_test_check(rcu == 0 && err < o->tol, "unmqr", prec, err,
                            "side=%s trans=%s m=%d n=%d nb=%d ib=%d tree=%s grid=%s rc=%d",
                            s ? "R" : "L", t ? "C" : "N", m, n, nb, ib, tn, on, rcu);
        }
    free(a0);
    free(r);
    free(q);
    tila_desc_destroy(&Q);
    tila_desc_destroy(&T);
    tila_desc_destroy(&A);
}

/* The layers' tile size for a QR of m x n (dropin/common.c, tila_layer_tile): about an
 * eighth of min(m, n) in 64s, 192 to 384. */
static int layer_tile(int m, int n)
{
    int k = m < n ? m : n, t = (k / 8 + 32) / 64 * 64;
    return t < 192 ? 192 : t > 384 ? 384 : t;
}

/* Shapes x schemes x tile sizes (see the file's header). */
static void sweep(const tila_test_opts_t *o, const int grid[2])
{
    static const int shapes[][2] = { { 53, 12 }, { 12, 41 }, { 37, 37 } };
    static const tila_qr_tree_t trees[] = { TILA_QR_TREE_FLAT, TILA_QR_TREE_BINARY,
                                            TILA_QR_TREE_PANEL, TILA_QR_TREE_AUTO };
    for (int s = 0; s < 3; s++) {
        int m = shapes[s][0], n = shapes[s][1], k = m < n ? m : n;
        const int nbs[] = { 7, k, layer_tile(m, n), 40000 };
        for (int t = 0; t < 4; t++)
            for (int b = 0; b < 4; b++)
                run_one(o, m, n, nbs[b], 5, trees[t], 0, grid);
    }
}

/* Bad arguments: each returns its -i. */
static void check_args(void)
{
    char prec = tila_test_prec_letter(TILA_COMPLEX64);
    tila_prec_t other = prec == 's' ? TILA_REAL64 : TILA_REAL32;
    tila_desc_t *A, *R, *T, *T2, *C, *Qw, *S, *bad;
    tila_test_desc_create(&A, TILA_COMPLEX64, 20, 10, 4, 4, NULL);
    tila_test_desc_create(&R, TILA_COMPLEX64, 20, 10, 4, 2, NULL);  /* tiles not square */
    tila_test_desc_create(&C, TILA_COMPLEX64, 12, 10, 4, 4, NULL);  /* rows not A's */
    tila_test_desc_create(&Qw, TILA_COMPLEX64, 20, 21, 4, 4, NULL); /* more columns than rows */
    tila_test_desc_create(&S, other, 20, 10, 4, 4, NULL);           /* another precision */
    tila_desc_create_qr_t(&T, A, 2, TILA_QR_TREE_FLAT);
    tila_desc_create_qr_t(&T2, C, 2, TILA_QR_TREE_FLAT); /* T of another matrix */
    int ok = tila_desc_create_qr_t(&bad, R, 2, TILA_QR_TREE_FLAT) == -2 &&
             tila_desc_create_qr_t(&bad, A, tila_desc_nb(A) + 1, TILA_QR_TREE_FLAT) == -3 &&
             tila_desc_create_qr_t(&bad, A, 2, (tila_qr_tree_t)9) == -4 &&
             tila_zgeqrf(A, NULL) == -2 && tila_zgeqrf(A, T2) == -2 && tila_zgeqrf(S, T) == -1 &&
             tila_zunmqr((tila_side_t)0, TILA_NOTRANS, A, T, A) == -1 &&
             tila_zunmqr(TILA_LEFT, (tila_trans_t)0, A, T, A) == -2 &&
             tila_zunmqr(TILA_LEFT, TILA_NOTRANS, A, T, C) == -5 && tila_zungqr(A, T, Qw) == -3 &&
             tila_zgels(C, T2, A) == -3;
    tila_test_check(ok, "qr-args", prec, 0, "bad arguments return -i");
    /* AUTO's scheme with every tile column on one rank: CHOLQR for a tall matrix where the
     * ranks have GPUs (the suite's ranks are alike), the binary tree without; PANEL for a
     * square one. */
    tila_dist_t row = { .p = 1, .q = tila_comm_size() };
    tila_desc_t *tall, *square, *Tt, *Ts;
    tila_test_desc_create(&tall, TILA_COMPLEX64, 64, 4, 4, 4, &row);
    tila_test_desc_create(&square, TILA_COMPLEX64, 16, 16, 4, 4, &row);
    int rct = tila_desc_create_qr_t(&Tt, tall, 2, TILA_QR_TREE_AUTO);
    int rcs = tila_desc_create_qr_t(&Ts, square, 2, TILA_QR_TREE_AUTO);
    tila_qr_tree_t want = tila_cuda_ndevices() > 0 ? TILA_QR_TREE_CHOLQR : TILA_QR_TREE_BINARY;
    tila_test_check(rct == 0 && rcs == 0 && tila_desc_qr_tree(Tt) == want &&
                        tila_desc_qr_tree(Ts) == TILA_QR_TREE_PANEL,
                    "qr-auto", prec, 0, "64 x 4: %s (want %s), 16 x 16: %s, GPUs %d",
                    rct ? "-" : tila_test_qr_tree_name(Tt),
                    want == TILA_QR_TREE_CHOLQR ? "cholqr" : "tree",
                    rcs ? "-" : tila_test_qr_tree_name(Ts), tila_cuda_ndevices());
    if (!rct) tila_desc_destroy(&Tt);
    if (!rcs) tila_desc_destroy(&Ts);
    tila_desc_destroy(&tall);
    tila_desc_destroy(&square);
    tila_desc_destroy(&T);
    tila_desc_destroy(&T2);
    tila_desc_destroy(&A);
    tila_desc_destroy(&R);
    tila_desc_destroy(&C);
    tila_desc_destroy(&Qw);
    tila_desc_destroy(&S);
}

void tila_test_zgeqrf(const tila_test_opts_t *o)
{
    /* m, n, nb, ib, tree, unmqr: square with edge tiles; tall-skinny (m = 16 n) flat,
     * binary, pure binary (one tile column) and a last tile row shorter than the panel;
     * wide; n < nb; empty; tiles and ib large enough for the recursive TS and TT kernels
     * (two levels, ib not dividing nb, edge tiles; a 10-row last tile under a 40-column
     * TT, whose blocks are trapezoids); the PANEL scheme square, wide, tall and with
     * 40-wide tiles (panels across ranks on grids with P > 1); the binary tree square and
     * tall with a short last tile row, which its domains of one rank's tiles must never
     * make a domain's head (fewer rows than a triangle).  The cases marked 1, which cover
     * every scheme, square, tall and wide, run unmqr's four variants and on every grid;
     * the others on the squarest grid only (the suite stays near a minute at 4 ranks on 2
     * cores). */
    static const int cases[][6] = {
        { 37, 37, 8, 3, TILA_QR_TREE_FLAT, 1 },     { 40, 40, 8, 8, TILA_QR_TREE_AUTO, 0 },
        { 96, 6, 4, 3, TILA_QR_TREE_FLAT, 0 },      { 96, 6, 4, 3, TILA_QR_TREE_BINARY, 1 },
        { 64, 4, 4, 3, TILA_QR_TREE_AUTO, 0 },      { 21, 16, 8, 3, TILA_QR_TREE_BINARY, 0 },
        { 20, 45, 8, 3, TILA_QR_TREE_AUTO, 1 },     { 5, 3, 16, 4, TILA_QR_TREE_AUTO, 0 },
        { 0, 5, 4, 2, TILA_QR_TREE_AUTO, 1 },       { 6, 0, 4, 2, TILA_QR_TREE_AUTO, 0 },
        { 130, 100, 40, 24, TILA_QR_TREE_FLAT, 0 }, { 170, 40, 40, 24, TILA_QR_TREE_BINARY, 1 },
        { 37, 37, 8, 3, TILA_QR_TREE_PANEL, 1 },    { 20, 45, 8, 3, TILA_QR_TREE_PANEL, 1 },
        { 96, 6, 4, 3, TILA_QR_TREE_PANEL, 0 },     { 130, 100, 40, 24, TILA_QR_TREE_PANEL, 0 },
        { 37, 37, 8, 3, TILA_QR_TREE_BINARY, 1 },   { 150, 12, 8, 3, TILA_QR_TREE_BINARY, 1 },
    };
    tila_test_seen_t seen = { 0 };
    int grids[9][2], ngrids = tila_test_grids(grids, 8);
    int square = ngrids / 2; /* the squarest: P and Q > 1 from 4 ranks on */
    char prec = tila_test_prec_letter(TILA_COMPLEX64), buf[32];
    check_args();
    /* Sizes given replace the suite's own: the sweep is its own sizes. */
    if (!o->m.n && !o->n.n && !o->nb.n && !o->ib.n) sweep(o, grids[square]);
    if (tila_comm_size() > 1) { /* and the user mapping */
        grids[ngrids][0] = grids[ngrids][1] = 0;
        ngrids++;
    }
    tila_test_sizes_t z;
    for (int g = 0; g < ngrids; g++)
        for (int c = 0; c < (int)(sizeof cases / sizeof cases[0]); c++) {
            if (!cases[c][5] && g != square) continue;
            tila_qr_tree_t tree = (tila_qr_tree_t)cases[c][4];
            for (tila_test_sizes(
                     &z, 4, (const tila_test_list_t *[]){ &o->m, &o->n, &o->nb, &o->ib }, cases[c]);
                 tila_test_sizes_next(&z);) {
                int m = z.v[0], n = z.v[1], nb = z.v[2], ib = z.v[3];
                /* The case's own ib shrinks to a smaller nb given; an ib given larger than
                 * nb is not a QR of inner block ib. */
                int skip = o->ib.n && ib > nb;
                ib = skip || ib < nb ? ib : nb;
                if (!tila_test_once(&seen, 7, (int[]){ g, m, n, nb, ib, tree, cases[c][5] }))
                    continue;
                if (skip)
                    tila_test_report("SKIP", "geqrf", prec, 0,
                                     "m=%d n=%d nb=%d ib=%d grid=%s: ib > nb", m, n, nb, ib,
                                     tila_test_grid_name(grids[g], buf, sizeof buf));
                else
                    run_one(o, m, n, nb, ib, tree, cases[c][5], grids[g]);
            }
        }
    tila_test_seen_free(&seen);
}
