/**
 * @file zgeqrf.c
 * @brief Tiled QR factorization A = Q R over StarPU-MPI (flat or binary reduction tree).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <stdlib.h>

#include "codelets_z.h"
#include "drivers_z.h"

/* Submit the factorization task of one operation of panel k. */
static int zgeqrf_panel_op(tila_task_t *t, tila_desc_t *A, tila_desc_t *T, int k,
                           const tila_qr_op_t *op, starpu_data_handle_t ws)
{
    int ib = T->qr_ib, kn = tila_tile_cols(A, k), rows = tila_tile_rows(A, op->m);
    tila_task_on(t, A, op->m, k);
    starpu_data_handle_t Tk = tila_qr_t_tile(t, T, A->nt, k, op);
    switch (op->kind) {
    case TILA_QR_GEQRT:
        return tila_insert_zgeqrt(t, rows, kn, ib, tila_task_tile(t, A, op->m, k), Tk, ws);
    case TILA_QR_TS:
        return tila_insert_ztsqrt(t, rows, kn, ib, tila_task_tile(t, A, op->p, k),
                                  tila_task_tile(t, A, op->m, k), Tk, ws);
    case TILA_QR_TT:
        /* Tile op->m holds a triangle of min(rows, kn) rows (its GEQRT's R). */
        return tila_insert_zttqrt(t, rows < kn ? rows : kn, kn, ib, tila_task_tile(t, A, op->p, k),
                                  tila_task_tile(t, A, op->m, k), Tk, ws);
    }
    return TILA_ERR_STARPU;
}

/*
 * The PANEL scheme: GEQRT_COL factors tile column k as one panel (on the owner of its
 * top tile; the tiles below come to it when the column is not on one rank), then its
 * block reflector updates every tile column to its right with rank-nb GEMMs.  The CHOLQR
 * scheme factors the panels by Cholesky QR (CHOLQR_COL: the same V, R and T), except a panel
 * whose top tile has fewer rows than it is wide (the last one of a wide matrix): GEQRT_COL.
 */
static int zgeqrf_col(tila_task_t *t, tila_desc_t *A, tila_desc_t *T, int kt)
{
    starpu_data_handle_t *col = tila_malloc(TILA_ALLOC_WORK, sizeof *col * (size_t)A->mt), work;
    int rc = tila_submit_agree(col ? 0 : TILA_ERR_NOMEM);
    if (rc) {
        free(col);
        return rc;
    }
    int cholqr = T->qr_tree == TILA_QR_TREE_CHOLQR;
    tila_scratch_register(&work,
                          cholqr ? tila_zcholqr_col_scratch(A->m, A->nb, A->mt)
                                 : tila_zgeqrt_col_scratch(A->m, A->nb, A->mt),
                          T->eltsize);
    for (int k = 0; k < kt && !rc; k++) {
        /* Panel k's E and W tiles: StarPU frees them once its updates are done. */
        tila_workspace_t ws;
        tila_workspace_init(&ws, sizeof(tila_complex64_t));
        t->priority = tila_qr_priority(A->nt, k, 1);
        tila_task_on(t, A, k, k);
        for (int i = k; i < A->mt; i++)
            col[i - k] = tila_task_tile(t, A, i, k);
        starpu_data_handle_t E;
        int kn = tila_tile_cols(A, k);
        if (cholqr && tila_tile_rows(A, k) >= kn)
            rc = tila_insert_zcholqr_col(t, A->m - A->row0[k], kn, A->mt - k, col,
                                         tila_task_tile(t, T, 0, k), work);
        else
            rc = tila_insert_zgeqrt_col(t, A->m - A->row0[k], kn, A->mt - k, col,
                                        tila_task_tile(t, T, 0, k), work);
        if (!rc) rc = tila_zqr_col_v(t, A, k, &ws, &E);
        for (int n = k + 1; n < A->nt && !rc; n++) {
            t->priority = tila_qr_priority(A->nt, n, 0);
            rc = tila_zqr_col_apply(t, TILA_LEFT, TILA_CONJTRANS, A, T, k, E, A, n, &ws);
        }
        tila_qr_flush_panel(A, T, k, 1);
        tila_workspace_release(&ws);
    }
    tila_scratch_release(&work);
    free(col);
    return rc;
}

int tila_zgeqrf_async(tila_desc_t *A, tila_desc_t *T, tila_sequence_t *seq, tila_request_t *req)
{
    static const char *func = "tila_zgeqrf";
    int rc = tila_check_init(func);
    if (rc) return rc;
    if ((rc = tila_zqr_check_factors(func, 1, A, T))) return rc;
    if ((rc = tila_check_sequence(func, 3, seq, req))) return rc;
    tila_call_begin(seq, req);

    int kt = A->mt < A->nt ? A->mt : A->nt;
    if (kt == 0) return 0;
    tila_task_t t = tila_task_init(seq, req, 0);
    if (tila_qr_panel_layout(T)) return zgeqrf_col(&t, A, T, kt);
    tila_qr_walk_t w;
    if ((rc = tila_qr_walk_begin(&w, A, T, A->nb))) return rc;
    for (int k = 0; k < kt && !rc; k++) {
        int nops = tila_qr_plan(A, T, k, &w);
        for (int i = 0; i < nops && !rc; i++) {
            /* The panel's kernels are on the critical path: each one unlocks a row of
             * updates, and the updates of the next column unlock the next panel. */
            t.priority = tila_qr_priority(A->nt, k, 1);
            rc = zgeqrf_panel_op(&t, A, T, k, &w.ops[i], w.ws);
            for (int n = k + 1; n < A->nt && !rc; n++) {
                t.priority = tila_qr_priority(A->nt, n, 0);
                rc = tila_zqr_apply_op(&t, TILA_LEFT, TILA_CONJTRANS, A, T, k, &w.ops[i], A, n,
                                       w.ws);
            }
        }
        tila_qr_flush_panel(A, T, k, 1);
    }
    tila_qr_walk_end(&w);
    return rc;
}

/**
 * Tiled QR factorization: see include/tila_z.h.
 */
int tila_zgeqrf(tila_desc_t *A, tila_desc_t *T)
{
    tila_sync_t s;
    int rc = tila_sync_begin("tila_zgeqrf", &s);
    return rc ? rc : tila_sync_end(&s, tila_zgeqrf_async(A, T, s.seq, &s.req));
}
