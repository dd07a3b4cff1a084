/**
 * @file tila_rt_cuda.h
 * @brief Internal: the CUDA workers' per-worker handles and workspaces (runtime/cuda_workers.c).
 * A part of the runtime's header: include tila_runtime.h, which includes the parts in order.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_RT_CUDA_H
#define TILA_RT_CUDA_H

#include "tila_runtime.h"

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

#endif /* TILA_RT_CUDA_H */
