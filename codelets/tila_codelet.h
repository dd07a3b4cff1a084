/**
 * @file tila_codelet.h
 * @brief Internal: what every codelet file shares (task placement, sequence status).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_CODELET_H
#define TILA_CODELET_H

#include "tila_config.h"

#include <stdint.h>
#include <starpu.h>
#include <starpu_mpi.h>

#include "tila.h"

/** Where and how a task runs; filled by the driver with tila_task_init/tila_task_on. */
typedef struct tila_task_s {
    tila_sequence_t *seq;
    tila_request_t *req;
    int priority;
    int rank;                /**< rank that executes the task (owner of its output tile) */
    unsigned nworkers;       /**< length of `workers`, 0: any worker */
    const uint32_t *workers; /**< StarPU worker bitmap of the output tile's device level */
} tila_task_t;

/** First member of every codelet's argument struct. */
typedef struct tila_cl_base_s {
    tila_sequence_t *seq;
    tila_request_t *req;
} tila_cl_base_t;

tila_task_t tila_task_init(tila_sequence_t *seq, tila_request_t *req, int priority);

/** Run the task on the owner of tile (m, n) of A, on the device level A gives it. */
void tila_task_on(tila_task_t *t, const tila_desc_t *A, int m, int n);

/** Run the task where tile (m, n) of op(A) lives (tila_op_tile's tile). */
void tila_task_on_op(tila_task_t *t, const tila_desc_t *A, tila_trans_t trans, int m, int n);

/**
 * Allocate a codelet's arguments on the rank that executes the task (NULL elsewhere:
 * StarPU-MPI frees STARPU_CL_ARGS only where the task runs) and count the task in
 * its sequence.  @return 0 or TILA_ERR_NOMEM.
 */
int tila_task_args(const tila_task_t *t, size_t size, void **args);

/** Account for StarPU's answer to a submission. @return 0 or TILA_ERR_STARPU. */
int tila_task_submitted(const tila_task_t *t, int starpu_rc);

/** Callback of every task: one task of the sequence less to wait for. */
void tila_task_done(void *seq);

/** Communicator StarPU-MPI runs on. */
MPI_Comm tila_starpu_comm(void);

/** 1 when the task's sequence has failed already: then the task does nothing. */
int tila_cl_skip(const tila_cl_base_t *base);

/** Record a numerical failure (first one wins in the sequence and the request). */
void tila_cl_fail(const tila_cl_base_t *base, int info);

/** Common options of every insert helper, in StarPU's varargs form. */
#define TILA_TASK_OPTIONS(t, name, flops)                                                    \
    STARPU_EXECUTE_ON_NODE, (t)->rank, STARPU_PRIORITY, (t)->priority, STARPU_FLOPS,         \
        (double)(flops), STARPU_NAME, (name), STARPU_TASK_WORKERIDS, (t)->nworkers,          \
        (uint32_t *)(t)->workers, STARPU_CALLBACK_WITH_ARG_NFREE, tila_task_done, (void *)(t)->seq

/* ---- Per-CUDA-worker resources (codelets/cuda_workers.c) ---- */
#ifdef TILA_USE_CUDA
#include <cusolverDn.h>

/** Create / destroy each CUDA worker's resources below (tila_init / tila_finalize). */
void tila_cuda_workers_init(void);
void tila_cuda_workers_fini(void);

/** The calling CUDA worker's cuSOLVER handle, bound to its stream. */
cusolverDnHandle_t tila_cusolver_handle(void);

/** The calling CUDA worker's cuSOLVER parameters object (64-bit API), default settings. */
cusolverDnParams_t tila_cusolver_params(void);

/** A cuSOLVER handle for workspace-size queries from the submitting thread. */
cusolverDnHandle_t tila_cusolver_query_handle(void);

/** A pinned host int of the calling CUDA worker, to copy a device status into. */
int *tila_cuda_info_slot(void);

/**
 * The calling CUDA worker's device (tila_cuda_workspace) or host (tila_cuda_host_workspace)
 * workspace of at least `bytes` bytes, for library calls whose workspace size is known
 * only by a query on a handle (cuSOLVER).  Kept per worker and grown on demand (after
 * waiting for the worker's stream), so a task does not allocate.  Valid until the next call
 * on the same worker.
 */
void *tila_cuda_workspace(size_t bytes);
void *tila_cuda_host_workspace(size_t bytes);
#endif
/** Run the task on `rank`, on any worker that can (the workspace tasks of the norms). */
void tila_task_on_rank(tila_task_t *t, int rank);

/** Which tile kernel a norm's tile task runs. */
typedef enum tila_lan_kind_e {
    TILA_LAN_GE, /**< general tile */
    TILA_LAN_TR, /**< trapezoid (diagonal tile of a triangular matrix) */
    TILA_LAN_SY, /**< diagonal tile of a symmetric matrix */
    TILA_LAN_HE  /**< diagonal tile of a Hermitian matrix */
} tila_lan_kind_t;

#endif /* TILA_CODELET_H */
