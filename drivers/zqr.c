/**
 * @file zqr.c
 * @brief The tiled QR engine that geqrf, unmqr, ungqr and gels share: applying one tree
 * operation's Q to a tile row or column, the PANEL scheme's V and updates, the whole
 * op(Q) C, and the checks of (A, T).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "drivers_z.h"

int tila_zqr_apply_op(tila_task_t *t, tila_side_t side, tila_trans_t trans, const tila_desc_t *A,
                      const tila_desc_t *T, int k, const tila_qr_op_t *op, const tila_desc_t *C,
                      int j, starpu_data_handle_t ws)
{
    int left = side == TILA_LEFT, ib = T->qr_ib;
    int kn = tila_tile_cols(A, k), rows = tila_tile_rows(A, op->m);
    /* Tile op->p / op->m of C along Q's dimension, and the extent of C's other one. */
    int cm = left ? op->m : j, cn = left ? j : op->m, cp_m = left ? op->p : j,
        cp_n = left ? j : op->p;
    int other = left ? tila_tile_cols(C, j) : tila_tile_rows(C, j);
    tila_task_on(t, C, cm, cn);
    starpu_data_handle_t V = tila_task_tile(t, A, op->m, k),
                         Tk = tila_qr_t_tile(t, T, A->nt, k, op);
    switch (op->kind) {
    case TILA_QR_GEQRT: {
        int kq = rows < kn ? rows : kn;
        return tila_insert_zunmqr(t, side, trans, left ? rows : other, left ? other : rows, kq, ib,
                                  V, Tk, tila_task_tile(t, C, cm, cn), ws);
    }
    case TILA_QR_TS:
        return tila_insert_ztsmqr(t, side, trans, left ? rows : other, left ? other : rows, kn, ib,
                                  tila_task_tile(t, C, cp_m, cp_n), tila_task_tile(t, C, cm, cn), V,
                                  Tk, ws);
    case TILA_QR_TT: {
        /* The eliminated triangle is the first min(rows, kn) rows of tile op->m. */
        int l = rows < kn ? rows : kn;
        return tila_insert_zttmqr(t, side, trans, left ? l : other, left ? other : l, kn, l, ib,
                                  tila_task_tile(t, C, cp_m, cp_n), tila_task_tile(t, C, cm, cn), V,
                                  Tk, ws);
    }
    }
    return TILA_ERR_STARPU;
}

int tila_zqr_col_v(tila_task_t *t, const tila_desc_t *A, int k, tila_workspace_t *ws,
                   starpu_data_handle_t *E)
{
    int rows = tila_tile_rows(A, k), kq = tila_zqr_col_k(A, k);
    *E = NULL;
    if (rows == kq) return 0;
    tila_task_on(t, A, k, k);
    if (!(*E = tila_workspace_tile(ws, t->rank, rows, kq))) return TILA_ERR_NOMEM;
    int rc = tila_insert_zlacpy(t, TILA_GENERAL, rows, kq, tila_task_tile(t, A, k, k), *E);
    return rc ? rc : tila_insert_zlaset(t, TILA_UPPER, rows, kq, 0.0, 1.0, *E);
}

/*
 * The panel's reflectors from the top: E (panel k's unit lower top block) for tile row k,
 * A's tiles below it.  Without E the GEMMs start at row k + 1 (col_v_triangle has row k).
 */
static starpu_data_handle_t col_v(const tila_task_t *t, const tila_desc_t *A, int k,
                                  starpu_data_handle_t E, int i)
{
    return i == k ? E : tila_task_tile(t, A, i, k);
}

/*
 * W = V_kk^H C_kj (left) or C_jk V_kk (right), the triangle's term that opens the chain, or
 * with `close` W = V_kk W (left) or W V_kk^H (right) and C_kj (C_jk) -= W, the last update:
 * TRMMs that read the triangle in place, half the flops of a GEMM on E.  The closing TRMM
 * overwrites W once the GEMMs submitted before it have read it.
 */
static int col_v_triangle(tila_task_t *t, int left, const tila_desc_t *A, int k,
                          const tila_desc_t *C, int j, starpu_data_handle_t W, int close)
{
    int kq = tila_zqr_col_k(A, k), other = left ? tila_tile_cols(C, j) : tila_tile_rows(C, j);
    int m = left ? kq : other, n = left ? other : kq;
    tila_trans_t op = left == close ? TILA_NOTRANS : TILA_CONJTRANS;
    tila_task_on(t, C, left ? k : j, left ? j : k);
    starpu_data_handle_t Ckj = left ? tila_task_tile(t, C, k, j) : tila_task_tile(t, C, j, k);
    int rc = close ? 0 : tila_insert_zlacpy(t, TILA_GENERAL, m, n, Ckj, W);
    if (!rc)
        rc = tila_insert_ztrmm(t, left ? TILA_LEFT : TILA_RIGHT, TILA_LOWER, op, TILA_UNIT, m, n,
                               1.0, tila_task_tile(t, A, k, k), W);
    return rc || !close ? rc : tila_insert_zgeadd(t, m, n, -1.0, W, 1.0, Ckj);
}

int tila_zqr_col_apply(tila_task_t *t, tila_side_t side, tila_trans_t trans, const tila_desc_t *A,
                       const tila_desc_t *T, int k, starpu_data_handle_t E, const tila_desc_t *C,
                       int j, tila_workspace_t *ws)
{
    int left = side == TILA_LEFT, kq = tila_zqr_col_k(A, k);
    int other = left ? tila_tile_cols(C, j) : tila_tile_rows(C, j);
    int rc = 0;
    /* W = V^H C_j (kq x other) or C_j V (other x kq), on the owner of C_j's top tile. */
    tila_task_on(t, C, left ? k : j, left ? j : k);
    starpu_data_handle_t W = left ? tila_workspace_tile(ws, t->rank, kq, other)
                                  : tila_workspace_tile(ws, t->rank, other, kq);
    if (!W) return TILA_ERR_NOMEM;
    if (!E) rc = col_v_triangle(t, left, A, k, C, j, W, 0);
    for (int i = E ? k : k + 1; i < A->mt && !rc; i++) {
        int rows = tila_tile_rows(A, i);
        tila_complex64_t beta = i == k ? 0.0 : 1.0;
        if (left)
            rc = tila_insert_zgemm(t, TILA_CONJTRANS, TILA_NOTRANS, kq, other, rows, 1.0,
                                   col_v(t, A, k, E, i), tila_task_tile(t, C, i, j), beta, W);
        else
            rc = tila_insert_zgemm(t, TILA_NOTRANS, TILA_NOTRANS, other, kq, rows, 1.0,
                                   tila_task_tile(t, C, j, i), col_v(t, A, k, E, i), beta, W);
    }
    /* W = op(T) W or W op(T): op(Q) = I - V op(T) V^H. */
    if (!rc)
        rc = tila_insert_ztrmm(t, side, TILA_UPPER, trans, TILA_NONUNIT, left ? kq : other,
                               left ? other : kq, 1.0, tila_task_tile(t, T, 0, k), W);
    /* C_j -= V W or W V^H, each tile on its owner, the triangle's last. */
    for (int i = E ? k : k + 1; i < A->mt && !rc; i++) {
        int rows = tila_tile_rows(A, i);
        if (left) {
            tila_task_on(t, C, i, j);
            rc = tila_insert_zgemm(t, TILA_NOTRANS, TILA_NOTRANS, rows, other, kq, -1.0,
                                   col_v(t, A, k, E, i), W, 1.0, tila_task_tile(t, C, i, j));
        }
        else {
            tila_task_on(t, C, j, i);
            rc = tila_insert_zgemm(t, TILA_NOTRANS, TILA_CONJTRANS, other, rows, kq, -1.0, W,
                                   col_v(t, A, k, E, i), 1.0, tila_task_tile(t, C, j, i));
        }
    }
    return rc || E ? rc : col_v_triangle(t, left, A, k, C, j, W, 1);
}

/* C's tile column j (left) lies left of panel k, in the identity that ungqr starts from. */
static int identity_skip(const tila_desc_t *A, const tila_desc_t *C, int k, int j)
{
    return C->col0[j + 1] <= A->row0[k];
}

/* tila_zunmqr_submit for the PANEL scheme: panel by panel, its E if any, then every tile
 * column. */
static int zunmqr_col_submit(tila_side_t side, tila_trans_t trans, const tila_desc_t *A,
                             const tila_desc_t *T, const tila_desc_t *C, int identity_cols,
                             int forward, int kt, int across, tila_task_t *t)
{
    int rc = 0;
    for (int s = 0; s < kt && !rc; s++) {
        int k = forward ? s : kt - 1 - s;
        /* Panel k's E and W tiles: StarPU frees them once its updates are done. */
        tila_workspace_t ws;
        tila_workspace_init(&ws, sizeof(tila_complex64_t));
        t->priority = kt - s;
        starpu_data_handle_t E;
        rc = tila_zqr_col_v(t, A, k, &ws, &E);
        for (int j = 0; j < across && !rc; j++)
            if (!identity_cols || !identity_skip(A, C, k, j))
                rc = tila_zqr_col_apply(t, side, trans, A, T, k, E, C, j, &ws);
        tila_qr_flush_panel(A, T, k, 0);
        tila_workspace_release(&ws);
    }
    return rc;
}

int tila_zunmqr_submit(tila_side_t side, tila_trans_t trans, const tila_desc_t *A,
                       const tila_desc_t *T, const tila_desc_t *C, int identity_cols,
                       tila_sequence_t *seq, tila_request_t *req)
{
    int left = side == TILA_LEFT, kt = A->mt < A->nt ? A->mt : A->nt;
    /* Q = Q_1 Q_2 ... in factorization order: Q^H C and C Q take the operations in
     * that order, Q C and C Q^H in reverse. */
    int forward = left == (trans != TILA_NOTRANS);
    int across = left ? C->nt : C->mt; /* C's tiles along the dimension Q does not touch */
    if (kt == 0 || across == 0) return 0;
    tila_task_t t = tila_task_init(seq, req, 0);
    if (tila_qr_panel_layout(T))
        return zunmqr_col_submit(side, trans, A, T, C, identity_cols, forward, kt, across, &t);
    tila_qr_walk_t w;
    int rc = tila_qr_walk_begin(&w, A, T, left ? C->nb : C->mb);
    if (rc) return rc;
    for (int s = 0; s < kt && !rc; s++) {
        int k = forward ? s : kt - 1 - s;
        int nops = tila_qr_plan(A, T, k, &w);
        /* Panels to be applied first go first in every worker's queue. */
        t.priority = kt - s;
        for (int i = 0; i < nops && !rc; i++) {
            const tila_qr_op_t *op = &w.ops[forward ? i : nops - 1 - i];
            for (int j = 0; j < across && !rc; j++) {
                if (identity_cols && identity_skip(A, C, k, j)) continue;
                rc = tila_zqr_apply_op(&t, side, trans, A, T, k, op, C, j, w.ws);
            }
        }
        tila_qr_flush_panel(A, T, k, 0);
    }
    tila_qr_walk_end(&w);
    return rc;
}

/* Shared argument checks of geqrf, unmqr, ungqr and gels: A with square tiles and its T. */
int tila_zqr_check_factors(const char *func, int pos, tila_desc_t *A, tila_desc_t *T)
{
    int rc = tila_check_desc(func, pos, "A", A, TILA_COMPLEX64);
    if (rc) return rc;
    if ((rc = tila_check_square_tiles(func, pos, "the tiled QR", A))) return rc;
    return tila_check_qr_t(func, pos + 1, A, T);
}
