/**
 * @file tila_runtime.h
 * @brief Internal: the precision-free runtime beneath drivers and codelets: process state,
 * descriptor layout, argument checks, sequences, task placement and accounting, workspaces.
 * What only the runtime itself uses (the node's set-up, naps, the progress worker, the
 * environment's registry) is in runtime/private/tila_runtime_private.h, on the include
 * path of the runtime's own sources alone: the build refuses a driver or codelet that reaches for it.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_RUNTIME_H
#define TILA_RUNTIME_H

#include "tila_config.h"

#include <pthread.h>
#include <stdint.h>
#include <starpu.h>
#include <starpu_mpi.h>

#include "tila.h"

#define TILA_MAX_CUDA_DEVICES 64

/*
 * StarPU-MPI matches a message by (source, tag): a tag must name the same data on every
 * rank.  Tila's own data take fixed tags, whether or not this rank uses them (the progress
 * worker is on only where a node's ranks outnumber its CPUs, or off by a rank's own
 * environment); descriptors, workspaces and calls' partials book the next ones
 * (tila_tag_book), in the same order on every rank (they are created collectively).
 */
enum {
    TILA_TAG_PROGRESS = 0, /**< the progress worker's receive from the rank to itself */
    TILA_TAG_ABSENT = 1,   /**< tila_rt.absent */
    TILA_TAG_FIRST = 2     /**< the first tag of the data created after tila_init */
};

/**
 * The tag book (runtime/tags.c): `count` consecutive tags for the data of one creation (a
 * descriptor's tiles, a workspace tile, a call's partials), the first returned.
 * Collective: every rank books the same counts in the same order, before anything that
 * can fail on one rank only, so that the tags of the next data agree whatever becomes of
 * this one.
 */
int64_t tila_tag_book(int64_t count);
/** The first tag the next booking gets (what a collective agreement compares). */
int64_t tila_tag_next(void);
/** After an agreement (the largest next tag of all ranks): a rank behind catches up. */
void tila_tag_agree(int64_t next);

/** Process-wide state between tila_init and tila_finalize. */
typedef struct tila_runtime_s {
    int initialized;
    int started_mpi;    /**< tila_init called MPI_Init_thread */
    int started_starpu; /**< tila_init called starpu_init */
    int rank, size;
    MPI_Comm comm;                         /**< Tila's own collectives (a duplicate of the world) */
    int comm_started;                      /**< comm is a duplicate to free */
    MPI_Comm starpu_comm;                  /**< StarPU-MPI's (another duplicate; the world in simulation) */
    int64_t next_tag;                      /**< the tag book's next tag (runtime/tags.c alone) */
    int ncuda;                             /**< CUDA devices with a worker here */
    int cuda_devid[TILA_MAX_CUDA_DEVICES]; /**< device number of each */
    unsigned nwords;          /**< 32-bit words of a worker bitmap (StarPU's task->workerids) */
    uint32_t *device_workers; /**< per device, a bitmap: CPU workers + that device's CUDA ones */
    uint32_t *cpu_workers;    /**< the CPU workers (TILA_DEVICE_CPU tiles), when a GPU has one */
    /** Stands for the tiles of a task this rank takes no part in (tila_task_tile); NULL
     * on one rank. */
    starpu_data_handle_t absent;
    /** Bitmaps of the workers that run the tasks under TILA_SHORT_TASK_FLOPS (the CPU
     * worker StarPU-MPI's progress thread runs, progress_worker.c) and the others; NULL:
     * any worker runs any task. */
    uint32_t *short_workers, *long_workers;
    /** On a node with GPUs and CPU workers: per device, then for any device, the bitmap of
     * the CUDA workers alone (ncuda + 1 of them), which run the tasks of more than
     * cpu_task_flops flops on tiles a GPU may hold (init.c); NULL: no such restriction. */
    uint32_t *gpu_workers;
    double cpu_task_flops;
    int paused; /**< tila_pause: StarPU's workers wait for tila_resume */
    /** TILA_TRACE: every task's pop prologue (runtime/trace.c), else NULL. */
    void (*trace_pop)(void *);
} tila_runtime_t;

extern tila_runtime_t tila_rt;

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
 * lives on GPUs costs no pinned host memory (pinning runs at some 0.3-0.7 ms a MB); a
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

/**
 * MPI_Allreduce in place on Tila's communicator, waiting without holding a core that a
 * StarPU worker needs (runtime/comm.c); under simulation, through StarPU-MPI transfers
 * (runtime/comm_sim.c: the types and operations Tila uses).  Collective.
 * @return 0 or TILA_ERR_MPI.
 */
int tila_allreduce(void *buf, int count, MPI_Datatype type, MPI_Op op);

/** Print "func: message" on stderr, prefixed by the rank when there are several. */
void tila_error(const char *func, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** TILA_ERR_NOT_INITIALIZED (or TILA_ERR_STUCK after a call that could not finish) with a
 * message, else 0.  A check: it changes nothing (tila_call_begin does). */
int tila_check_init(const char *func);

/**
 * A call whose arguments passed their checks begins: Tila's workers are back (tila_resume,
 * after tila_pause) and req joins seq's wait, which gives it the status agreed there (a
 * request not yet in seq starts at 0).  Idempotent; tila_task_init calls it too.
 */
void tila_call_begin(tila_sequence_t *seq, tila_request_t *req);

/**
 * Argument checks shared by drivers; each prints the message and returns -pos
 * (pos is the argument's position) when the check fails, else 0, and changes nothing.
 */
int tila_check_desc(const char *func, int pos, const char *name, const tila_desc_t *A,
                    tila_prec_t prec);
int tila_check_sequence(const char *func, int pos, tila_sequence_t *seq, tila_request_t *req);
/** Print "argument pos (name) has illegal value value: allowed"; returns -pos. */
int tila_illegal_value(const char *func, int pos, const char *name, int value, const char *allowed);
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

/**
 * Work a call leaves for its sequence's wait: the norms reduce their partial results
 * across ranks there, with collectives, once the tasks are done.  A hook only reduces: it
 * reads what its call's tasks left on this rank, exchanges it with Tila's collectives
 * (tila_allreduce), writes the results and frees; it submits no task and waits for no
 * sequence (tila_sequence_wait refuses to run inside a hook).  Work that depends on the
 * results and needs tasks is a continuation's (tila_continuation_t).  The first round of that
 * reduction rides in the allreduce that agrees on the status: once this rank's tasks are
 * done, tila_sequence_wait calls keys(hook, key) for every hook, in the order the hooks
 * were added (calls are submitted in the same order everywhere), which writes the hook's
 * nkeys 64-bit keys (they start at INT64_MIN) and returns 0 or a failure of this rank;
 * the maxima of the keys over the ranks come back with the status, and fn(hook, status,
 * 1, key) gets them with the status (the same on every rank).  A sequence destroyed
 * without a wait calls fn(hook, status, 0, NULL), which must only release.  The hook is
 * embedded in the call's own state, which fn frees.  Every rank must count the same keys
 * whatever failed on it, so a call reserves them with tila_sequence_keys before anything
 * that can fail; a rank that then has no hook leaves its keys at INT64_MIN, and its
 * failure makes the status nonzero everywhere.  @return 0 or a code for the wait to return.
 */
typedef struct tila_wait_hook_s {
    int nkeys;
    int (*keys)(struct tila_wait_hook_s *hook, int64_t *key);
    int (*fn)(struct tila_wait_hook_s *hook, int status, int run, const int64_t *key);
    struct tila_wait_hook_s *next;
} tila_wait_hook_t;

/**
 * What a call leaves for its sequence's wait that needs more tasks, chosen by values the
 * wait brings (a mixed-precision solve refines or falls back): a continuation.  It runs on
 * every rank after the status is agreed and every hook has run, in the order the
 * continuations were added, as fn(c, status, 1) with the agreed status.  It may submit
 * and wait, in sequences of its own (a child of the caller's, or those of synchronous
 * calls, whose waits run their own hooks and continuations: continuations nest), never in
 * the sequence whose wait runs it; it makes the same calls in the same order on every
 * rank, since they are collective.  A sequence destroyed without a wait calls fn(c,
 * status, 0), which must only release.  The continuation is embedded in the call's state,
 * which fn frees.  @return 0 or a code for the wait to return.
 */
typedef struct tila_continuation_s {
    int (*fn)(struct tila_continuation_s *c, int status, int run);
    struct tila_continuation_s *next;
} tila_continuation_t;

/** Add continuation c to seq's wait (tila_continuation_t). */
void tila_sequence_then(tila_sequence_t *seq, tila_continuation_t *c);

/**
 * A sequence for a routine's inner steps whose failures are the routine's to handle (a
 * mixed-precision solve falls back when its single-precision factorization fails): its
 * tasks also do nothing once `parent` (the caller's sequence) has failed, while its own
 * failures stay out of the parent's status.
 */
int tila_sequence_create_child(tila_sequence_t **seq, const tila_sequence_t *parent);

/** 1 when seq, or the parent it was created with, has failed on this rank. */
int tila_sequence_failed(const tila_sequence_t *seq);

/** Reserve nkeys keys in the allreduce of seq's wait, for a hook added later. */
void tila_sequence_keys(tila_sequence_t *seq, int nkeys);
void tila_sequence_on_wait(tila_sequence_t *seq, tila_wait_hook_t *hook);

/** What a synchronous routine runs its _async form in: a sequence of its own, a request. */
typedef struct tila_sync_s {
    tila_sequence_t *seq;
    tila_request_t req;
} tila_sync_t;

/** Start a synchronous call: Tila initialised, the sequence created.  @return 0 or a code. */
int tila_sync_begin(const char *func, tila_sync_t *s);

/**
 * Finish it: `rc` is what the _async form returned.  Waits for the sequence (also after a
 * refused submission: part of the work may be in flight, and the wait is collective),
 * destroys it.  @return rc if not 0, else the sequence's status.
 */
int tila_sync_end(tila_sync_t *s, int rc);

/**
 * Tiles of partial results of one asynchronous call (see workspace.c): registered
 * as they are needed, released with tila_workspace_release once the call's tasks are
 * submitted; StarPU frees each tile after its last use.  The tiles are chained through
 * their handles (StarPU's user data), so that adding one allocates nothing of Tila's and
 * cannot fail on one rank only.
 */
typedef struct tila_workspace_s {
    starpu_data_handle_t last; /**< the tile added last; each one's user data: the one before */
    size_t count;
    size_t eltsize;
} tila_workspace_t;

void tila_workspace_init(tila_workspace_t *ws, size_t eltsize);
/** A rows x cols tile (leading dimension rows), written first by a task on `rank`; never NULL. */
starpu_data_handle_t tila_workspace_tile(tila_workspace_t *ws, int rank, int rows, int cols);
void tila_workspace_release(tila_workspace_t *ws);

/**
 * Register a codelet's scratch (STARPU_SCRATCH) of `elems` elements of `eltsize` bytes, of
 * any size: StarPU 1.3 counts a vector's elements in 32 bits, so a larger scratch is
 * registered with elements of a multiple of eltsize (the codelets take its address alone).
 */
void tila_scratch_register(starpu_data_handle_t *h, size_t elems, size_t eltsize);

/**
 * What a rank allocates for a call: a task's arguments, a descriptor (its layout and
 * storage), a driver's own arrays before it submits (TILA_ALLOC_WORK).
 */
typedef enum tila_alloc_kind_e {
    TILA_ALLOC_ARGS,
    TILA_ALLOC_DESC,
    TILA_ALLOC_WORK
} tila_alloc_kind_t;

/**
 * malloc and calloc through the test hook of TILA_TEST_ALLOC_FAIL=RANK:K[+][:KIND]
 * (KIND args, desc or work; any when absent): on rank RANK, the K-th of these allocations
 * (of that kind) since the hook was armed returns NULL, and with `+` every one after it too.
 * The hook is armed, or disarmed when the variable is unset, at each descriptor creation
 * (a collective point: every rank counts from the same place of the program).
 */
void *tila_malloc(tila_alloc_kind_t kind, size_t bytes);
void *tila_calloc(tila_alloc_kind_t kind, size_t count, size_t size);
/** 1 when the hook fails this allocation (for allocations of another allocator's). */
int tila_alloc_fails(tila_alloc_kind_t kind);
/** Read TILA_TEST_ALLOC_FAIL again and count from zero (tila_desc_create and its kin). */
void tila_alloc_hook_arm(void);

/**
 * A driver's own allocations before it submits anything are rank-local: agree on them
 * before the first task, so that a rank short of memory fails the call on every rank
 * instead of leaving the others waiting for its messages.  Collective (nothing on one
 * rank).  @return the most negative rc of all ranks (0 when none failed).
 */
int tila_submit_agree(int rc);

/* ---- Tasks (runtime/task.c) ---- */

/** Where and how a task runs; filled by the driver with tila_task_init/tila_task_on. */
typedef struct tila_task_s {
    tila_sequence_t *seq;
    tila_request_t *req;
    int priority;
    int rank;                /**< rank that executes the task (owner of its output tile) */
    int m, n;                /**< its output tile (-1, -1: a workspace), for messages */
    unsigned nwords;         /**< 32-bit words of `workers`, 0: any worker */
    const uint32_t *workers; /**< StarPU worker bitmap of the output tile's device level */
    /** the CUDA workers of that level (tila_rt.gpu_workers), for a large task; or NULL */
    const uint32_t *gpu_workers;
} tila_task_t;

/** First member of every codelet's argument struct. */
typedef struct tila_cl_base_s {
    tila_sequence_t *seq;
    tila_request_t *req;
    int m, n; /**< the task's output tile (tila_task_t's), for messages */
} tila_cl_base_t;

tila_task_t tila_task_init(tila_sequence_t *seq, tila_request_t *req, int priority);

/**
 * Tile (m, n) of A as task t names it, once tila_task_on* has placed t.  A rank that
 * neither runs t nor owns the tile gets tila_rt.absent instead: StarPU-MPI does nothing
 * with the tile there, and the rank does not register a handle for it (kilobytes each:
 * every tile of a large matrix on every rank would cost each rank gigabytes).
 */
static inline starpu_data_handle_t tila_task_tile(const tila_task_t *t, const tila_desc_t *A, int m,
                                                  int n)
{
    starpu_data_handle_t h = tila_tile_registered(A, m, n);
    if (h) return h;
    return t->rank == tila_rt.rank ? tila_tile_placeholder(A, m, n) : tila_rt.absent;
}

/* Tile (i, j) of op(X) for task t: tile (i, j) of X, or (j, i) when transposed. */
static inline starpu_data_handle_t tila_task_op_tile(const tila_task_t *t, const tila_desc_t *X,
                                                     tila_trans_t trans, int i, int j)
{
    return trans == TILA_NOTRANS ? tila_task_tile(t, X, i, j) : tila_task_tile(t, X, j, i);
}

/**
 * The access mode of a tile that task t overwrites without reading it: STARPU_W, unless t's
 * sequence has already failed here, where t will do nothing (tila_cl_skip).  A skipped
 * task holding a tile in STARPU_W would still make the buffer StarPU gave it, never
 * filled, the tile's only valid copy (stale or fresh memory where the task ran away from
 * the tile's last writer: a CPU after a GPU), and what the tile held would be lost; in
 * STARPU_RW it keeps its value.  Only the rank that runs t and owns the tile switches:
 * StarPU-MPI moves nothing for such a tile in either mode, so the ranks' messages still
 * match when they do not yet agree on the failure (each knows its own until the wait).
 * Only tiles with a home in memory (a matrix's, Tila's or the caller's storage) switch:
 * a workspace tile (home node -1) holds nothing that outlives its call, and StarPU refuses
 * to read one that was never written.
 * Tasks submitted before the failure and skipped after it keep STARPU_W: what they
 * would have written is, as in LAPACK, unspecified after a failure.
 */
enum starpu_data_access_mode tila_task_write(const tila_task_t *t, starpu_data_handle_t tile);

/**
 * Where there are GPUs: ask for h in main memory as soon as the tasks submitted so far that
 * write it end (an acquire ordered after them), so that its unregister at a wait finds it
 * home instead of fetching it then, one synchronous transfer after another (a small result
 * a GPU task wrote: a norm's partial, a column's maximum).  Without GPUs: nothing.
 */
void tila_data_bring_home(starpu_data_handle_t h);

/** Run the task on the owner of tile (m, n) of A, on the device level A gives it. */
void tila_task_on(tila_task_t *t, const tila_desc_t *A, int m, int n);

/** Run the task where tile (m, n) of op(A) lives (tila_op_tile's tile). */
void tila_task_on_op(tila_task_t *t, const tila_desc_t *A, tila_trans_t trans, int m, int n);


/**
 * Allocate a codelet's arguments on the rank that executes the task (NULL elsewhere:
 * StarPU-MPI frees STARPU_CL_ARGS only where the task runs) and count the task in
 * its sequence.  Out of memory, the task still goes in, as on every other rank, so that the
 * ranks' messages and tags keep matching: its sequence fails with TILA_ERR_NOMEM here (the
 * wait gives it to every rank), and it gets arguments that make it do nothing
 * (tila_cl_skip), shared by all such tasks and never freed (tila_task_end).
 * @return 0, or TILA_ERR_NOMEM where even that could not be set up (larger arguments).
 */
int tila_task_args(const tila_task_t *t, size_t size, void **args);

/** Account for StarPU's answer to a submission. @return 0 or TILA_ERR_STARPU. */
int tila_task_submitted(const tila_task_t *t, int starpu_rc);

/** Callback of every task: one task of the sequence less to wait for. */
void tila_task_done(void *seq);

/** The callback Tila's tasks take (TILA_TASK_OPTIONS): tila_task_done, after keeping StarPU
 * from freeing the arguments of a task that had to run without its own (tila_task_args). */
void tila_task_end(void *seq);

/** Communicator StarPU-MPI runs on. */
MPI_Comm tila_starpu_comm(void);

/** 1 when the task's sequence (or its parent) has failed already: the task does nothing. */
int tila_cl_skip(const tila_cl_base_t *base);

/** Record a numerical failure (first one wins in the sequence and the request). */
void tila_cl_fail(const tila_cl_base_t *base, int info);

/**
 * Hear a tile kernel's return code: 0 is success; +info (a numerical failure at the
 * tile's index info) reaches the request as iinfo + info, the first failure winning; a
 * runtime failure (TILA_ERR_DEVICE: a CUDA call failed, which the kernel has named; or
 * TILA_ERR_NOMEM) fails the sequence with that code; -i (argument i illegal) is a bug in
 * Tila, so the program stops with the kernel, the argument and the task's output tile
 * named.  A CUDA codelet queues nothing on its stream after a call that did not return 0.
 */
void tila_cl_check(const tila_cl_base_t *base, const char *kernel, int info, int iinfo);

/* Sequence accounting behind the task functions (runtime/sequence.c). */
void tila_sequence_fail(tila_sequence_t *seq, tila_request_t *req, int info);

/** A task of fewer flops runs on the progress worker where there is one (about 1 ms). */
#define TILA_SHORT_TASK_FLOPS 5e7

/** The workers that may run task t of `flops` flops: a bitmap of StarPU's workerids, and
 * its length in 32-bit words (0: any worker).  On a node with GPUs, a task larger than
 * tila_rt.cpu_task_flops on a tile a GPU may hold runs on the GPU's workers alone. */
static inline int tila_task_on_gpu(const tila_task_t *t, double flops)
{
    return t->gpu_workers && flops > tila_rt.cpu_task_flops;
}
static inline unsigned tila_task_nwords(const tila_task_t *t, double flops)
{
    if (tila_task_on_gpu(t, flops)) return tila_rt.nwords;
    return t->workers ? t->nwords : tila_rt.short_workers ? tila_rt.nwords : 0;
}
static inline uint32_t *tila_task_workers(const tila_task_t *t, double flops)
{
    if (tila_task_on_gpu(t, flops)) return (uint32_t *)t->gpu_workers;
    if (t->workers || !tila_rt.short_workers) return (uint32_t *)t->workers;
    return flops < TILA_SHORT_TASK_FLOPS ? tila_rt.short_workers : tila_rt.long_workers;
}

/** Common options of every insert helper, in StarPU's varargs form. */
#define TILA_TASK_OPTIONS(t, name, flops)                                                          \
    STARPU_EXECUTE_ON_NODE, (t)->rank, STARPU_PRIORITY, (t)->priority, STARPU_FLOPS,               \
        (double)(flops), STARPU_NAME, (name), STARPU_TASK_WORKERIDS,                              \
        tila_task_nwords(t, (double)(flops)),                                                      \
        tila_task_workers(t, (double)(flops)), STARPU_CALLBACK_WITH_ARG_NFREE, tila_task_end,     \
        (void *)(t)->seq, STARPU_PROLOGUE_CALLBACK_POP, tila_rt.trace_pop

/* ---- Per-CUDA-worker resources (runtime/cuda_workers.c) ---- */
#ifdef TILA_USE_CUDA
#include <cusolverDn.h>

/** The calling CUDA worker's cuBLAS handle, bound to its stream (pointer mode host). */
cublasHandle_t tila_cublas_handle(void);

/** The calling CUDA worker's cuSOLVER handle, bound to its stream. */
cusolverDnHandle_t tila_cusolver_handle(void);

/** The calling CUDA worker's cuSOLVER parameters object (64-bit API), default settings. */
cusolverDnParams_t tila_cusolver_params(void);

/** A pinned host int of the calling CUDA worker, to copy a device status into. */
int *tila_cuda_info_slot(void);

/**
 * The calling CUDA worker's device workspace of at least dbytes bytes in *dwork and, when
 * hwork is not NULL, its host workspace of at least hbytes in *hwork, for library calls
 * whose workspace size is known only by a query on a handle (cuSOLVER).  Kept per worker
 * and grown on demand (after waiting for the worker's stream), so a task does not
 * allocate; never NULL on success.  Valid until the next call on the same worker.  The
 * host workspace waits until the calls that read it last have run: a task that hands it
 * to a queued call says so with tila_cuda_host_workspace_queued() after queuing that call.
 * @return 0, TILA_ERR_NOMEM (the device or the host has not that much free, said on
 *         stderr) or TILA_ERR_DEVICE (a CUDA call failed, named on stderr).
 */
int tila_cuda_workspace(size_t dbytes, void **dwork, size_t hbytes, void **hwork);
int tila_cuda_host_workspace_queued(void);
#endif

#endif /* TILA_RUNTIME_H */
