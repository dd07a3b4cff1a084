/**
 * @file start.c
 * @brief The steps of tila_init and tila_finalize natively: MPI started (or joined) with
 *        MPI_THREAD_MULTIPLE, StarPU's files, StarPU by the node's ranks in turn,
 *        StarPU-MPI and Tila's communicators.  Simulation has its own (start_sim.c).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tila_runtime_private.h"
#include "tila_start.h"

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
int tila_mpi_start(int *argc, char ***argv, int alone)
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

void tila_mpi_stop(void)
{
    if (tila_rt.started_mpi) MPI_Finalize();
}

/* The worst (lowest) of every rank's rc, on MPI_COMM_WORLD. */
int tila_worst_of_ranks(int rc)
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
int tila_starpu_home(void)
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
int tila_starpu_start(int *argc, char ***argv, struct starpu_conf *conf)
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
int tila_comm_start(void)
{
    if (MPI_Comm_dup(MPI_COMM_WORLD, &tila_rt.comm) != MPI_SUCCESS) return TILA_ERR_MPI;
    tila_rt.comm_started = 1;
    MPI_Comm_rank(tila_rt.comm, &tila_rt.rank);
    MPI_Comm_size(tila_rt.comm, &tila_rt.size);
    return TILA_SUCCESS;
}

void tila_comm_stop(void)
{
    if (tila_rt.comm_started) MPI_Comm_free(&tila_rt.comm);
    MPI_Comm_free(&tila_rt.starpu_comm); /* after starpu_mpi_shutdown */
}

