/**
 * @file task.c
 * @brief Task placement (which rank and device level runs a tile operation), the codelet
 * arguments' life cycle, and how a task's outcome reaches its sequence.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "tila_runtime_private.h"

tila_task_t tila_task_init(tila_sequence_t *seq, tila_request_t *req, int priority)
{
    return (tila_task_t){ .seq = seq, .req = req, .priority = priority, .m = -1, .n = -1 };
}

void tila_task_on(tila_task_t *t, const tila_desc_t *A, int m, int n)
{
    size_t k = (size_t)n * A->mt + m;
    int dev = A->device[k];
    t->rank = A->owner[k];
    t->m = m;
    t->n = n;
    t->gpu_workers = NULL;
    if (tila_rt.gpu_workers && dev != TILA_DEVICE_CPU)
        t->gpu_workers = tila_rt.gpu_workers + (size_t)(dev >= 0 ? dev : tila_rt.ncuda) * tila_rt.nwords;
    if (dev == TILA_DEVICE_CPU && tila_rt.cpu_workers) {
        t->nwords = tila_rt.nwords;
        t->workers = tila_rt.cpu_workers;
        return;
    }
    t->nwords = dev >= 0 && tila_rt.device_workers ? tila_rt.nwords : 0;
    t->workers = t->nwords ? tila_rt.device_workers + (size_t)dev * tila_rt.nwords : NULL;
}

void tila_task_on_op(tila_task_t *t, const tila_desc_t *A, tila_trans_t trans, int m, int n)
{
    if (trans == TILA_NOTRANS)
        tila_task_on(t, A, m, n);
    else
        tila_task_on(t, A, n, m);
}


int tila_task_args(const tila_task_t *t, size_t size, void **args)
{
    *args = NULL;
    if (t->rank != tila_rt.rank) return TILA_SUCCESS;
    tila_cl_base_t *base = calloc(1, size);
    if (!base) return TILA_ERR_NOMEM;
    *base = (tila_cl_base_t){ .seq = t->seq, .req = t->req, .m = t->m, .n = t->n };
    tila_sequence_task_added(t->seq);
    *args = base;
    return TILA_SUCCESS;
}

int tila_task_submitted(const tila_task_t *t, int starpu_rc)
{
    if (starpu_rc == 0) return TILA_SUCCESS;
    if (t->rank == tila_rt.rank) tila_task_done(t->seq);
    tila_error("tila_task_submitted", "StarPU-MPI refused a task (%d)%s", starpu_rc,
               starpu_rc == -ENODEV ? ": no worker can run it" : "");
    return starpu_rc == -ENODEV ? TILA_ERR_NO_WORKER : TILA_ERR_STARPU;
}

enum starpu_data_access_mode tila_task_write(const tila_task_t *t, starpu_data_handle_t tile)
{
    if (t->rank == tila_rt.rank && tila_sequence_failed(t->seq) &&
        starpu_mpi_data_get_rank(tile) == t->rank && starpu_data_get_home_node(tile) >= 0)
        return STARPU_RW;
    return STARPU_W;
}

static void tila_data_release(void *h) { starpu_data_release(h); }

void tila_data_bring_home(starpu_data_handle_t h)
{
    if (starpu_cuda_worker_get_count() == 0) return;
    (void)starpu_data_acquire_on_node_cb(h, STARPU_MAIN_RAM, STARPU_R, tila_data_release, h);
}

void tila_cl_fail(const tila_cl_base_t *base, int info)
{
    tila_sequence_fail(base->seq, base->req, info);
}

void tila_cl_check(const tila_cl_base_t *base, const char *kernel, int info, int iinfo)
{
    if (info > 0) tila_cl_fail(base, iinfo + info);
    if (info <= TILA_ERR_NOT_INITIALIZED) tila_cl_fail(base, info);
    if (info >= 0 || info <= TILA_ERR_NOT_INITIALIZED) return;
    /* The driver checked every argument the user gave: a kernel refusing its own is a
     * bug in Tila, and going on would leave a wrong result in place of an error. */
    tila_error(kernel,
               "BUG in Tila: argument %d is illegal (task on tile (%d, %d)); "
               "please report it",
               -info, base->m, base->n);
    abort();
}
