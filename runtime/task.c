/**
 * @file task.c
 * @brief Task placement (which rank and device level runs a tile operation), the codelet
 * arguments' life cycle, and how a task's outcome reaches its sequence.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tila_runtime_private.h"

/*
 * The runtime's test hooks: on rank `rank`, the k-th counted event since the hook was armed
 * fires, and with `persist` every later one.  TILA_TEST_ALLOC_FAIL (tila_runtime.h): the
 * events are allocations of kind alloc_kind (-1: any), which fail.  TILA_TEST_KERNEL_ARG:
 * the events are the tile kernels' answers tila_cl_check hears, which read as an illegal
 * argument, the answer of a kernel given what its driver should never pass.
 */
typedef struct test_hook_s {
    int armed, rank, persist;
    long k, count;
} test_hook_t;
static test_hook_t alloc_hook, arg_hook;
static int alloc_kind;

/* Disarm h and read "RANK:K[+]" at the start of v (NULL or empty: stays off): 1 when h is
 * to be armed, *end past what was read; 0 for nothing; -1 for a bad RANK or K. */
static int test_hook_read(test_hook_t *h, const char *v, char **end)
{
    h->armed = 0;
    __atomic_store_n(&h->count, 0, __ATOMIC_RELAXED);
    if (!v || !*v) return 0;
    long rank = strtol(v, end, 10), k = **end == ':' ? strtol(*end + 1, end, 10) : 0;
    h->persist = **end == '+';
    if (h->persist) (*end)++;
    h->rank = (int)rank;
    h->k = k;
    return rank < 0 || k < 1 ? -1 : 1;
}

/* Does this event fire h? */
static int test_hook_fires(test_hook_t *h)
{
    if (!h->armed || h->rank != tila_rt.rank) return 0;
    long c = __atomic_add_fetch(&h->count, 1, __ATOMIC_RELAXED);
    return c == h->k || (h->persist && c > h->k);
}

void tila_alloc_hook_arm(void)
{
    char *end;
    const char *v = getenv("TILA_TEST_KERNEL_ARG");
    int rc = test_hook_read(&arg_hook, v, &end);
    if (rc && (rc < 0 || *end || arg_hook.persist))
        tila_error("tila", "TILA_TEST_KERNEL_ARG=%s is not RANK:K", v);
    else
        arg_hook.armed = rc;
    static const char *const kinds[] = { "args", "desc", "work" };
    v = getenv("TILA_TEST_ALLOC_FAIL");
    if (!(rc = test_hook_read(&alloc_hook, v, &end))) return;
    alloc_kind = -1;
    for (int i = 0; *end == ':' && i < 3; i++)
        if (!strcmp(end + 1, kinds[i])) {
            alloc_kind = i;
            end += strlen(end);
        }
    if (rc < 0 || *end) {
        tila_error("tila", "TILA_TEST_ALLOC_FAIL=%s is not RANK:K[+][:args|desc|work]", v);
        return;
    }
    alloc_hook.armed = 1;
}

int tila_alloc_fails(tila_alloc_kind_t kind)
{
    if (alloc_kind >= 0 && alloc_kind != (int)kind) return 0;
    return test_hook_fires(&alloc_hook);
}

void *tila_malloc(tila_alloc_kind_t kind, size_t bytes)
{
    return tila_alloc_fails(kind) ? NULL : malloc(bytes);
}

void *tila_calloc(tila_alloc_kind_t kind, size_t count, size_t size)
{
    return tila_alloc_fails(kind) ? NULL : calloc(count, size);
}

int tila_submit_agree(int rc)
{
    if (tila_rt.size <= 1) return rc;
    int all = rc;
    if (tila_allreduce(&all, 1, MPI_INT, MPI_MIN)) return rc ? rc : TILA_ERR_MPI;
    return all;
}

/*
 * The arguments of the tasks whose own could not be allocated (tila_task_args): room for
 * any codelet's, their base naming a sequence that has failed, so that the codelet does
 * nothing.  Every such task shares them: the insert helpers write their values there, and
 * no codelet reads past the base before it skips (a perfmodel's size function may read
 * them: any value is harmless for a task that does nothing).
 */
static union {
    tila_cl_base_t base;
    max_align_t align;
    char room[1024];
} dead_args;
static tila_sequence_t *dead_seq;
static pthread_once_t dead_once = PTHREAD_ONCE_INIT;

/* Made on the first task, while memory is to be had, and kept for the process. */
static void dead_init(void)
{
    if (tila_sequence_create(&dead_seq) == TILA_SUCCESS)
        tila_sequence_fail(dead_seq, NULL, TILA_ERR_NOMEM);
}

void tila_task_end(void *seq)
{
    struct starpu_task *task = starpu_task_get_current();
    if (task && task->cl_arg == (void *)&dead_args) task->cl_arg_free = 0;
    tila_task_done(seq);
}

tila_task_t tila_task_init(tila_sequence_t *seq, tila_request_t *req, int priority)
{
    /* Tasks belong to a call that began (tila_call_begin: the workers resumed, req in seq's
     * wait); one that did not is Tila's own error: its tasks do nothing and the wait says so
     * (TILA_ERR_INTERNAL) instead of the call beginning here, out of its driver's sight. */
    if (!tila_call_begun(seq, req)) {
        tila_error("tila_task_init", "tasks of a call that did not begin (Tila's own error)");
        tila_sequence_fail(seq, req, TILA_ERR_INTERNAL);
    }
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
    pthread_once(&dead_once, dead_init);
    tila_cl_base_t *base = tila_calloc(TILA_ALLOC_ARGS, 1, size);
    if (base) {
        *base = (tila_cl_base_t){ .seq = t->seq, .req = t->req, .m = t->m, .n = t->n };
    }
    else {
        if (!dead_seq || size > sizeof dead_args) return TILA_ERR_NOMEM;
        if (!tila_sequence_status(t->seq))
            tila_error("tila_task_args",
                       "out of memory for a task's arguments (tile (%d, %d)): the call fails "
                       "with TILA_ERR_NOMEM, its remaining tasks do nothing",
                       t->m, t->n);
        tila_sequence_fail(t->seq, t->req, TILA_ERR_NOMEM);
        base = &dead_args.base;
        *base = (tila_cl_base_t){ .seq = dead_seq, .m = t->m, .n = t->n };
    }
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
    if (test_hook_fires(&arg_hook)) info = -1;
    if (info > 0) tila_cl_fail(base, iinfo + info);
    if (info <= TILA_ERR_NOT_INITIALIZED) tila_cl_fail(base, info);
    if (info >= 0 || info <= TILA_ERR_NOT_INITIALIZED) return;
    /* The driver checked every argument the user gave: a kernel refusing its own is a
     * bug in Tila; the call fails with TILA_ERR_INTERNAL (its result is not one), and the
     * program goes on. */
    tila_error(kernel,
               "BUG in Tila: argument %d is illegal (task on tile (%d, %d)); the call fails "
               "with TILA_ERR_INTERNAL; please report it",
               -info, base->m, base->n);
    tila_cl_fail(base, TILA_ERR_INTERNAL);
}
