/**
 * @file init.c
 * @brief Tila's life cycle: tila_init, tila_pause, tila_resume, tila_finalize, and a child of
 *        fork(); the process-wide state.
 *
 * Each step of a start and a stop is elsewhere: MPI, StarPU and Tila's communicators
 * natively (start.c) or in simulation (start_sim.c), one of which is built (tila_start.h);
 * the node's plan and set-up (runtime/node/).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <pthread.h>
#include <string.h>

#include "tila_runtime_private.h"
#include "tila_start.h"

tila_runtime_t tila_rt;

int tila_initialized(void) { return tila_rt.initialized; }
int tila_comm_rank(void) { return tila_rt.rank; }
int tila_comm_size(void) { return tila_rt.size; }
int tila_cuda_ndevices(void) { return tila_rt.ncuda; }
MPI_Comm tila_starpu_comm(void) { return tila_rt.starpu_comm; }

/*
 * Once StarPU-MPI runs: stop it, Tila's communicators, StarPU and MPI where tila_init
 * started them, and put the environment back (tila_finalize, and tila_init's late
 * failures).
 */
static void tila_stop_started(void)
{
    starpu_mpi_shutdown();
    tila_comm_stop();
    tila_node_workers_fini();
    if (tila_rt.started_starpu) starpu_shutdown();
    tila_progress_thread_mark(0); /* that thread is gone: no other naps in its place */
    tila_mpi_stop();
    tila_node_restore();
    memset(&tila_rt, 0, sizeof tila_rt);
}

/*
 * In a child of fork(): StarPU's and StarPU-MPI's threads are not there, and MPI does not
 * survive fork.  Tila no longer runs there: its calls fail (TILA_ERR_NOT_INITIALIZED),
 * tila_finalize does nothing (MPI_Finalize there would wait on the parent's job), and
 * tila_init fails (TILA_ERR_MPI); the parent goes on as before.
 */
static int tila_forked;

static void tila_fork_child(void)
{
    if (!tila_rt.initialized) return;
    tila_forked = 1;
    tila_rt.initialized = 0;
    tila_rt.started_mpi = 0;
}

static void tila_fork_handlers(void) { pthread_atfork(NULL, NULL, tila_fork_child); }

int tila_init(int *argc, char ***argv) { return tila_init_comm(argc, argv, MPI_COMM_WORLD); }

int tila_init_comm(int *argc, char ***argv, MPI_Comm comm)
{
    static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
    if (tila_rt.initialized) return TILA_SUCCESS;
    if (comm != MPI_COMM_WORLD && comm != MPI_COMM_SELF) {
        tila_error("tila_init_comm", "comm must be MPI_COMM_WORLD or MPI_COMM_SELF");
        return -3;
    }
    if (tila_forked) {
        tila_error("tila_init", "this process was forked from one where Tila ran: MPI and "
                                "StarPU's threads do not survive fork(), Tila cannot start here");
        return TILA_ERR_MPI;
    }
    pthread_once(&fork_once, tila_fork_handlers);
    memset(&tila_rt, 0, sizeof tila_rt);
    tila_rt.next_tag = TILA_TAG_FIRST;
    tila_node_reset();
    tila_node.alone.on = comm == MPI_COMM_SELF;
    int rc = tila_mpi_start(argc, argv, tila_node.alone.on);
    if (rc) {
        tila_node_restore();
        return rc;
    }
    /* agreed, so that no rank goes on to StarPU's start alone */
    if (!starpu_is_initialized()) rc = tila_worst_of_ranks(tila_starpu_home());
    if (rc) {
        tila_node_restore();
        tila_mpi_stop();
        return rc;
    }
    struct starpu_conf conf;
    starpu_conf_init(&conf);
    conf.will_use_mpi = 1;
    /* the node's plan applied (runtime/node/plan.c says what it decides) */
    tila_node_setup(&conf);
    rc = tila_starpu_start(argc, argv, &conf);
    if (rc) {
        tila_node_restore();
        tila_mpi_stop();
        return rc;
    }
    rc = tila_comm_start();
    if (rc == TILA_SUCCESS) rc = tila_node_workers_init();
#ifdef TILA_USE_CUDA
    if (rc == TILA_SUCCESS) rc = tila_cuda_workers_init();
#endif
    if (rc == TILA_SUCCESS) rc = tila_progress_worker_start();
    /* Every rank's result: none goes on alone, and none stays half started. */
    int worst = tila_worst_of_ranks(rc);
    if (worst != TILA_SUCCESS) {
        tila_progress_worker_stop();
#ifdef TILA_USE_CUDA
        tila_cuda_workers_fini();
#endif
        tila_stop_started();
        return worst;
    }
    /* Owned by another rank, so StarPU-MPI never sends or receives it from here. */
    if (tila_rt.size > 1) {
        starpu_void_data_register(&tila_rt.absent);
        starpu_mpi_data_register_comm(tila_rt.absent, TILA_TAG_ABSENT,
                                      (tila_rt.rank + 1) % tila_rt.size, tila_starpu_comm());
    }
    tila_rt.initialized = 1;
    return tila_trace_start();
}

int tila_pause(void)
{
    if (!tila_rt.initialized) return tila_check_init("tila_pause");
    /* Collective: every rank pauses when any is awake (one may have resumed alone). */
    int awake = !__atomic_load_n(&tila_rt.paused, __ATOMIC_ACQUIRE);
    if (tila_rt.size > 1) tila_allreduce(&awake, 1, MPI_INT, MPI_MAX);
    if (!awake) return TILA_SUCCESS;
    tila_resume();
    starpu_task_wait_for_all();
    tila_progress_worker_rest();
    /* every message sent and received (one rank has none) */
    if (tila_rt.size > 1) starpu_mpi_wait_for_all(tila_starpu_comm());
    starpu_pause();
    tila_rt.paused = 1;
    return TILA_SUCCESS;
}

int tila_resume(void)
{
    if (!__atomic_exchange_n(&tila_rt.paused, 0, __ATOMIC_ACQ_REL)) return TILA_SUCCESS;
    starpu_resume();
    tila_progress_worker_wake();
    return TILA_SUCCESS;
}

int tila_finalize(void)
{
    if (!tila_rt.initialized) return TILA_SUCCESS;
    if (tila_watch_stuck()) {
        /* stopping StarPU would wait for the tasks left behind; MPI may still stop */
        tila_progress_park();
        tila_error("tila_finalize",
                   "a call could not finish (TILA_ERR_STUCK): its tasks stay in StarPU, which "
                   "is left running (StarPU-MPI's thread stopped: MPI may be finalized); the "
                   "process can exit");
        return TILA_ERR_STUCK;
    }
    tila_resume();
    starpu_task_wait_for_all();
    tila_trace_stop();
    tila_progress_worker_stop();
    starpu_mpi_wait_for_all(tila_starpu_comm());
    if (tila_rt.absent) starpu_data_unregister(tila_rt.absent);
#ifdef TILA_USE_CUDA
    tila_cuda_workers_fini();
#endif
    tila_naps_stop();
    tila_stop_started();
    return TILA_SUCCESS;
}
