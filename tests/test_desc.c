/**
 * @file test_desc.c
 * @brief Descriptors and distributions: owners, user mappings, wrapping, scatter/gather.
 *
 * What it proves: every tile is owned by the rank the 2D block-cyclic formula (or the
 * user's mapping) gives, tile counts and edge tiles are right, tiles of any sizes
 * (tila_desc_create_tiled) have the sizes and first rows and columns given, wrapped LAPACK
 * (uniform or tiles of any sizes) and ScaLAPACK arrays are used in place (StarPU's pointer of each owned tile is the
 * address in the caller's array) and read/written correctly, and scatter followed by
 * gather returns the exact matrix in all four precisions on every grid.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <complex.h>
#include <stdlib.h>
#include <string.h>

#include "tila_test.h"

/* A value that tells (i, j) apart in every precision, exactly representable. */
static double entry(int i, int j) { return (double)(i * 1000 + j) / 4.0; }

static void fill(tila_prec_t prec, void *a, int lda, int m, int n)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            size_t k = (size_t)j * lda + i;
            double v = entry(i, j);
            switch (prec) {
            case TILA_REAL32: ((float *)a)[k] = (float)v; break;
            case TILA_REAL64: ((double *)a)[k] = v; break;
            case TILA_COMPLEX32: ((float _Complex *)a)[k] = (float)v - (float)v * 1.0if; break;
            default: ((double _Complex *)a)[k] = v + 2 * v * 1.0i; break;
            }
        }
}

static int mapping_diag(int m, int n, void *arg) { return (m + 2 * n) % *(int *)arg; }

/* A mapping that differs by rank: rank 0 cycles the tiles the other way. */
static int mapping_own(int m, int n, void *arg)
{
    int size = *(int *)arg;
    return (tila_comm_rank() == 0 ? m + n : size - 1 - (m + n) % size) % size;
}

/* Every rank's verdict, and'ed. */
static int all_ranks(int ok)
{
    int all = ok;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return all;
}

/*
 * Ranks that compute different tilings (the hybrid balance is rank-local): a hybrid tiling
 * with another b on rank 0, columns or a uniform tile size that differ on the last rank, a
 * mapping of rank 0's own.  Each creation fails on every rank with the -i of the argument
 * that differs and A NULL; the ranks took different numbers of tags on the way, and a
 * matrix made after them still moves between ranks (scatter, gather): the tags agree again.
 */
static void tilings_agree(void)
{
    int size = tila_comm_size(), rank = tila_comm_rank(), last = rank == size - 1;
    if (size < 2) {
        tila_test_report("SKIP", "desc", '-', 0, "ranks' tilings differ: needs 2 ranks");
        return;
    }
    if (rank == 0) fprintf(stderr, "tila-tests desc: the mismatch messages below are expected\n");
    tila_hybrid_t h = { .p = 1, .q = size, .B = 24, .s = 3, .b = rank == 0 ? 4 : 6 };
    int sz[64], cnt = tila_hybrid_tiling(&h, 100, sz), other[3] = { 30, 30, last ? 41 : 40 };
    tila_dist_t hd = tila_hybrid_dist(&h), own = { .rank_of = mapping_own, .rank_arg = &size };
    static const char *const what[] = { "hybrid rows (b 4 on rank 0, 6 elsewhere)",
                                        "columns (the last rank's last tile wider)",
                                        "uniform nb (the last rank's 9, else 8)",
                                        "mapping (rank 0's own)" };
    for (int c = 0; c < 4; c++) {
        tila_desc_t *A = (tila_desc_t *)(void *)&h; /* not NULL: a failure must clear it */
        int rc, want;
        if (c == 0) {
            rc = tila_desc_create_tiled(&A, TILA_REAL64, cnt, sz, cnt, sz, &hd);
            want = -4;
        }
        else if (c == 1) {
            rc = tila_desc_create_tiled(&A, TILA_REAL64, 3, (int[]){ 30, 30, 40 }, 3, other, NULL);
            want = -6;
        }
        else if (c == 2) {
            rc = tila_desc_create(&A, TILA_REAL64, 50, 50, 8, last ? 9 : 8, NULL);
            want = -6;
        }
        else {
            rc = tila_desc_create(&A, TILA_REAL64, 50, 50, 8, 8, &own);
            want = -7;
        }
        tila_test_check(all_ranks(rc == want && A == NULL), "desc", '-', 0,
                        "ranks' tilings differ: %s: rc=%d want %d on every rank", what[c], rc,
                        want);
        if (rc == 0) tila_desc_destroy(&A);
    }
    tila_desc_t *A;
    double *a = malloc(sizeof(double) * 37 * 29), *b = calloc(37 * 29, sizeof(double));
    fill(TILA_REAL64, a, 37, 37, 29);
    int ok = tila_desc_create(&A, TILA_REAL64, 37, 29, 5, 5, NULL) == 0 &&
             tila_desc_scatter(A, 0, a, 37) == 0 && tila_desc_gather(A, 0, b, 37) == 0;
    if (rank == 0) ok &= !memcmp(a, b, sizeof(double) * 37 * 29);
    tila_desc_destroy(&A);
    free(a);
    free(b);
    tila_test_check(ok, "desc", '-', 0, "scatter/gather after the mismatched creations");
}

/*
 * Tile sizes asked past the matrix are clamped to it: tila_desc_mb / nb (what workspaces
 * are sized by) are at most m and n, and the PANEL scheme's T is no taller than A (its
 * tiles' rows: nb, at most m).  A size far past the matrix once sized the PANEL scratch by
 * it (nb = 40000: 12.8 GB of doubles, which StarPU waited for without end).
 */
static void clamped(void)
{
    tila_desc_t *A = NULL, *W = NULL, *T = NULL, *TW = NULL;
    int rc = tila_desc_create(&A, TILA_REAL64, 37, 37, 40000, 40000, NULL);
    rc = rc ? rc : tila_desc_create(&W, TILA_REAL64, 9, 60, 100, 100, NULL);
    rc = rc ? rc : tila_desc_create_qr_t(&T, A, 37, TILA_QR_TREE_PANEL);
    rc = rc ? rc : tila_desc_create_qr_t(&TW, W, 9, TILA_QR_TREE_PANEL);
    int ok = rc == 0 && tila_desc_mb(A) == 37 && tila_desc_nb(A) == 37 && tila_desc_mt(A) == 1 &&
             tila_desc_mb(W) == 9 && tila_desc_nb(W) == 60 && tila_desc_m(T) == 37 &&
             tila_desc_m(TW) == 9;
    tila_test_check(ok, "desc", '-', 0,
                    "tile sizes past the matrix: 37 x 37 in 40000 -> %d x %d, 9 x 60 in 100 -> "
                    "%d x %d; PANEL T %d and %d rows (rc %d)",
                    A ? tila_desc_mb(A) : -1, A ? tila_desc_nb(A) : -1, W ? tila_desc_mb(W) : -1,
                    W ? tila_desc_nb(W) : -1, T ? tila_desc_m(T) : -1, TW ? tila_desc_m(TW) : -1,
                    rc);
    tila_desc_destroy(&TW);
    tila_desc_destroy(&T);
    tila_desc_destroy(&W);
    tila_desc_destroy(&A);
    /* StarPU counts a tile's elements in 32 bits: a larger one is refused, not cut. */
    rc = tila_desc_create(&A, TILA_REAL32, 70000, 70000, 70000, 70000, NULL);
    tila_test_check(rc == -6 && A == NULL, "desc", '-', 0,
                    "a 70000 x 70000 tile (2^32 elements or more) is refused: rc=%d", rc);
    if (!rc) tila_desc_destroy(&A);
}

/*
 * A matrix without host storage (tila_desc_create_nohome): its owned tiles have no home
 * (StarPU allocates each where a task first writes it), and a generator, dpotrf and a
 * gather give the bits they give on Tila's own storage; its bad arguments get
 * tila_desc_create's codes.
 */
static void nohome(int p, int q)
{
    tila_dist_t dist = { .p = p, .q = q };
    tila_desc_t *A = NULL, *B = NULL;
    int rc = tila_desc_create_nohome(&A, TILA_REAL64, 39, 39, 5, 5, &dist), homeless = 1;
    int ok = rc == 0 && tila_desc_create(&B, TILA_REAL64, 39, 39, 5, 5, &dist) == 0;
    for (int n = 0; ok && n < tila_desc_nt(A); n++)
        for (int m = 0; m < tila_desc_mt(A); m++)
            if (tila_desc_tile_rank(A, m, n) == tila_comm_rank())
                homeless &= starpu_data_get_home_node(tila_desc_tile_handle(A, m, n)) == -1;
    ok &= homeless && tila_dplgsy(39, A, 11) == 0 && tila_dplgsy(39, B, 11) == 0 &&
          tila_dpotrf(TILA_LOWER, A) == 0 && tila_dpotrf(TILA_LOWER, B) == 0;
    double *x = calloc(39 * 39, sizeof *x), *y = calloc(39 * 39, sizeof *y);
    ok &= tila_desc_gather(A, 0, x, 39) == 0 && tila_desc_gather(B, 0, y, 39) == 0;
    if (tila_comm_rank() == 0) ok &= !memcmp(x, y, sizeof *x * 39 * 39);
    tila_desc_destroy(&A);
    tila_desc_destroy(&B);
    free(x);
    free(y);
    tila_desc_t *C = NULL;
    int bad = tila_desc_create_nohome(&C, TILA_REAL64, -1, 4, 4, 4, &dist);
    ok &= bad == tila_desc_create(&B, TILA_REAL64, -1, 4, 4, 4, &dist) && bad < 0 && C == NULL;
    tila_test_check(all_ranks(ok), "desc", '-', 0,
                    "nohome 39 x 39 in 5 x 5 grid=%dx%d: tiles without a home, dplgsy + dpotrf + "
                    "gather bits as on Tila's storage, m = -1 -> %d",
                    p, q, bad);
}

void tila_test_desc(const tila_test_opts_t *o)
{
    (void)o;
    int grids[8][2], ngrids = tila_test_grids(grids, 8), size = tila_comm_size();
    for (int g = 0; g < ngrids; g++) {
        int p = grids[g][0], q = grids[g][1], ok = 1;
        tila_dist_t dist = { .p = p, .q = q };
        tila_desc_t *A;
        int rc = tila_desc_create(&A, TILA_REAL64, 39, 27, 4, 5, &dist);
        ok = rc == 0 && tila_desc_mt(A) == 10 && tila_desc_nt(A) == 6;
        for (int n = 0; ok && n < 6; n++)
            for (int m = 0; m < 10; m++)
                ok &= tila_desc_tile_rank(A, m, n) == (m % p) * q + n % q;
        ok &= tila_desc_tile_rank(A, 10, 0) == -1 && tila_desc_tile_handle(A, 0, 6) == NULL;
        tila_desc_destroy(&A);
        tila_test_check(ok, "desc", '-', 0, "2d-block-cyclic owners m=39 n=27 mb=4 nb=5 grid=%dx%d",
                        p, q);
        nohome(p, q);
    }
    /* Tiles of any sizes: 13 = 3+1+7+2 rows, 8 = 5+2+1 columns. */
    static const int mbs[] = { 3, 1, 7, 2 }, nbs[] = { 5, 2, 1 }, row0[] = { 0, 3, 4, 11, 13 },
                     col0[] = { 0, 5, 7, 8 };
    for (int g = 0; g < ngrids; g++) {
        int p = grids[g][0], q = grids[g][1];
        tila_dist_t dist = { .p = p, .q = q };
        tila_desc_t *A;
        int rc = tila_desc_create_tiled(&A, TILA_COMPLEX64, 4, mbs, 3, nbs, &dist);
        int ok = rc == 0 && tila_desc_m(A) == 13 && tila_desc_n(A) == 8 && tila_desc_mt(A) == 4 &&
                 tila_desc_nt(A) == 3 && tila_desc_mb(A) == 7 && tila_desc_nb(A) == 5;
        for (int m = 0; ok && m <= 4; m++)
            ok &= tila_desc_tile_row0(A, m) == row0[m] &&
                  (m == 4 || (tila_desc_tile_rows(A, m) == mbs[m]));
        for (int n = 0; ok && n <= 3; n++)
            ok &= tila_desc_tile_col0(A, n) == col0[n] &&
                  (n == 3 || (tila_desc_tile_cols(A, n) == nbs[n]));
        for (int n = 0; ok && n < 3; n++)
            for (int m = 0; m < 4; m++) {
                ok &= tila_desc_tile_rank(A, m, n) == (m % p) * q + n % q;
                if (tila_desc_tile_rank(A, m, n) != tila_comm_rank()) continue;
                starpu_data_handle_t h = tila_desc_tile_handle(A, m, n);
                ok &= (int)starpu_matrix_get_nx(h) == mbs[m] &&
                      (int)starpu_matrix_get_ny(h) == nbs[n];
            }
        ok &= tila_desc_tile_rows(A, 4) == -1 && tila_desc_tile_cols(A, -1) == -1 &&
              tila_desc_tile_row0(A, 5) == -1 && tila_desc_tile_col0(A, 4) == -1;
        double complex *x = malloc(sizeof *x * 13 * 8), *y = calloc(13 * 8, sizeof *y);
        fill(TILA_COMPLEX64, x, 13, 13, 8);
        ok &= tila_desc_scatter(A, 0, x, 13) == 0 && tila_desc_gather(A, 0, y, 13) == 0;
        if (tila_comm_rank() == 0) ok &= !memcmp(x, y, sizeof *x * 13 * 8);
        tila_desc_destroy(&A);
        free(x);
        free(y);
        tila_test_check(ok, "desc", '-', 0,
                        "tiles 3,1,7,2 x 5,2,1 grid=%dx%d: sizes, first rows and columns, owners, "
                        "scatter/gather",
                        p, q);
    }
    /* A tiling that shrinks: 1000 in tiles of at most 256, a quarter of the rest, >= 64. */
    static const int shrink[] = { 250, 188, 141, 106, 79, 64, 64, 64, 44 };
    int got[16] = { 0 }, count = tila_tiling_shrink(1000, 256, 64, 4, got);
    int sok = count == 9 && tila_tiling_shrink(1000, 256, 64, 4, NULL) == 9 &&
             !memcmp(got, shrink, sizeof shrink) && tila_tiling_shrink(0, 8, 8, 1, NULL) == 0 &&
             tila_tiling_shrink(100, 8, 8, 1, got) == 13 && got[12] == 4 &&
             tila_tiling_shrink(-1, 8, 8, 1, NULL) == -1 && tila_tiling_shrink(8, 0, 1, 1, NULL) == -2 &&
             tila_tiling_shrink(8, 4, 5, 1, NULL) == -3 && tila_tiling_shrink(8, 4, 2, 0, NULL) == -4;
    tila_test_check(sok, "desc", '-', 0, "tila_tiling_shrink: sizes and -i");
    /* Song and Dongarra's distribution: B = 100, s = 3 (two CPU slices of 20, the GPU's 60). */
    for (int g = 0; g < ngrids; g++) {
        tila_hybrid_t h = { .p = grids[g][0], .q = grids[g][1], .B = 100, .s = 3, .b = 20 };
        static const int hyb[] = { 20, 20, 60, 20, 20, 60, 20, 20, 10 };
        int sz[16], cnt = tila_hybrid_tiling(&h, 250, sz);
        int hok = cnt == 9 && !memcmp(sz, hyb, sizeof hyb) && tila_hybrid_tiling(&h, 0, NULL) == 0;
        tila_dist_t dist = tila_hybrid_dist(&h);
        tila_desc_t *H = NULL, *U = NULL;
        hok &= tila_desc_create_tiled(&H, TILA_REAL64, cnt, sz, cnt, sz, &dist) == 0 &&
               tila_desc_create(&U, TILA_REAL64, 250, 250, 64, 64, NULL) == 0;
        for (int n = 0; hok && n < cnt; n++)
            for (int m = 0; m < cnt; m++)
                hok &= tila_desc_tile_rank(H, m, n) == (m / 3 % h.p) * h.q + n / 3 % h.q &&
                       (tila_cuda_ndevices() > 0 || tila_desc_tile_device(H, m, n) == -1);
        /* Cholesky on it gives what it gives on uniform tiles. */
        hok &= tila_dplgsy(250, H, 5) == 0 && tila_dplgsy(250, U, 5) == 0 &&
               tila_dpotrf(TILA_LOWER, H) == 0 && tila_dpotrf(TILA_LOWER, U) == 0;
        double *x = calloc(250 * 250, sizeof *x), *y = calloc(250 * 250, sizeof *y);
        hok &= tila_desc_gather(H, 0, x, 250) == 0 && tila_desc_gather(U, 0, y, 250) == 0;
        double e =
            tila_comm_rank() == 0 ? tila_test_diff_fro(TILA_REAL64, 250, 250, x, 250, y, 250) : 0;
        MPI_Bcast(&e, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        tila_desc_destroy(&H);
        tila_desc_destroy(&U);
        free(x);
        free(y);
        tila_test_check(
            hok && e < 1e-13, "desc", '-', e,
            "hybrid B=100 s=3 b=20 grid=%dx%d: tiling, owners, dpotrf as on uniform tiles", h.p,
            h.q);
    }
    tila_hybrid_t hb = { .p = 1, .q = 1, .B = 1000, .s = 5 };
    int bok = tila_hybrid_balance(&hb, 20, 4, 320, 1, 16) == 0 && hb.b == 48 &&
              tila_hybrid_balance(&hb, 20, 4, 20, 0, 16) == 0 && hb.b == 192 &&
              tila_hybrid_balance(&(tila_hybrid_t){ .B = 10, .s = 1 }, 1, 1, 1, 1, 1) == -1 &&
              tila_hybrid_balance(&(tila_hybrid_t){ .B = 3, .s = 5 }, 1, 1, 1, 1, 1) == -1 &&
              tila_hybrid_balance(&hb, 0, 4, 320, 1, 16) == -2 &&
              tila_hybrid_balance(&hb, 20, 0, 320, 1, 16) == -3 &&
              tila_hybrid_balance(&hb, 20, 4, -1, 1, 16) == -4 &&
              tila_hybrid_balance(&hb, 20, 4, 320, -1, 16) == -5 &&
              tila_hybrid_balance(&hb, 20, 4, 320, 1, 0) == -6 &&
              tila_hybrid_tiling(&(tila_hybrid_t){ .p = 1, .q = 1, .B = 10, .s = 3, .b = 5 }, 9,
                                 NULL) == -2;
    tila_test_check(bok, "desc", '-', 0, "tila_hybrid_balance: b from the rates, -i");
    /* From the models: bad arguments leave h alone; on CPU workers alone every column is
     * the CPUs' (b = B / s, in 16s) where a dgemm model times the tasks, else an error
     * naming the model (this machine's models depend on what ran before). */
    tila_hybrid_t hm = { .p = 1, .q = 1, .B = 1000, .s = 5, .b = 7 };
    int mrc = tila_hybrid_balance_models(&hm, TILA_REAL64, 16);
    int mok =
        tila_hybrid_balance_models(NULL, TILA_REAL64, 16) == -1 &&
        tila_hybrid_balance_models(&(tila_hybrid_t){ .B = 10, .s = 1 }, TILA_REAL64, 1) == -1 &&
        tila_hybrid_balance_models(&hm, (tila_prec_t)9, 16) == -2 &&
        tila_hybrid_balance_models(&hm, TILA_REAL64, 0) == -3 &&
        (tila_cuda_ndevices() > 0 || (mrc == 0 && hm.b == 192) ||
         (mrc == TILA_ERR_STARPU && hm.b == 7));
    tila_test_check(mok, "desc", '-', 0, "tila_hybrid_balance_models: -i, CPUs alone (rc %d b %d)",
                    mrc, hm.b);
    /* Default grid: most square P x Q of the world. */
    tila_desc_t *A;
    int rc = tila_desc_create(&A, TILA_REAL32, 16, 16, 4, 4, NULL), ok = rc == 0;
    for (int n = 0; ok && n < 4; n++)
        for (int m = 0; m < 4; m++)
            ok &= tila_desc_tile_rank(A, m, n) >= 0 && tila_desc_tile_rank(A, m, n) < size;
    ok &= rc == 0 && tila_desc_tile_rank(A, 0, 0) == 0;
    tila_desc_destroy(&A);
    tila_test_check(ok, "desc", '-', 0, "default grid for %d rank(s)", size);

    /* A user mapping, then data through it. */
    tila_dist_t user = { .rank_of = mapping_diag, .rank_arg = &size };
    rc = tila_desc_create(&A, TILA_REAL64, 23, 18, 5, 5, &user);
    ok = rc == 0;
    for (int n = 0; ok && n < 4; n++)
        for (int m = 0; m < 5; m++)
            ok &= tila_desc_tile_rank(A, m, n) == (m + 2 * n) % size;
    double *a = malloc(sizeof(double) * 23 * 18), *b = calloc(23 * 18, sizeof(double));
    fill(TILA_REAL64, a, 23, 23, 18);
    ok &= tila_desc_scatter(A, 0, a, 23) == 0 && tila_desc_gather(A, 0, b, 23) == 0;
    if (tila_comm_rank() == 0) ok &= !memcmp(a, b, sizeof(double) * 23 * 18);
    tila_desc_destroy(&A);
    tila_test_check(ok, "desc", '-', 0, "user mapping (m + 2n) mod %d: owners, scatter/gather",
                    size);
    /* No GPU here means no device level; with GPUs every owned tile gets one. */
    rc = tila_desc_create(&A, TILA_REAL64, 8, 8, 4, 4, NULL);
    ok = rc == 0;
    for (int n = 0; ok && n < 2; n++)
        for (int m = 0; m < 2; m++) {
            int dev = tila_desc_tile_device(A, m, n);
            int mine = tila_desc_tile_rank(A, m, n) == tila_comm_rank();
            ok &= tila_cuda_ndevices() == 0 || !mine ? dev == -1
                                                     : dev >= 0 && dev < tila_cuda_ndevices();
        }
    tila_desc_destroy(&A);
    tila_test_check(ok, "desc", '-', 0, "device level with %d CUDA device(s)",
                    tila_cuda_ndevices());
    free(a);
    free(b);
    clamped();
    tilings_agree();
}

/* Every owned tile of A starts at `a + (i0 + j0 * lda)` elements (in place). */
static int in_place(const tila_desc_t *A, const char *a, int lda, size_t elt, int scalapack, int p,
                    int q)
{
    int ok = 1;
    for (int n = 0; n < tila_desc_nt(A); n++)
        for (int m = 0; m < tila_desc_mt(A); m++) {
            if (tila_desc_tile_rank(A, m, n) != tila_comm_rank()) continue;
            size_t i0 =
                scalapack ? (size_t)(m / p) * tila_desc_mb(A) : (size_t)tila_desc_tile_row0(A, m);
            size_t j0 =
                scalapack ? (size_t)(n / q) * tila_desc_nb(A) : (size_t)tila_desc_tile_col0(A, n);
            void *ptr = starpu_data_get_local_ptr(tila_desc_tile_handle(A, m, n));
            ok &= ptr == a + (i0 + j0 * lda) * elt;
        }
    int all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return all;
}

void tila_test_copy(const tila_test_opts_t *o)
{
    int grids[8][2], ngrids = tila_test_grids(grids, 8);
    for (int prec = 0; prec < 4; prec++) {
        if (!strchr(o->prec, tila_test_prec_letter((tila_prec_t)prec))) continue;
        size_t elt = tila_prec_size((tila_prec_t)prec);
        const int m = 29, n = 22, lda = 31, nb = 6;
        char *a = calloc((size_t)lda * n, elt), *b = calloc((size_t)lda * n, elt);
        fill((tila_prec_t)prec, a, lda, m, n);
        for (int g = 0; g < ngrids; g++) {
            tila_dist_t dist = { .p = grids[g][0], .q = grids[g][1] };
            tila_desc_t *A;
            int ok = tila_desc_create(&A, (tila_prec_t)prec, m, n, nb, nb, &dist) == 0;
            memset(b, 0, (size_t)lda * n * elt);
            ok &= tila_desc_scatter(A, 0, a, lda) == 0 && tila_desc_gather(A, 0, b, lda) == 0;
            if (tila_comm_rank() == 0) ok &= !memcmp(a, b, (size_t)lda * n * elt);
            tila_desc_destroy(&A);
            tila_test_check(ok, "scatter-gather", tila_test_prec_letter((tila_prec_t)prec), 0,
                            "m=%d n=%d lda=%d nb=%d grid=%dx%d", m, n, lda, nb, grids[g][0],
                            grids[g][1]);

            /* Zero copy: every rank wraps its own full array; tiles used in place. */
            fill((tila_prec_t)prec, b, lda, m, n);
            ok = tila_desc_create_lapack(&A, (tila_prec_t)prec, b, lda, m, n, nb, nb, &dist) == 0;
            ok &= in_place(A, b, lda, elt, 0, 0, 0);
            char *c = calloc((size_t)lda * n, elt);
            ok &= tila_desc_gather(A, 0, c, lda) == 0;
            if (tila_comm_rank() == 0) ok &= !memcmp(a, c, (size_t)lda * n * elt);
            tila_desc_destroy(&A);
            tila_test_check(ok, "wrap-lapack", tila_test_prec_letter((tila_prec_t)prec), 0,
                            "m=%d n=%d lda=%d nb=%d grid=%dx%d in-place+gather", m, n, lda, nb,
                            grids[g][0], grids[g][1]);

            /* The same in tiles of any sizes: 29 = 5+1+9+3+11 rows, 22 = 7+2+13 columns. */
            static const int mbs[] = { 5, 1, 9, 3, 11 }, nbs[] = { 7, 2, 13 };
            ok = tila_desc_create_lapack_tiled(&A, (tila_prec_t)prec, b, lda, 5, mbs, 3, nbs,
                                               &dist) == 0;
            ok &= in_place(A, b, lda, elt, 0, 0, 0);
            memset(c, 0, (size_t)lda * n * elt);
            ok &= tila_desc_gather(A, 0, c, lda) == 0;
            if (tila_comm_rank() == 0) ok &= !memcmp(a, c, (size_t)lda * n * elt);
            tila_desc_destroy(&A);
            tila_test_check(ok, "wrap-lapack", tila_test_prec_letter((tila_prec_t)prec), 0,
                            "m=%d n=%d lda=%d tiles 5,1,9,3,11 x 7,2,13 grid=%dx%d "
                            "in-place+gather",
                            m, n, lda, grids[g][0], grids[g][1]);

            /* ScaLAPACK local arrays: rank = prow * q + pcol, blocks cycled. */
            int p = grids[g][0], q = grids[g][1], r = tila_comm_rank();
            int prow = r / q, pcol = r % q, mloc = 0, nloc = 0;
            for (int i = prow * nb; i < m; i += p * nb)
                mloc += m - i < nb ? m - i : nb;
            for (int j = pcol * nb; j < n; j += q * nb)
                nloc += n - j < nb ? n - j : nb;
            int lld = mloc > 1 ? mloc : 1;
            char *loc = calloc((size_t)lld * (nloc ? nloc : 1), elt);
            for (int j = 0; j < n; j++)
                for (int i = 0; i < m; i++) {
                    if ((i / nb) % p != prow || (j / nb) % q != pcol) continue;
                    int li = (i / nb / p) * nb + i % nb, lj = (j / nb / q) * nb + j % nb;
                    memcpy(loc + ((size_t)lj * lld + li) * elt, a + ((size_t)j * lda + i) * elt,
                           elt);
                }
            ok = tila_desc_create_scalapack(&A, (tila_prec_t)prec, loc, lld, m, n, nb, nb, p, q) ==
                 0;
            ok &= in_place(A, loc, lld, elt, 1, p, q);
            memset(c, 0, (size_t)lda * n * elt);
            ok &= tila_desc_gather(A, 0, c, lda) == 0;
            if (tila_comm_rank() == 0) ok &= !memcmp(a, c, (size_t)lda * n * elt);
            tila_desc_destroy(&A);
            tila_test_check(ok, "wrap-scalapack", tila_test_prec_letter((tila_prec_t)prec), 0,
                            "m=%d n=%d nb=%d grid=%dx%d in-place+gather", m, n, nb, p, q);
            free(loc);
            free(c);
        }
        free(a);
        free(b);
    }
}
