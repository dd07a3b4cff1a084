/**
 * @file qr_tree.c
 * @brief Tiled QR, precision-free part: the T descriptor and the reduction tree.
 *
 * A panel (tile column k, tile rows k .. mt - 1) is reduced in domains of d consecutive
 * tile rows starting at row k: GEQRT factors each domain's first tile, TS kernels
 * eliminate the other tiles of the domain one after the other into it (a flat chain), and
 * TT kernels merge the domains' triangles pairwise, in a binary tree, into row k.  d >= mt
 * is the flat tree of Buttari et al.; d = 1 is a pure binary tree.  T keeps d, so that the
 * routines applying Q replay the same operations.
 *
 * The PANEL scheme has no tree: tile column k is factored by one task (GEQRT_COL) as one
 * panel, and T holds one nb x nb triangular factor per tile column (tile (0, k)).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>

#include "tila_codelet.h"
#include "qr_tree.h"

/*
 * Domain size of the binary tree: about 16 domains, and chains at least nt tiles long.
 * A TS chain runs LAPACK's most efficient panel kernels (a tile's TSQRT and TSMQR cost
 * about what its GEQRT, UNMQR and TT work would) but is sequential; 16 chains keep a
 * node's workers busy while the tree above them stays short.  Measured on 32768 x 512
 * with 256 x 256 tiles, 2 cores: domains of 2 tiles 37 GFLOP/s, 8 to 32 tiles 45-47.
 */
static int tila_qr_domain(int mt, int nt, tila_qr_tree_t tree)
{
    if (tree == TILA_QR_TREE_FLAT) return mt > 1 ? mt : 1;
    int d = (mt + 15) / 16;
    return d > nt ? d : nt > 1 ? nt : 1;
}

/* Whether each tile column of A lives on one rank (a P = 1 grid, one rank, or a mapping
 * of the same kind): then the PANEL scheme's panels and updates move no tile. */
static int tila_qr_columns_local(const tila_desc_t *A)
{
    for (int n = 0; n < A->nt; n++)
        for (int m = 1; m < A->mt; m++)
            if (A->owner[(size_t)n * A->mt + m] != A->owner[(size_t)n * A->mt]) return 0;
    return 1;
}

/*
 * AUTO: the binary tree when A has more than twice as many tile rows as tile columns;
 * else PANEL when its tile columns each live on one rank, FLAT otherwise.
 */
static tila_qr_tree_t tila_qr_auto(const tila_desc_t *A)
{
    if (A->mt > 2 * A->nt) return TILA_QR_TREE_BINARY;
    return tila_qr_columns_local(A) ? TILA_QR_TREE_PANEL : TILA_QR_TREE_FLAT;
}

/* T's tile (m, n) lives with A's tile (m, n mod A.nt). */
static int tila_qr_t_rank(int m, int n, void *arg)
{
    const tila_desc_t *A = arg;
    return A->owner[(size_t)(n % A->nt) * A->mt + m];
}

static int tila_qr_t_device(int m, int n, int ndevices, void *arg)
{
    const tila_desc_t *A = arg;
    (void)ndevices;
    return A->device[(size_t)(n % A->nt) * A->mt + m];
}

/* PANEL: T's tile (0, n) lives with A's tile (n, n), the top of panel n (the last tile of
 * A's column n when A has fewer tile rows). */
static size_t tila_qr_panel_top(const tila_desc_t *A, int n)
{
    return (size_t)n * A->mt + (size_t)(n < A->mt ? n : A->mt - 1);
}

static int tila_qr_panel_t_rank(int m, int n, void *arg)
{
    const tila_desc_t *A = arg;
    (void)m;
    return A->mt ? A->owner[tila_qr_panel_top(A, n)] : 0;
}

static int tila_qr_panel_t_device(int m, int n, int ndevices, void *arg)
{
    const tila_desc_t *A = arg;
    (void)m;
    (void)ndevices;
    return A->mt ? A->device[tila_qr_panel_top(A, n)] : -1;
}

int tila_desc_create_qr_t(tila_desc_t **T, const tila_desc_t *A, int ib, tila_qr_tree_t tree)
{
    static const char *func = "tila_desc_create_qr_t";
    int rc = tila_check_init(func);
    if (rc) return rc;
    if (!T) {
        tila_error(func, "argument 1 (T) is NULL");
        return -1;
    }
    *T = NULL;
    if (!A) {
        tila_error(func, "argument 2 (A) is NULL");
        return -2;
    }
    if ((rc = tila_check_square_tiles(func, 2, "the tiled QR", A))) return rc;
    if (ib < 1 || ib > A->nb) {
        tila_error(func, "argument 3 (ib) = %d, expected 1 <= ib <= nb = %d", ib, A->nb);
        return -3;
    }
    if (tree != TILA_QR_TREE_AUTO && tree != TILA_QR_TREE_FLAT && tree != TILA_QR_TREE_BINARY &&
        tree != TILA_QR_TREE_PANEL)
        return tila_illegal_value(func, 4, "tree", (int)tree,
                                  "TILA_QR_TREE_AUTO, "
                                  "TILA_QR_TREE_FLAT, TILA_QR_TREE_BINARY or TILA_QR_TREE_PANEL");
    if (tree == TILA_QR_TREE_AUTO) tree = tila_qr_auto(A);
    if (tree == TILA_QR_TREE_PANEL) {
        tila_dist_t dist = { .rank_of = tila_qr_panel_t_rank,
                             .rank_arg = (void *)A,
                             .device_of = tila_qr_panel_t_device,
                             .device_arg = (void *)A };
        rc = tila_desc_create(T, A->prec, A->nb, A->nt * A->nb, A->nb, A->nb, &dist);
        if (rc) return rc;
        (*T)->qr_tree = TILA_QR_TREE_PANEL;
        (*T)->qr_ib = A->nb;
        return TILA_SUCCESS;
    }
    int domain = tila_qr_domain(A->mt, A->nt, tree);
    int halves = domain >= A->mt ? 1 : 2;
    tila_dist_t dist = { .rank_of = tila_qr_t_rank,
                         .rank_arg = (void *)A,
                         .device_of = tila_qr_t_device,
                         .device_arg = (void *)A };
    rc = tila_desc_create(T, A->prec, A->mt * ib, halves * A->nt * A->nb, ib, A->nb, &dist);
    if (rc) return rc;
    (*T)->qr_ib = ib;
    (*T)->qr_domain = domain;
    (*T)->qr_tree = halves == 1 ? TILA_QR_TREE_FLAT : TILA_QR_TREE_BINARY;
    return TILA_SUCCESS;
}

tila_qr_tree_t tila_desc_qr_tree(const tila_desc_t *T)
{
    return T ? T->qr_tree : TILA_QR_TREE_AUTO;
}

int tila_check_qr_t(const char *func, int pos, const tila_desc_t *A, const tila_desc_t *T)
{
    int rc = tila_check_desc(func, pos, "T", T, A->prec);
    if (rc) return rc;
    int ok, halves = T->qr_tree == TILA_QR_TREE_BINARY ? 2 : 1;
    if (T->qr_tree == TILA_QR_TREE_PANEL)
        ok = T->mb == A->nb && T->nb == A->nb && T->m == A->nb && T->n == A->nt * A->nb;
    else
        ok = T->qr_tree != TILA_QR_TREE_AUTO && T->qr_domain >= 1 && T->mt == A->mt &&
             T->nb == A->nb && T->n == halves * A->nt * A->nb;
    if (!ok) {
        tila_error(func,
                   "argument %d (T) is not the T of this matrix: create it with "
                   "tila_desc_create_qr_t(&T, A, ib, tree)",
                   pos);
        return -pos;
    }
    return 0;
}

int tila_qr_plan(const tila_desc_t *T, int mt, int k, tila_qr_op_t *ops)
{
    int d = T->qr_domain, n = 0, nheads = (mt - k + d - 1) / d;
    for (int h = k; h < mt; h += d)
        ops[n++] = (tila_qr_op_t){ TILA_QR_GEQRT, h, h };
    for (int h = k; h < mt; h += d)
        for (int m = h + 1; m < h + d && m < mt; m++)
            ops[n++] = (tila_qr_op_t){ TILA_QR_TS, h, m };
    for (int s = 1; s < nheads; s *= 2)
        for (int i = 0; i + s < nheads; i += 2 * s)
            ops[n++] = (tila_qr_op_t){ TILA_QR_TT, k + i * d, k + (i + s) * d };
    return n;
}

starpu_data_handle_t tila_qr_t_tile(const tila_desc_t *T, int nt, int k, const tila_qr_op_t *op)
{
    return tila_tile(T, op->m, op->kind == TILA_QR_TT ? k + nt : k);
}

int tila_qr_walk_begin(tila_qr_walk_t *w, const tila_desc_t *A, const tila_desc_t *T)
{
    w->ops = malloc(sizeof *w->ops * 2 * (size_t)(A->mt > 0 ? A->mt : 1));
    if (!w->ops) return TILA_ERR_NOMEM;
    size_t elems = tila_qr_scratch_elems(T->qr_ib, T->nb);
    starpu_vector_data_register(&w->ws, -1, 0, (uint32_t)elems, T->eltsize);
    return TILA_SUCCESS;
}

void tila_qr_walk_end(tila_qr_walk_t *w)
{
    starpu_data_unregister_submit(w->ws);
    free(w->ops);
}
