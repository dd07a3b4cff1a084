/**
 * @file tila_runtime_private.h
 * @brief What only the runtime's own sources may call: the node subsystem (runtime/node/node.h:
 *        the node's plan and set-up, the idle naps, the progress worker, the environment's
 *        registry), the CUDA workers' set-up, a sequence's accounting.  Its folder is on the
 *        include path of the runtime's own sources and of the unit tests of these parts
 *        only (Makefile.am), so the build enforces that drivers and codelets keep out.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_RUNTIME_PRIVATE_H
#define TILA_RUNTIME_PRIVATE_H

#include "tila_runtime.h"

/* The node subsystem (runtime/node/): its plan, naps, progress worker, environment's
 * registry and state. */
#include "node.h"

/** tila_allreduce, calling poll(arg) between its tests once it no longer spins (a
 * sequence's wait serves its watch meanwhile: runtime/sequence.c); in simulation, where
 * nothing is watched, tila_allreduce. */
#ifdef STARPU_SIMGRID
static inline int tila_allreduce_poll(void *buf, int count, MPI_Datatype type, MPI_Op op,
                                      void (*poll)(void *arg), void *arg)
{
    (void)poll;
    (void)arg;
    return tila_allreduce(buf, count, type, op);
}
#else
int tila_allreduce_poll(void *buf, int count, MPI_Datatype type, MPI_Op op,
                        void (*poll)(void *arg), void *arg);
#endif

/**
 * The watch of a sequence's wait for a call that can no longer finish (runtime/watch.c
 * says how): begun as every wait starts (collective: the waits are counted in the same
 * order on every rank), polled while it waits (at most every 50 ms does anything); poll
 * returns 1 once every rank has agreed that the call cannot finish.  A task of Tila's
 * started (tila_cl_skip) and ended (its callback), a request of StarPU-MPI's completed
 * (nap_progress.c): what the watch takes for activity.  tila_watch_abandon: after a
 * verdict, `tasks` of this rank are left in StarPU.  Nothing under simulation.
 */
typedef struct tila_watch_s {
    int on, verdict;
    int reported; /**< this rank said it was still (rank 0 was told) */
    int yes;      /**< rank 0: ranks that answered yes in this round */
    long wait, round, rounds;
    double limit, since, sampled, next;
    unsigned long events;
} tila_watch_t;
#ifdef STARPU_SIMGRID
static inline void tila_watch_begin(tila_watch_t *w, tila_sequence_t *seq)
{
    (void)seq;
    *w = (tila_watch_t){ 0 };
}
static inline int tila_watch_poll(tila_watch_t *w) { return w->verdict; }
static inline void tila_watch_poll_cb(void *w) { (void)w; }
static inline void tila_watch_task_started(void) {}
static inline void tila_watch_task_ended(void) {}
static inline void tila_watch_message(void) {}
static inline void tila_watch_abandon(long tasks) { (void)tasks; }
static inline int tila_watch_stuck(void) { return 0; }
#else
void tila_watch_begin(tila_watch_t *w, tila_sequence_t *seq);
int tila_watch_poll(tila_watch_t *w);
void tila_watch_poll_cb(void *w);
void tila_watch_task_started(void);
void tila_watch_task_ended(void);
void tila_watch_message(void);
void tila_watch_abandon(long tasks);
/** A call could not finish (TILA_ERR_STUCK), here or on another rank: 1, else 0. */
int tila_watch_stuck(void);
#endif

/** Attach a request to its sequence (status reset to 0). */
void tila_sequence_attach(tila_sequence_t *seq, tila_request_t *req);
/** 1 when req is in seq's wait: its call began (tila_call_begin) and is not waited for yet. */
int tila_call_begun(tila_sequence_t *seq, const tila_request_t *req);

/* Sequence accounting behind the task functions (runtime/sequence.c). */
void tila_sequence_task_added(tila_sequence_t *seq);

/**
 * TILA_TRACE (runtime/trace.c): start recording when the variable is set (end of tila_init;
 * a file that cannot be written is said and leaves Tila untraced), note a task's times as its
 * callback runs (tila_task_done), write what is left and stop (tila_finalize).
 */
int tila_trace_start(void);
void tila_trace_task_done(void);
void tila_trace_stop(void);

#ifdef TILA_USE_CUDA
/** Create / destroy each CUDA worker's resources (tila_init / tila_finalize); init:
 * 0, or TILA_ERR_DEVICE when a handle could not be made. */
int tila_cuda_workers_init(void);
void tila_cuda_workers_fini(void);
#endif

#endif /* TILA_RUNTIME_PRIVATE_H */
