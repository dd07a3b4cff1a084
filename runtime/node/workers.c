/**
 * @file workers.c
 * @brief The node's workers as StarPU's bitmaps (task->workerids), for where a task runs:
 *        per CUDA device, the CPU workers, and the CUDA workers alone.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>

#include "tila_runtime_private.h"

/*
 * Where a node has GPUs beside its CPU workers, a task of more than the plan's
 * cpu_task_flops (plan.c) on a tile a GPU may hold runs on CUDA workers alone; smaller
 * tasks go to any worker, the tiles of a CPU slice (TILA_DEVICE_CPU) to the cores as
 * before.  The bitmaps: per device its CUDA workers, then every CUDA worker.
 */
static int tila_gpu_workers_init(unsigned nw)
{
    double flops = tila_node.plan.cpu_task_flops;
    if (flops <= 0) return TILA_SUCCESS;
    tila_rt.cpu_task_flops = flops;
    tila_rt.gpu_workers = calloc((size_t)(tila_rt.ncuda + 1) * tila_rt.nwords, sizeof(uint32_t));
    if (!tila_rt.gpu_workers) return TILA_ERR_NOMEM;
    for (int d = 0; d <= tila_rt.ncuda; d++)
        for (unsigned w = 0; w < nw; w++)
            if (starpu_worker_get_type((int)w) == STARPU_CUDA_WORKER &&
                (d == tila_rt.ncuda || starpu_worker_get_devid((int)w) == tila_rt.cuda_devid[d]))
                tila_rt.gpu_workers[(size_t)d * tila_rt.nwords + w / 32] |= UINT32_C(1) << w % 32;
    return TILA_SUCCESS;
}

/*
 * The device level of the distribution: for each CUDA device, the StarPU workers that may
 * run a task whose output tile lives on it (every CPU worker, and the CUDA workers of that
 * device only), so that a GPU tile never moves to another GPU; and the CPU workers alone,
 * for the tiles a mapping keeps on the host (TILA_DEVICE_CPU).  A set is StarPU's bitmap of
 * task->workerids: bit w % 32 of word w / 32 for worker w.
 */
int tila_node_workers_init(void)
{
    unsigned nw = starpu_worker_get_count();
    tila_rt.nwords = (nw + 31) / 32;
    tila_rt.ncuda = 0;
    for (unsigned w = 0; w < nw; w++) {
        if (starpu_worker_get_type((int)w) != STARPU_CUDA_WORKER) continue;
        int dev = starpu_worker_get_devid((int)w), known = 0;
        for (int d = 0; d < tila_rt.ncuda; d++)
            known |= tila_rt.cuda_devid[d] == dev;
        if (!known && tila_rt.ncuda < TILA_MAX_CUDA_DEVICES)
            tila_rt.cuda_devid[tila_rt.ncuda++] = dev;
    }
    if (tila_rt.ncuda == 0) return TILA_SUCCESS; /* nothing to restrict */
    /* No CPU worker (a GPU-only run): TILA_DEVICE_CPU tiles go to any worker. */
    if (starpu_cpu_worker_get_count() > 0) {
        tila_rt.cpu_workers = calloc(tila_rt.nwords, sizeof(uint32_t));
        if (!tila_rt.cpu_workers) return TILA_ERR_NOMEM;
        for (unsigned w = 0; w < nw; w++)
            if (starpu_worker_get_type((int)w) == STARPU_CPU_WORKER)
                tila_rt.cpu_workers[w / 32] |= UINT32_C(1) << w % 32;
        int rc = tila_gpu_workers_init(nw);
        if (rc) return rc;
    }
    if (tila_rt.ncuda < 2) return TILA_SUCCESS; /* one GPU: any worker of the node */
    tila_rt.device_workers = calloc((size_t)tila_rt.ncuda * tila_rt.nwords, sizeof(uint32_t));
    if (!tila_rt.device_workers) return TILA_ERR_NOMEM;
    for (int d = 0; d < tila_rt.ncuda; d++)
        for (unsigned w = 0; w < nw; w++) {
            enum starpu_worker_archtype type = starpu_worker_get_type((int)w);
            if (type == STARPU_CPU_WORKER ||
                (type == STARPU_CUDA_WORKER &&
                 starpu_worker_get_devid((int)w) == tila_rt.cuda_devid[d]))
                tila_rt.device_workers[(size_t)d * tila_rt.nwords + w / 32] |= UINT32_C(1) << w % 32;
        }
    return TILA_SUCCESS;
}

void tila_node_workers_fini(void)
{
    free(tila_rt.device_workers);
    free(tila_rt.cpu_workers);
    free(tila_rt.gpu_workers);
}
