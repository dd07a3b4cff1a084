/**
 * @file sequence.c
 * @brief Sequences and requests: waiting for one group of tasks, first failure wins.
 *
 * A sequence counts the tasks submitted in it that run on this rank; each task's
 * callback counts down, so tila_sequence_wait waits for those tasks alone (never for
 * the whole of StarPU), then agrees on the status with every rank, in one allreduce that
 * also carries the first keys of the work the calls left for the wait (their hooks: the
 * norms' reductions across ranks), then runs that work, then the continuations (the
 * mixed-precision solve's refinement), which may wait on sequences of their own: a wait
 * runs inside a continuation, never inside a hook.
 * It waits with StarPU's thread primitives: under simulation they are SimGrid's, so
 * the wait lets simulated time run on.  Natively it watches meanwhile for a call that can
 * no longer finish (runtime/watch.c): then it fails with TILA_ERR_STUCK on every rank and
 * leaves the sequence, whose tasks stay in StarPU, unfreed.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <limits.h>
#include <stdlib.h>
#include <time.h>

#include "tila_runtime_private.h"

struct tila_sequence_s {
    starpu_pthread_mutex_t lock;
    starpu_pthread_cond_t done;
    long pending;                          /**< tasks of this sequence not yet completed here */
    int status;                            /**< first failure, atomically set once */
    int nkeys;                             /**< the hooks' keys (tila_sequence_keys) */
    tila_request_t *requests;              /**< requests of the calls made in this sequence */
    tila_wait_hook_t *hooks, **hooks_tail; /**< work left for the wait, in submission order */
    tila_continuation_t *then, **then_tail; /**< what runs after the hooks, in order */
    const tila_sequence_t *parent;         /**< its failure skips this one's tasks too */
    int abandoned;                         /**< its wait gave up on its tasks (TILA_ERR_STUCK) */
};

int tila_sequence_create(tila_sequence_t **seq)
{
    if (!seq) {
        tila_error("tila_sequence_create", "seq is NULL");
        return -1;
    }
    *seq = calloc(1, sizeof **seq);
    if (!*seq) return TILA_ERR_NOMEM;
    starpu_pthread_mutex_init(&(*seq)->lock, NULL);
    starpu_pthread_cond_init(&(*seq)->done, NULL);
    (*seq)->hooks_tail = &(*seq)->hooks;
    (*seq)->then_tail = &(*seq)->then;
    return TILA_SUCCESS;
}

int tila_sequence_create_child(tila_sequence_t **seq, const tila_sequence_t *parent)
{
    int rc = tila_sequence_create(seq);
    if (!rc) (*seq)->parent = parent;
    return rc;
}

int tila_sequence_failed(const tila_sequence_t *seq)
{
    return tila_sequence_status(seq) != 0 || (seq->parent && tila_sequence_status(seq->parent));
}

void tila_sequence_keys(tila_sequence_t *seq, int nkeys) { seq->nkeys += nkeys; }

void tila_sequence_on_wait(tila_sequence_t *seq, tila_wait_hook_t *hook)
{
    hook->next = NULL;
    *seq->hooks_tail = hook;
    seq->hooks_tail = &hook->next;
}

void tila_sequence_then(tila_sequence_t *seq, tila_continuation_t *c)
{
    c->next = NULL;
    *seq->then_tail = c;
    seq->then_tail = &c->next;
}

/* Hooks running on this thread (a wait inside one is refused: tila_wait_hook_t). */
static _Thread_local int tila_in_hook;

/* The hooks' first keys from key[0] on, nkeys in all; the first failure is returned. */
static int tila_sequence_hook_keys(tila_sequence_t *seq, int64_t *key, int nkeys)
{
    int rc = 0, off = 0;
    for (int i = 0; i < nkeys; i++)
        key[i] = INT64_MIN;
    for (tila_wait_hook_t *hook = seq->hooks; hook; off += hook->nkeys, hook = hook->next) {
        tila_in_hook++;
        int hrc = off + hook->nkeys <= nkeys ? hook->keys(hook, key + off) : TILA_ERR_MPI;
        tila_in_hook--;
        rc = rc ? rc : hrc;
    }
    return rc;
}

/* Run and forget the hooks (see tila_wait_hook_t), with the keys' maxima over the ranks
 * when run; the first failure is returned. */
static int tila_sequence_run_hooks(tila_sequence_t *seq, int run, const int64_t *key)
{
    int rc = 0;
    tila_wait_hook_t *hook = seq->hooks;
    seq->hooks = NULL;
    seq->hooks_tail = &seq->hooks;
    while (hook) {
        tila_wait_hook_t *next = hook->next;
        int nkeys = hook->nkeys; /* fn frees the hook */
        tila_in_hook++;
        int hrc = hook->fn(hook, seq->status, run, run ? key : NULL);
        tila_in_hook--;
        rc = rc ? rc : hrc;
        if (run) key += nkeys;
        hook = next;
    }
    return rc;
}

/* Run and forget the continuations, after the hooks; the first failure is returned. */
static int tila_sequence_run_then(tila_sequence_t *seq, int run)
{
    int rc = 0;
    tila_continuation_t *c = seq->then;
    seq->then = NULL;
    seq->then_tail = &seq->then;
    while (c) {
        tila_continuation_t *next = c->next; /* fn frees c */
        int crc = c->fn(c, seq->status, run);
        rc = rc ? rc : crc;
        c = next;
    }
    return rc;
}

int tila_sequence_destroy(tila_sequence_t **seq)
{
    if (!seq || !*seq) return TILA_SUCCESS;
    if ((*seq)->abandoned) {
        /* its tasks, and the hooks' data they use, stay in StarPU: so does the sequence */
        *seq = NULL;
        return TILA_ERR_STUCK;
    }
    starpu_pthread_mutex_lock(&(*seq)->lock);
    while ((*seq)->pending > 0)
        starpu_pthread_cond_wait(&(*seq)->done, &(*seq)->lock);
    starpu_pthread_mutex_unlock(&(*seq)->lock);
    tila_sequence_run_hooks(*seq, 0, NULL);
    tila_sequence_run_then(*seq, 0);
    starpu_pthread_mutex_destroy(&(*seq)->lock);
    starpu_pthread_cond_destroy(&(*seq)->done);
    free(*seq);
    *seq = NULL;
    return TILA_SUCCESS;
}

int tila_sequence_status(const tila_sequence_t *seq)
{
    return seq ? __atomic_load_n(&seq->status, __ATOMIC_ACQUIRE) : -1;
}

void tila_call_begin(tila_sequence_t *seq, tila_request_t *req)
{
    tila_resume();
    tila_sequence_attach(seq, req);
}

int tila_call_begun(tila_sequence_t *seq, const tila_request_t *req)
{
    starpu_pthread_mutex_lock(&seq->lock);
    const tila_request_t *r = seq->requests;
    while (r && r != req)
        r = r->next;
    starpu_pthread_mutex_unlock(&seq->lock);
    return r != NULL;
}

void tila_sequence_attach(tila_sequence_t *seq, tila_request_t *req)
{
    starpu_pthread_mutex_lock(&seq->lock);
    tila_request_t *r = seq->requests;
    while (r && r != req)
        r = r->next;
    /* A request already in the sequence keeps its status: a driver made of several
     * (posv = potrf + potrs) attaches it again, maybe after a task recorded a failure. */
    if (!r) {
        req->status = 0;
        req->next = seq->requests;
        seq->requests = req;
    }
    starpu_pthread_mutex_unlock(&seq->lock);
}

/* Set *status to info unless a failure is recorded there already. */
static void tila_status_set_once(int *status, int info)
{
    int zero = 0;
    __atomic_compare_exchange_n(status, &zero, info, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

int tila_cl_skip(const tila_cl_base_t *base)
{
    tila_naps_task_started();
    tila_watch_task_started();
    return tila_sequence_failed(base->seq);
}

void tila_sequence_fail(tila_sequence_t *seq, tila_request_t *req, int info)
{
    tila_status_set_once(&seq->status, info);
    if (req) tila_status_set_once(&req->status, info);
}

void tila_sequence_task_added(tila_sequence_t *seq)
{
    starpu_pthread_mutex_lock(&seq->lock);
    seq->pending++;
    starpu_pthread_mutex_unlock(&seq->lock);
    /* resting workers, and the progress thread where it runs a worker, back to work */
    tila_naps_task_added();
    tila_progress_worker_wake();
}

void tila_task_done(void *arg)
{
    tila_sequence_t *seq = arg;
    if (tila_rt.trace_pop) tila_trace_task_done();
    starpu_pthread_mutex_lock(&seq->lock);
    if (--seq->pending == 0) starpu_pthread_cond_broadcast(&seq->done);
    starpu_pthread_mutex_unlock(&seq->lock);
    tila_naps_task_done();
    tila_watch_task_ended();
    tila_progress_yield();
}

/*
 * Statuses are agreed on as the largest of their negated keys (in the hooks' MPI_MAX):
 * success maps to INT_MAX, so an argument or runtime error (negative) wins over a
 * numerical failure, and the smallest failing global index wins among those (LAPACK
 * reports the first column that fails).
 */
static int64_t tila_status_key(int s) { return -(int64_t)(s == 0 ? INT_MAX : s); }
static int tila_status_unkey(int64_t k) { return k == -(int64_t)INT_MAX ? 0 : (int)-k; }

int tila_sequence_wait(tila_sequence_t *seq)
{
    int rc = tila_check_init("tila_sequence_wait");
    if (rc) return rc;
    if (!seq) {
        tila_error("tila_sequence_wait", "seq is NULL");
        return -1;
    }
    if (tila_in_hook) {
        tila_error("tila_sequence_wait",
                   "called inside a wait hook, which only reduces: work that waits is a "
                   "continuation's (tila_sequence_then)");
        return -1;
    }
    tila_resume(); /* the workers back for the tasks waited for (after tila_pause) */
    tila_watch_t watch;
    tila_watch_begin(&watch, seq);
    starpu_pthread_mutex_lock(&seq->lock);
    while (seq->pending > 0 && !watch.verdict) {
        if (!watch.on) {
            starpu_pthread_cond_wait(&seq->done, &seq->lock);
            continue;
        }
        /* a look every 50 ms: the last task's broadcast still ends the wait at once */
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 50000000;
        if (until.tv_nsec >= 1000000000) until.tv_sec++, until.tv_nsec -= 1000000000;
        starpu_pthread_cond_timedwait(&seq->done, &seq->lock, &until);
        if (seq->pending == 0) break;
        starpu_pthread_mutex_unlock(&seq->lock);
        tila_watch_poll(&watch);
        starpu_pthread_mutex_lock(&seq->lock);
    }
    if (seq->pending > 0) {
        /* the watch's verdict: these tasks will never run */
        seq->abandoned = 1;
        tila_watch_abandon(seq->pending);
        tila_error("tila_sequence_wait",
                   "a call cannot finish: %ld of its tasks here never ran, and nothing ran, "
                   "started or moved between ranks on any rank for %g s (StarPU cannot "
                   "allocate a buffer such a task needs, or a message it waits for never "
                   "comes); it fails with TILA_ERR_STUCK (TILA_STUCK_TIMEOUT sets the time). "
                   "Its tasks stay in StarPU: later calls and tila_finalize return "
                   "TILA_ERR_STUCK, and the process can exit",
                   seq->pending, watch.limit);
        tila_sequence_fail(seq, NULL, TILA_ERR_STUCK);
    }
    int n = 1;
    for (tila_request_t *r = seq->requests; r; r = r->next)
        n++;
    starpu_pthread_mutex_unlock(&seq->lock);

    int count = n + seq->nkeys;
    int64_t stack[32], *keys = count <= 32 ? stack : malloc(sizeof(int64_t) * (size_t)count);
    if (!keys) return TILA_ERR_NOMEM;
    int hrc = tila_sequence_hook_keys(seq, keys + n, seq->nkeys);
    if (hrc) tila_sequence_fail(seq, NULL, hrc);
    int i = 0;
    keys[i++] = tila_status_key(tila_sequence_status(seq));
    for (tila_request_t *r = seq->requests; r; r = r->next)
        keys[i++] = tila_status_key(r->status);
    /* the other ranks may still be waiting for their tasks: the watch goes on */
    if (tila_rt.size > 1)
        rc = watch.on && !watch.verdict ? tila_allreduce_poll(keys, count, MPI_INT64_T, MPI_MAX,
                                                              tila_watch_poll_cb, &watch)
                                        : tila_allreduce(keys, count, MPI_INT64_T, MPI_MAX);
    i = 0;
    /* Atomic: a child sequence's tasks may be reading it (tila_sequence_failed). */
    __atomic_store_n(&seq->status, tila_status_unkey(keys[i++]), __ATOMIC_RELEASE);
    for (tila_request_t *r = seq->requests; r; r = r->next)
        r->status = tila_status_unkey(keys[i++]);
    seq->nkeys = 0;
    if ((watch.verdict || seq->status == TILA_ERR_STUCK) && !seq->abandoned) {
        /* its tasks here are done; another rank's never will be (the verdict's message may
         * come after the agreement: the agreed status says it too) */
        tila_watch_abandon(0);
        tila_error("tila_sequence_wait",
                   "a call cannot finish on another rank: nothing ran, started or moved "
                   "between ranks on any rank for %g s; it fails with TILA_ERR_STUCK, and so "
                   "will later calls and tila_finalize",
                   watch.limit);
    }
    int agreed = rc == 0;
    hrc = tila_sequence_run_hooks(seq, agreed, keys + n);
    if (keys != stack) free(keys);
    rc = rc ? rc : hrc;
    hrc = tila_sequence_run_then(seq, agreed);
    rc = rc ? rc : hrc;
    return rc ? rc : seq->status;
}

int tila_sync_begin(const char *func, tila_sync_t *s)
{
    s->seq = NULL;
    s->req = (tila_request_t)TILA_REQUEST_INITIALIZER;
    int rc = tila_check_init(func);
    return rc ? rc : tila_sequence_create(&s->seq);
}

int tila_sync_end(tila_sync_t *s, int rc)
{
    int status = tila_sequence_wait(s->seq);
    tila_sequence_destroy(&s->seq);
    return rc ? rc : status;
}
