/**
 * @file nap.c
 * @brief Idle threads give the core back: StarPU's CPU workers and StarPU-MPI's progress
 * thread nap while they have nothing to do.
 *
 * Neither thread ever blocks in StarPU 1.3 as Debian builds it.  On a rank whose cores
 * are all taken by CPU workers (one core per rank on this project's 2-core machine, or
 * any node where every core runs a worker), both poll on a core that another thread of
 * the rank needs:
 *
 * - the last awake worker polls the scheduler for tasks and held its core until the
 *   scheduler's tick, so every message and collective waited 4-8 ms (2 ranks, a 1000^2
 *   norm: 12-28 ms instead of 1).  After 20 us idle, a CPU worker naps 50 us at a time.
 *   A nap ends early when a task is pushed: lws, StarPU's default scheduler, wakes no
 *   worker on a push in this build (its wake-up is compiled only for blocking drivers),
 *   so Tila's default scheduler is lws with a push that wakes one napping worker (a futex
 *   on a count of pushes).  Without it, a task released by a message or submitted by the
 *   program waited out the rest of a nap: up to 50 us, at every hand-off to an idle rank.
 *   Where the progress thread runs the short tasks on a worker of its own
 *   (progress_worker.c), a short task's push wakes that worker, another push one of the
 *   others, whose naps are then 1 ms: only a push gives them work.
 * - the progress thread tests its MPI requests back to back as long as one is pending
 *   (its loop blocks only when none is): 54 % of each rank's cycles in a 2-rank potrs,
 *   the worker computing during less than half of the solve.  Tila's MPI_Test, below,
 *   passes every call to PMPI_Test and, in that thread only, after 20 us without a
 *   completed request, sleeps between tests: 10 us, doubling to 160 us while nothing
 *   completes.  A message then waits at most one nap; the worker gets the core back.
 *   Lowering the thread's priority instead was measured and rejected: a user's thread
 *   spinning in blocking MPI starved it (a 1 MB raw-MPI ping-pong took over 60 s).
 *   The end of a Tila task (tila_progress_yield), when its sends are queued, cuts a nap
 *   short and makes the next one the shortest (a futex on a count of ends): the sends
 *   no longer wait for the nap to end before the progress thread posts them.  2 ranks,
 *   one call per launch, medians of 7, interleaved: dpotrs n = 8192 with 1 / 16 rhs
 *   76 -> 63 / 111 -> 99 ms, dpotrf n = 4096 634 -> 573 ms.
 * - each of those naps ends with the progress thread preempting the worker: a 2-rank
 *   potrf (n = 8192, 768-tiles) switched threads 9000 times a second on each rank, and
 *   its tasks ran 15-30 % longer than on one rank of two workers, the workers busy 96 %
 *   of the time.  So the progress thread is SCHED_BATCH: same share of the core, but
 *   waking up does not preempt (Linux leaves that to the tick), and a worker yields the
 *   core at the end of each Tila task (tila_progress_yield, from the task's callback),
 *   when the task's sends are queued and its successors may wait for a message.  The
 *   thread then runs between two tasks, when a worker goes idle, and at the scheduler's
 *   tick.  Same run, medians of 5, 2 ranks: potrf n = 8192 1.72 -> 1.44 s, n = 4096
 *   0.260 -> 0.217 s, potrs n = 8192 with 1 / 16 rhs 0.056 -> 0.037 / 0.084 -> 0.062 s,
 *   norms unchanged or faster; a raw-MPI ping-pong beside StarPU is unchanged.
 *   SCHED_BATCH alone, without the yield, slowed potrs with 16 rhs to 0.099 s: messages
 *   waited for the tick while the worker computed.
 *
 * The progress thread is StarPU-MPI's thread named "MPI".  Some of its tests run under
 * StarPU-MPI's progress_mutex, so a worker that submits a request meanwhile waits for
 * the nap too (at most 160 us, once per message).  The naps are on unless
 * TILA_IDLE_NAP=0, and the progress thread's only when the rank has CPUs of its own and
 * a worker on each: where ranks outnumber the CPUs, a thread that sleeps waits behind the
 * other ranks' threads to run again, and 4 ranks on 2 cores solved 3x slower.  Tila's
 * MPI_Test replaces the MPI library's for the whole program: other threads' calls go
 * straight to PMPI_Test.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "tila_runtime.h"

/* Workers: idle time before napping, and the nap. */
static const double worker_idle_s = 20e-6;
static const long worker_nap_ns = 50000;
/* Beside a progress worker, a worker that runs the long tasks only: a push of one wakes
 * it, and the nap's end is only a safety.  With 50 us naps, their 20 000 timer wake-ups a
 * second took turns from the rank running a solve: 4 ranks on 2 cores, dpotrs n = 8192,
 * 1 rhs, medians of 5, 69 ms against 82. */
static const long long_worker_nap_ns = 1000000;
/* Progress thread: time since a request completed before napping, the first and the
 * longest nap, and the least time between two naps (one per pass of its loop, which
 * may test several requests). */
static const double progress_idle_s = 20e-6, progress_gap_s = 3e-6;
static const long progress_nap_ns = 10000, progress_max_nap_ns = 160000;

static int progress_naps; /* set before StarPU-MPI starts its thread */
static int progress_batch; /* the progress thread is SCHED_BATCH: workers yield to it */
/* Tasks ended so far (their sends queued), and whether the progress thread naps now. */
static unsigned ends;
static int progress_napping;

double tila_clock(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

void tila_nap(long ns) { nanosleep(&(struct timespec){ .tv_nsec = ns }, NULL); }

/* A nap of ns nanoseconds that ends early once *count is no longer seen, and a count
 * that ends one napper's nap (a futex). */
static void nap_unless(unsigned *count, unsigned seen, long ns)
{
    syscall(SYS_futex, count, FUTEX_WAIT_PRIVATE, seen, &(struct timespec){ .tv_nsec = ns },
            NULL, 0);
}

static void count_and_wake(unsigned *count, int *nappers)
{
    __atomic_add_fetch(count, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(nappers, __ATOMIC_SEQ_CST))
        syscall(SYS_futex, count, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Pushes so far, and the workers napping now: a push wakes a napper of its kind, the
 * progress worker for a short task where it runs them (progress_worker.c), another
 * worker for any other task. */
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
    wakes_t *w = tila_rt.short_workers && task->workerids == tila_rt.short_workers ? &short_task
                                                                                   : &any_task;
    int rc = lws_push(task);
    count_and_wake(&w->pushes, &w->nappers);
    return rc;
}

/*
 * A nap that a push ends.  seen is the count of pushes read at the end of the previous
 * call, before the worker last looked for a task: a push since then (a task the worker
 * did not see) makes the futex return at once, and a push during the nap wakes it.
 */
static unsigned tila_idle_nap(void *arg)
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
            nap_unless(&w->pushes, seen,
                       split && w == &any_task ? long_worker_nap_ns : worker_nap_ns);
            __atomic_sub_fetch(&w->nappers, 1, __ATOMIC_SEQ_CST);
        }
    }
    seen = __atomic_load_n(&w->pushes, __ATOMIC_SEQ_CST);
    last = tila_clock();
    return 0;
}

/* Tila's default scheduler: lws whose push wakes a napping worker; NULL where this StarPU
 * has no lws. */
static struct starpu_sched_policy *tila_sched_waking(void)
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

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    /* kind: 0 not yet known, 1 StarPU-MPI's progress thread, 2 any other thread */
    static __thread int kind;
    static __thread double busy, napped;
    static __thread long nap;
    static __thread unsigned seen;
    int rc = PMPI_Test(request, flag, status);
    if (kind == 0) {
        char name[17] = "";
        prctl(PR_GET_NAME, name);
        kind = progress_naps && !strcmp(name, "MPI") ? 1 : 2;
        if (kind == 1) {
            /* naps as short as asked, not the default 50 us late */
            prctl(PR_SET_TIMERSLACK, 1000UL);
            struct sched_param none = { 0 };
            if (!pthread_setschedparam(pthread_self(), SCHED_BATCH, &none))
                __atomic_store_n(&progress_batch, 1, __ATOMIC_RELAXED);
        }
    }
    if (kind != 1 || rc != MPI_SUCCESS) return rc;
    double now = tila_clock();
    if (*flag || nap == 0) {
        busy = now;
        nap = progress_nap_ns;
    }
    else if (now - busy > progress_idle_s && now - napped > progress_gap_s) {
        /* a task that ended since the last nap may have queued a send: no nap, or a nap
         * that such an end cuts short, and the next nap the shortest */
        __atomic_store_n(&progress_napping, 1, __ATOMIC_SEQ_CST);
        nap_unless(&ends, seen, nap);
        __atomic_store_n(&progress_napping, 0, __ATOMIC_SEQ_CST);
        unsigned now_ends = __atomic_load_n(&ends, __ATOMIC_SEQ_CST);
        nap = now_ends != seen ? progress_nap_ns
              : nap * 2 < progress_max_nap_ns ? nap * 2
                                              : progress_max_nap_ns;
        seen = now_ends;
        napped = tila_clock();
    }
    return rc;
}

void tila_progress_yield(void)
{
    if (progress_naps) count_and_wake(&ends, &progress_napping);
    if (__atomic_load_n(&progress_batch, __ATOMIC_RELAXED)) sched_yield();
}

const char *tila_naps_start(struct starpu_conf *conf, int progress_shares_core)
{
    const char *off = getenv("TILA_IDLE_NAP");
    /* this start's settings, not a previous tila_init's: no yielding until this start's
     * progress thread is SCHED_BATCH */
    progress_naps = progress_batch = 0;
    lws_push = NULL;
    if (off && !strcmp(off, "0")) return "";
    starpu_idle_hook_register(tila_idle_nap, NULL);
    /* the user's scheduler, when named, naps without being woken */
    if (!getenv("STARPU_SCHED") && !conf->sched_policy_name && !conf->sched_policy)
        conf->sched_policy = tila_sched_waking();
    progress_naps = progress_shares_core;
    static char how[96];
    snprintf(how, sizeof how, ", idle workers nap%s%s", lws_push ? " until a push" : "",
             progress_shares_core ? ", progress thread naps and runs between tasks" : "");
    return how;
}
