/**
 * @file progress_worker.c
 * @brief Where ranks outnumber the CPUs, StarPU-MPI's progress thread runs the short tasks.
 *
 * With more ranks than CPUs on a node (4 ranks on 2 cores), each rank runs two busy
 * threads: its CPU worker and StarPU-MPI's progress thread, which there polls MPI without
 * a pause (a nap would cost it a turn behind the other ranks' threads, nap.c), and every
 * cross-rank hop goes through both: the progress thread completes the receive and pushes
 * the task, then the worker waits for a turn on a core to run it.
 *
 * StarPU-MPI 1.3 can run a CPU worker inside its progress thread
 * (STARPU_MPI_DRIVER_CALL_FREQUENCY: the thread runs a task between two passes over its
 * requests), but a long task (a 768-tile gemm) then holds every message of the rank.  So
 * Tila gives such a rank two workers:
 *
 * - the progress worker, run by the progress thread: the tasks under
 *   TILA_SHORT_TASK_FLOPS (about a millisecond: a solve with few right-hand sides, a norm's
 *   tiles), which then run in the thread that received their data, with no hand-off;
 * - a worker thread as before: the longer tasks, while the progress thread keeps the
 *   messages going.
 *
 * Each kind of task can only run on its own worker (StarPU's task->workerids), and a push
 * wakes a napper of that kind (nap_workers.c).  The progress thread runs its worker only
 * while StarPU-MPI has a receive posted (it blocks when it has no request at all), so a
 * receive from this rank to itself stays posted while Tila has work: from the submission
 * of a task of Tila's on this rank until the rank's other worker, idle with nothing
 * pending, completes it with a send to itself (nap_workers.c), and while Tila rests
 * (tila_pause) as well.  Between calls the thread then blocks instead of polling.
 *
 * Where each rank has a CPU of its own, the progress thread already naps and the worker
 * yields to it (nap_progress.c), and the progress worker is off.  On unless
 * TILA_PROGRESS_WORKER=0 where ranks outnumber the node's CPUs, without CUDA workers, with
 * StarPU 1.3, and when Tila chooses the number of workers (no STARPU_NCPU).  A user's
 * STARPU_MPI_DRIVER_CALL_FREQUENCY > 0 makes StarPU-MPI drive worker 0 whatever the
 * node: it is then not launched as a thread (StarPU aborts otherwise), and runs any task.
 * The node's plan decides (plan.c); this file applies it.
 * The measurements behind these choices: bench/results/idle-naps.md.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "nap.h"

/* CPU worker 0, which StarPU does not launch: StarPU-MPI's progress thread runs it. */
static struct starpu_driver progress_driver = { .type = STARPU_CPU_WORKER, .id.cpu_id = 0 };
/* The state (tila_node, node.h): whether this start's progress thread runs CPU worker 0
 * (the plan's progress: for the short tasks, the other workers running the rest, or for
 * any task), that worker's id once StarPU runs, and the receive from this rank to itself
 * that keeps the thread running its worker, with whether it is posted with no send for it
 * yet.  A later receive on keep_in_h waits for the one before (StarPU's order of accesses
 * to the handle), so one at a time is posted to StarPU-MPI. */
static pthread_mutex_t keep_lock = PTHREAD_MUTEX_INITIALIZER;

/* Post the receive that keeps the progress thread running its worker (keep_lock held). */
static void keep_post(void)
{
    if (tila_node.keep_posted || !tila_node.keep_in_h) return;
    starpu_mpi_irecv_detached(tila_node.keep_in_h, tila_rt.rank, TILA_TAG_PROGRESS,
                              tila_starpu_comm(), NULL, NULL);
    __atomic_store_n(&tila_node.keep_posted, 1, __ATOMIC_SEQ_CST);
}

/* Complete it with a send to itself (keep_lock held): with no request left, the progress
 * thread blocks. */
static void keep_complete(void)
{
    if (!tila_node.keep_posted) return;
    starpu_mpi_send(tila_node.keep_out_h, tila_rt.rank, TILA_TAG_PROGRESS, tila_starpu_comm());
    __atomic_store_n(&tila_node.keep_posted, 0, __ATOMIC_SEQ_CST);
}

static void keep_receive(void)
{
    starpu_variable_data_register(&tila_node.keep_in_h, STARPU_MAIN_RAM,
                                  (uintptr_t)&tila_node.keep_in, sizeof tila_node.keep_in);
    starpu_variable_data_register(&tila_node.keep_out_h, STARPU_MAIN_RAM,
                                  (uintptr_t)&tila_node.keep_out, sizeof tila_node.keep_out);
    pthread_mutex_lock(&keep_lock);
    keep_post();
    pthread_mutex_unlock(&keep_lock);
}

static void end_receive(void)
{
    if (!tila_node.keep_in_h) return;
    pthread_mutex_lock(&keep_lock);
    keep_complete();
    pthread_mutex_unlock(&keep_lock);
    starpu_data_unregister(tila_node.keep_in_h); /* after the receives and sends on them */
    starpu_data_unregister(tila_node.keep_out_h);
    tila_node.keep_in_h = tila_node.keep_out_h = NULL;
}

void tila_progress_worker_setup(struct starpu_conf *conf, const tila_node_plan_t *p)
{
    tila_node.driven = p->progress != TILA_PROGRESS_MESSAGES;
    if (!tila_node.driven) return;
    conf->not_launched_drivers = &progress_driver;
    conf->n_not_launched_drivers = 1;
}

int tila_progress_worker_start(void)
{
    if (!tila_node.driven) return TILA_SUCCESS;
    if (tila_node.plan.progress == TILA_PROGRESS_SHORT_TASKS && starpu_cpu_worker_get_count() > 1) {
        unsigned nw = starpu_worker_get_count();
        int progress_worker = starpu_worker_get_by_devid(STARPU_CPU_WORKER, 0);
        tila_rt.short_workers = calloc(tila_rt.nwords, sizeof(uint32_t));
        tila_rt.long_workers = calloc(tila_rt.nwords, sizeof(uint32_t));
        if (!tila_rt.short_workers || !tila_rt.long_workers) return TILA_ERR_NOMEM;
        for (unsigned w = 0; w < nw; w++) {
            uint32_t *set =
                (int)w == progress_worker ? tila_rt.short_workers : tila_rt.long_workers;
            set[w / 32] |= UINT32_C(1) << w % 32;
        }
    }
    tila_node.driven_worker = starpu_worker_get_by_devid(STARPU_CPU_WORKER, 0);
    keep_receive();
    return TILA_SUCCESS;
}

int tila_progress_worker_id(void) { return tila_node.driven ? tila_node.driven_worker : -1; }

void tila_progress_worker_rest(void)
{
    if (!tila_node.driven) return;
    pthread_mutex_lock(&keep_lock);
    keep_complete();
    pthread_mutex_unlock(&keep_lock);
}

/*
 * Between calls, from an idle worker: complete the receive unless a task was submitted
 * meanwhile.  With tila_progress_worker_wake, after the submission counted its task:
 * this side clears keep_posted then reads whether anything is pending, the other counts
 * its task then reads keep_posted (each sequentially consistent), so one of them sees the
 * other: no task is left with the receive completed and nobody to post it again.
 */
void tila_progress_worker_rest_async(void)
{
    /* a worker never waits here: the lock's holder posts or completes it already */
    if (!__atomic_load_n(&tila_node.keep_posted, __ATOMIC_SEQ_CST) ||
        pthread_mutex_trylock(&keep_lock))
        return;
    if (tila_node.keep_posted) {
        __atomic_store_n(&tila_node.keep_posted, 0, __ATOMIC_SEQ_CST);
        if (tila_naps_idle()) {
            starpu_mpi_isend_detached(tila_node.keep_out_h, tila_rt.rank, TILA_TAG_PROGRESS,
                                      tila_starpu_comm(), NULL, NULL);
        }
        else {
            __atomic_store_n(&tila_node.keep_posted, 1, __ATOMIC_SEQ_CST);
        }
    }
    pthread_mutex_unlock(&keep_lock);
}

void tila_progress_worker_wake(void)
{
    if (!tila_node.driven || __atomic_load_n(&tila_node.keep_posted, __ATOMIC_SEQ_CST)) return;
    pthread_mutex_lock(&keep_lock);
    keep_post();
    pthread_mutex_unlock(&keep_lock);
}

void tila_progress_worker_stop(void)
{
    end_receive();
    free(tila_rt.short_workers);
    free(tila_rt.long_workers);
    tila_rt.short_workers = tila_rt.long_workers = NULL;
    tila_node.driven = 0;
    tila_node.driven_worker = -1;
}
