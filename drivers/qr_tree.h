/**
 * @file qr_tree.h
 * @brief Internal: tiled QR, precision-free part: the operations of a panel's reduction
 * tree, the tiles of T that hold their factors, and what walking the panels needs.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_QR_TREE_H
#define TILA_QR_TREE_H

#include "tila_runtime.h"

/** Kinds of tile operations of a QR panel. */
typedef enum tila_qr_kind_e {
    TILA_QR_GEQRT, /**< factor tile (m, k); T factors in T(m, k) */
    TILA_QR_TS,    /**< triangle of (p, k) on square (m, k); T factors in T(m, k) */
    TILA_QR_TT     /**< triangle of (p, k) on triangle (m, k); T factors in T(m, k + nt) */
} tila_qr_kind_t;

/** One operation of a panel: tile row m is factored (GEQRT, p = m) or eliminated by p. */
typedef struct tila_qr_op_s {
    tila_qr_kind_t kind;
    int p, m;
} tila_qr_op_t;

/** T has the PANEL scheme's layout (one nb x nb factor a tile column): PANEL or CHOLQR. */
static inline int tila_qr_panel_layout(const tila_desc_t *T)
{
    return T->qr_tree == TILA_QR_TREE_PANEL || T->qr_tree == TILA_QR_TREE_CHOLQR;
}

/** Tile of T holding the factors of an operation of panel k of A (nt: A's tile columns), as
 * task t names it (tila_task_tile). */
starpu_data_handle_t tila_qr_t_tile(const tila_task_t *t, const tila_desc_t *T, int nt, int k,
                                    const tila_qr_op_t *op);

/**
 * Every task of panel k of (A, T) is submitted: flush (tila_tile_flush) its reflectors,
 * tile column k of A from row k, and T's factors of the panel; with `r_row` also tile row
 * k of A right of the diagonal, final once geqrf has applied panel k.
 */
void tila_qr_flush_panel(const tila_desc_t *A, const tila_desc_t *T, int k, int r_row);

/**
 * Check that T was made by tila_desc_create_qr_t for a matrix tiled like A (whose square
 * tiles tila_zqr_check_factors checks first),
 * prints the message and returns -pos otherwise.
 */
int tila_check_qr_t(const char *func, int pos, const tila_desc_t *A, const tila_desc_t *T);

/** A tile row of a panel and the key that groups the rows of one rank (qr_tree.c). */
typedef struct tila_qr_row_s {
    int key, m;
    int low; /**< fewer rows than the panel's columns: cannot hold a domain's triangle */
} tila_qr_row_t;

/** What a routine walking the panels of (A, T) needs: one panel's operations, scratch. */
typedef struct tila_qr_walk_s {
    tila_qr_op_t *ops;       /**< room for one panel's operations (2 A.mt) */
    tila_qr_row_t *rows;     /**< the panel's tile rows, grouped (A.mt) */
    int *heads;              /**< the domains' first rows (A.mt) */
    starpu_data_handle_t ws; /**< the QR codelets' scratch workspace (STARPU_SCRATCH) */
} tila_qr_walk_t;

/**
 * The operations that reduce tile column k of A (tile rows k .. A.mt - 1) to one triangle
 * at row k, into w->ops, in an order valid for factoring and for applying Q^H from the
 * left (apply Q by going backwards).  @return the number of operations.
 */
int tila_qr_plan(const tila_desc_t *A, const tila_desc_t *T, int k, tila_qr_walk_t *w);

/** Allocate a walk for A's panels and T's ib, whose updates touch tiles `other` wide in
 * the dimension Q does not (A->nb for A itself).  @return 0 or TILA_ERR_NOMEM. */
int tila_qr_walk_begin(tila_qr_walk_t *w, const tila_desc_t *A, const tila_desc_t *T, int other);

/** Release the walk once its tasks are submitted (the scratch goes when they are done). */
void tila_qr_walk_end(tila_qr_walk_t *w);

/** Priorities: panel operations of column k before the updates of the columns to its right. */
static inline int tila_qr_priority(int nt, int col, int panel)
{
    return 2 * (nt - col) + (panel ? 1 : 0);
}

#endif /* TILA_QR_TREE_H */
