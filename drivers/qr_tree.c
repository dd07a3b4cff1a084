/**
 * @file qr_tree.c
 * @brief Tiled QR, precision-free part: the T descriptor and the reduction tree.
 *
 * A panel (tile column k, tile rows k .. mt - 1) is reduced in domains: GEQRT factors
 * each domain's first tile, TS kernels eliminate the other tiles of the domain one after
 * the other into it (a flat chain), and TT kernels merge the domains' triangles pairwise,
 * in binary trees, into row k.  FLAT: one domain, the flat tree of Buttari et al.
 * BINARY: the panel's rows are grouped by the rank holding them (row k's rank first, then
 * by rank; row k + 1 joins row k's group), each group cut in domains of at most d rows;
 * the TT trees merge each group's domains first, then the groups' first domains, so that
 * a panel crosses ranks in one TS and log2(ranks) TT steps, not at every tile (the
 * hierarchical trees of Dongarra et al.).  One rank: domains of d consecutive rows from
 * row k; d = 1 is a pure binary tree.  T keeps the scheme and d, so that the routines
 * applying Q replay the same operations.
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
 * node's workers busy while the tree above them stays short (domains of 8 to 32 tiles ran
 * faster than of 2 on a tall-skinny matrix: bench/LOG.md).
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
 * AUTO: for A with more than twice as many tile rows as tile columns, CHOLQR when its tile
 * columns each live on one rank and every rank has a GPU (the binary tree's small panel
 * kernels ran 0.06x cuSOLVER's dgeqrf at 1,000,000 x 256 on an H100, CHOLQR 0.83x, and
 * faster since: bench/LOG.md), else the binary tree; for the others PANEL when its tile
 * columns each live on one rank, FLAT otherwise.  (On square matrices across ranks the
 * binary tree moves half as much but ran longer, here and simulated on GPU nodes up to 64:
 * bench/LOG.md, docs/SIMULATION.md.)  The ranks agree on the GPUs by one allreduce, where
 * CHOLQR is possible.
 */
static int tila_qr_auto(const tila_desc_t *A, tila_qr_tree_t *tree)
{
    int local = tila_qr_columns_local(A);
    if (A->mt <= 2 * A->nt) {
        *tree = local ? TILA_QR_TREE_PANEL : TILA_QR_TREE_FLAT;
        return 0;
    }
    int gpus = tila_cuda_ndevices() > 0;
    if (local) {
        int rc = tila_allreduce(&gpus, 1, MPI_INT, MPI_MIN);
        if (rc) return rc;
    }
    *tree = local && gpus ? TILA_QR_TREE_CHOLQR : TILA_QR_TREE_BINARY;
    return 0;
}

/* T's tile (m, n) lives with A's tile (m, n mod A.nt) (tila_dist_like).
 * PANEL: T's tile (0, n) lives with A's tile (n, n), the top of panel n (the last tile of
 * A's column n when A has fewer tile rows). */
static size_t tila_qr_panel_top(const tila_desc_t *A, int n)
{
    return (size_t)n * A->mt + (size_t)(n < A->mt ? n : A->mt - 1);
}

/* PANEL: the rows of T's tiles, room for the largest panel's triangular factor: A's tile
 * width, or its rows where fewer (a wide matrix in tiles wider than it is high). */
static int tila_qr_panel_rows(const tila_desc_t *A)
{
    int rows = A->nb < A->m ? A->nb : A->m;
    return rows > 1 ? rows : 1;
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
        tree != TILA_QR_TREE_PANEL && tree != TILA_QR_TREE_CHOLQR)
        return tila_illegal_value(func, 4, "tree", (int)tree,
                                  "TILA_QR_TREE_AUTO, TILA_QR_TREE_FLAT, TILA_QR_TREE_BINARY, "
                                  "TILA_QR_TREE_PANEL or TILA_QR_TREE_CHOLQR");
    if (tree == TILA_QR_TREE_AUTO && (rc = tila_qr_auto(A, &tree))) {
        tila_error(func, "the ranks could not agree on the scheme: %s", tila_strerror(rc));
        return rc;
    }
    if (tree == TILA_QR_TREE_PANEL || tree == TILA_QR_TREE_CHOLQR) {
        tila_dist_t dist = { .rank_of = tila_qr_panel_t_rank,
                             .rank_arg = (void *)A,
                             .device_of = tila_qr_panel_t_device,
                             .device_arg = (void *)A };
        rc = tila_desc_create_qr_layout(T, A, 1, tila_qr_panel_rows(A), 1, &dist);
        if (rc) return rc;
        (*T)->qr_tree = tree;
        (*T)->qr_ib = A->nb;
        return TILA_SUCCESS;
    }
    int domain = tila_qr_domain(A->mt, A->nt, tree);
    /* The binary tree of one domain a panel is the flat tree. */
    int halves = tree == TILA_QR_TREE_FLAT || (domain >= A->mt && tila_qr_columns_local(A)) ? 1 : 2;
    tila_dist_t dist = tila_dist_like(A);
    rc = tila_desc_create_qr_layout(T, A, A->mt, ib, halves, &dist);
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
    if (tila_qr_panel_layout(T))
        ok = T->mt == 1 && T->m == tila_qr_panel_rows(A);
    else
        ok = T->qr_tree != TILA_QR_TREE_AUTO && T->qr_domain >= 1 && T->mt == A->mt;
    /* T's tile columns are A's, `halves` times over. */
    ok = ok && T->nt == (int64_t)halves * A->nt;
    for (int n = 0; ok && n < T->nt; n++)
        ok = tila_tile_cols(T, n) == tila_tile_cols(A, n % A->nt);
    if (!ok) {
        tila_error(func,
                   "argument %d (T) is not the T of this matrix: create it with "
                   "tila_desc_create_qr_t(&T, A, ib, tree)",
                   pos);
        return -pos;
    }
    return 0;
}

static int tila_qr_row_cmp(const void *a, const void *b)
{
    const tila_qr_row_t *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    if (x->low != y->low) return x->low - y->low;
    return (x->m > y->m) - (x->m < y->m);
}

static void tila_qr_reverse(tila_qr_row_t *rows, int i, int j)
{
    for (; i < j; i++, j--) {
        tila_qr_row_t x = rows[i];
        rows[i] = rows[j];
        rows[j] = x;
    }
}

/* Turn rows[0 .. n - 1] left by s. */
static void tila_qr_rotate(tila_qr_row_t *rows, int n, int s)
{
    tila_qr_reverse(rows, 0, s - 1);
    tila_qr_reverse(rows, s, n - 1);
    tila_qr_reverse(rows, 0, n - 1);
}

/* The TT operations merging the triangles of rows[at[0 .. n - 1]] pairwise into at[0]. */
static int tila_qr_merge(const tila_qr_row_t *rows, const int *at, int n, tila_qr_op_t *ops)
{
    int c = 0;
    for (int s = 1; s < n; s *= 2)
        for (int i = 0; i + s < n; i += 2 * s)
            ops[c++] = (tila_qr_op_t){ TILA_QR_TT, rows[at[i]].m, rows[at[i + s]].m };
    return c;
}

int tila_qr_plan(const tila_desc_t *A, const tila_desc_t *T, int k, tila_qr_walk_t *w)
{
    tila_qr_row_t *rows = w->rows;
    tila_qr_op_t *ops = w->ops;
    int *at = w->heads; /* the domains' heads, as positions in rows */
    int mt = A->mt, d = T->qr_domain, nrows = mt - k, nheads = 0, n = 0;
    /*
     * Group the rows by rank, row k's first (key -1); FLAT: one group.  Row k + 1, the
     * next panel's diagonal, is eliminated first into row k, whatever its rank (unless it is
     * low); the tile rows lower than the panel is wide (a partial last one; any with tiles
     * of any sizes), which cannot hold a domain's triangle, join row k's group, last, and
     * are eliminated into its heads (with many low rows the binary tree so becomes mostly
     * one chain).
     */
    const int *owner = T->owner + (size_t)k * T->mt;
    int groups = 0, nlow = 0, kn = tila_tile_cols(A, k);
    for (int i = 0; i < nrows; i++) {
        int r = owner[k + i], key = T->qr_tree == TILA_QR_TREE_FLAT || i < 2 ? -1 : r;
        int low = i > 0 && tila_tile_rows(A, k + i) < kn;
        if (low) key = -1;
        nlow += low;
        rows[i] = (tila_qr_row_t){ key == owner[k] ? -1 : key, k + i, low };
        groups |= rows[i].key != -1;
    }
    qsort(rows, (size_t)nrows, sizeof *rows, tila_qr_row_cmp);
    /*
     * Across ranks, each group's order (after rows k and k + 1) turns by one row a panel:
     * the head of a domain, final only when the panel's last TT is done, is the last row
     * its group eliminates in the next panel, and the next panel's head is the first row
     * this one eliminates, final early: the panels pipeline as the flat tree's do.
     */
    for (int a = groups ? 0 : nrows, b; a < nrows; a = b) {
        for (b = a + 1; b < nrows && rows[b].key == rows[a].key; b++)
            ;
        int from = a == 0 ? 2 : a, to = a == 0 ? b - nlow : b;
        if (to - from > 1) tila_qr_rotate(rows + from, to - from, k % (to - from));
    }
    /* Domains: each group's rows, d at a time, a low row never a head; GEQRT on the heads. */
    for (int i = 0; i < nrows; i++)
        if (i == 0 ||
            (!rows[i].low && (rows[i].key != rows[i - 1].key || i - at[nheads - 1] >= d))) {
            at[nheads++] = i;
            ops[n++] = (tila_qr_op_t){ TILA_QR_GEQRT, rows[i].m, rows[i].m };
        }
    /* TS chains into the heads. */
    for (int i = 0, h = 0; i < nrows; i++) {
        if (h + 1 < nheads && i == at[h + 1]) h++;
        if (i != at[h]) ops[n++] = (tila_qr_op_t){ TILA_QR_TS, rows[at[h]].m, rows[i].m };
    }
    /* TT trees: each group's heads into its first, then the groups' first heads. */
    int ngroups = 0;
    for (int a = 0, b; a < nheads; a = b) {
        for (b = a + 1; b < nheads && rows[at[b]].key == rows[at[a]].key; b++)
            ;
        n += tila_qr_merge(rows, at + a, b - a, ops + n);
        at[ngroups++] = at[a];
    }
    return n + tila_qr_merge(rows, at, ngroups, ops + n);
}

starpu_data_handle_t tila_qr_t_tile(const tila_task_t *t, const tila_desc_t *T, int nt, int k,
                                    const tila_qr_op_t *op)
{
    return tila_task_tile(t, T, op->m, op->kind == TILA_QR_TT ? k + nt : k);
}

void tila_qr_flush_panel(const tila_desc_t *A, const tila_desc_t *T, int k, int r_row)
{
    for (int m = k; m < A->mt; m++)
        tila_tile_flush(A, m, k);
    for (int n = k + 1; r_row && n < A->nt; n++)
        tila_tile_flush(A, k, n);
    /* Panel k's factors: T(m, k), T(m, k + nt) for TT (tila_qr_t_tile); PANEL's T(0, k). */
    for (int n = k; n < T->nt; n += A->nt)
        for (int m = 0; m < T->mt; m++)
            tila_tile_flush(T, m, n);
}

static void tila_qr_walk_free(tila_qr_walk_t *w)
{
    free(w->ops);
    free(w->rows);
    free(w->heads);
}

int tila_qr_walk_begin(tila_qr_walk_t *w, const tila_desc_t *A, const tila_desc_t *T, int other)
{
    size_t mt = (size_t)(A->mt > 0 ? A->mt : 1);
    w->ops = tila_malloc(TILA_ALLOC_WORK, sizeof *w->ops * 2 * mt);
    w->rows = tila_malloc(TILA_ALLOC_WORK, sizeof *w->rows * mt);
    w->heads = tila_malloc(TILA_ALLOC_WORK, sizeof *w->heads * mt);
    int rc = tila_submit_agree(w->ops && w->rows && w->heads ? 0 : TILA_ERR_NOMEM);
    if (rc) {
        tila_qr_walk_free(w);
        return rc;
    }
    tila_scratch_register(&w->ws, tila_qr_scratch_elems(T->qr_ib, A->mb, T->nb, other), T->eltsize);
    return TILA_SUCCESS;
}

void tila_qr_walk_end(tila_qr_walk_t *w)
{
    tila_scratch_release(&w->ws);
    tila_qr_walk_free(w);
}
