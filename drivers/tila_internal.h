/**
 * @file tila_internal.h
 * @brief Internal: runtime state, descriptor layout, argument checking for drivers.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_INTERNAL_H
#define TILA_INTERNAL_H

#include <pthread.h>
#include <stdint.h>
#include <starpu_mpi.h>

#include "tila.h"
#include "tila_codelet.h"

#define TILA_MAX_CUDA_DEVICES 64

/** Process-wide state between tila_init and tila_finalize. */
typedef struct tila_runtime_s {
    int initialized;
    int started_mpi;     /**< tila_init called MPI_Init_thread */
    int started_starpu;  /**< tila_init called starpu_init */
    int rank, size;
    MPI_Comm comm;       /**< Tila's own collectives (a duplicate of the world) */
    int64_t next_tag;    /**< first MPI tag of the next descriptor */
    int ncuda;           /**< CUDA devices with a worker here */
    int cuda_devid[TILA_MAX_CUDA_DEVICES]; /**< device number of each */
    unsigned nworkers;   /**< StarPU's worker count (length of the bitmaps) */
    uint32_t *device_workers; /**< per device: CPU workers + that device's CUDA workers */
} tila_runtime_t;

extern tila_runtime_t tila_rt;

/** Layout of a distributed tile matrix. */
struct tila_desc_s {
    tila_prec_t prec;
    size_t eltsize;
    int m, n, mb, nb, mt, nt;
    int p, q;                   /**< 2D block-cyclic grid, 0 x 0 for a user mapping */
    tila_rank_fn_t rank_of;
    void *rank_arg;
    tila_device_fn_t device_of;
    void *device_arg;
    int64_t tag_base;
    int *owner;                 /**< mt * nt ranks, column-major over tiles */
    int *device;                /**< mt * nt devices (owned tiles), -1: any */
    starpu_data_handle_t *handles; /**< mt * nt */
    void *storage;              /**< what Tila allocated (NULL when wrapping) */
    size_t storage_size;
    int qr_domain;              /**< QR T factors: TS domain of the reduction (see qr.c) */
    tila_qr_tree_t qr_tree;     /**< QR T factors: FLAT, BINARY or PANEL */
};

/** Rows and columns of tile (m, n) of A. */
static inline int tila_tile_rows(const tila_desc_t *A, int m)
{
    return m == A->mt - 1 ? A->m - m * A->mb : A->mb;
}
static inline int tila_tile_cols(const tila_desc_t *A, int n)
{
    return n == A->nt - 1 ? A->n - n * A->nb : A->nb;
}
static inline starpu_data_handle_t tila_tile(const tila_desc_t *A, int m, int n)
{
    return A->handles[(size_t)n * A->mt + m];
}

/* Tile (i, j) of op(X): tile (i, j) of X, or (j, i) when transposed. */
static inline starpu_data_handle_t tila_op_tile(const tila_desc_t *X, tila_trans_t trans, int i,
                                                int j)
{
    return trans == TILA_NOTRANS ? tila_tile(X, i, j) : tila_tile(X, j, i);
}

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

/** Print "func: message" on stderr, prefixed by the rank when there are several. */
void tila_error(const char *func, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/** TILA_ERR_NOT_INITIALIZED with a message when tila_init has not run. */
int tila_check_init(const char *func);

/**
 * Argument checks shared by drivers; each prints the message and returns -pos
 * (pos is the argument's position) when the check fails, else 0.
 */
int tila_check_desc(const char *func, int pos, const char *name, const tila_desc_t *A,
                    tila_prec_t prec);
int tila_check_sequence(const char *func, int pos, tila_sequence_t *seq, tila_request_t *req);
/** Print "argument pos (name) has illegal value value: allowed"; returns -pos. */
int tila_illegal_value(const char *func, int pos, const char *name, int value,
                       const char *allowed);
/** uplo is TILA_UPPER, TILA_LOWER or TILA_GENERAL. */
int tila_check_uplo(const char *func, int pos, tila_uplo_t uplo);
/** uplo is TILA_UPPER or TILA_LOWER (a triangle, not the whole matrix). */
int tila_check_triangle(const char *func, int pos, tila_uplo_t uplo);
/** trans (argument `name`) is TILA_NOTRANS, TILA_TRANS or TILA_CONJTRANS. */
int tila_check_trans(const char *func, int pos, const char *name, tila_trans_t trans);
int tila_check_side(const char *func, int pos, tila_side_t side);
int tila_check_diag(const char *func, int pos, tila_diag_t diag);
/** A (argument pos) has square tiles, which `what` ("the tiled QR", ...) needs. */
int tila_check_square_tiles(const char *func, int pos, const char *what, const tila_desc_t *A);
/** A triangle (uplo not TILA_GENERAL) needs square tiles. */
int tila_check_triangle_tiles(const char *func, int pos, tila_uplo_t uplo, const tila_desc_t *A);
/** A (argument pos) is square, in square tiles. */
int tila_check_square(const char *func, int pos, const tila_desc_t *A);
/** A (argument pos) is square in square tiles and B (pos + 1) has its rows and tiling. */
int tila_check_rhs(const char *func, int pos, const tila_desc_t *A, const tila_desc_t *B);
/** B has A's size and tiling. */
int tila_check_same_tiling(const char *func, int pos, const char *name, const tila_desc_t *A,
                           const tila_desc_t *B);

/** Attach a request to its sequence (status reset to 0). */
void tila_sequence_attach(tila_sequence_t *seq, tila_request_t *req);

/** Run an asynchronous routine's submission synchronously. */
int tila_sequence_run_sync(int rc, tila_sequence_t *seq);

/* ---- Tiled QR: the reduction tree (drivers/qr.c) ---- */

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

/**
 * The operations that reduce tile column k (tile rows k .. mt - 1) to one triangle at row
 * k, in an order valid for factoring and for applying Q^H from the left (apply Q by going
 * backwards).  `ops` has room for 2 (mt - k) entries.  @return the number of operations.
 */
int tila_qr_plan(const tila_desc_t *T, int mt, int k, tila_qr_op_t *ops);

/** Tile of T holding the factors of an operation of panel k of A (nt: A's tile columns). */
starpu_data_handle_t tila_qr_t_tile(const tila_desc_t *T, int nt, int k,
                                    const tila_qr_op_t *op);

/**
 * Check that T was made by tila_desc_create_qr_t for a matrix tiled like A (whose square
 * tiles tila_zqr_check_factors checks first),
 * prints the message and returns -pos otherwise.
 */
int tila_check_qr_t(const char *func, int pos, const tila_desc_t *A, const tila_desc_t *T);

/** What a routine walking the panels of (A, T) needs: one panel's operations, scratch. */
typedef struct tila_qr_walk_s {
    tila_qr_op_t *ops;       /**< room for one panel's operations */
    starpu_data_handle_t ws; /**< the QR codelets' scratch workspace (STARPU_SCRATCH) */
} tila_qr_walk_t;

/** Allocate a walk for A's panels and T's ib.  @return 0 or TILA_ERR_NOMEM. */
int tila_qr_walk_begin(tila_qr_walk_t *w, const tila_desc_t *A, const tila_desc_t *T);

/** Release the walk once its tasks are submitted (the scratch goes when they are done). */
void tila_qr_walk_end(tila_qr_walk_t *w);

/** Priorities: panel operations of column k before the updates of the columns to its right. */
static inline int tila_qr_priority(int nt, int col, int panel)
{
    return 2 * (nt - col) + (panel ? 1 : 0);
}
/**
 * Vectors and tiles of partial results of one asynchronous call (see workspace.c): registered
 * as they are needed, released with tila_workspace_release once the call's tasks are
 * submitted; StarPU frees each vector after its last use.
 */
typedef struct tila_workspace_s {
    starpu_data_handle_t *handles;
    size_t count, cap;
    size_t eltsize;
} tila_workspace_t;

void tila_workspace_init(tila_workspace_t *ws, size_t eltsize);
/** A vector of len elements written first by a task on `rank`; NULL when out of memory. */
starpu_data_handle_t tila_workspace_vector(tila_workspace_t *ws, int rank, int len);
/** A rows x cols tile (leading dimension rows), written first by a task on `rank`. */
starpu_data_handle_t tila_workspace_tile(tila_workspace_t *ws, int rank, int rows, int cols);
void tila_workspace_release(tila_workspace_t *ws);

#endif /* TILA_INTERNAL_H */
