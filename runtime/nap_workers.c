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
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "nap.h"

#ifdef TILA_STARPU_NAPS

/* Idle time before napping, the nap, and the nap of a worker beside a progress worker. */
static const double worker_idle_s = 20e-6;
static const long worker_nap_ns = 50000, long_worker_nap_ns = 1000000;

/* Pushes so far, and the workers napping now: a push wakes a napper of its kind, the
 * progress worker for a short task where it runs them, another worker for any other. */
typedef struct wakes_s {
    unsigned pushes;
    int nappers;
} wakes_t;
static wakes_t any_task, short_task;
static struct starpu_sched_policy lws_waking;
static int (*lws_push)(struct starpu_task *task);

/* lws's push, then a napping worker woken: it runs the task, or steals it. */
static int lws_push_wake(struct starpu_task *task)
{
    wakes_t *w =
        tila_rt.short_workers && task->workerids == tila_rt.short_workers ? &short_task : &any_task;
    int rc = lws_push(task);
    tila_futex_count_and_wake(&w->pushes, &w->nappers);
    return rc;
}

/*
 * A nap that a push ends.  seen is the count of pushes read at the end of the previous
 * call, before the worker last looked for a task: a push since then (a task the worker
 * did not see) makes the futex return at once, and a push during the nap wakes it.
 */
static unsigned idle_nap(void *arg)
{
    static __thread double idle, last;
    static __thread unsigned seen;
    (void)arg;
    int me = starpu_worker_get_id();
    if (starpu_worker_get_type(me) != STARPU_CPU_WORKER) return 0;
    const uint32_t *shorts = tila_rt.short_workers;
    int split = shorts != NULL;
    wakes_t *w = split && shorts[me / 32] >> me % 32 & 1 ? &short_task : &any_task;
    double now = tila_clock();
    idle = now - last < worker_idle_s ? idle + (now - last) : 0;
    if (idle > worker_idle_s) {
        if (!lws_push) {
            tila_nap(worker_nap_ns);
        }
        else {
            __atomic_add_fetch(&w->nappers, 1, __ATOMIC_SEQ_CST);
            tila_futex_nap(&w->pushes, seen,
                           split && w == &any_task ? long_worker_nap_ns : worker_nap_ns);
            __atomic_sub_fetch(&w->nappers, 1, __ATOMIC_SEQ_CST);
        }
    }
    seen = __atomic_load_n(&w->pushes, __ATOMIC_SEQ_CST);
    last = tila_clock();
    return 0;
}

/* lws whose push wakes a napping worker; NULL where this StarPU has no lws. */
static struct starpu_sched_policy *sched_waking(void)
{
    struct starpu_sched_policy **all = starpu_sched_get_predefined_policies();
    for (int i = 0; all[i]; i++)
        if (!strcmp(all[i]->policy_name, "lws")) {
            lws_waking = *all[i];
            lws_push = lws_waking.push_task;
            lws_waking.push_task = lws_push_wake;
            return &lws_waking;
        }
    return NULL;
}

void tila_worker_naps_off(void) { lws_push = NULL; }

int tila_worker_naps_start(struct starpu_conf *conf)
{
    starpu_idle_hook_register(idle_nap, NULL);
    if (!getenv("STARPU_SCHED") && !conf->sched_policy_name && !conf->sched_policy)
        conf->sched_policy = sched_waking();
    return lws_push != NULL;
}

#endif /* TILA_STARPU_NAPS */
