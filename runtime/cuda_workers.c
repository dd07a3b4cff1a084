/**
 * @file cuda_workers.c
 * @brief Per-CUDA-worker resources: a cuBLAS and a cuSOLVER handle on the worker's
 * stream (Tila's own, not StarPU's starpu_cublas_get_local_handle(), which is NULL until
 * the application calls starpu_cublas_init, and which StarPU 1.3 does not forget at
 * starpu_shutdown: a second tila_init would find destroyed handles there), the cuSOLVER
 * parameters object, workspaces grown on demand for the library calls whose workspace
 * size is only known by a query, and pinned host slots to read a kernel's status back
 * without blocking the stream.
 *
 * Every resource is created on the worker's own thread, so on its own device and stream
 * (StarPU binds each CUDA worker thread to its device).  The codelets are asynchronous
 * (STARPU_CUDA_ASYNC): a codelet function queues work on the stream and returns, so what
 * it hands to a queued call must outlive the function.  The device workspace is used only
 * by work queued on this one stream, in order, so reusing it is safe; growing it waits for
 * the stream first.  The host workspace is read by cuSOLVER when its queued call runs, so
 * it is guarded by an event recorded after that call and waited for before the next task
 * takes the workspace.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include <string.h>

#include <cublas_v2.h>
#include <cusolverDn.h>
#include <starpu.h>
#include <starpu_cuda.h>

#include "tila_cuda_status.h"
#include "tila_runtime_private.h"

#define TILA_INFO_SLOTS 64

typedef struct tila_cuda_worker_s {
    cublasHandle_t cublas;
    cusolverDnHandle_t cusolver;
    cusolverDnParams_t params;
    int *info;           /**< TILA_INFO_SLOTS pinned ints */
    unsigned next;       /**< next slot (only this worker uses it) */
    void *dwork, *hwork; /**< device and host workspaces */
    size_t dbytes, hbytes;
    cudaEvent_t hwork_free; /**< recorded after the last queued call that reads hwork */
    int status;             /**< tila_cuda_worker_init's: 0 or TILA_ERR_DEVICE */
} tila_cuda_worker_t;

static tila_cuda_worker_t tila_cuda_workers[STARPU_NMAXWORKERS];

static int tila_cuda_worker_create(tila_cuda_worker_t *w)
{
    TILA_CUDA_CHECK(cublasCreate(&w->cublas));
    TILA_CUDA_CHECK(cublasSetStream(w->cublas, starpu_cuda_get_local_stream()));
    TILA_CUDA_CHECK(cusolverDnCreate(&w->cusolver));
    TILA_CUDA_CHECK(cusolverDnSetStream(w->cusolver, starpu_cuda_get_local_stream()));
    TILA_CUDA_CHECK(cusolverDnCreateParams(&w->params));
    TILA_CUDA_CHECK(cudaMallocHost((void **)&w->info, sizeof(int) * TILA_INFO_SLOTS));
    TILA_CUDA_CHECK(cudaEventCreateWithFlags(&w->hwork_free, cudaEventDisableTiming));
    return 0;
}

static void tila_cuda_worker_init(void *arg)
{
    (void)arg;
    tila_cuda_worker_t *w = &tila_cuda_workers[starpu_worker_get_id_check()];
    memset(w, 0, sizeof *w);
    w->status = tila_cuda_worker_create(w);
}

/* What tila_cuda_worker_create made, even in part (a failure is named and passed over:
 * the rest is still freed). */
static void tila_cuda_worker_fini(void *arg)
{
    (void)arg;
    tila_cuda_worker_t *w = &tila_cuda_workers[starpu_worker_get_id_check()];
    (void)TILA_CUDA_STATUS(cudaStreamSynchronize(starpu_cuda_get_local_stream()));
    if (w->params) (void)TILA_CUDA_STATUS(cusolverDnDestroyParams(w->params));
    if (w->cusolver) (void)TILA_CUDA_STATUS(cusolverDnDestroy(w->cusolver));
    if (w->cublas) (void)TILA_CUDA_STATUS(cublasDestroy(w->cublas));
    if (w->info) (void)TILA_CUDA_STATUS(cudaFreeHost(w->info));
    if (w->hwork_free) (void)TILA_CUDA_STATUS(cudaEventDestroy(w->hwork_free));
    if (w->dwork) (void)TILA_CUDA_STATUS(cudaFree(w->dwork));
    free(w->hwork);
    memset(w, 0, sizeof *w);
}

int tila_cuda_workers_init(void)
{
    if (starpu_cuda_worker_get_count() == 0) return TILA_SUCCESS;
    starpu_execute_on_each_worker_ex(tila_cuda_worker_init, NULL, STARPU_CUDA, "tila_cuda_init");
    for (unsigned k = 0; k < starpu_worker_get_count(); k++)
        if (starpu_worker_get_type((int)k) == STARPU_CUDA_WORKER && tila_cuda_workers[k].status) {
            tila_error("tila_init", "CUDA worker %u: no cuBLAS or cuSOLVER handle (above)", k);
            return TILA_ERR_DEVICE;
        }
    return TILA_SUCCESS;
}

void tila_cuda_workers_fini(void)
{
    if (starpu_cuda_worker_get_count() == 0) return;
    starpu_execute_on_each_worker_ex(tila_cuda_worker_fini, NULL, STARPU_CUDA, "tila_cuda_fini");
}

cublasHandle_t tila_cublas_handle(void)
{
    return tila_cuda_workers[starpu_worker_get_id_check()].cublas;
}

cusolverDnHandle_t tila_cusolver_handle(void)
{
    return tila_cuda_workers[starpu_worker_get_id_check()].cusolver;
}

cusolverDnParams_t tila_cusolver_params(void)
{
    return tila_cuda_workers[starpu_worker_get_id_check()].params;
}

static int tila_cuda_device_workspace(tila_cuda_worker_t *w, size_t bytes, void **work)
{
    if (bytes > w->dbytes) {
        /* Earlier tasks queued on the stream may still use the old buffer. */
        TILA_CUDA_CHECK(cudaStreamSynchronize(starpu_cuda_get_local_stream()));
        TILA_CUDA_CHECK(cudaFree(w->dwork));
        w->dwork = NULL;
        w->dbytes = 0;
        if (cudaMalloc(&w->dwork, bytes) != cudaSuccess) {
            (void)cudaGetLastError(); /* not sticky: the device goes on */
            w->dwork = NULL;
            tila_error("tila_cuda_workspace", "the GPU has no %zu bytes free", bytes);
            return TILA_ERR_NOMEM;
        }
        w->dbytes = bytes;
    }
    *work = w->dwork;
    return 0;
}

static int tila_cuda_host_workspace(tila_cuda_worker_t *w, size_t bytes, void **work)
{
    /* A call queued by an earlier task may not have read its host workspace yet. */
    TILA_CUDA_CHECK(cudaEventSynchronize(w->hwork_free));
    if (bytes > w->hbytes) {
        free(w->hwork);
        w->hbytes = 0;
        w->hwork = malloc(bytes);
        if (!w->hwork) {
            tila_error("tila_cuda_workspace", "out of host memory (%zu bytes)", bytes);
            return TILA_ERR_NOMEM;
        }
        w->hbytes = bytes;
    }
    *work = w->hwork;
    return 0;
}

int tila_cuda_workspace(size_t dbytes, void **dwork, size_t hbytes, void **hwork)
{
    tila_cuda_worker_t *w = &tila_cuda_workers[starpu_worker_get_id_check()];
    /* Never NULL on success, whatever the sizes. */
    int rc = tila_cuda_device_workspace(w, dbytes > 0 ? dbytes : TILA_CUDA_INFO_BYTES, dwork);
    if (rc || !hwork) return rc;
    return tila_cuda_host_workspace(w, hbytes > 0 ? hbytes : sizeof(double), hwork);
}

int tila_cuda_host_workspace_queued(void)
{
    tila_cuda_worker_t *w = &tila_cuda_workers[starpu_worker_get_id_check()];
    TILA_CUDA_CHECK(cudaEventRecord(w->hwork_free, starpu_cuda_get_local_stream()));
    return 0;
}

int *tila_cuda_info_slot(void)
{
    /* A slot is read by a host function queued behind the kernel that writes it, and
     * StarPU keeps at most STARPU_CUDA_PIPELINE (default 2) tasks queued per CUDA worker:
     * a ring of 64 slots is never reused before that host function has run. */
    tila_cuda_worker_t *w = &tila_cuda_workers[starpu_worker_get_id_check()];
    return &w->info[w->next++ % TILA_INFO_SLOTS];
}
