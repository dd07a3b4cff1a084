/**
 * @file setup.c
 * @brief The node set up for StarPU's start: the plan's inputs read, the plan made
 *        (plan.c) and applied to StarPU's conf, the environment, OpenBLAS, the naps and the
 *        progress worker; put back by tila_node_restore.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tila_runtime_private.h"

#ifdef TILA_USE_CUDA
#include <cuda_runtime_api.h>
#endif

#ifdef TILA_HAVE_OPENBLAS
void openblas_set_num_threads(int num_threads);
int openblas_get_num_threads(void);
int openblas_get_parallel(void);

/*
 * OpenBLAS's thread count set to n, the calling thread's OpenMP thread count left as it
 * was: OpenBLAS built with OpenMP (openblas_get_parallel() == 2) sets that too
 * (omp_set_num_threads), and the program's own parallel regions would run with Tila's
 * count.  (Its BLAS calls do take OpenBLAS's count while Tila runs: one count for the
 * whole process, as OpenBLAS has.)
 */
static void blas_set(int n)
{
    typedef int get_fn(void);
    typedef void set_fn(int);
    get_fn *get = NULL;
    set_fn *set = NULL;
    if (openblas_get_parallel() == 2) {
        get = (get_fn *)dlsym(RTLD_DEFAULT, "omp_get_max_threads");
        set = (set_fn *)dlsym(RTLD_DEFAULT, "omp_set_num_threads");
    }
    int omp = get && set ? get() : 0;
    openblas_set_num_threads(n);
    if (omp > 0) set(omp);
}
#endif

static int env_set(const char *name) { return getenv(name) != NULL; }

#ifndef STARPU_SIMGRID
/* A variable of Tila's that says "0". */
static int env_zero(const char *name)
{
    const char *v = getenv(name);
    return v && !strcmp(v, "0");
}
#endif

/*
 * What the plan depends on: the build, the environment, conf, and natively the node's
 * facts, its ranks counted over the node (collective over MPI_COMM_WORLD).  Under
 * simulation nothing calls MPI (init.c): the node is the platform file's.
 */
static void input_read(tila_node_input_t *in, const struct starpu_conf *conf, int *cpus, int max)
{
    memset(in, 0, sizeof *in);
    in->catch_signals = env_set("STARPU_CATCH_SIGNALS");
    const char *verbose = getenv("TILA_VERBOSE");
    in->verbose = verbose && *verbose && strcmp(verbose, "0") != 0;
    in->cpu_task_flops = getenv("TILA_CPU_TASK_FLOPS");
#ifdef STARPU_SIMGRID
    in->simulation = 1;
    (void)conf, (void)cpus, (void)max;
#else
    in->starpu_up = starpu_is_initialized();
    if (in->starpu_up) return;
    tila_node_facts_t *f = &in->facts;
    MPI_Comm node;
    tila_node_facts_read(f, cpus, max);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &f->local);
    MPI_Comm_size(node, &f->nlocal);
    MPI_Comm_free(&node);
    /* Tila alone in one of a launcher's processes: the node's processes are the launcher's. */
    if (tila_node.alone.on && tila_node.alone.nlocal > 1 && tila_node.alone.local >= 0 &&
        tila_node.alone.local < tila_node.alone.nlocal) {
        f->local = tila_node.alone.local;
        f->nlocal = tila_node.alone.nlocal;
    }
    f->user_ncpus = conf->ncpus;
    f->user_bind = env_set("STARPU_WORKERS_CPUID") || env_set("STARPU_WORKERS_COREID") ||
                   env_set("STARPU_WORKERS_NOBIND") || env_set("STARPU_WORKERS_GETBIND");
#ifdef TILA_STARPU_NAPS
    in->naps_built = 1;
#endif
#ifdef TILA_HAVE_OPENBLAS
    in->openblas = 1;
#endif
#ifdef TILA_USE_CUDA
    in->cuda_built = 1;
    if (conf->ncuda == 0 || cudaGetDeviceCount(&in->cuda_devices) != cudaSuccess ||
        in->cuda_devices <= 0) {
        in->cuda_devices = 0;
        (void)cudaGetLastError(); /* no device is no error of the program's */
    }
#endif
    in->user_sched = env_set("STARPU_SCHED") || conf->sched_policy_name || conf->sched_policy;
    in->sched_name = conf->sched_policy_name;
    in->idle_nap_off = env_zero("TILA_IDLE_NAP");
    in->progress_worker_off = env_zero("TILA_PROGRESS_WORKER");
    in->driver_call_frequency =
        starpu_get_env_number_default("STARPU_MPI_DRIVER_CALL_FREQUENCY", 0);
    in->blas_threads_set = env_set("OPENBLAS_NUM_THREADS") || env_set("OMP_NUM_THREADS");
#endif
}

void tila_node_setup(struct starpu_conf *conf)
{
    static int cpus[TILA_MAX_CPUS];
    tila_node_input_t in;
    tila_node_plan_t *p = &tila_node.plan;
    input_read(&in, conf, cpus, TILA_MAX_CPUS);
    tila_node_plan(&in, p);
    if (p->cpu_task_flops_bad)
        tila_error("tila_init", "TILA_CPU_TASK_FLOPS=%s is not a number of flops: 1e8 taken",
                   in.cpu_task_flops);
    if (!p->catch_signals) conf->catch_signals = 0;
    if (p->setup) {
        if (p->ncpus >= 0) conf->ncpus = p->ncpus;
        if (p->bind == TILA_BIND_SLICE) {
            conf->use_explicit_workers_bindid = 1;
            for (int w = 0; w < p->share && w < STARPU_NMAXWORKERS; w++)
                conf->workers_bindid[w] = (unsigned)cpus[p->first + w % p->share];
        }
#ifdef TILA_HAVE_OPENBLAS
        if (p->blas_one_thread) {
            tila_node.blas_threads = openblas_get_num_threads();
            blas_set(1);
        }
#endif
        if (p->sched == TILA_SCHED_DMDAS) conf->sched_policy_name = "dmdas";
        tila_naps_start(p);
        if (p->sched == TILA_SCHED_LWS_WAKING) {
            conf->sched_policy = tila_naps_sched_waking();
            if (!conf->sched_policy) p->sched = TILA_SCHED_STARPU; /* no lws here */
        }
        tila_progress_worker_setup(conf, p);
    }
    for (int k = 0; k < p->nenv; k++)
        tila_env_put(p->env[k].name, p->env[k].value, p->env[k].overwrite);
    if (p->setup && in.verbose && in.facts.local == 0) {
        char how[320];
        tila_node_describe(&in, p, cpus, how, sizeof how);
        fprintf(stderr, "tila_init: %d rank(s) on this node of %d CPUs%s, each: %s\n",
                in.facts.nlocal, in.facts.offered, in.facts.quota ? " (a quota)" : "",
                how[0] == ',' ? how + 2 : how);
    }
}

void tila_node_restore(void)
{
    tila_env_restore();
#ifdef TILA_HAVE_OPENBLAS
    if (tila_node.blas_threads > 0) blas_set(tila_node.blas_threads);
    tila_node.blas_threads = 0;
#endif
}
