/**
 * @file ztrsm.c
 * @brief Tiled triangular solve: B = alpha op(A)^-1 B or alpha B op(A)^-1.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "codelets_z.h"
#include "drivers_z.h"

/* One rank's partial sum of the updates of a tile of B. */
typedef struct trsm_sum_s {
    int rank;
    starpu_data_handle_t w;
} trsm_sum_t;

/* A tile row of X in the narrow solve: x, where it is solved, and the other ranks'
 * partial sums of its updates (room for as many as there can be, allocated before the
 * submission: a rank short of memory halfway would register fewer tiles than the others). */
typedef struct trsm_tile_s {
    starpu_data_handle_t x;
    trsm_sum_t *sums;
    int count;
} trsm_tile_t;

/* Rank r's partial sum of tile b (rows x cols), registered on first use (*beta = 0:
 * the first product writes it) and found after (*beta = 1). */
static starpu_data_handle_t trsm_sum(trsm_tile_t *b, tila_workspace_t *ws, int r, int rows,
                                     int cols, tila_complex64_t *beta)
{
    *beta = 1.0;
    for (int s = 0; s < b->count; s++)
        if (b->sums[s].rank == r) return b->sums[s].w;
    starpu_data_handle_t w = tila_workspace_tile(ws, r, rows, cols);
    b->sums[b->count++] = (trsm_sum_t){ r, w };
    *beta = 0.0;
    return w;
}

/*
 * Left, narrow B (at most half a tile wide, as a few right-hand sides) across ranks:
 * B's tiles and partial sums move, op(A)'s stay where they are (ScaLAPACK's and SLATE's
 * scheme).  Tile row k of X is solved in x_k, a workspace tile on A(k, k)'s owner: x_k
 * starts as alpha B(k), every rank holding part of op(A)'s tile row k adds its updates
 * into its own partial sum of it (the diagonal's owner straight into x_k), and the
 * other ranks' sums join x_k just before its solve.  Each step then sends one partial
 * sum (and x_k, where the diagonal and the tile below it live apart); the solved x_k
 * goes back to B(k) off the critical path.  Running on B's owner instead moved the
 * diagonal and sub-diagonal tiles of L there at every other step, and was slower
 * (bench/LOG.md has tila-bench potrs's times).
 */
static int trsm_left_narrow(tila_task_t *t, tila_uplo_t uplo, tila_trans_t trans, tila_diag_t diag,
                            tila_complex64_t alpha, const tila_desc_t *A, const tila_desc_t *B,
                            int mt, tila_workspace_t *ws, trsm_tile_t *tiles)
{
    int rc = 0, forward = (uplo == TILA_LOWER) == (trans == TILA_NOTRANS);
    for (int kk = 0; kk < mt && !rc; kk++) {
        int k = forward ? kk : mt - 1 - kk, order = tila_tile_cols(A, k);
        for (int n = 0; n < B->nt && !rc; n++) {
            starpu_data_handle_t *xk = &tiles[(size_t)n * mt + k].x;
            t->priority = kk == 0;
            tila_task_on(t, A, k, k);
            *xk = tila_workspace_tile(ws, t->rank, order, tila_tile_cols(B, n));
            rc = tila_insert_zgeadd(t, order, tila_tile_cols(B, n), alpha,
                                    tila_task_tile(t, B, k, n), 0.0, *xk);
        }
    }
    for (int kk = 0; kk < mt && !rc; kk++) {
        int k = forward ? kk : mt - 1 - kk, order = tila_tile_cols(A, k);
        for (int n = 0; n < B->nt && !rc; n++) {
            trsm_tile_t *b = &tiles[(size_t)n * mt + k];
            starpu_data_handle_t xk = b->x;
            t->priority = 1;
            tila_task_on(t, A, k, k);
            for (int s = 0; s < b->count && !rc; s++)
                rc = tila_insert_zgeadd(t, order, tila_tile_cols(B, n), 1.0, b->sums[s].w, 1.0, xk);
            if (!rc)
                rc = tila_insert_ztrsm(t, TILA_LEFT, uplo, trans, diag, order, tila_tile_cols(B, n),
                                       1.0, tila_task_tile(t, A, k, k), xk);
            t->priority = 0;
            tila_task_on(t, B, k, n);
            if (!rc)
                rc = tila_insert_zlacpy(t, TILA_GENERAL, order, tila_tile_cols(B, n), xk,
                                        tila_task_tile(t, B, k, n));
        }
        for (int mm = kk + 1; mm < mt && !rc; mm++) {
            int m = forward ? mm : mt - 1 - mm, rows = tila_tile_cols(A, m);
            for (int n = 0; n < B->nt && !rc; n++) {
                trsm_tile_t *b = &tiles[(size_t)n * mt + m];
                starpu_data_handle_t c = b->x;
                tila_complex64_t beta = 1.0;
                t->priority = mm == kk + 1;
                tila_task_on_op(t, A, trans, m, k);
                if (t->rank != tila_desc_tile_rank(A, m, m))
                    c = trsm_sum(b, ws, t->rank, rows, tila_tile_cols(B, n), &beta);
                rc = tila_insert_zgemm(t, trans, TILA_NOTRANS, rows, tila_tile_cols(B, n), order,
                                       -1.0, tila_task_op_tile(t, A, trans, m, k),
                                       tiles[(size_t)n * mt + k].x, beta, c);
            }
        }
    }
    return rc;
}

/*
 * Left: op(A) X = alpha B, swept down the tile rows when op(A) is lower, up when it is
 * upper.  Step kk solves tile row k, then removes it from the rows still to solve.  B
 * is scaled by alpha by the first task that writes each of its tiles.  Tile k has A's
 * tile column k's order (B's tile row k may be taller: gels solves with R on B's top).
 * The updates run on B's owner, which receives the tiles of op(A) in its rows (each
 * once, cached after), unless B is narrow (trsm_left_narrow).
 */
int tila_ztrsm_left_submit(tila_task_t *t, tila_uplo_t uplo, tila_trans_t trans, tila_diag_t diag,
                           tila_complex64_t alpha, const tila_desc_t *A, const tila_desc_t *B,
                           int mt)
{
    if (tila_comm_size() > 1 && 2 * (int64_t)B->n <= A->nb) {
        /* A tile row's sums: one a rank other than its diagonal's owner, one a step at most. */
        size_t count = (size_t)mt * (size_t)B->nt;
        size_t room = (size_t)(tila_comm_size() - 1 < mt - 1 ? tila_comm_size() - 1 : mt - 1);
        room = room > 0 ? room : 1;
        trsm_tile_t *tiles = tila_calloc(TILA_ALLOC_WORK, count, sizeof *tiles);
        trsm_sum_t *sums = tila_malloc(TILA_ALLOC_WORK, count * room * sizeof *sums);
        int rc = tila_submit_agree(tiles && sums ? 0 : TILA_ERR_NOMEM);
        if (!rc) {
            for (size_t i = 0; i < count; i++)
                tiles[i].sums = sums + i * room;
            tila_workspace_t ws;
            tila_workspace_init(&ws, sizeof(tila_complex64_t));
            rc = trsm_left_narrow(t, uplo, trans, diag, alpha, A, B, mt, &ws, tiles);
            tila_workspace_release(&ws);
        }
        free(sums);
        free(tiles);
        return rc;
    }
    int rc = 0, forward = (uplo == TILA_LOWER) == (trans == TILA_NOTRANS);
    for (int kk = 0; kk < mt && !rc; kk++) {
        int k = forward ? kk : mt - 1 - kk, order = tila_tile_cols(A, k);
        tila_complex64_t lalpha = kk == 0 ? alpha : (tila_complex64_t)1.0;
        for (int n = 0; n < B->nt && !rc; n++) {
            t->priority = 1;
            tila_task_on(t, B, k, n);
            rc = tila_insert_ztrsm(t, TILA_LEFT, uplo, trans, diag, order, tila_tile_cols(B, n),
                                   lalpha, tila_task_tile(t, A, k, k), tila_task_tile(t, B, k, n));
        }
        for (int mm = kk + 1; mm < mt && !rc; mm++) {
            int m = forward ? mm : mt - 1 - mm;
            for (int n = 0; n < B->nt && !rc; n++) {
                t->priority = mm == kk + 1;
                tila_task_on(t, B, m, n);
                rc = tila_insert_zgemm(
                    t, trans, TILA_NOTRANS, tila_tile_cols(A, m), tila_tile_cols(B, n), order, -1.0,
                    tila_task_op_tile(t, A, trans, m, k), tila_task_tile(t, B, k, n), lalpha,
                    tila_task_tile(t, B, m, n));
            }
        }
    }
    return rc;
}

/* Right: X op(A) = alpha B, swept along the tile columns the same way. */
static int trsm_right(tila_task_t *t, tila_uplo_t uplo, tila_trans_t trans, tila_diag_t diag,
                      tila_complex64_t alpha, const tila_desc_t *A, tila_desc_t *B)
{
    int rc = 0, nt = B->nt, forward = (uplo == TILA_UPPER) == (trans == TILA_NOTRANS);
    for (int kk = 0; kk < nt && !rc; kk++) {
        int k = forward ? kk : nt - 1 - kk;
        tila_complex64_t lalpha = kk == 0 ? alpha : (tila_complex64_t)1.0;
        for (int m = 0; m < B->mt && !rc; m++) {
            t->priority = 1;
            tila_task_on(t, B, m, k);
            rc = tila_insert_ztrsm(t, TILA_RIGHT, uplo, trans, diag, tila_tile_rows(B, m),
                                   tila_tile_cols(B, k), lalpha, tila_task_tile(t, A, k, k),
                                   tila_task_tile(t, B, m, k));
        }
        for (int nn = kk + 1; nn < nt && !rc; nn++) {
            int n = forward ? nn : nt - 1 - nn;
            for (int m = 0; m < B->mt && !rc; m++) {
                t->priority = nn == kk + 1;
                tila_task_on(t, B, m, n);
                rc = tila_insert_zgemm(
                    t, TILA_NOTRANS, trans, tila_tile_rows(B, m), tila_tile_cols(B, n),
                    tila_tile_cols(B, k), -1.0, tila_task_tile(t, B, m, k),
                    tila_task_op_tile(t, A, trans, k, n), lalpha, tila_task_tile(t, B, m, n));
            }
        }
    }
    return rc;
}

int tila_ztrsm_async(tila_side_t side, tila_uplo_t uplo, tila_trans_t trans, tila_diag_t diag,
                     tila_complex64_t alpha, tila_desc_t *A, tila_desc_t *B, tila_sequence_t *seq,
                     tila_request_t *req)
{
    static const char *func = "tila_ztrsm";
    int rc = tila_check_init(func);
    if (rc) return rc;
    if ((rc = tila_check_side(func, 1, side))) return rc;
    if ((rc = tila_check_triangle(func, 2, uplo))) return rc;
    if ((rc = tila_check_trans(func, 3, "trans", trans))) return rc;
    if ((rc = tila_check_diag(func, 4, diag))) return rc;
    if ((rc = tila_check_desc(func, 6, "A", A, TILA_COMPLEX64))) return rc;
    if ((rc = tila_check_desc(func, 7, "B", B, TILA_COMPLEX64))) return rc;
    /* A's order is B's rows (left) or columns (right), tiled alike. */
    int left = side == TILA_LEFT, bt = left ? B->mt : B->nt;
    const int *b0 = left ? B->row0 : B->col0;
    if (!tila_square_tiles(A) || !tila_tiling_equal(A->nt, A->col0, bt, b0)) {
        tila_error(func,
                   "argument 6 (A) is %d x %d in %d x %d tiles; it must be %d x %d, its rows "
                   "and columns tiled as B's %s",
                   A->m, A->n, A->mt, A->nt, b0[bt], b0[bt], left ? "rows" : "columns");
        return -6;
    }
    if ((rc = tila_check_sequence(func, 8, seq, req))) return rc;
    tila_call_begin(seq, req);
    if (B->m == 0 || B->n == 0) return 0;
    tila_task_t t = tila_task_init(seq, req, 0);
    if (side == TILA_LEFT) return tila_ztrsm_left_submit(&t, uplo, trans, diag, alpha, A, B, B->mt);
    return trsm_right(&t, uplo, trans, diag, alpha, A, B);
}

int tila_ztrsm(tila_side_t side, tila_uplo_t uplo, tila_trans_t trans, tila_diag_t diag,
               tila_complex64_t alpha, tila_desc_t *A, tila_desc_t *B)
{
    tila_sync_t s;
    int rc = tila_sync_begin("tila_ztrsm", &s);
    return rc ? rc
              : tila_sync_end(
                    &s, tila_ztrsm_async(side, uplo, trans, diag, alpha, A, B, s.seq, &s.req));
}
