/**
 * @file tila_rt_task.h
 * @brief Internal: task placement, arguments and accounting, the codelets' side (runtime/task.c, runtime/sequence.c).
 * A part of the runtime's header: include tila_runtime.h, which includes the parts in order.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_RT_TASK_H
#define TILA_RT_TASK_H

#include "tila_runtime.h"

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
 * Tila: the message names the kernel, the argument and the task's output tile, and the
 * sequence fails with TILA_ERR_INTERNAL (the test hook TILA_TEST_KERNEL_ARG=RANK:K, armed
 * with TILA_TEST_ALLOC_FAIL's, makes the K-th answer heard on rank RANK such a -1).  A CUDA codelet queues nothing on its stream after a call that did not return 0.
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

/** The flops to place task t by (TILA_TASK_OPTIONS) so that a task on a GPU's tiles runs on
 * that GPU however little it computes: one that reads many of the GPU's tiles where they
 * are (a norm's batch), which a core would first have to copy home. */
static inline double tila_task_gpu_flops(const tila_task_t *t, double flops)
{
    return t->gpu_workers && flops <= tila_rt.cpu_task_flops ? 2 * tila_rt.cpu_task_flops : flops;
}

/** Common options of every insert helper, in StarPU's varargs form. */
#define TILA_TASK_OPTIONS(t, name, flops)                                                          \
    STARPU_EXECUTE_ON_NODE, (t)->rank, STARPU_PRIORITY, (t)->priority, STARPU_FLOPS,               \
        (double)(flops), STARPU_NAME, (name), STARPU_TASK_WORKERIDS,                              \
        tila_task_nwords(t, (double)(flops)),                                                      \
        tila_task_workers(t, (double)(flops)), STARPU_CALLBACK_WITH_ARG_NFREE, tila_task_end,     \
        (void *)(t)->seq, STARPU_PROLOGUE_CALLBACK_POP, tila_rt.trace_pop

#endif /* TILA_RT_TASK_H */
