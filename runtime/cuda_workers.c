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

#include <cusolverDn.h>
#include <starpu.h>
#include <starpu_cuda.h>

#include "tila_runtime_private.h"
#include "cuda/cuda_kernel.h"

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
} tila_cuda_worker_t;

static tila_cuda_worker_t tila_cuda_workers[STARPU_NMAXWORKERS];

static void tila_cuda_worker_init(void *arg)
{
    (void)arg;
    tila_cuda_worker_t *w = &tila_cuda_workers[starpu_worker_get_id_check()];
    TILA_CUDA_CHECK(cublasCreate(&w->cublas));
    TILA_CUDA_CHECK(cublasSetStream(w->cublas, starpu_cuda_get_local_stream()));
    TILA_CUDA_CHECK(cusolverDnCreate(&w->cusolver));
    TILA_CUDA_CHECK(cusolverDnSetStream(w->cusolver, starpu_cuda_get_local_stream()));
    TILA_CUDA_CHECK(cusolverDnCreateParams(&w->params));
    TILA_CUDA_CHECK(cudaMallocHost((void **)&w->info, sizeof(int) * TILA_INFO_SLOTS));
    TILA_CUDA_CHECK(cudaEventCreateWithFlags(&w->hwork_free, cudaEventDisableTiming));
    w->next = 0;
}

static void tila_cuda_worker_fini(void *arg)
{
    (void)arg;
    tila_cuda_worker_t *w = &tila_cuda_workers[starpu_worker_get_id_check()];
    TILA_CUDA_CHECK(cudaStreamSynchronize(starpu_cuda_get_local_stream()));
    TILA_CUDA_CHECK(cusolverDnDestroyParams(w->params));
    TILA_CUDA_CHECK(cusolverDnDestroy(w->cusolver));
    TILA_CUDA_CHECK(cublasDestroy(w->cublas));
    TILA_CUDA_CHECK(cudaFreeHost(w->info));
    TILA_CUDA_CHECK(cudaEventDestroy(w->hwork_free));
    TILA_CUDA_CHECK(cudaFree(w->dwork));
    free(w->hwork);
    memset(w, 0, sizeof *w);
}

/*
 * The scheduler where GPUs will run tasks and the user named none: StarPU's dmdas (its
 * performance models: a GPU's tile is not a core's, and data prefetched to the worker a
 * task is given to; priorities: Cholesky's critical path), not Tila's CPU default (lws,
 * nap_workers.c), whose idle cores would steal tiles a GPU runs 100 times faster.  Before
 * the models are calibrated (tila-calibrate) dmdas itself gives tasks to each kind of
 * worker until it has timed them.  STARPU_NCUDA=0 or no device: unchanged.
 */
void tila_cuda_sched_default(struct starpu_conf *conf)
{
    int devices = 0;
    if (getenv("STARPU_SCHED") || conf->sched_policy_name || conf->sched_policy) return;
    if (conf->ncuda == 0 || cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        (void)cudaGetLastError(); /* no device is no error of the program's */
        return;
    }
    conf->sched_policy_name = "dmdas";
}

void tila_cuda_workers_init(void)
{
    if (starpu_cuda_worker_get_count() == 0) return;
    starpu_execute_on_each_worker_ex(tila_cuda_worker_init, NULL, STARPU_CUDA, "tila_cuda_init");
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
    /* A call queued by an earlier task may not have read its host workspace yet. */
    TILA_CUDA_CHECK(cudaEventSynchronize(w->hwork_free));
    if (bytes > w->hbytes) {
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

void tila_cuda_host_workspace_queued(void)
{
    tila_cuda_worker_t *w = &tila_cuda_workers[starpu_worker_get_id_check()];
    TILA_CUDA_CHECK(cudaEventRecord(w->hwork_free, starpu_cuda_get_local_stream()));
}

int *tila_cuda_info_slot(void)
{
    /* A slot is read by a host function queued behind the kernel that writes it, and
     * StarPU keeps at most STARPU_CUDA_PIPELINE (default 2) tasks queued per CUDA worker:
     * a ring of 64 slots is never reused before that host function has run. */
    tila_cuda_worker_t *w = &tila_cuda_workers[starpu_worker_get_id_check()];
    return &w->info[w->next++ % TILA_INFO_SLOTS];
}
