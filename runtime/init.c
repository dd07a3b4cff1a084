/**
 * @file init.c
 * @brief Start and stop MPI, StarPU and StarPU-MPI; the process-wide state.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE /* sched_getaffinity */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tila_runtime_private.h"

tila_runtime_t tila_rt;

int tila_initialized(void) { return tila_rt.initialized; }
int tila_comm_rank(void) { return tila_rt.rank; }
int tila_comm_size(void) { return tila_rt.size; }
int tila_cuda_ndevices(void) { return tila_rt.ncuda; }
MPI_Comm tila_starpu_comm(void) { return tila_rt.starpu_comm; }

/*
 * Where a node has GPUs beside its CPU workers, a task of more than TILA_CPU_TASK_FLOPS flops
 * (default 1e8, a 370-wide gemm: tens of milliseconds on a core, tens of microseconds on a
 * GPU) on a tile a GPU may hold runs on CUDA workers alone: a core that takes such a task
 * holds back its successors on the critical path (the hybrid study: cores' slices 0.2-0.7x
 * the uniform tiles on GPU nodes).  Smaller tasks go to any worker, the tiles of a CPU slice
 * (TILA_DEVICE_CPU) to the cores as before.  TILA_CPU_TASK_FLOPS=0 or a negative value: no
 * restriction.  The bitmaps: per device its CUDA workers, then every CUDA worker.
 */
static int tila_gpu_workers_init(unsigned nw)
{
    const char *v = getenv("TILA_CPU_TASK_FLOPS");
    char *end = NULL;
    double flops = v && *v ? strtod(v, &end) : 1e8;
    if (v && *v && (*end || flops != flops)) {
        tila_error("tila_init", "TILA_CPU_TASK_FLOPS=%s is not a number of flops: 1e8 taken", v);
        flops = 1e8;
    }
    if (flops <= 0) return TILA_SUCCESS;
    tila_rt.cpu_task_flops = flops;
    tila_rt.gpu_workers = calloc((size_t)(tila_rt.ncuda + 1) * tila_rt.nwords, sizeof(uint32_t));
    if (!tila_rt.gpu_workers) return TILA_ERR_NOMEM;
    for (int d = 0; d <= tila_rt.ncuda; d++)
        for (unsigned w = 0; w < nw; w++)
            if (starpu_worker_get_type((int)w) == STARPU_CUDA_WORKER &&
                (d == tila_rt.ncuda || starpu_worker_get_devid((int)w) == tila_rt.cuda_devid[d]))
                tila_rt.gpu_workers[(size_t)d * tila_rt.nwords + w / 32] |= UINT32_C(1) << w % 32;
    return TILA_SUCCESS;
}

/*
 * The device level of the distribution: for each CUDA device, the StarPU workers that may
 * run a task whose output tile lives on it (every CPU worker, and the CUDA workers of that
 * device only), so that a GPU tile never moves to another GPU; and the CPU workers alone,
 * for the tiles a mapping keeps on the host (TILA_DEVICE_CPU).  A set is StarPU's bitmap of
 * task->workerids: bit w % 32 of word w / 32 for worker w.
 */
static int tila_device_workers_init(void)
{
    unsigned nw = starpu_worker_get_count();
    tila_rt.nwords = (nw + 31) / 32;
    tila_rt.ncuda = 0;
    for (unsigned w = 0; w < nw; w++) {
        if (starpu_worker_get_type((int)w) != STARPU_CUDA_WORKER) continue;
        int dev = starpu_worker_get_devid((int)w), known = 0;
        for (int d = 0; d < tila_rt.ncuda; d++)
            known |= tila_rt.cuda_devid[d] == dev;
        if (!known && tila_rt.ncuda < TILA_MAX_CUDA_DEVICES)
            tila_rt.cuda_devid[tila_rt.ncuda++] = dev;
    }
    if (tila_rt.ncuda == 0) return TILA_SUCCESS; /* nothing to restrict */
    /* No CPU worker (a GPU-only run): TILA_DEVICE_CPU tiles go to any worker. */
    if (starpu_cpu_worker_get_count() > 0) {
        tila_rt.cpu_workers = calloc(tila_rt.nwords, sizeof(uint32_t));
        if (!tila_rt.cpu_workers) return TILA_ERR_NOMEM;
        for (unsigned w = 0; w < nw; w++)
            if (starpu_worker_get_type((int)w) == STARPU_CPU_WORKER)
                tila_rt.cpu_workers[w / 32] |= UINT32_C(1) << w % 32;
        int rc = tila_gpu_workers_init(nw);
        if (rc) return rc;
    }
    if (tila_rt.ncuda < 2) return TILA_SUCCESS; /* one GPU: any worker of the node */
    tila_rt.device_workers = calloc((size_t)tila_rt.ncuda * tila_rt.nwords, sizeof(uint32_t));
    if (!tila_rt.device_workers) return TILA_ERR_NOMEM;
    for (int d = 0; d < tila_rt.ncuda; d++)
        for (unsigned w = 0; w < nw; w++) {
            enum starpu_worker_archtype type = starpu_worker_get_type((int)w);
            if (type == STARPU_CPU_WORKER ||
                (type == STARPU_CUDA_WORKER &&
                 starpu_worker_get_devid((int)w) == tila_rt.cuda_devid[d]))
                tila_rt.device_workers[(size_t)d * tila_rt.nwords + w / 32] |= UINT32_C(1) << w % 32;
        }
    return TILA_SUCCESS;
}

/* The message and Tila's code for a failed start of StarPU (on at least one rank). */
static int tila_starpu_failed(int rc, const char *what)
{
    if (rc == -ENODEV) {
        tila_error("tila_init", "StarPU found no worker: check STARPU_NCPU / STARPU_NCUDA");
        return TILA_ERR_NO_WORKER;
    }
    tila_error("tila_init", "%s failed (%d) on at least one rank", what, rc);
    return TILA_ERR_STARPU;
}

#ifdef STARPU_SIMGRID
/*
 * Simulation (StarPU built with SimGrid, every rank an SMPI process of one simulator):
 * SMPI starts MPI in each rank's own actor, which becomes StarPU-MPI's progress thread,
 * and the application's main runs in another actor, where SimGrid 3.32 answers MPI calls
 * with "MPI_Init was not called".  So nothing here calls MPI: the node is the platform
 * file's (its CPUs and GPUs, each rank simulating one node), the rank and size come
 * from StarPU-MPI, and Tila's collectives go through StarPU-MPI (comm_sim.c).  No kernel
 * runs, so tiles take no memory: StarPU's copies of remote tiles are folded
 * (STARPU_MALLOC_SIMULATION_FOLDED), Tila's own tiles address space alone (desc.c).
 */
static int tila_mpi_start(int *argc, char ***argv, int alone)
{
    (void)argc;
    (void)argv;
    if (!alone) return TILA_SUCCESS;
    tila_error("tila_init_comm", "a simulation runs Tila on MPI_COMM_WORLD only");
    return TILA_ERR_MPI;
}

static void tila_mpi_stop(void) {}

/* The ranks of one simulator start alike. */
static int tila_worst_of_ranks(int rc) { return rc; }

/*
 * StarPU-MPI starts StarPU, with Tila's conf: a StarPU started first (as natively)
 * leaves one of the simulated node's two CPU workers idle and asserts at shutdown.  As
 * StarPU-MPI does by default, one CPU is kept for its progress thread unless STARPU_NCPU
 * says how many workers to start (bench/tila-sim does).
 */
static int tila_starpu_start(int *argc, char ***argv, struct starpu_conf *conf)
{
    tila_rt.starpu_comm = MPI_COMM_WORLD; /* StarPU-SMPI works on the world only */
    int rc = starpu_mpi_init_conf(argc, argv, 0, MPI_COMM_WORLD, conf);
    if (rc) return tila_starpu_failed(rc, "starpu_mpi_init_conf");
    starpu_malloc_on_node_set_default_flags(
        STARPU_MAIN_RAM,
        STARPU_MALLOC_PINNED | STARPU_MALLOC_COUNT | STARPU_MALLOC_SIMULATION_FOLDED);
    return TILA_SUCCESS;
}

static int tila_comm_start(void)
{
    tila_rt.comm = MPI_COMM_WORLD;
    starpu_mpi_comm_rank(MPI_COMM_WORLD, &tila_rt.rank);
    starpu_mpi_comm_size(MPI_COMM_WORLD, &tila_rt.size);
    return TILA_SUCCESS;
}

static void tila_comm_stop(void) {}

#else /* !STARPU_SIMGRID */

/*
 * Is this entry of the environment ("NAME=value") one that a launcher (mpirun, mpiexec,
 * srun) sets for the processes of its job: Open MPI's (OMPI_*, and among its MCA
 * parameters those of the job: ess, orte, pmix), PMIx's and PMI's (MPICH's Hydra,
 * Slurm)?  An MPI started with them joins that job, and its MPI_Init waits until every
 * process of the job has called MPI_Init.
 */
static int tila_launcher_var(const char *e)
{
    static const char *const job[] = { "ess=", "ess_base_",     "orte_",
                                       "pmix", "initial_wdir=", "shmem_RUNTIME_QUERY_hint=" };
    if (!strncmp(e, "PMIX_", 5) || !strncmp(e, "PMI_", 4)) return 1;
    if (strncmp(e, "OMPI_", 5)) return 0;
    if (strncmp(e, "OMPI_MCA_", 9)) return 1;
    for (size_t k = 0; k < sizeof job / sizeof *job; k++)
        if (!strncmp(e + 9, job[k], strlen(job[k]))) return 1;
    return 0;
}

/* The launcher's variables, hidden while MPI starts for this process alone: each "NAME\0value". */
#define TILA_MAX_HIDDEN 256
static char *tila_hidden[TILA_MAX_HIDDEN];
static int tila_nhidden;

static void tila_launcher_show(void)
{
    while (tila_nhidden > 0) {
        char *v = tila_hidden[--tila_nhidden];
        setenv(v, v + strlen(v) + 1, 1);
        free(v);
    }
}

/* Hide them (put back by tila_launcher_show); -1 when one could not be. */
static int tila_launcher_hide(void)
{
    extern char **environ;
    for (char **e = environ; *e;) {
        const char *eq = strchr(*e, '=');
        if (!eq || !tila_launcher_var(*e)) {
            e++;
            continue;
        }
        char *v = tila_nhidden < TILA_MAX_HIDDEN ? strdup(*e) : NULL;
        if (!v) return -1;
        v[eq - *e] = 0;
        tila_hidden[tila_nhidden++] = v;
        unsetenv(v); /* environ shifts: *e is the next entry */
    }
    return 0;
}

/* An integer the launcher set, or -1. */
static int tila_launcher_int(const char *name, const char *name2)
{
    const char *v = getenv(name);
    if (!v) v = getenv(name2);
    return v && *v ? atoi(v) : -1;
}

/*
 * MPI with MPI_THREAD_MULTIPLE: Tila's collectives (sequence status, norms) run in the
 * main thread while StarPU-MPI's progress thread also calls MPI.  Started here unless
 * the program started it.  A process that no launcher started (a program without MPI of
 * its own, under the LAPACK layer) is an MPI singleton: Open MPI would fork a daemon
 * (orted) beside the program for it, unless the singleton is isolated, which Tila asks
 * for (OMPI_MCA_ess_singleton_isolated, put back by tila_finalize; a setting of the
 * user's wins; other MPIs ignore it).  Where Tila starts MPI, MPI installs no signal
 * handlers of its own (Open MPI's for SIGSEGV, SIGBUS, SIGFPE and SIGABRT: its
 * OMPI_MCA_opal_signal, a setting of the user's wins), so that the program's stay as
 * they were.
 *
 * `alone` (tila_init_comm on MPI_COMM_SELF): Tila runs on this process alone.  A process
 * that a launcher started (mpirun -np 2 of a program without MPI of its own, as job
 * scripts start independent runs) would join the launcher's job if it started MPI as
 * is, and Tila would run one job over processes that never agreed to it, or wait in
 * MPI_Init for the ones that never call it.  So MPI starts with the launcher's variables
 * hidden (put back at once), as an isolated singleton: a world of this process alone.
 * The launcher's count of processes on this node stays known (tila_node.alone), so that the
 * node's CPUs are shared among them.  Where MPI already runs, its world must be this
 * process alone: StarPU-MPI 1.3 ends (starpu_mpi_shutdown) with a barrier on
 * MPI_COMM_WORLD, which the world's other processes would never enter.
 */
static int tila_mpi_start(int *argc, char ***argv, int alone)
{
    static const char *func = "tila_init";
    int flag = 0, down = 0, provided = MPI_THREAD_SINGLE;
    MPI_Initialized(&flag);
    MPI_Finalized(&down);
    if (down) {
        tila_error(func, "MPI was finalized (by tila_finalize, which stops the MPI that "
                         "tila_init started, or by the program): MPI cannot start twice in a "
                         "process; start MPI in the program to call tila_init again after "
                         "tila_finalize");
        return TILA_ERR_MPI;
    }
    if (!flag) {
        int launched = getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
        if (alone && launched) {
            tila_node.alone.local =
                tila_launcher_int("OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID");
            tila_node.alone.nlocal =
                tila_launcher_int("OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS");
            if (tila_launcher_hide()) {
                tila_launcher_show();
                tila_error(func, "no memory to start MPI apart from the launcher's job");
                return TILA_ERR_NOMEM;
            }
        }
        if (alone || !launched) tila_env_put("OMPI_MCA_ess_singleton_isolated", "1", 0);
        tila_env_put("OMPI_MCA_opal_signal", "", 0);
        int rc = MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
        tila_launcher_show();
        if (rc != MPI_SUCCESS) {
            tila_error(func, "MPI_Init_thread failed");
            return TILA_ERR_MPI;
        }
        tila_rt.started_mpi = 1;
    }
    else {
        MPI_Query_thread(&provided);
        int world = 1;
        MPI_Comm_size(MPI_COMM_WORLD, &world);
        if (alone && world > 1) {
            tila_error("tila_init_comm",
                       "MPI_COMM_SELF in a world of %d processes: StarPU-MPI's end is collective "
                       "over MPI_COMM_WORLD; call tila_init on every process",
                       world);
            return TILA_ERR_MPI;
        }
    }
    if (provided < MPI_THREAD_MULTIPLE) {
        tila_error(func,
                   "MPI provides thread level %d, not MPI_THREAD_MULTIPLE: initialise "
                   "MPI with MPI_Init_thread(..., MPI_THREAD_MULTIPLE, ...)",
                   provided);
        if (tila_rt.started_mpi) MPI_Finalize();
        return TILA_ERR_MPI;
    }
    return TILA_SUCCESS;
}

static void tila_mpi_stop(void)
{
    if (tila_rt.started_mpi) MPI_Finalize();
}

/* The worst (lowest) of every rank's rc, on MPI_COMM_WORLD. */
static int tila_worst_of_ranks(int rc)
{
    int worst = rc;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return worst;
}

/* ---- StarPU's files ----------------------------------------------------------------- */

/* Where StarPU keeps its models and bus calibration (tila_starpu_home). */
static char tila_model_dir[PATH_MAX];

/* mkdir -p `path`; 0 when it is then a directory. */
static int tila_mkpath(const char *path)
{
    char p[PATH_MAX];
    struct stat st;
    if (snprintf(p, sizeof p, "%s", path) >= (int)sizeof p) return -1;
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            if (mkdir(p, 0700) && errno != EEXIST) return -1;
            *s = '/';
        }
    if (mkdir(p, 0700) && errno != EEXIST) return -1;
    return stat(p, &st) || !S_ISDIR(st.st_mode) ? -1 : 0;
}

/* Can StarPU keep its files under dir: its folders there or made, a file written in each? */
static int tila_dir_writable(const char *dir)
{
    static const char *const sub[] = { "", "/bus", "/codelets" };
    for (size_t k = 0; k < sizeof sub / sizeof *sub; k++) {
        char path[PATH_MAX], probe[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s%s", dir, sub[k]);
        if (tila_mkpath(path)) return 0;
        snprintf(probe, sizeof probe, "%s/.tila-probe-%ld", path, (long)getpid());
        int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0) return 0;
        close(fd);
        unlink(probe);
    }
    return 1;
}

/*
 * StarPU 1.3 aborts the program when it cannot write its models and bus calibration
 * (starpu_init makes their folders, measures the bus and writes it when no calibration
 * is there, and writes its models at the end when calibrating): where they would go is
 * STARPU_PERF_MODEL_DIR, else .starpu/sampling under the first of XDG_CACHE_HOME,
 * STARPU_HOME, HOME, TMPDIR, TEMP, TMP and /tmp (StarPU's own rule).  Where that cannot be
 * written (a read-only home, as in many containers and batch systems), they go to
 * $TMPDIR/tila-starpu-UID (or /tmp/...), a folder of this user's, for this run
 * (STARPU_PERF_MODEL_DIR, put back by tila_finalize), and one line on stderr says so;
 * where nothing can be written, tila_init fails (TILA_ERR_STARPU) instead of StarPU
 * aborting.
 */
static int tila_starpu_home(void)
{
    static const char *const homes[] = { "XDG_CACHE_HOME", "STARPU_HOME", "HOME",
                                         "TMPDIR",         "TEMP",        "TMP" };
    const char *dir = getenv("STARPU_PERF_MODEL_DIR"), *home = NULL;
    if (dir)
        snprintf(tila_model_dir, sizeof tila_model_dir, "%s", dir);
    else {
        for (size_t k = 0; k < sizeof homes / sizeof *homes && !home; k++)
            home = getenv(homes[k]);
        snprintf(tila_model_dir, sizeof tila_model_dir, "%s/.starpu/sampling",
                 home ? home : "/tmp");
    }
    if (tila_dir_writable(tila_model_dir)) return TILA_SUCCESS;
    char wanted[PATH_MAX];
    snprintf(wanted, sizeof wanted, "%s", tila_model_dir);
    const char *tmps[] = { getenv("TMPDIR"), "/tmp" };
    for (int k = 0; k < 2; k++) {
        struct stat st;
        if (!tmps[k] || !*tmps[k]) continue;
        snprintf(tila_model_dir, sizeof tila_model_dir, "%s/tila-starpu-%ld", tmps[k],
                 (long)getuid());
        if (tila_dir_writable(tila_model_dir) && !stat(tila_model_dir, &st) &&
            st.st_uid == getuid() && !tila_env_put("STARPU_PERF_MODEL_DIR", tila_model_dir, 1)) {
            fprintf(stderr,
                    "[tila] tila_init: StarPU cannot write under %s: its models and bus "
                    "calibration go to %s (set STARPU_PERF_MODEL_DIR to choose)\n",
                    wanted, tila_model_dir);
            return TILA_SUCCESS;
        }
    }
    tila_error("tila_init",
               "StarPU cannot write its models and bus calibration under %s, nor under "
               "$TMPDIR or /tmp: set STARPU_PERF_MODEL_DIR to a writable folder",
               wanted);
    return TILA_ERR_STARPU;
}

/* The lock file of StarPU's start among the launcher's processes that run Tila alone,
 * locked; -1 when there is none (the start goes on without it). */
static int tila_start_lock(void)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/tila-start.lock", tila_model_dir);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd >= 0 && flock(fd, LOCK_EX)) {
        close(fd);
        fd = -1;
    }
    return fd;
}

/*
 * starpu_init reads StarPU's bus calibration under $STARPU_HOME, and measures and rewrites
 * it when it is missing or was made for another view of the machine (a rank bound to one
 * core sees one CPU).  Ranks of one node doing that at once can read a file that another
 * is writing, and StarPU aborts ("Error when reading from file .../bus/<host>.affinity"):
 * 3 of 46 runs of an example at 4 ranks, alternating with bound 2-rank ones.  So the first
 * rank of each node starts StarPU alone and writes what is needed, then the node's other
 * ranks, which then only read it (ranks launched alike see the machine alike).  Collective
 * over MPI_COMM_WORLD; ranks whose StarPU is already up only take part.  Every rank returns
 * the worst result, so that none goes on to StarPU-MPI's collectives alone: a rank whose
 * start failed makes the others stop the StarPU they started.
 */
static int tila_starpu_init_in_node_order(struct starpu_conf *conf)
{
    MPI_Comm node;
    int local = 0, rc = 0, up = starpu_is_initialized();
    /* The launcher's processes that run Tila alone take turns through a lock file
     * instead, each in its own world. */
    int lock = tila_node.alone.on && tila_node.alone.nlocal > 1 && !up ? tila_start_lock() : -1;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local);
    if (local == 0 && !up) rc = starpu_init(conf);
    MPI_Barrier(node);
    if (local != 0 && !up) rc = starpu_init(conf);
    MPI_Comm_free(&node);
    if (lock >= 0) close(lock); /* and its lock with it */
    int worst = rc;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (worst != 0 && rc == 0 && !up) starpu_shutdown();
    return worst;
}

/*
 * StarPU, by the node's ranks in turn, then StarPU-MPI on a duplicate of the world of its
 * own: its envelope receive (any source) and its messages never meet the application's,
 * which may receive with MPI_ANY_SOURCE / MPI_ANY_TAG on MPI_COMM_WORLD between (or
 * during) Tila's calls.  Every Tila datum is registered on that communicator
 * (tila_starpu_comm()), so StarPU-MPI posts nothing on the world.
 */
static int tila_starpu_start(int *argc, char ***argv, struct starpu_conf *conf)
{
    int up = starpu_is_initialized();
    int rc = tila_starpu_init_in_node_order(conf);
    if (rc) return tila_starpu_failed(rc, "starpu_init");
    tila_rt.started_starpu = !up;
    /* each step's result agreed by every rank: none goes on alone, none stays half up */
    int dup = MPI_Comm_dup(MPI_COMM_WORLD, &tila_rt.starpu_comm) == MPI_SUCCESS, mpi = 0;
    if (!tila_worst_of_ranks(dup ? 0 : -1)) {
        tila_progress_thread_mark(0);
        mpi = starpu_mpi_init_conf(argc, argv, 0, tila_rt.starpu_comm, NULL) == 0;
        if (!tila_worst_of_ranks(mpi ? 0 : -1)) {
            tila_progress_thread_mark(1);
            return TILA_SUCCESS;
        }
        if (mpi) starpu_mpi_shutdown();
    }
    if (dup) MPI_Comm_free(&tila_rt.starpu_comm);
    if (tila_rt.started_starpu) starpu_shutdown();
    tila_rt.started_starpu = 0;
    return tila_starpu_failed(-1, dup ? "starpu_mpi_init_conf" : "MPI_Comm_dup");
}

/* Tila's own communicator, a duplicate of the world, and this rank's place in it. */
static int tila_comm_start(void)
{
    if (MPI_Comm_dup(MPI_COMM_WORLD, &tila_rt.comm) != MPI_SUCCESS) return TILA_ERR_MPI;
    tila_rt.comm_started = 1;
    MPI_Comm_rank(tila_rt.comm, &tila_rt.rank);
    MPI_Comm_size(tila_rt.comm, &tila_rt.size);
    return TILA_SUCCESS;
}

static void tila_comm_stop(void)
{
    if (tila_rt.comm_started) MPI_Comm_free(&tila_rt.comm);
    MPI_Comm_free(&tila_rt.starpu_comm); /* after starpu_mpi_shutdown */
}

#endif /* STARPU_SIMGRID */

/*
 * Once StarPU-MPI runs: stop it, Tila's communicators, StarPU and MPI where tila_init
 * started them, and put the environment back (tila_finalize, and tila_init's late
 * failures).
 */
static void tila_stop_started(void)
{
    starpu_mpi_shutdown();
    tila_comm_stop();
    free(tila_rt.device_workers);
    free(tila_rt.cpu_workers);
    free(tila_rt.gpu_workers);
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
#ifndef STARPU_SIMGRID
    /* agreed, so that no rank goes on to StarPU's start alone */
    if (!starpu_is_initialized()) rc = tila_worst_of_ranks(tila_starpu_home());
    if (rc) {
        tila_node_restore();
        tila_mpi_stop();
        return rc;
    }
#endif
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
    if (rc == TILA_SUCCESS) rc = tila_device_workers_init();
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
