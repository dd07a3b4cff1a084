/**
 * @file drivers_z.h
 * @brief Internal: task-submission pieces that several drivers share, double complex.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef DRIVERS_Z_H
#define DRIVERS_Z_H

#include "codelets_z.h"
#include "qr_tree.h"

/**
 * Submit the tasks that apply op(Q_op) of one operation `op` of panel k of the QR
 * factorization (A, T) to C: from the left to the tile rows (op->p, op->m) of C's tile
 * column j, or from the right to the tile columns (op->p, op->m) of C's tile row j.
 * Q_op is the tile QR's Q (GEQRT: UNMQR) or the stacked pair's (TS: TSMQR, TT: TTMQR).
 * @param t   sequence and priority; the rank and device are set here.
 * @param ws  the QR scratch workspace (tila_qr_workspace).
 * @return 0, TILA_ERR_NOMEM or TILA_ERR_STARPU.
 */
int tila_zqr_apply_op(tila_task_t *t, tila_side_t side, tila_trans_t trans, const tila_desc_t *A,
                      const tila_desc_t *T, int k, const tila_qr_op_t *op, const tila_desc_t *C,
                      int j, starpu_data_handle_t ws);

/** Reflectors of panel k of the PANEL scheme: min(rows from tile row k, its columns). */
static inline int tila_zqr_col_k(const tila_desc_t *A, int k)
{
    int rows = A->m - A->row0[k], cols = tila_tile_cols(A, k);
    return rows < cols ? rows : cols;
}

/**
 * PANEL scheme: the top block of panel k's V for the GEMMs of its updates.  When tile
 * (k, k) holds it as a square unit lower triangle, *E is NULL and the updates read it there
 * with TRMMs; otherwise (a last tile column narrower than its rows: a trapezoid) *E is a
 * workspace tile holding a copy with ones on the diagonal and zeros above.
 * @return 0, TILA_ERR_NOMEM or TILA_ERR_STARPU.
 */
int tila_zqr_col_v(tila_task_t *t, const tila_desc_t *A, int k, tila_workspace_t *ws,
                   starpu_data_handle_t *E);

/**
 * PANEL scheme: submit op(Q_k) C_j (left: C's tile column j) or C_j op(Q_k) (right: C's
 * tile row j) for panel k's block reflector Q_k = I - V T V^H, with E from
 * tila_zqr_col_v: W = V^H C_j (or C_j V) by a chain of GEMMs (a copy and TRMM for the
 * triangle) on the owner of C_j's tile in row (column) k, W = op(T) W (or W op(T)), then
 * C_j -= V W (or W V^H) tile by tile on their owners.
 * @return 0, TILA_ERR_NOMEM or TILA_ERR_STARPU.
 */
int tila_zqr_col_apply(tila_task_t *t, tila_side_t side, tila_trans_t trans, const tila_desc_t *A,
                       const tila_desc_t *T, int k, starpu_data_handle_t E, const tila_desc_t *C,
                       int j, tila_workspace_t *ws);

/**
 * Submit C = op(Q) C (left) or C op(Q) (right) for the Q of (A, T).  With `identity_cols`
 * (left, Q only), C's tile columns lying left of panel k are known to be columns of the
 * identity that panel k leaves unchanged, and are skipped (ungqr).
 */
int tila_zunmqr_submit(tila_side_t side, tila_trans_t trans, const tila_desc_t *A,
                       const tila_desc_t *T, const tila_desc_t *C, int identity_cols,
                       tila_sequence_t *seq, tila_request_t *req);

/**
 * Submit op(A) X = alpha B (tila_ztrsm's left side) for B's first mt tile rows, with A's
 * leading mt x mt tiles as the triangle: tile k is A's tile column k's order, and B's tile
 * row k may be taller (its first rows are solved).
 */
int tila_ztrsm_left_submit(tila_task_t *t, tila_uplo_t uplo, tila_trans_t trans, tila_diag_t diag,
                           tila_complex64_t alpha, const tila_desc_t *A, const tila_desc_t *B,
                           int mt);

/** Checks of A (square tiles, argument pos) and its T (argument pos + 1); -i on failure. */
int tila_zqr_check_factors(const char *func, int pos, tila_desc_t *A, tila_desc_t *T);

/**
 * The trailing updates of a tiled Cholesky factorization, as insert helpers of
 * tila_insert_zherk's and tila_insert_zgemm's arguments and ctx: tila_zpotrf's own, or a
 * mixed-precision solve's in a lower precision's arithmetic (drivers/zcposv.c).
 */
typedef struct tila_zpotrf_updates_s {
    int (*herk)(const tila_task_t *t, tila_uplo_t uplo, tila_trans_t trans, int n, int k,
                double alpha, starpu_data_handle_t A, double beta, starpu_data_handle_t C,
                const void *ctx);
    int (*gemm)(const tila_task_t *t, tila_trans_t transa, tila_trans_t transb, int m, int n,
                int k, tila_complex64_t alpha, starpu_data_handle_t A, starpu_data_handle_t B,
                tila_complex64_t beta, starpu_data_handle_t C, const void *ctx);
    const void *ctx;
} tila_zpotrf_updates_t;

/**
 * Submit the tiled Cholesky factorization of A (checked, its call begun: tila_zpotrf_async)
 * with the updates `up`.  @return 0, TILA_ERR_NOMEM or TILA_ERR_STARPU.
 */
int tila_zpotrf_submit(tila_uplo_t uplo, tila_desc_t *A, const tila_zpotrf_updates_t *up,
                       tila_sequence_t *seq, tila_request_t *req);

#endif /* DRIVERS_Z_H */
