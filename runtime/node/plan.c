/**
 * @file plan.c
 * @brief Everything a rank does with its node, decided in one pure function
 *        (tila_node_plan) from what it knows (tila_node_input_t), unit-tested case by case
 *        (tests/test_node.c); and the plan said in words for TILA_VERBOSE.
 *
 * CPU workers.  The node's offered CPUs (facts.c), then:
 *
 * - ranks unbound (their mask is every CPU offered), or bound to one CPU each where each
 *   could have several (Open MPI's default for 1 or 2 ranks, which would leave the other
 *   CPUs idle): the offered CPUs split evenly among the node's ranks, each rank's workers
 *   bound to its slice of them, or unbound when the ranks outnumber the CPUs (crowded);
 *   unbound as well under a quota narrower than the cpuset, which names no CPUs;
 * - ranks bound by the launcher to several CPUs each (mpirun --bind-to socket, Slurm's
 *   --cpu-bind): one worker per CPU of the rank's mask, bound within it;
 * - a user's STARPU_NCPU (or conf) sets the number of workers, a user's binding
 *   (STARPU_WORKERS_*) the binding: Tila leaves them alone.  StarPU-MPI's progress thread
 *   is never bound (STARPU_MPI_NOBIND), and OpenBLAS runs one thread inside the workers
 *   unless OPENBLAS_NUM_THREADS or OMP_NUM_THREADS says otherwise.
 *
 * The scheduler.  The user's, where named; on a node whose GPUs run tasks, StarPU's dmdas
 * (its performance models: a GPU's tile is not a core's, and data prefetched to the worker
 * a task is given to; priorities: Cholesky's critical path), not the CPU default, whose
 * idle cores would steal tiles a GPU runs 100 times faster, with two CUDA workers per GPU
 * (STARPU_NWORKER_PER_CUDA), each its own stream, so that a latency-bound tile kernel runs
 * beside the updates; else, where workers nap, lws whose push wakes a napping worker
 * (nap_workers.c).
 *
 * Naps (nap.c), unless TILA_IDLE_NAP=0 or StarPU is not 1.3: idle CPU workers nap, and
 * rest between calls once quiet (the rest after `rest_after_s` with no task started and
 * none pending, `rest_ns` at a time: a program that calls Tila now and then gets its cores
 * back without tila_pause).  StarPU-MPI's progress thread naps where it shares the rank's
 * CPUs with a worker on each: not where the user left a CPU free (fewer workers than the
 * share), nor where unbound ranks outnumber the CPUs (a napping thread would wait behind
 * the other ranks' threads); ranks the launcher bound, even several to a CPU, keep it.
 *
 * The progress worker (progress_worker.c): where unbound ranks outnumber the node's CPUs,
 * without CUDA, with StarPU 1.3, when Tila chooses the number of workers, and unless
 * TILA_PROGRESS_WORKER=0, the progress thread runs the short tasks on one more CPU worker
 * (two in all); a user's STARPU_MPI_DRIVER_CALL_FREQUENCY > 0 makes StarPU-MPI drive worker
 * 0 whatever the node.
 *
 * Large tasks on GPUs (a node with GPUs and CPU workers, also simulated, also a StarPU
 * the program started): a task of more than TILA_CPU_TASK_FLOPS flops (default 1e8, a
 * 370-wide gemm: tens of milliseconds on a core, tens of microseconds on a GPU) on a tile
 * a GPU may hold runs on CUDA workers alone: a core that takes such a task holds back its
 * successors on the critical path (bench/LOG.md, the hybrid study).  0 or less: no
 * restriction; a value that is no number: the default, said at the start.
 *
 * StarPU's settings for every start (also a simulated one, and a StarPU the program
 * started): no signal handlers of StarPU's unless STARPU_CATCH_SIGNALS is set (they would
 * replace the program's for good); no cooperative sends in StarPU-MPI (STARPU_MPI_COOP_SENDS:
 * StarPU-MPI 1.3.10 frees their bag while starpu_mpi_cache_flush, or the submission of a
 * write, may still walk it: a use-after-free seen as a SIGSEGV in potrf's flushes); a
 * rank's sends in flight bounded at 1.5 GiB besides StarPU-MPI's 10
 * (STARPU_MPI_NDETACHED_SEND_MB, a variable of the StarPU that tools/ builds for GPUs and
 * simulation, which Debian's ignores: a panel tile the critical path needs leaves beside
 * at most that many bytes, instead of nine tiles of 512 MiB; docs/SIMULATION.md); no
 * clean buffers kept on GPUs (STARPU_MINIMUM_CLEAN_BUFFERS, STARPU_TARGET_CLEAN_BUFFERS:
 * StarPU otherwise writes dirty GPU tiles back during every call, gigabytes on the copy
 * engine that tasks then overwrite, with a norm's small transfers queued behind them; a
 * matrix larger than the GPUs' memory pays its write-backs at eviction instead; main
 * memory is not tidied, so nothing changes without a GPU); StarPU's own messages only
 * with TILA_VERBOSE (STARPU_SILENT).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "node.h"

/* Quiet time before a worker rests between calls, and one rest's longest sleep. */
static const double rest_after_s = 1e-3;
static const long rest_ns = 100000000;

static void env_set(tila_node_plan_t *p, const char *name, const char *value, int overwrite)
{
    if (p->nenv < TILA_NODE_MAX_ENV)
        p->env[p->nenv++] = (tila_node_env_t){ name, value, overwrite };
}

/* The rank's CPUs: its share, its workers, their binding. */
static void plan_cpus(const tila_node_facts_t *f, tila_node_plan_t *p)
{
    int offered = f->offered > 0 ? f->offered : 1;
    int quota = f->quota > 0 && f->quota < offered;
    int avail = quota ? f->quota : offered;
    int nlocal = f->nlocal > 0 ? f->nlocal : 1;
    p->crowded = nlocal > avail;
    int split = (f->mine >= offered && nlocal > 1) || (f->mine == 1 && avail / nlocal > 1) ||
                (quota && f->mine > avail);
    int share;
    if (split) {
        share = avail / nlocal > 0 ? avail / nlocal : 1;
        p->bind = quota || p->crowded ? TILA_BIND_NONE : TILA_BIND_SLICE;
        p->first = p->bind == TILA_BIND_SLICE ? f->local * share : 0;
    }
    else {
        share = f->mine > 0 ? f->mine : 1;
        p->bind = f->mine < offered ? TILA_BIND_WITHIN : TILA_BIND_STARPU;
    }
    if (f->user_bind) p->bind = TILA_BIND_USER;
    p->share = share;
    p->workers = f->user_ncpus >= 0 ? f->user_ncpus : share;
    /* the progress thread shares the rank's own CPUs with its workers */
    p->progress_shares_core = p->workers >= share && !(split && p->crowded);
}

static void plan_cpu_task_flops(const char *text, tila_node_plan_t *p)
{
    char *end = NULL;
    double flops = text && *text ? strtod(text, &end) : 1e8;
    if (text && *text && (*end || flops != flops)) {
        p->cpu_task_flops_bad = 1;
        flops = 1e8;
    }
    p->cpu_task_flops = flops > 0 ? flops : 0;
}

void tila_node_plan(const tila_node_input_t *in, tila_node_plan_t *p)
{
    const tila_node_facts_t *f = &in->facts;
    memset(p, 0, sizeof *p);
    p->ncpus = -1;
    p->sched = in->user_sched ? TILA_SCHED_USER : TILA_SCHED_STARPU;
    p->progress = TILA_PROGRESS_MESSAGES;
    p->catch_signals = in->catch_signals;
    plan_cpu_task_flops(in->cpu_task_flops, p);
    if (!in->simulation && !in->starpu_up) {
        p->setup = 1;
        plan_cpus(f, p);
        if (f->user_ncpus < 0) p->ncpus = p->workers;
        if (p->bind == TILA_BIND_NONE)
            env_set(p, "STARPU_WORKERS_NOBIND", "1", 0);
        else if (p->bind == TILA_BIND_WITHIN)
            env_set(p, "STARPU_WORKERS_GETBIND", "1", 0);
        env_set(p, "STARPU_MPI_NOBIND", "1", 0);
        p->blas_one_thread = in->openblas && !in->blas_threads_set;
        if (in->cuda_built && in->cuda_devices > 0) {
            if (!in->user_sched) p->sched = TILA_SCHED_DMDAS;
            env_set(p, "STARPU_NWORKER_PER_CUDA", "2", 0);
        }
        if (in->naps_built && !in->idle_nap_off) {
            p->worker_naps = p->worker_rest = 1;
            p->rest_after_s = rest_after_s;
            p->rest_ns = rest_ns;
            if (p->sched == TILA_SCHED_STARPU) p->sched = TILA_SCHED_LWS_WAKING;
            p->progress_naps = p->progress_shares_core;
        }
        if (in->driver_call_frequency > 0) {
            p->progress = TILA_PROGRESS_WORKER0;
        }
        else if (in->naps_built && !in->cuda_built && p->crowded && f->user_ncpus < 0 &&
                 !in->progress_worker_off) {
            /* not measured with CUDA workers, nor on another StarPU than 1.3 (whose
             * progress thread blocks when it has no request): there it keeps to messages */
            p->progress = TILA_PROGRESS_SHORT_TASKS;
            p->ncpus = 2;
            /* read by starpu_mpi_init_conf */
            env_set(p, "STARPU_MPI_DRIVER_CALL_FREQUENCY", "1", 1);
            env_set(p, "STARPU_MPI_DRIVER_TASK_FREQUENCY", "1", 0);
        }
    }
    env_set(p, "STARPU_MPI_COOP_SENDS", "0", 0);
    env_set(p, "STARPU_MPI_NDETACHED_SEND_MB", "1536", 0);
    env_set(p, "STARPU_MINIMUM_CLEAN_BUFFERS", "0", 0);
    env_set(p, "STARPU_TARGET_CLEAN_BUFFERS", "0", 0);
    if (!in->verbose) env_set(p, "STARPU_SILENT", "1", 0);
}

static void say(char *how, size_t size, const char *what)
{
    strncat(how, what, size - strlen(how) - 1);
}

void tila_node_describe(const tila_node_input_t *in, const tila_node_plan_t *p, const int *cpus,
                        char *how, size_t size)
{
    how[0] = 0;
    if (in->facts.user_ncpus < 0) snprintf(how, size, "%d CPU worker(s)", p->workers);
    if (p->bind == TILA_BIND_NONE) {
        say(how, size, p->crowded ? ", unbound (more ranks than CPUs)" : ", unbound (a CPU quota)");
    }
    else if (p->bind == TILA_BIND_SLICE) {
        char list[40];
        snprintf(list, sizeof list, ", bound to CPUs %d-%d", cpus[p->first],
                 cpus[p->first + p->share - 1]);
        say(how, size, list);
    }
    else if (p->bind == TILA_BIND_WITHIN) {
        say(how, size, ", bound within mpirun's binding");
    }
    if (p->blas_one_thread) say(how, size, ", OpenBLAS 1 thread");
    const char *sched = p->sched == TILA_SCHED_DMDAS  ? "dmdas"
                        : p->sched == TILA_SCHED_USER ? in->sched_name
                                                      : NULL;
    if (in->cuda_built && sched) {
        say(how, size, ", scheduler ");
        say(how, size, sched);
    }
    if (p->worker_naps) {
        say(how, size, ", idle workers nap");
        if (p->sched == TILA_SCHED_LWS_WAKING) say(how, size, " until a push");
        if (p->progress_naps) say(how, size, ", progress thread naps and runs between tasks");
    }
    if (p->progress == TILA_PROGRESS_SHORT_TASKS)
        say(how, size, ", the progress thread runs the short tasks on one more CPU worker");
    else if (p->progress == TILA_PROGRESS_WORKER0)
        say(how, size, ", the progress thread runs CPU worker 0");
}
