/**
 * @file tila_rt_desc.h
 * @brief Internal: a distributed matrix's layout and its tiles (runtime/desc.c, runtime/tiling.c).
 * A part of the runtime's header: include tila_runtime.h, which includes the parts in order.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_RT_DESC_H
#define TILA_RT_DESC_H

#include "tila_runtime.h"

/** Layout of a distributed tile matrix. */
struct tila_desc_s {
    tila_prec_t prec;
    size_t eltsize;
    int m, n, mt, nt;
    /** Tile boundaries: tile row m is rows row0[m] .. row0[m + 1] - 1, tile column n is
     * columns col0[n] .. col0[n + 1] - 1 (mt + 1 and nt + 1 entries, from 0 to m and n). */
    int *row0, *col0;
    /** The tile size asked for (tila_desc_create), or the largest tile row's height and
     * tile column's width (tila_desc_create_tiled): what per-tile workspaces are sized by. */
    int mb, nb;
    int p, q; /**< 2D block-cyclic grid, 0 x 0 for a user mapping */
    tila_rank_fn_t rank_of;
    void *rank_arg;
    tila_device_fn_t device_of;
    void *device_arg;
    int64_t tag_base;
    int *owner;                    /**< mt * nt ranks, column-major over tiles */
    int *device;                   /**< mt * nt devices (owned tiles), -1: any */
    starpu_data_handle_t *handles; /**< mt * nt */
    void *storage;                 /**< what Tila allocated (NULL when wrapping) */
    size_t storage_size;
    int qr_ib;              /**< QR T factors: inner block size of the QR kernels (the
                                     user's ib; PANEL: nb, its T is one nb x nb factor) */
    int qr_domain;          /**< QR T factors: TS domain of the reduction (qr_tree.c) */
    tila_qr_tree_t qr_tree; /**< QR T factors: FLAT, BINARY or PANEL */
    /** The routine whose work on this matrix ends at its sequence's wait (a mixed-precision
     * solve refines there), or NULL: until then every routine refuses the matrix. */
    const char *held;
};

/** Rows and columns of tile (m, n) of A. */
static inline int tila_tile_rows(const tila_desc_t *A, int m)
{
    return A->row0[m + 1] - A->row0[m];
}
static inline int tila_tile_cols(const tila_desc_t *A, int n)
{
    return A->col0[n + 1] - A->col0[n];
}

/** tila_desc_create_lapack over the column-major `a` (lda) with A's tiles, distributed by
 * dist (a copy of A's tiles need no retiling).  Collective. */
int tila_desc_create_lapack_like(tila_desc_t **W, const tila_desc_t *A, void *a, int lda,
                                 const tila_dist_t *dist);

/** A distribution whose tile (m, n) lives where A's tile (m, n mod A->nt) does, on its rank
 * and device: for workspaces beside A (twins, QR's T). */
tila_dist_t tila_dist_like(const tila_desc_t *A);

/** A matrix of A's tiles and placement (tila_dist_like) in precision prec: a workspace
 * such as a mixed-precision solve's single copy.  No storage: its tiles have no home
 * (node -1) and StarPU allocates each where a task first writes it, so a workspace that
 * lives on GPUs costs no pinned host memory (pinning is slow: bench/LOG.md); a
 * task's first access to each tile it uses must write it (STARPU_W).  Collective. */
int tila_desc_create_twin(tila_desc_t **W, const tila_desc_t *A, tila_prec_t prec);

/** A QR T's layout for A (tila_desc_create_qr_t): mt tile rows of mb rows, A's tile columns
 * `times` over, Tila's own storage, distributed by dist.  Collective. */
int tila_desc_create_qr_layout(tila_desc_t **T, const tila_desc_t *A, int mt, int mb, int times,
                               const tila_dist_t *dist);

/** Whether two tilings of one dimension (t tiles, boundaries b[0 .. t]) are the same (so
 * also their lengths). */
int tila_tiling_equal(int ta, const int *a, int tb, const int *b);

/** Whether A and B have the same tiles: rows tiled alike, and columns. */
static inline int tila_same_tiles(const tila_desc_t *A, const tila_desc_t *B)
{
    return tila_tiling_equal(A->mt, A->row0, B->mt, B->row0) &&
           tila_tiling_equal(A->nt, A->col0, B->nt, B->col0);
}

/** Whether A is square with its rows tiled as its columns. */
static inline int tila_square_tiles(const tila_desc_t *A)
{
    return tila_tiling_equal(A->mt, A->row0, A->nt, A->col0);
}

/**
 * Whether A's diagonal runs through square diagonal tiles: row and column boundaries
 * agree up to min(mt, nt), where the shorter dimension ends (what triangles, Cholesky and
 * the tiled QR need; a uniform tiling with mb = nb has it).
 */
int tila_tiling_diagonal(const tila_desc_t *A);
/** Tile (m, n) of A: its handle, registered here first (as a placeholder, desc.c) when this
 * rank does not own it and has not named it before.  Drivers name tiles with
 * tila_task_tile, which registers only what the rank's own tasks need. */
starpu_data_handle_t tila_tile_placeholder(const tila_desc_t *A, int m, int n);
/** Tile (m, n) of A if this rank has registered it, else NULL. */
static inline starpu_data_handle_t tila_tile_registered(const tila_desc_t *A, int m, int n)
{
    return __atomic_load_n(&A->handles[(size_t)n * A->mt + m], __ATOMIC_ACQUIRE);
}

/**
 * Every task that reads tile (m, n) on another rank than its owner is submitted: drop
 * those copies (StarPU-MPI's cache keeps a received tile until its handle goes) and let
 * the owner send it again to later readers.  Every rank calls it at the same point of the
 * submission; a rank that never registered the tile skips it.
 */
void tila_tile_flush(const tila_desc_t *A, int m, int n);

/** No part of the tile is in the triangle (see tila_tile_part). */
#define TILA_TILE_NONE ((tila_uplo_t)0)

/**
 * Which part of tile (m, n) of a square-tiled matrix lies in the triangle `uplo`:
 * TILA_GENERAL (all of it), `uplo` itself for a diagonal tile, or TILA_TILE_NONE.
 */
static inline tila_uplo_t tila_tile_part(tila_uplo_t uplo, int m, int n)
{
    if (uplo == TILA_GENERAL || (uplo == TILA_UPPER && m < n) || (uplo == TILA_LOWER && m > n))
        return TILA_GENERAL;
    return m == n ? uplo : TILA_TILE_NONE;
}

#endif /* TILA_RT_DESC_H */
