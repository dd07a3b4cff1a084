/**
 * @file tila_types.h
 * @brief Tila's public types, constants and error codes.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_TYPES_H
#define TILA_TYPES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Element type of a matrix. */
typedef enum tila_prec_e {
    TILA_REAL32 = 0,    /**< float (s) */
    TILA_REAL64 = 1,    /**< double (d) */
    TILA_COMPLEX32 = 2, /**< float complex (c) */
    TILA_COMPLEX64 = 3  /**< double complex (z) */
} tila_prec_t;

#ifndef __cplusplus
typedef float _Complex tila_complex32_t;
typedef double _Complex tila_complex64_t;
#endif

/** Timings: a type the precision generator never rewrites. */
typedef double tila_seconds_t;

/** op(A); values are CBLAS's. */
typedef enum tila_trans_e {
    TILA_NOTRANS = 111,
    TILA_TRANS = 112,
    TILA_CONJTRANS = 113
} tila_trans_t;

/** Which triangle; TILA_GENERAL means the whole matrix. */
typedef enum tila_uplo_e { TILA_UPPER = 121, TILA_LOWER = 122, TILA_GENERAL = 123 } tila_uplo_t;

typedef enum tila_diag_e { TILA_NONUNIT = 131, TILA_UNIT = 132 } tila_diag_t;
typedef enum tila_side_e { TILA_LEFT = 141, TILA_RIGHT = 142 } tila_side_t;

/** Matrix norms, named by LAPACK's letters. */
typedef enum tila_norm_e {
    TILA_NORM_MAX = 'M',
    TILA_NORM_ONE = 'O',
    TILA_NORM_INF = 'I',
    TILA_NORM_FRO = 'F'
} tila_norm_t;

/**
 * Return codes.  Like LAPACK: 0 success, -i when argument i is invalid, +k for a
 * numerical failure at (global, 1-based) index k.  Runtime failures have named
 * codes far below any argument position.
 */
enum tila_error_e {
    TILA_SUCCESS = 0,
    TILA_ERR_NOT_INITIALIZED = -1001, /**< tila_init was not called */
    TILA_ERR_NOMEM = -1002,           /**< out of memory */
    TILA_ERR_STARPU = -1003,          /**< StarPU refused an operation */
    TILA_ERR_MPI = -1004,             /**< an MPI call failed */
    TILA_ERR_GRID = -1005,            /**< P x Q does not match the communicator */
    TILA_ERR_NO_WORKER = -1006,       /**< no StarPU worker can run a task */
    TILA_ERR_DEVICE = -1007,          /**< a CUDA, cuBLAS or cuSOLVER call failed */
    TILA_ERR_STUCK = -1008,           /**< a call could not finish (TILA_STUCK_TIMEOUT) */
    TILA_ERR_INTERNAL = -1009         /**< a tile kernel refused what Tila gave it: a bug */
};

/** Matrix distributed in tiles over the ranks (opaque). */
typedef struct tila_desc_s tila_desc_t;

/** A group of asynchronous calls that is waited on together (opaque). */
typedef struct tila_sequence_s tila_sequence_t;

/** Status of one asynchronous call: 0, -i or +k as for the synchronous one. */
typedef struct tila_request_s {
    int status;
    struct tila_request_s *next; /**< internal: the sequence's list */
} tila_request_t;

#define TILA_REQUEST_INITIALIZER                                                                   \
    {                                                                                              \
        0, 0                                                                                       \
    }

/** Tile (m, n) -> MPI rank in [0, size). Must give the same answer on every rank. */
typedef int (*tila_rank_fn_t)(int m, int n, void *arg);

/**
 * Tile (m, n) -> CUDA device index in [0, ndevices) on the owning node (its tasks on that
 * GPU or the node's CPUs), TILA_DEVICE_CPU (the node's CPUs only), or -1 to let StarPU
 * choose.  Called only on the owner, only when ndevices > 0.
 */
typedef int (*tila_device_fn_t)(int m, int n, int ndevices, void *arg);

/** A tile whose tasks run on its node's CPU workers only (tila_device_fn_t). */
#define TILA_DEVICE_CPU (-2)

/**
 * Song and Dongarra's two-level distribution for nodes with GPUs ("A Scalable Framework for
 * Heterogeneous GPU-Based Clusters", SPAA 2012): the matrix in B x B top-level tiles, 2D
 * block-cyclic over a P x Q grid of nodes (one rank a node); each top-level tile column cut
 * into s - 1 slices of width b for the host's CPU cores, then one of width B - (s - 1) b for
 * the GPUs; rows cut alike (square diagonal tiles).  tila_hybrid_tiling gives the tiling,
 * tila_hybrid_dist the ranks and devices, tila_hybrid_balance b.
 */
typedef struct tila_hybrid_s {
    int p, q; /**< the nodes' grid: p * q ranks */
    int B;    /**< top-level tile size */
    int s;    /**< slices of a top-level tile: s - 1 CPU slices, one GPU slice (s >= 1) */
    int b;    /**< a CPU slice's width, (s - 1) b < B (not read when s = 1) */
} tila_hybrid_t;

/**
 * How tiles are placed.  Zero-initialised, it is 2D block-cyclic over the most
 * square P x Q grid of the communicator, with tiles cycled over each node's GPUs
 * by tile column.
 */
typedef struct tila_dist_s {
    int p;                      /**< grid rows; 0: chosen from the communicator size */
    int q;                      /**< grid columns; p * q must equal the communicator size */
    tila_rank_fn_t rank_of;     /**< user mapping; when set, p and q are ignored */
    void *rank_arg;             /**< passed to rank_of */
    tila_device_fn_t device_of; /**< user tile -> GPU mapping; NULL: cyclic by tile column */
    void *device_arg;           /**< passed to device_of */
} tila_dist_t;

/**
 * A ScaLAPACK (BLACS) process grid over Tila's ranks, for tila_desc_create_scalapack_sub.
 * Process (r, c) of the p x q grid is rank ranks[r * q + c]; ranks NULL means BLACS's
 * default row-major order r * q + c (a column-major grid is ranks[r * q + c] = c * p + r).
 * p * q must be the number of ranks.
 */
typedef struct tila_scalapack_grid_s {
    int p, q;         /**< process rows and columns */
    const int *ranks; /**< p * q ranks, each once, or NULL */
    int rsrc, csrc;   /**< process row and column of the global matrix's first block */
} tila_scalapack_grid_t;

/**
 * How a tiled QR factorization reduces each tile column (see tila_desc_create_qr_t).
 * FLAT: the diagonal tile eliminates every tile below it in turn (tile kernels GEQRT,
 * TSQRT; updates TSMQR of rank ib).  BINARY: the column is cut into domains, each
 * reduced by a flat chain, and the domains' triangles are merged pairwise by binary trees
 * (tall and skinny matrices: more parallelism); the domains are the tiles of one rank,
 * merged within the rank first, so that a column crosses ranks in log2(ranks) steps
 * (tall and skinny matrices across ranks: far fewer messages).  PANEL: the
 * whole tile column is factored by one task as one panel (LAPACK's blocked Householder
 * QR, one block reflector of nb columns per tile column), and each tile column to its
 * right is updated by GEMMs of rank nb (W = V^H C_j, W = T^H W, C_j -= V W; TRMMs for the
 * unit triangle of V's top tile): the fastest updates, with the panel on one worker; best
 * for square-ish matrices whose tile columns each live on one rank (P = 1).  CHOLQR: the
 * PANEL scheme (the same T, the same consumers) whose panels are factored by Cholesky QR
 * (CholeskyQR2: Gram matrix, Cholesky, triangular solve, twice; shifted CholeskyQR3 when the
 * Gram matrix is not positive definite, the Householder panel when that fails too) and
 * Householder reconstruction (LAPACK's ?orhr_col): gemm-rate work in one task a panel, for
 * tall and skinny matrices on GPUs.  AUTO chooses from the tile counts, the grid and
 * whether the ranks have GPUs (tila_desc_create_qr_t).
 */
typedef enum tila_qr_tree_e {
    TILA_QR_TREE_AUTO = 0,
    TILA_QR_TREE_FLAT = 1,
    TILA_QR_TREE_BINARY = 2,
    TILA_QR_TREE_PANEL = 3,
    TILA_QR_TREE_CHOLQR = 4
} tila_qr_tree_t;

/**
 * The arithmetic of a mixed-precision solve's factorization (tila_dsposv_x, tila_zcposv_x).
 * Its tiles are single precision in every case; TF32, BF16 and FP16 round the inputs of
 * the factorization's GEMM and SYRK/HERK tile updates to that format's significand (FP16:
 * and range, after a power-of-two scaling of the matrix) and accumulate in single
 * precision: on a GPU, cuBLAS's tensor-core compute types; on a CPU, the same rounding
 * done by hand (which is slower than single precision: for tests and accuracy studies).
 */
typedef enum tila_factor_e {
    TILA_FACTOR_ENV = 0,  /**< TILA_POSV_FACTOR's (rank 0's), FP32 where it is unset */
    TILA_FACTOR_FP32 = 1, /**< single precision throughout (LAPACK's zcposv/dsposv) */
    TILA_FACTOR_TF32 = 2, /**< products of 11-bit significands (TF32, fp32's range) */
    TILA_FACTOR_BF16 = 3, /**< products of 8-bit significands (bfloat16, fp32's range) */
    TILA_FACTOR_FP16 = 4  /**< products of 11-bit significands within half's range */
} tila_factor_t;

/** How a mixed-precision solve refines (tila_mixed_t.refine). */
typedef enum tila_refine_e {
    TILA_REFINE_AUTO = 0,    /**< classic refinement, GMRES where it stalls, then the double solve */
    TILA_REFINE_CLASSIC = 1, /**< classic refinement, then the double solve (LAPACK's) */
    TILA_REFINE_GMRES = 2    /**< GMRES refinement from the start, then the double solve */
} tila_refine_t;

/** What gave a mixed-precision solve's X (tila_mixed_t.path). */
typedef enum tila_mixed_path_e {
    TILA_PATH_NONE = 0,     /**< nothing solved (n or nrhs 0, or a failure) */
    TILA_PATH_CLASSIC = 1,  /**< classic refinement converged */
    TILA_PATH_GMRES = 2,    /**< GMRES refinement converged */
    TILA_PATH_FALLBACK = 3  /**< the double-precision factorization */
} tila_mixed_path_t;

/** A mixed-precision solve's options (in) and what it did (out, written at its wait). */
typedef struct tila_mixed_s {
    tila_factor_t factor;   /**< in: the factorization's arithmetic */
    tila_refine_t refine;   /**< in: the refinement */
    tila_factor_t used;     /**< out: the arithmetic taken (TILA_FACTOR_ENV resolved) */
    tila_mixed_path_t path; /**< out: what gave X */
    int classic;            /**< out: classic refinement steps */
    int gmres;              /**< out: GMRES iterations (Krylov vectors), every cycle */
    int cycles;             /**< out: GMRES cycles (restarts), each ending in a true residual */
    double shift;           /**< out: s / ||A||_max where A + s I was factored (a retry); 0 */
} tila_mixed_t;

#ifdef __cplusplus
}
#endif

#endif /* TILA_TYPES_H */
