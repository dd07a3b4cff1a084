/**
 * @file nap_workers.c
 * @brief Idle CPU workers nap, and a push of a task wakes one (StarPU 1.3).
 *
 * StarPU calls the idle hook each time a worker finds no task.  After 20 us idle, a CPU
 * worker naps 50 us at a time, on a futex that a push ends: lws, StarPU's default
 * scheduler, wakes no worker on a push in StarPU 1.3 (its wake-up is compiled for blocking
 * drivers only), so Tila's default scheduler is lws with a push that wakes one napping
 * worker.  Without it, a task released by a message or submitted by the program waited
 * out the rest of a nap at every hand-off to an idle rank.  Where the progress thread
 * runs the short tasks on a worker of its own (progress_worker.c), a short task's push
 * wakes that worker and any other task's one of the others, whose naps are then 1 ms:
 * only a push gives them work, and their timer wake-ups would take turns on the cores
 * from the rank that computes.  A user's scheduler (STARPU_SCHED, or conf's) is kept:
 * its workers nap without being woken.
 *
 * Between calls a worker rests: once no task of Tila's is pending on the rank (none
 * submitted here and not yet done, nor any other task of StarPU's) and the worker has
 * found no task for 1 ms, it sleeps on the same futex 100 ms at a time instead of 50 us,
 * as OpenMP runtimes and OpenBLAS spin briefly and then sleep: a program that calls Tila
 * now and then gets its cores back without tila_pause.  The next call pays no more than
 * now: a push wakes a resting worker as it wakes a napping one, and the submission of a
 * task of Tila's wakes every resting worker (for a user's scheduler, whose pushes do not).
 * No transfer can be pending for a resting worker (no task is), so nothing else needs it
 * sooner; the 100 ms bound is for what StarPU itself might push another way.  StarPU-MPI's
 * progress thread, where it runs the short tasks, never rests in this hook (it serves the
 * messages); the other worker then completes the receive that keeps it running
 * (progress_worker.c), and the thread blocks until the next call posts it again.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "nap.h"

#ifdef TILA_STARPU_NAPS

/* Idle time before napping, the nap, and the nap of a worker beside a progress worker.
 * The quiet time before a rest between calls, and the rest, are the plan's (plan.c). */
static const double worker_idle_s = 20e-6;
static const long worker_nap_ns = 50000, long_worker_nap_ns = 1000000;

/* The state (tila_node, node.h): pushes so far and the workers napping now, per kind (a
 * push wakes a napper of its kind, the progress worker for a short task where it runs
 * them, another worker for any other); lws whose push wakes, and lws's own push; the idle
 * hook's slot in StarPU's table (-1: none: StarPU keeps the table across starpu_shutdown
 * and starpu_init, so a hook left there would run in the workers of a StarPU that the
 * program starts after tila_finalize, and each tila_init would add another); tasks of
 * Tila's submitted to run on this rank and not yet done; workers resting now; 1 while
 * Tila stops (no rest: StarPU's shutdown waits for its workers). */

/* Tasks of Tila's this thread started (tila_cl_skip, at each codelet's start). */
static __thread unsigned long started;

void tila_naps_task_started(void) { started++; }

/* lws's push, then a napping worker woken: it runs the task, or steals it. */
static int lws_push_wake(struct starpu_task *task)
{
    tila_wakes_t *w = tila_rt.short_workers && task->workerids == tila_rt.short_workers
                          ? &tila_node.short_task
                          : &tila_node.any_task;
    int rc = tila_node.lws_push(task);
    tila_futex_count_and_wake(&w->pushes, &w->nappers);
    return rc;
}

int tila_naps_idle(void)
{
    return !__atomic_load_n(&tila_node.busy, __ATOMIC_SEQ_CST) && starpu_task_nsubmitted() == 0;
}

/* Nothing of Tila's or StarPU's to do on this rank: a worker may rest. */
static int may_rest(void)
{
    return tila_naps_idle() && !__atomic_load_n(&tila_node.stopping, __ATOMIC_SEQ_CST);
}

void tila_naps_task_added(void)
{
    __atomic_add_fetch(&tila_node.busy, 1, __ATOMIC_SEQ_CST);
    /* after busy is up: a worker that announced its rest before sees it, or is woken */
    if (__atomic_load_n(&tila_node.resting, __ATOMIC_SEQ_CST)) tila_naps_wake_all();
}

void tila_naps_task_done(void) { __atomic_sub_fetch(&tila_node.busy, 1, __ATOMIC_SEQ_CST); }

void tila_naps_wake_all(void)
{
    tila_wakes_t *all[2] = { &tila_node.any_task, &tila_node.short_task };
    for (int k = 0; k < 2; k++) {
        __atomic_add_fetch(&all[k]->pushes, 1, __ATOMIC_SEQ_CST);
        tila_futex_wake_all(&all[k]->pushes);
    }
}

void tila_naps_stopping(int on)
{
    __atomic_store_n(&tila_node.stopping, on, __ATOMIC_SEQ_CST);
    if (on) tila_naps_wake_all();
}

/* A rest between calls, on w's futex: a push, a submission or tila_finalize ends it.
 * Announced first, then the check again: a submission since sees `resting` and wakes. */
static void rest(tila_wakes_t *w, unsigned seen)
{
    __atomic_add_fetch(&tila_node.resting, 1, __ATOMIC_SEQ_CST);
    __atomic_add_fetch(&w->nappers, 1, __ATOMIC_SEQ_CST);
    if (may_rest()) tila_futex_nap(&w->pushes, seen, tila_node.plan.rest_ns);
    __atomic_sub_fetch(&w->nappers, 1, __ATOMIC_SEQ_CST);
    __atomic_sub_fetch(&tila_node.resting, 1, __ATOMIC_SEQ_CST);
}

/*
 * A nap that a push ends.  seen is the count of pushes read at the end of the previous
 * call, before the worker last looked for a task: a push since then (a task the worker
 * did not see) makes the futex return at once, and a push during the nap wakes it.
 * idle adds up the time spent looking for a task between naps; busy_end is when the
 * worker was last seen to have started a task of Tila's.
 */
static unsigned idle_nap(void *arg)
{
    static __thread double idle, last, busy_end;
    static __thread unsigned long started_seen;
    static __thread unsigned seen;
    (void)arg;
    int me = starpu_worker_get_id();
    if (starpu_worker_get_type(me) != STARPU_CPU_WORKER) return 0;
    const uint32_t *shorts = tila_rt.short_workers;
    int split = shorts != NULL;
    tila_wakes_t *w =
        split && shorts[me / 32] >> me % 32 & 1 ? &tila_node.short_task : &tila_node.any_task;
    double now = tila_clock();
    idle = now - last < worker_idle_s ? idle + (now - last) : 0;
    if (started != started_seen) {
        started_seen = started;
        busy_end = now;
    }
    if (tila_node.plan.worker_rest && now - busy_end > tila_node.plan.rest_after_s &&
        me != tila_progress_worker_id() && may_rest()) {
        /* the progress thread runs a worker: it waits for the next call, not polling */
        tila_progress_worker_rest_async();
        rest(w, seen);
    }
    else if (idle > worker_idle_s) {
        if (!tila_node.lws_push) {
            tila_nap(worker_nap_ns);
        }
        else {
            __atomic_add_fetch(&w->nappers, 1, __ATOMIC_SEQ_CST);
            tila_futex_nap(&w->pushes, seen,
                           split && w == &tila_node.any_task ? long_worker_nap_ns : worker_nap_ns);
            __atomic_sub_fetch(&w->nappers, 1, __ATOMIC_SEQ_CST);
        }
    }
    seen = __atomic_load_n(&w->pushes, __ATOMIC_SEQ_CST);
    last = tila_clock();
    return 0;
}

struct starpu_sched_policy *tila_naps_sched_waking(void)
{
    struct starpu_sched_policy **all = starpu_sched_get_predefined_policies();
    for (int i = 0; all[i]; i++)
        if (!strcmp(all[i]->policy_name, "lws")) {
            tila_node.lws_waking = *all[i];
            tila_node.lws_push = tila_node.lws_waking.push_task;
            tila_node.lws_waking.push_task = lws_push_wake;
            return &tila_node.lws_waking;
        }
    return NULL;
}

void tila_worker_naps_unhook(void)
{
    if (tila_node.idle_hook >= 0) starpu_idle_hook_deregister(tila_node.idle_hook);
    tila_node.idle_hook = -1;
}

void tila_worker_naps_off(void)
{
    tila_worker_naps_unhook();
    tila_node.lws_push = NULL;
    tila_naps_stopping(0);
}

void tila_worker_naps_start(void)
{
    tila_node.idle_hook = starpu_idle_hook_register(idle_nap, NULL);
}

#else /* !TILA_STARPU_NAPS */

void tila_naps_task_added(void) {}
void tila_naps_task_started(void) {}
void tila_naps_task_done(void) {}
int tila_naps_idle(void) { return 0; }
struct starpu_sched_policy *tila_naps_sched_waking(void) { return NULL; }
void tila_worker_naps_unhook(void) {}

#endif /* TILA_STARPU_NAPS */
