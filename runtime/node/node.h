/**
 * @file node.h
 * @brief The node subsystem (runtime/node/): what a rank does with its node, decided by one
 *        pure plan and applied before StarPU starts; the idle naps, the progress worker,
 *        the environment's registry, and the one state object they keep.
 *
 * - plan.c: tila_node_plan, a pure function from what the rank knows of its node and its
 *   environment (tila_node_input_t) to everything Tila does with it (tila_node_plan_t):
 *   CPU workers and their binding, the scheduler, the idle naps and the rest between calls,
 *   the progress worker, BLAS threads, the variables set for StarPU; unit-tested case by
 *   case (tests/test_node.c);
 * - facts.c: what the node offers (sysconf, the affinity mask, the cgroup's cpuset and
 *   quota);
 * - setup.c: the inputs read, the plan made and applied to StarPU's conf (tila_init), put
 *   back by tila_node_restore;
 * - env.c: the environment's registry (what Tila set, and what was there);
 * - state.c: the one state object of the subsystem (tila_node), reset in one place;
 * - nap.c, nap_workers.c, nap_progress.c: the idle naps (nap.h); progress_worker.c;
 * - interpose.c: the functions of other libraries that libtila defines (MPI_Test), with
 *   export/tila_interpose.h for the drop-in layers.
 *
 * Seen by the runtime's own sources (through tila_runtime_private.h) and the node's unit
 * test only (Makefile.am).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_NODE_H
#define TILA_NODE_H

#include <sys/types.h>

#include "tila_runtime.h"

/** The most CPUs of a node Tila reads (a cpuset's list). */
#define TILA_MAX_CPUS 8192

/** What a node offers a rank (facts.c, tila_node_facts_read). */
typedef struct tila_node_facts_s {
    int offered;    /**< CPUs the node offers the job: the cgroup's cpuset, else all online */
    int quota;      /**< the cgroup's CPU quota in CPUs, rounded up; 0: none */
    int mine;       /**< CPUs in this rank's affinity mask */
    int nlocal;     /**< ranks on this node */
    int local;      /**< this rank's place among them */
    int user_ncpus; /**< CPU workers the user asked for (STARPU_NCPU, conf), or -1 */
    int user_bind;  /**< the user set the workers' binding (STARPU_WORKERS_*) */
} tila_node_facts_t;

/** Everything the plan depends on: the node's facts, the build, the environment. */
typedef struct tila_node_input_s {
    tila_node_facts_t facts;
    int simulation;            /**< StarPU with SimGrid: the node is the platform file's */
    int starpu_up;             /**< the program started StarPU: its workers are as they are */
    int naps_built;            /**< the naps are built (StarPU 1.3: TILA_STARPU_NAPS) */
    int cuda_built;            /**< Tila is built with CUDA */
    int openblas;              /**< Tila is linked with OpenBLAS */
    int cuda_devices;          /**< CUDA devices the node shows (0: none, or STARPU_NCUDA=0) */
    int user_sched;            /**< the user named a scheduler (STARPU_SCHED, conf's) */
    const char *sched_name;    /**< its name, where given (for TILA_VERBOSE), or NULL */
    int idle_nap_off;          /**< TILA_IDLE_NAP=0 */
    int progress_worker_off;   /**< TILA_PROGRESS_WORKER=0 */
    int driver_call_frequency; /**< STARPU_MPI_DRIVER_CALL_FREQUENCY (0: unset) */
    int blas_threads_set;      /**< OPENBLAS_NUM_THREADS or OMP_NUM_THREADS is set */
    int catch_signals;         /**< STARPU_CATCH_SIGNALS is set */
    int verbose;               /**< TILA_VERBOSE is set and not 0 */
    const char *cpu_task_flops; /**< TILA_CPU_TASK_FLOPS's text, or NULL */
} tila_node_input_t;

/** How a rank's CPU workers are bound. */
typedef enum tila_bind_e {
    TILA_BIND_STARPU, /**< StarPU's own binding (the rank has every CPU) */
    TILA_BIND_SLICE,  /**< to CPUs first .. first + share - 1 of the offered list */
    TILA_BIND_NONE,   /**< unbound: more ranks than CPUs, or a quota without CPUs of its own */
    TILA_BIND_WITHIN, /**< within the rank's affinity mask (the launcher bound it) */
    TILA_BIND_USER    /**< the user's (STARPU_WORKERS_*) */
} tila_bind_t;

/** The scheduler StarPU starts with. */
typedef enum tila_sched_e {
    TILA_SCHED_STARPU,     /**< StarPU's default (no naps that a push could end) */
    TILA_SCHED_USER,       /**< the user's (STARPU_SCHED, conf's) */
    TILA_SCHED_LWS_WAKING, /**< lws whose push wakes a napping worker (nap_workers.c) */
    TILA_SCHED_DMDAS       /**< dmdas, on a node whose GPUs run tasks */
} tila_sched_t;

/** What StarPU-MPI's progress thread does besides messages (progress_worker.c). */
typedef enum tila_progress_e {
    TILA_PROGRESS_MESSAGES,    /**< messages only */
    TILA_PROGRESS_SHORT_TASKS, /**< the short tasks, on one more CPU worker */
    TILA_PROGRESS_WORKER0      /**< CPU worker 0, any task (the user's call frequency) */
} tila_progress_t;

/** A variable Tila sets for StarPU or StarPU-MPI (unless set and !overwrite). */
typedef struct tila_node_env_s {
    const char *name, *value;
    int overwrite;
} tila_node_env_t;

/** The most variables a plan sets. */
#define TILA_NODE_MAX_ENV 12

/** What a rank does with its node (tila_node_plan). */
typedef struct tila_node_plan_s {
    int setup;   /**< Tila sets the node up (not simulated, StarPU not up) */
    int share;   /**< CPUs that are this rank's */
    int workers; /**< CPU workers: share, or the user's count */
    tila_bind_t bind;
    int first;                /**< TILA_BIND_SLICE: index of the first CPU in the offered list */
    int crowded;              /**< more ranks than CPUs on the node */
    int progress_shares_core; /**< StarPU-MPI's progress thread shares the rank's CPUs */
    int ncpus;                /**< conf's CPU workers, or -1: left as the user set them */
    tila_sched_t sched;
    int worker_naps;     /**< idle CPU workers nap (StarPU's idle hook) */
    int worker_rest;     /**< ... and rest between calls, once quiet (nap_workers.c) */
    double rest_after_s; /**< quiet time (no task started, none pending) before a rest */
    long rest_ns;        /**< one rest's longest sleep */
    int progress_naps;   /**< StarPU-MPI's progress thread naps between its tests */
    tila_progress_t progress;
    int blas_one_thread; /**< OpenBLAS set to one thread while Tila runs */
    int catch_signals;   /**< StarPU installs its signal handlers */
    /** Where GPUs and CPU workers share a node, tasks of more flops than this on a tile a
     * GPU may hold run on the GPU's workers alone (workers.c); 0: no such restriction. */
    double cpu_task_flops;
    int cpu_task_flops_bad; /**< TILA_CPU_TASK_FLOPS is no number: the default taken */
    int nenv;
    tila_node_env_t env[TILA_NODE_MAX_ENV]; /**< the variables set, in order */
} tila_node_plan_t;

/** The plan for input in: a pure function (plan.c says the rules). */
void tila_node_plan(const tila_node_input_t *in, tila_node_plan_t *p);

/**
 * What plan p decided, as TILA_VERBOSE prints it ("N CPU worker(s), bound to CPUs a-b,
 * ..."), into how (size bytes); cpus: the offered CPUs' numbers (TILA_BIND_SLICE).
 */
void tila_node_describe(const tila_node_input_t *in, const tila_node_plan_t *p, const int *cpus,
                        char *how, size_t size);

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

/**
 * The node set up for StarPU's start (setup.c): the inputs read (collective over the
 * node's ranks, natively), the plan made, kept in tila_node.plan, and applied to conf, the
 * environment, OpenBLAS, the naps and the progress worker; TILA_VERBOSE=1: the first rank
 * of each node says what was decided.  Call before StarPU starts, with the conf it starts
 * with.
 */
void tila_node_setup(struct starpu_conf *conf);

/**
 * The node's workers as StarPU's bitmaps, for where a task runs (workers.c): per CUDA
 * device, the CPU workers, and the CUDA workers alone (the plan's cpu_task_flops); once StarPU
 * runs (init: 0, or TILA_ERR_NOMEM), freed as it stops.
 */
int tila_node_workers_init(void);
void tila_node_workers_fini(void);

/** What tila_node_setup and tila_env_put changed, put back (tila_finalize, a failed
 * tila_init): the environment and OpenBLAS's threads. */
void tila_node_restore(void);

/**
 * setenv(name, value) for StarPU, unless the variable is set and !overwrite;
 * tila_node_restore puts back what was there.  @return 0, or -1 (nothing changed).
 */
int tila_env_put(const char *name, const char *value, int overwrite);
/** Every variable tila_env_put set put back, last first (tila_node_restore). */
void tila_env_restore(void);

/** The most variables the registry holds (Tila sets fewer). */
#define TILA_NODE_MAX_SAVED 32

/** Pushes so far, and the workers napping now (nap_workers.c). */
typedef struct tila_wakes_s {
    unsigned pushes;
    int nappers;
} tila_wakes_t;

/**
 * The node subsystem's state: one object (state.c), reset in one place (tila_node_reset,
 * as tila_init starts), each part written by the file named.  Thread-local state (a
 * worker's idle time, a thread's kind in MPI_Test) stays in its file.
 */
typedef struct tila_node_state_s {
    tila_node_plan_t plan; /**< this start's plan (setup.c) */
    /** tila_init_comm on MPI_COMM_SELF (init.c): Tila on this process alone; the
     * launcher's count of processes on this node and this one's place (-1: none said). */
    struct {
        int on, local, nlocal;
    } alone;
    /** The variables Tila set, and what they were (env.c; NULL: was unset). */
    struct {
        const char *name;
        char *old;
    } saved[TILA_NODE_MAX_SAVED];
    int nsaved;
    int blas_threads; /**< the program's OpenBLAS threads, where Tila changed them (setup.c) */
    /* nap_workers.c */
    tila_wakes_t any_task, short_task; /**< a push wakes a napper of its kind */
    struct starpu_sched_policy lws_waking;
    int (*lws_push)(struct starpu_task *task); /**< lws's own push, or NULL */
    int idle_hook;         /**< the idle hook's slot in StarPU's table (-1: none) */
    unsigned long busy;    /**< tasks of Tila's submitted to run on this rank, not done */
    int resting, stopping; /**< workers resting now; 1 while Tila stops */
    /* nap_progress.c */
    int progress_batch;   /**< the progress thread is SCHED_BATCH: workers yield to it */
    pid_t progress_tid;   /**< that thread's id, once tila_init has seen it start */
    pid_t mpi_before[16]; /**< threads named "MPI" before StarPU-MPI started */
    int nmpi_before;
    int park, parked;     /**< tila_progress_park: the thread is to stop in its next test */
    unsigned ends;        /**< tasks ended so far (their sends queued) */
    int progress_napping; /**< the progress thread naps now */
    /* progress_worker.c */
    int driven;        /**< this start's progress thread runs CPU worker 0 */
    int driven_worker; /**< that worker's id, once StarPU runs (-1: none) */
    /** The receive from this rank to itself that keeps the progress thread running its
     * worker, whether it is posted with no send for it yet, and their handles. */
    int keep_in, keep_out, keep_posted;
    starpu_data_handle_t keep_in_h, keep_out_h;
} tila_node_state_t;

extern tila_node_state_t tila_node;

/** The state as before any start (tila_init): StarPU's idle hook of a start that failed
 * deregistered, then every field to its initial value. */
void tila_node_reset(void);

/** CLOCK_MONOTONIC in seconds, and a sleep of ns nanoseconds (nap.c). */
double tila_clock(void);
void tila_nap(long ns);

/**
 * Start the naps plan p decided (nap.c): idle CPU workers (StarPU's idle hook), and
 * StarPU-MPI's progress thread.  Before StarPU starts.  tila_naps_sched_waking: lws whose
 * push wakes a napping worker, for conf (NULL where this StarPU has no lws).
 */
#if defined(STARPU_SIMGRID)
static inline void tila_naps_start(const tila_node_plan_t *p) { (void)p; }
static inline struct starpu_sched_policy *tila_naps_sched_waking(void) { return NULL; }
#else
void tila_naps_start(const tila_node_plan_t *p);
struct starpu_sched_policy *tila_naps_sched_waking(void);
#endif

/**
 * Before StarPU stops (tila_finalize): no worker rests any more, those resting are woken,
 * and StarPU's idle hook is deregistered (StarPU keeps its hooks across starpu_shutdown
 * and starpu_init).  A task of Tila's submitted to run on this rank (resting workers are
 * woken), started by the calling worker, and done: between calls, with none pending, idle
 * workers rest (runtime/node/nap_workers.c).  Nothing under simulation, where nothing naps.
 */
#ifdef STARPU_SIMGRID
static inline void tila_naps_stop(void) {}
static inline void tila_naps_task_added(void) {}
static inline void tila_naps_task_started(void) {}
static inline void tila_naps_task_done(void) {}
static inline void tila_worker_naps_unhook(void) {}
#else
void tila_naps_stop(void);
void tila_naps_task_added(void);
void tila_naps_task_started(void);
void tila_naps_task_done(void);
/** StarPU's idle hook deregistered (tila_finalize, before StarPU stops; tila_node_reset). */
void tila_worker_naps_unhook(void);
#endif

/**
 * Where ranks outnumber the CPUs, StarPU-MPI's progress thread runs a CPU worker of its
 * own for the short tasks (runtime/node/progress_worker.c), as plan p decided.  Setup:
 * before StarPU starts, with the conf it starts with.  Start: once StarPU-MPI runs (the
 * workers' bitmaps and the receive that keeps the thread running its worker).  Stop:
 * before StarPU-MPI stops.  Nothing under simulation.
 */
#ifdef STARPU_SIMGRID
static inline void tila_progress_worker_setup(struct starpu_conf *conf, const tila_node_plan_t *p)
{
    (void)conf, (void)p;
}
static inline int tila_progress_worker_start(void) { return TILA_SUCCESS; }
static inline void tila_progress_worker_stop(void) {}
static inline void tila_progress_worker_rest(void) {}
static inline void tila_progress_worker_wake(void) {}
#else
void tila_progress_worker_setup(struct starpu_conf *conf, const tila_node_plan_t *p);
int tila_progress_worker_start(void);
void tila_progress_worker_stop(void);
/** While Tila rests (tila_pause), the progress worker's receive is complete, so that the
 * progress thread blocks; tila_progress_worker_wake posts it again. */
void tila_progress_worker_rest(void);
void tila_progress_worker_wake(void);
#endif

/**
 * Wake StarPU-MPI's progress thread from a nap and let it run on this core now, where it
 * waits for a worker to give the core (runtime/node/nap_progress.c): called as a task
 * ends, when its sends are queued.  tila_progress_thread_mark(0) before StarPU-MPI starts
 * and (1) after: the thread it started is the only one that naps in Tila's MPI_Test
 * (interpose.c).  Nothing to do under simulation, where nothing naps.
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

#endif /* TILA_NODE_H */
