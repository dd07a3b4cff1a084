/**
 * @file zpotrf.c
 * @brief Tiled Cholesky factorization A = L L^H or U^H U, right-looking, over StarPU-MPI.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tila_bcast.h"
#include "drivers_z.h"
#include "tila_runtime.h"

/*
 * Priorities: the panel (POTRF, then its TRSMs) runs first, then the updates of the
 * next panel's column, which unlock the next POTRF; the rest of the trailing matrix last.
 */
enum { PRIO_POTRF = 3, PRIO_TRSM = 2, PRIO_NEXT = 1, PRIO_UPDATE = 0 };

/* Tile (i, j) of the triangle as if it were lower: (i, j) itself, or (j, i) for upper. */
static starpu_data_handle_t tri(const tila_task_t *t, const tila_desc_t *A, tila_uplo_t uplo, int i,
                                int j)
{
    return uplo == TILA_LOWER ? tila_task_tile(t, A, i, j) : tila_task_tile(t, A, j, i);
}

static void tri_on(tila_task_t *t, const tila_desc_t *A, tila_uplo_t uplo, int i, int j)
{
    if (uplo == TILA_LOWER)
        tila_task_on(t, A, i, j);
    else
        tila_task_on(t, A, j, i);
}

/*
 * The panel's solves by the diagonal tile's inverse: cuBLAS's TRSM on a large tile runs far
 * below its GEMM's rate, so on GPUs TRTRI inverts L_kk once a panel and each solve is a
 * GEMM with the inverse (MAGMA's way).  The inverse's error grows with cond(L_kk) (<=
 * cond(A)^1/2), TRSM's does not; the error study (bench/LOG.md) found the factor's residual
 * close to TRSM's and far inside LAPACK's threshold wherever LAPACK's own factor exists.
 * Still, a solve falls back to TRSM where the inverse has kept fewer than two correct
 * digits, cond_1(L_kk) eps > 1e-2 (exact, from the inverse TRTRI has; codelet_ztrsm_inv.c):
 * beyond every matrix the study could factor in double, reached by the most
 * ill-conditioned in single.
 */
#define ZPOTRF_INV_BOUND (1e-2 / DBL_EPSILON)

/*
 * TILA_POTRF_TRSM on this rank: 0 for trsm (TRSM with L_kk), 1 for inv (by its inverse,
 * with the bound above) or inv:B (with the bound B; inf: the inverse whatever the
 * condition; 0: every solve falls back to TRSM, after the inverse), 2 for auto (or unset:
 * trsm, on GPUs too: cusolverDnXtrtri of a tile takes about twice its potrf, on the
 * critical path, and measured slower than cuBLAS's TRSM; bench/LOG.md); the bound in
 * *bound.
 */
static int zpotrf_panel_env(const char *func, double *bound)
{
    const char *v = getenv("TILA_POTRF_TRSM");
    *bound = ZPOTRF_INV_BOUND;
    if (!v || !*v || !strcmp(v, "auto")) return 2;
    if (!strcmp(v, "trsm")) return 0;
    if (!strcmp(v, "inv")) return 1;
    if (!strncmp(v, "inv:", 4)) {
        char *end;
        double b = strtod(v + 4, &end);
        if (end != v + 4 && !*end && !isnan(b)) {
            *bound = b;
            return 1;
        }
    }
    tila_error(func, "TILA_POTRF_TRSM=%s is none of trsm, inv, inv:BOUND and auto: auto taken", v);
    return 2;
}

/*
 * This call's choices, rank 0's on every rank (every rank must submit the same tasks and
 * messages): whether it solves its panels by the inverse (the return value; its bound in
 * *bound), from TILA_POTRF_TRSM, and how its panel tiles reach their readers (*bcast), from
 * TILA_BCAST where a tile may have 3 readers besides its owner (`trees`: 4 ranks and more;
 * auto also weighs the tiles' bytes, tile_bytes), else direct.  One allreduce on several
 * ranks; none in a simulation, whose ranks share one environment.  Collective.
 */
static int zpotrf_choices(const char *func, int trees, size_t tile_bytes, double *bound,
                          tila_bcast_mode_t *bcast)
{
    double b = ZPOTRF_INV_BOUND;
    *bcast = TILA_BCAST_DIRECT;
#if defined(STARPU_SIMGRID)
    int choice = zpotrf_panel_env(func, &b);
    if (trees) *bcast = tila_bcast_choice(func, tile_bytes);
#else
    int root = tila_comm_rank() == 0;
    int choice = root ? zpotrf_panel_env(func, &b) : 2;
    int mode = root && trees ? (int)tila_bcast_choice(func, tile_bytes) : (int)TILA_BCAST_DIRECT;
    if (tila_comm_size() > 1) {
        double agreed[3] = { root ? choice : -1, root ? b : -INFINITY, root ? mode : -1 };
        if (tila_allreduce(agreed, 3, MPI_DOUBLE, MPI_MAX)) return 0;
        choice = (int)agreed[0];
        b = agreed[1];
        mode = (int)agreed[2];
    }
    *bcast = (tila_bcast_mode_t)mode;
#endif
    *bound = b;
    return choice == 1;
}

/* The updates of tila_zpotrf itself: tila_insert_zherk and tila_insert_zgemm. */
static int zpotrf_herk(const tila_task_t *t, tila_uplo_t uplo, tila_trans_t trans, int n, int k,
                       double alpha, starpu_data_handle_t A, double beta, starpu_data_handle_t C,
                       const void *ctx)
{
    (void)ctx;
    return tila_insert_zherk(t, uplo, trans, n, k, alpha, A, beta, C);
}

static int zpotrf_gemm(const tila_task_t *t, tila_trans_t transa, tila_trans_t transb, int m, int n,
                       int k, tila_complex64_t alpha, starpu_data_handle_t A, starpu_data_handle_t B,
                       tila_complex64_t beta, starpu_data_handle_t C, const void *ctx)
{
    (void)ctx;
    return tila_insert_zgemm(t, transa, transb, m, n, k, alpha, A, B, beta, C);
}

static const tila_zpotrf_updates_t zpotrf_updates = { .herk = zpotrf_herk, .gemm = zpotrf_gemm };

/* The rank that owns tile (i, j) of the triangle as if it were lower (tri). */
static int tri_owner(const tila_desc_t *A, tila_uplo_t uplo, int i, int j)
{
    return uplo == TILA_LOWER ? A->owner[(size_t)j * A->mt + i] : A->owner[(size_t)i * A->mt + j];
}

/*
 * Panel k's tile m to the ranks of the updates that read it (bcast.h): HERK on (m, m),
 * GEMMs on (m, n) for k < n < m and on (n, m) for n > m, in the order they are submitted
 * (the next panel's first); down a tree in b's mode.
 */
static int zpotrf_bcast(tila_uplo_t uplo, tila_desc_t *A, int k, int m, tila_bcast_mode_t mode,
                        tila_bcast_t *b, tila_workspace_t *ws)
{
    int lower = uplo == TILA_LOWER;
    tila_bcast_start(b, tri_owner(A, uplo, m, k));
    tila_bcast_reader(b, tri_owner(A, uplo, m, m));
    for (int n = k + 1; n < m; n++)
        tila_bcast_reader(b, tri_owner(A, uplo, m, n));
    for (int n = m + 1; n < A->nt; n++)
        tila_bcast_reader(b, tri_owner(A, uplo, n, m));
    tila_bcast_rotate(b, m);
    if (!tila_bcast_tree(b, mode)) {
        b->count = 1; /* no tree: every task reads the tile itself */
        return 0;
    }
    /* the tile (m, k), or (k, m) for upper; diagonal tiles are square */
    int rows = lower ? tila_tile_rows(A, m) : tila_tile_cols(A, k);
    int cols = lower ? tila_tile_cols(A, k) : tila_tile_cols(A, m);
    return tila_bcast_relay(b, lower ? tila_tile_registered(A, m, k) : tila_tile_registered(A, k, m),
                            rows, cols, ws, PRIO_TRSM);
}

/* Panel k's tile m as task t reads it: a relay of its broadcast, or the tile itself. */
static starpu_data_handle_t panel(const tila_task_t *t, const tila_desc_t *A, tila_uplo_t uplo,
                                  const tila_bcast_t *b, int m, int k)
{
    starpu_data_handle_t h = b ? tila_bcast_for(b, t->rank) : NULL;
    return h ? h : tri(t, A, uplo, m, k);
}

int tila_zpotrf_async(tila_uplo_t uplo, tila_desc_t *A, tila_sequence_t *seq, tila_request_t *req)
{
    static const char *func = "tila_zpotrf";
    int rc = tila_check_init(func);
    if (rc) return rc;
    if ((rc = tila_check_triangle(func, 1, uplo))) return rc;
    if ((rc = tila_check_desc(func, 2, "A", A, TILA_COMPLEX64))) return rc;
    if ((rc = tila_check_square(func, 2, A))) return rc;
    if ((rc = tila_check_sequence(func, 3, seq, req))) return rc;
    tila_call_begin(seq, req);
    return tila_zpotrf_submit(uplo, A, &zpotrf_updates, seq, req);
}

int tila_zpotrf_submit(tila_uplo_t uplo, tila_desc_t *A, const tila_zpotrf_updates_t *up,
                       tila_sequence_t *seq, tila_request_t *req)
{
    static const char *func = "tila_zpotrf";
    int rc = 0;
    if (A->n == 0) return 0;

    /* Written in the lower form: for upper, every tile (i, j) is (j, i) and the
     * operations are conjugate-transposed. */
    int lower = uplo == TILA_LOWER;
    tila_side_t side = lower ? TILA_RIGHT : TILA_LEFT;
    tila_trans_t herk_trans = lower ? TILA_NOTRANS : TILA_CONJTRANS;
    int nt = A->nt;
    double bound = 0;
    tila_bcast_mode_t mode = TILA_BCAST_DIRECT;
    int inverse =
        nt > 1 && zpotrf_choices(func, tila_comm_size() >= 4 && nt > 2,
                                 (size_t)A->mb * A->nb * A->eltsize, &bound, &mode);
    /* The inverse's solves copy their tile here first (GEMM is not in place). */
    starpu_data_handle_t W = NULL;
    tila_bcast_t *bc = NULL;
    if (mode != TILA_BCAST_DIRECT && (rc = tila_submit_agree(tila_bcast_alloc(&bc, nt)))) {
        tila_bcast_free(&bc, nt);
        return rc;
    }
    if (inverse) tila_scratch_register(&W, (size_t)A->mb * A->nb, A->eltsize);
    tila_task_t t = tila_task_init(seq, req, PRIO_POTRF);
    for (int k = 0; k < nt && !rc; k++) {
        int nk = tila_tile_cols(A, k);
        t.priority = PRIO_POTRF;
        tila_task_on(&t, A, k, k);
        rc = tila_insert_zpotrf(&t, uplo, nk, tila_task_tile(&t, A, k, k), A->col0[k]);
        /* The panel's inverse (a tile on L_kk's owner) and its record, freed by StarPU
         * once the panel's solves are done. */
        tila_workspace_t ws, wr;
        starpu_data_handle_t T = NULL, R = NULL;
        int panel_inverse = inverse && k + 1 < nt;
        if (panel_inverse) {
            tila_workspace_init(&ws, A->eltsize);
            tila_workspace_init(&wr, sizeof(double));
            T = tila_workspace_tile(&ws, t.rank, nk, nk);
            R = tila_workspace_tile(&wr, t.rank, (int)tila_ztrtri_record_elems(nk), 1);
            if (!rc)
                rc = T && R ? tila_insert_ztrtri(&t, uplo, TILA_NONUNIT, nk,
                                                 tila_task_tile(&t, A, k, k), T, R)
                            : TILA_ERR_NOMEM;
        }
        for (int m = k + 1; m < nt && !rc; m++) {
            t.priority = PRIO_TRSM;
            tri_on(&t, A, uplo, m, k);
            int rows = lower ? tila_tile_rows(A, m) : nk, cols = lower ? nk : tila_tile_cols(A, m);
            rc = panel_inverse
                     ? tila_insert_ztrsm_inv(&t, side, uplo, TILA_CONJTRANS, TILA_NONUNIT, rows,
                                             cols, 1.0, bound, tila_task_tile(&t, A, k, k), T, R,
                                             tri(&t, A, uplo, m, k), W)
                     : tila_insert_ztrsm(&t, side, uplo, TILA_CONJTRANS, TILA_NONUNIT, rows, cols,
                                         1.0, tila_task_tile(&t, A, k, k), tri(&t, A, uplo, m, k));
        }
        if (panel_inverse) {
            tila_workspace_release(&ws);
            tila_workspace_release(&wr);
        }
        /* The diagonal tile has all its readers: drop its copies on other ranks. */
        tila_tile_flush(A, k, k);
        tila_workspace_t relays;
        tila_workspace_init(&relays, A->eltsize);
        for (int m = k + 1; bc && m < nt && !rc; m++)
            rc = zpotrf_bcast(uplo, A, k, m, mode, &bc[m], &relays);
        for (int m = k + 1; m < nt && !rc; m++) {
            int nm = tila_tile_rows(A, m);
            const tila_bcast_t *bm = bc ? &bc[m] : NULL;
            t.priority = m == k + 1 ? PRIO_NEXT : PRIO_UPDATE;
            tila_task_on(&t, A, m, m);
            rc = up->herk(&t, uplo, herk_trans, nm, nk, -1.0, panel(&t, A, uplo, bm, m, k), 1.0,
                          tila_task_tile(&t, A, m, m), up->ctx);
            for (int n = k + 1; n < m && !rc; n++) {
                const tila_bcast_t *bn = bc ? &bc[n] : NULL;
                t.priority = n == k + 1 ? PRIO_NEXT : PRIO_UPDATE;
                tri_on(&t, A, uplo, m, n);
                rc = lower ? up->gemm(&t, TILA_NOTRANS, TILA_CONJTRANS, nm, tila_tile_rows(A, n),
                                      nk, -1.0, panel(&t, A, uplo, bm, m, k),
                                      panel(&t, A, uplo, bn, n, k), 1.0,
                                      tila_task_tile(&t, A, m, n), up->ctx)
                           : up->gemm(&t, TILA_CONJTRANS, TILA_NOTRANS, tila_tile_cols(A, n), nm,
                                      nk, -1.0, panel(&t, A, uplo, bn, n, k),
                                      panel(&t, A, uplo, bm, m, k), 1.0,
                                      tila_task_tile(&t, A, n, m), up->ctx);
            }
        }
        tila_workspace_release(&relays);
        /* The panel's tiles have all their readers too. */
        for (int m = k + 1; m < nt; m++)
            tila_tile_flush(A, lower ? m : k, lower ? k : m);
    }
    tila_scratch_release(&W);
    tila_bcast_free(&bc, nt);
    return rc;
}

int tila_zpotrf(tila_uplo_t uplo, tila_desc_t *A)
{
    tila_sync_t s;
    int rc = tila_sync_begin("tila_zpotrf", &s);
    return rc ? rc : tila_sync_end(&s, tila_zpotrf_async(uplo, A, s.seq, &s.req));
}
