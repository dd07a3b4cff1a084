/**
 * @file cuda_workers.c
 * @brief Per-CUDA-worker resources StarPU 1.3 does not provide: a cuSOLVER handle on
 * the worker's stream and its parameters object, workspaces grown on demand for the
 * library calls whose workspace size is only known by a query, and pinned host slots to
 * read a kernel's status back without blocking the stream.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include <string.h>

#include <cusolverDn.h>
#include <starpu_cuda.h>

#include "tila_runtime.h"
#include "cuda/cuda_kernel.h"

#define TILA_INFO_SLOTS 64

typedef struct tila_cuda_worker_s {
    cusolverDnHandle_t cusolver;
    cusolverDnParams_t params;
    int *info;           /**< TILA_INFO_SLOTS pinned ints */
    unsigned next;       /**< next slot (only this worker uses it) */
    void *dwork, *hwork; /**< device and host workspaces */
    size_t dbytes, hbytes;
} tila_cuda_worker_t;

static tila_cuda_worker_t tila_cuda_workers[STARPU_NMAXWORKERS];
static cusolverDnHandle_t tila_cusolver_query; /* main thread: workspace size queries */

static void tila_cuda_worker_init(void *arg)
{
    (void)arg;
    tila_cuda_worker_t *w = &tila_cuda_workers[starpu_worker_get_id_check()];
    TILA_CUDA_CHECK(cusolverDnCreate(&w->cusolver));
    TILA_CUDA_CHECK(cusolverDnSetStream(w->cusolver, starpu_cuda_get_local_stream()));
    TILA_CUDA_CHECK(cusolverDnCreateParams(&w->params));
    TILA_CUDA_CHECK(cudaMallocHost((void **)&w->info, sizeof(int) * TILA_INFO_SLOTS));
    w->next = 0;
}

static void tila_cuda_worker_fini(void *arg)
{
    (void)arg;
    tila_cuda_worker_t *w = &tila_cuda_workers[starpu_worker_get_id_check()];
    TILA_CUDA_CHECK(cudaStreamSynchronize(starpu_cuda_get_local_stream()));
    TILA_CUDA_CHECK(cusolverDnDestroyParams(w->params));
    TILA_CUDA_CHECK(cusolverDnDestroy(w->cusolver));
    TILA_CUDA_CHECK(cudaFreeHost(w->info));
    TILA_CUDA_CHECK(cudaFree(w->dwork));
    free(w->hwork);
    memset(w, 0, sizeof *w);
}

void tila_cuda_workers_init(void)
{
    if (starpu_cuda_worker_get_count() == 0) return;
    starpu_execute_on_each_worker_ex(tila_cuda_worker_init, NULL, STARPU_CUDA, "tila_cuda_init");
    TILA_CUDA_CHECK(cusolverDnCreate(&tila_cusolver_query));
}

void tila_cuda_workers_fini(void)
{
    if (starpu_cuda_worker_get_count() == 0) return;
    starpu_execute_on_each_worker_ex(tila_cuda_worker_fini, NULL, STARPU_CUDA, "tila_cuda_fini");
    TILA_CUDA_CHECK(cusolverDnDestroy(tila_cusolver_query));
}

cusolverDnHandle_t tila_cusolver_handle(void)
{
    return tila_cuda_workers[starpu_worker_get_id_check()].cusolver;
}

cusolverDnParams_t tila_cusolver_params(void)
{
    return tila_cuda_workers[starpu_worker_get_id_check()].params;
}

void *tila_cuda_workspace(size_t bytes)
{
    tila_cuda_worker_t *w = &tila_cuda_workers[starpu_worker_get_id_check()];
    if (bytes > w->dbytes) {
        /* Earlier tasks queued on the stream may still use the old buffer. */
        TILA_CUDA_CHECK(cudaStreamSynchronize(starpu_cuda_get_local_stream()));
        TILA_CUDA_CHECK(cudaFree(w->dwork));
        TILA_CUDA_CHECK(cudaMalloc(&w->dwork, bytes));
        w->dbytes = bytes;
    }
    return w->dwork;
}

void *tila_cuda_host_workspace(size_t bytes)
{
    tila_cuda_worker_t *w = &tila_cuda_workers[starpu_worker_get_id_check()];
    if (bytes > w->hbytes) {
        TILA_CUDA_CHECK(cudaStreamSynchronize(starpu_cuda_get_local_stream()));
        free(w->hwork);
        w->hwork = malloc(bytes);
        if (!w->hwork) {
            fprintf(stderr, "tila_cuda_host_workspace: out of memory (%zu bytes)\n", bytes);
            abort();
        }
        w->hbytes = bytes;
    }
    return w->hwork;
}

cusolverDnHandle_t tila_cusolver_query_handle(void) { return tila_cusolver_query; }

int *tila_cuda_info_slot(void)
{
    /* StarPU pipelines at most a few tasks per CUDA worker: a ring of 64 slots is
     * never reused before the host function that reads a slot has run. */
    tila_cuda_worker_t *w = &tila_cuda_workers[starpu_worker_get_id_check()];
    return &w->info[w->next++ % TILA_INFO_SLOTS];
}
