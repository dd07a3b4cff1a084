/**
 * @file tila_runtime_private.h
 * @brief What only the runtime's own sources may call: the node's set-up (node.c), the idle naps
 *        (nap*.c), the progress worker, the progress thread's identity, the environment's
 *        registry, the CUDA workers' set-up, a sequence's accounting.  Its folder is on the
 *        include path of the runtime's own sources and of the unit tests of these parts
 *        only (Makefile.am), so the build enforces that drivers and codelets keep out.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_RUNTIME_PRIVATE_H
#define TILA_RUNTIME_PRIVATE_H

#include "tila_runtime.h"

/** The most CPUs of a node Tila reads (a cpuset's list). */
#define TILA_MAX_CPUS 8192

/** What a node offers a rank (runtime/node.c, tila_node_facts_read). */
typedef struct tila_node_facts_s {
    int offered;    /**< CPUs the node offers the job: the cgroup's cpuset, else all online */
    int quota;      /**< the cgroup's CPU quota in CPUs, rounded up; 0: none */
    int mine;       /**< CPUs in this rank's affinity mask */
    int nlocal;     /**< ranks on this node */
    int local;      /**< this rank's place among them */
    int user_ncpus; /**< CPU workers the user asked for (STARPU_NCPU, conf), or -1 */
    int user_bind;  /**< the user set the workers' binding (STARPU_WORKERS_*) */
} tila_node_facts_t;

/** How a rank's CPU workers are bound. */
typedef enum tila_bind_e {
    TILA_BIND_STARPU, /**< StarPU's own binding (the rank has every CPU) */
    TILA_BIND_SLICE,  /**< to CPUs first .. first + share - 1 of the offered list */
    TILA_BIND_NONE,   /**< unbound: more ranks than CPUs, or a quota without CPUs of its own */
    TILA_BIND_WITHIN, /**< within the rank's affinity mask (the launcher bound it) */
    TILA_BIND_USER    /**< the user's (STARPU_WORKERS_*) */
} tila_bind_t;

/** What a rank does with its node (tila_node_plan). */
typedef struct tila_node_plan_s {
    int share;                /**< CPUs that are this rank's */
    int workers;              /**< CPU workers: share, or the user's count */
    tila_bind_t bind;
    int first;                /**< TILA_BIND_SLICE: index of the first CPU in the offered list */
    int crowded;              /**< more ranks than CPUs on the node */
    int progress_shares_core; /**< StarPU-MPI's progress thread shares the rank's CPUs */
} tila_node_plan_t;

/** The plan for facts f: a pure function (runtime/node.c says the rules). */
void tila_node_plan(const tila_node_facts_t *f, tila_node_plan_t *p);

/**
 * This rank's facts (all but nlocal, local, user_ncpus and user_bind) from sysconf, its
 * affinity mask and its cgroup; the offered CPUs' numbers into cpus (at most max).
 */
void tila_node_facts_read(tila_node_facts_t *f, int *cpus, int max);

/** A cpuset list ("0-3,8,10-11") into cpus (at most max): how many, or -1 if malformed. */
int tila_cpulist_parse(const char *text, int *cpus, int max);

/** A CPU quota in CPUs, rounded up, from cgroup v2's cpu.max line (period NULL) or v1's
 * cfs_quota_us and cfs_period_us; 0 for none or unreadable. */
int tila_cpu_quota_parse(const char *quota, const char *period);

/** CLOCK_MONOTONIC in seconds, and a sleep of ns nanoseconds (runtime/nap.c). */
double tila_clock(void);
void tila_nap(long ns);

/**
 * Let idle CPU workers nap, and StarPU-MPI's progress thread too when it shares a core
 * with a worker (runtime/nap.c), unless TILA_IDLE_NAP=0 or StarPU is not 1.3; unless the
 * user named a scheduler, conf's becomes lws waking a napping worker on each push.  Call
 * before StarPU starts, with the conf it starts with.
 * @return what was decided, as ", ..." for tila_init's verbose line ("" when off).
 */
const char *tila_naps_start(struct starpu_conf *conf, int progress_shares_core);

/**
 * Before StarPU stops (tila_finalize): no worker rests any more, those resting are woken,
 * and StarPU's idle hook is deregistered (StarPU keeps its hooks across starpu_shutdown
 * and starpu_init).  A task of Tila's submitted to run on this rank (resting workers are
 * woken), started by the calling worker, and done: between calls, with none pending, idle
 * workers rest (runtime/nap_workers.c).  Nothing under simulation, where nothing naps.
 */
#ifdef STARPU_SIMGRID
static inline void tila_naps_stop(void) {}
static inline void tila_naps_task_added(void) {}
static inline void tila_naps_task_started(void) {}
static inline void tila_naps_task_done(void) {}
#else
void tila_naps_stop(void);
void tila_naps_task_added(void);
void tila_naps_task_started(void);
void tila_naps_task_done(void);
#endif

/**
 * Where ranks outnumber the CPUs, StarPU-MPI's progress thread runs a CPU worker of its
 * own for the short tasks (runtime/progress_worker.c), unless TILA_PROGRESS_WORKER=0; also
 * when the user sets STARPU_MPI_DRIVER_CALL_FREQUENCY.  Setup: before StarPU starts, with
 * whether the node has more ranks than CPUs and whether Tila chose conf's number of
 * workers; returns what was decided, as for tila_naps_start.  Start: once StarPU-MPI
 * runs (the workers' bitmaps and the receive that keeps the thread running its worker).
 * Stop: before StarPU-MPI stops.  Nothing under simulation.
 */
#ifdef STARPU_SIMGRID
static inline int tila_progress_worker_start(void) { return TILA_SUCCESS; }
static inline void tila_progress_worker_stop(void) {}
static inline void tila_progress_worker_rest(void) {}
static inline void tila_progress_worker_wake(void) {}
#else
const char *tila_progress_worker_setup(struct starpu_conf *conf, int crowded, int ncpus_ours);
int tila_progress_worker_start(void);
void tila_progress_worker_stop(void);
/** While Tila rests (tila_pause), the progress worker's receive is complete, so that the
 * progress thread blocks; tila_progress_worker_wake posts it again. */
void tila_progress_worker_rest(void);
void tila_progress_worker_wake(void);
#endif

/**
 * Wake StarPU-MPI's progress thread from a nap and let it run on this core now, where it
 * waits for a worker to give the core (runtime/nap_progress.c): called as a task ends,
 * when its sends are queued.  tila_progress_thread_mark(0) before StarPU-MPI starts and
 * (1) after: the thread it started is the only one that naps in Tila's MPI_Test.
 * Nothing to do under simulation, where nothing naps.
 */
#ifdef STARPU_SIMGRID
static inline void tila_progress_yield(void) {}
static inline void tila_progress_thread_mark(int started) { (void)started; }
static inline void tila_progress_park(void) {}
#else
void tila_progress_yield(void);
void tila_progress_thread_mark(int started);
/** After a call that could not finish (tila_finalize): StarPU-MPI's progress thread stops
 * for good in its next MPI_Test, outside MPI, so that the program may finalize MPI while
 * StarPU stays up; returns once it has (at most 0.5 s: one blocked without requests never
 * tests again). */
void tila_progress_park(void);
#endif

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

/* Sequence accounting behind the task functions (runtime/sequence.c). */
void tila_sequence_task_added(tila_sequence_t *seq);

/**
 * setenv(name, value) for StarPU, unless the variable is set and !overwrite; tila_finalize
 * puts back what was there.  @return 0, or -1 (nothing changed).
 */
int tila_env_put(const char *name, const char *value, int overwrite);

/**
 * TILA_TRACE (runtime/trace.c): start recording when the variable is set (end of tila_init;
 * a file that cannot be written is said and leaves Tila untraced), note a task's times as its
 * callback runs (tila_task_done), write what is left and stop (tila_finalize).
 */
int tila_trace_start(void);
void tila_trace_task_done(void);
void tila_trace_stop(void);

#ifdef TILA_USE_CUDA
/** A GPU node's set-up where CUDA workers will run (tila_init, cuda_workers.c): dmdas
 * unless a scheduler was named, two streams per GPU; the user's settings win. */
void tila_cuda_node_defaults(struct starpu_conf *conf);
/** Create / destroy each CUDA worker's resources (tila_init / tila_finalize); init:
 * 0, or TILA_ERR_DEVICE when a handle could not be made. */
int tila_cuda_workers_init(void);
void tila_cuda_workers_fini(void);
#endif

#endif /* TILA_RUNTIME_PRIVATE_H */
