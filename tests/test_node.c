/**
 * @file test_node.c
 * @brief tila-node-test: everything a rank does with its node (tila_node_plan,
 *        runtime/node/plan.c), case by case, what TILA_VERBOSE says of it, and the cgroup
 *        files' parsers.
 *
 * One line per case: PASS|FAIL node CASE; then "N passed, N failed, 0 skipped".  Each case
 * is what a rank knows (the node as the launcher and the cgroup leave it: CPUs offered, a
 * quota, the rank's mask, ranks on the node, the user's settings; the build; Tila's and
 * StarPU's variables) and the whole plan it must get: CPU workers and binding, the
 * scheduler, the idle naps and the rest between calls, the progress thread's naps and
 * worker, OpenBLAS's threads, StarPU's signal handlers, and every variable set, in order.
 * A field the plan gets wrong fails its case.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <string.h>

#include "node.h"

static int passed, failed;

static void check(int ok, const char *what)
{
    if (ok)
        passed++;
    else
        failed++;
    printf("%s node %s\n", ok ? "PASS" : "FAIL", what);
}

typedef struct {
    const char *what;
    tila_node_input_t in;
    tila_node_plan_t want; /**< every field but env, nenv */
    const char *env;       /**< the variables set, in order: NAME=value, NAME:=value to overwrite */
} node_case_t;

/* The variables every start sets, and a native CPU node's naps: idle workers nap and rest
 * after 1 ms of quiet, 100 ms at a time. */
#define ENV_ALL                                                                                    \
    "STARPU_MPI_COOP_SENDS=0 STARPU_MPI_NDETACHED_SEND_MB=1536 STARPU_MINIMUM_CLEAN_BUFFERS=0 "    \
    "STARPU_TARGET_CLEAN_BUFFERS=0 STARPU_SILENT=1"
#define NAPS .worker_naps = 1, .worker_rest = 1, .rest_after_s = 1e-3, .rest_ns = 100000000

/* facts: offered, quota, mine, nlocal, local, user_ncpus, user_bind */
/* clang-format off */
static const node_case_t cases[] = {
    { "one rank, every CPU of 2",
      { .facts = { 2, 0, 2, 1, 0, -1, 0 }, .naps_built = 1 },
      { .setup = 1, .share = 2, .workers = 2, .bind = TILA_BIND_STARPU, .progress_shares_core = 1,
        .ncpus = 2, .sched = TILA_SCHED_LWS_WAKING, NAPS, .progress_naps = 1 },
      "STARPU_MPI_NOBIND=1 " ENV_ALL },
    { "2 ranks unbound on 2 CPUs: one each, bound",
      { .facts = { 2, 0, 2, 2, 1, -1, 0 }, .naps_built = 1 },
      { .setup = 1, .share = 1, .workers = 1, .bind = TILA_BIND_SLICE, .first = 1,
        .progress_shares_core = 1, .ncpus = 1, .sched = TILA_SCHED_LWS_WAKING, NAPS,
        .progress_naps = 1 },
      "STARPU_MPI_NOBIND=1 " ENV_ALL },
    { "2 ranks bound to a core each by Open MPI on 64 CPUs: 32 each",
      { .facts = { 64, 0, 1, 2, 1, -1, 0 }, .naps_built = 1 },
      { .setup = 1, .share = 32, .workers = 32, .bind = TILA_BIND_SLICE, .first = 32,
        .progress_shares_core = 1, .ncpus = 32, .sched = TILA_SCHED_LWS_WAKING, NAPS,
        .progress_naps = 1 },
      "STARPU_MPI_NOBIND=1 " ENV_ALL },
    { "2 ranks bound to a core each on 2 CPUs: one each, within the binding",
      { .facts = { 2, 0, 1, 2, 0, -1, 0 }, .naps_built = 1 },
      { .setup = 1, .share = 1, .workers = 1, .bind = TILA_BIND_WITHIN, .progress_shares_core = 1,
        .ncpus = 1, .sched = TILA_SCHED_LWS_WAKING, NAPS, .progress_naps = 1 },
      "STARPU_WORKERS_GETBIND=1 STARPU_MPI_NOBIND=1 " ENV_ALL },
    { "4 ranks unbound on 2 CPUs: crowded, unbound, the progress thread runs the short tasks",
      { .facts = { 2, 0, 2, 4, 3, -1, 0 }, .naps_built = 1 },
      { .setup = 1, .share = 1, .workers = 1, .bind = TILA_BIND_NONE, .crowded = 1, .ncpus = 2,
        .sched = TILA_SCHED_LWS_WAKING, NAPS, .progress = TILA_PROGRESS_SHORT_TASKS },
      "STARPU_WORKERS_NOBIND=1 STARPU_MPI_NOBIND=1 STARPU_MPI_DRIVER_CALL_FREQUENCY:=1 "
      "STARPU_MPI_DRIVER_TASK_FREQUENCY=1 " ENV_ALL },
    { "4 ranks bound by a rankfile on 2 CPUs: crowded, within the binding, progress naps",
      { .facts = { 2, 0, 1, 4, 2, -1, 0 }, .naps_built = 1 },
      { .setup = 1, .share = 1, .workers = 1, .bind = TILA_BIND_WITHIN, .crowded = 1,
        .progress_shares_core = 1, .ncpus = 2, .sched = TILA_SCHED_LWS_WAKING, NAPS,
        .progress_naps = 1, .progress = TILA_PROGRESS_SHORT_TASKS },
      "STARPU_WORKERS_GETBIND=1 STARPU_MPI_NOBIND=1 STARPU_MPI_DRIVER_CALL_FREQUENCY:=1 "
      "STARPU_MPI_DRIVER_TASK_FREQUENCY=1 " ENV_ALL },
    { "a Slurm cpuset of 8 CPUs, 2 ranks unbound in it: 4 each, not 8",
      { .facts = { 8, 0, 8, 2, 1, -1, 0 }, .naps_built = 1 },
      { .setup = 1, .share = 4, .workers = 4, .bind = TILA_BIND_SLICE, .first = 4,
        .progress_shares_core = 1, .ncpus = 4, .sched = TILA_SCHED_LWS_WAKING, NAPS,
        .progress_naps = 1 },
      "STARPU_MPI_NOBIND=1 " ENV_ALL },
    { "a Slurm cpuset of 8, ranks bound to 4 CPUs each by --cpu-bind",
      { .facts = { 8, 0, 4, 2, 1, -1, 0 }, .naps_built = 1 },
      { .setup = 1, .share = 4, .workers = 4, .bind = TILA_BIND_WITHIN, .progress_shares_core = 1,
        .ncpus = 4, .sched = TILA_SCHED_LWS_WAKING, NAPS, .progress_naps = 1 },
      "STARPU_WORKERS_GETBIND=1 STARPU_MPI_NOBIND=1 " ENV_ALL },
    { "a container's --cpus=2 on 64 CPUs, one rank: 2 workers, unbound",
      { .facts = { 64, 2, 64, 1, 0, -1, 0 }, .naps_built = 1 },
      { .setup = 1, .share = 2, .workers = 2, .bind = TILA_BIND_NONE, .progress_shares_core = 1,
        .ncpus = 2, .sched = TILA_SCHED_LWS_WAKING, NAPS, .progress_naps = 1 },
      "STARPU_WORKERS_NOBIND=1 STARPU_MPI_NOBIND=1 " ENV_ALL },
    { "a quota of 3 CPUs, 2 ranks: 1 each, unbound",
      { .facts = { 64, 3, 64, 2, 0, -1, 0 }, .naps_built = 1 },
      { .setup = 1, .share = 1, .workers = 1, .bind = TILA_BIND_NONE, .progress_shares_core = 1,
        .ncpus = 1, .sched = TILA_SCHED_LWS_WAKING, NAPS, .progress_naps = 1 },
      "STARPU_WORKERS_NOBIND=1 STARPU_MPI_NOBIND=1 " ENV_ALL },
    { "a quota wider than the cpuset counts for nothing",
      { .facts = { 4, 16, 4, 1, 0, -1, 0 }, .naps_built = 1 },
      { .setup = 1, .share = 4, .workers = 4, .bind = TILA_BIND_STARPU, .progress_shares_core = 1,
        .ncpus = 4, .sched = TILA_SCHED_LWS_WAKING, NAPS, .progress_naps = 1 },
      "STARPU_MPI_NOBIND=1 " ENV_ALL },
    { "the user's STARPU_NCPU=1 beside 2 CPUs: the progress thread has a CPU, no nap",
      { .facts = { 2, 0, 2, 1, 0, 1, 0 }, .naps_built = 1 },
      { .setup = 1, .share = 2, .workers = 1, .bind = TILA_BIND_STARPU, .ncpus = -1,
        .sched = TILA_SCHED_LWS_WAKING, NAPS },
      "STARPU_MPI_NOBIND=1 " ENV_ALL },
    { "the user's binding is kept",
      { .facts = { 2, 0, 2, 2, 0, -1, 1 }, .naps_built = 1 },
      { .setup = 1, .share = 1, .workers = 1, .bind = TILA_BIND_USER, .progress_shares_core = 1,
        .ncpus = 1, .sched = TILA_SCHED_LWS_WAKING, NAPS, .progress_naps = 1 },
      "STARPU_MPI_NOBIND=1 " ENV_ALL },
    { "the user's STARPU_NCPU=2 on 4 ranks of 2 CPUs: no progress worker",
      { .facts = { 2, 0, 2, 4, 3, 2, 0 }, .naps_built = 1 },
      { .setup = 1, .share = 1, .workers = 2, .bind = TILA_BIND_NONE, .crowded = 1, .ncpus = -1,
        .sched = TILA_SCHED_LWS_WAKING, NAPS },
      "STARPU_WORKERS_NOBIND=1 STARPU_MPI_NOBIND=1 " ENV_ALL },
    { "TILA_IDLE_NAP=0: no nap, no rest, StarPU's scheduler",
      { .facts = { 2, 0, 2, 1, 0, -1, 0 }, .naps_built = 1, .idle_nap_off = 1 },
      { .setup = 1, .share = 2, .workers = 2, .bind = TILA_BIND_STARPU, .progress_shares_core = 1,
        .ncpus = 2, .sched = TILA_SCHED_STARPU },
      "STARPU_MPI_NOBIND=1 " ENV_ALL },
    { "TILA_IDLE_NAP=0 on 4 ranks of 2 CPUs: the progress worker still runs the short tasks",
      { .facts = { 2, 0, 2, 4, 3, -1, 0 }, .naps_built = 1, .idle_nap_off = 1 },
      { .setup = 1, .share = 1, .workers = 1, .bind = TILA_BIND_NONE, .crowded = 1, .ncpus = 2,
        .sched = TILA_SCHED_STARPU, .progress = TILA_PROGRESS_SHORT_TASKS },
      "STARPU_WORKERS_NOBIND=1 STARPU_MPI_NOBIND=1 STARPU_MPI_DRIVER_CALL_FREQUENCY:=1 "
      "STARPU_MPI_DRIVER_TASK_FREQUENCY=1 " ENV_ALL },
    { "a StarPU without naps (not 1.3), 4 ranks of 2 CPUs: no nap, no progress worker",
      { .facts = { 2, 0, 2, 4, 3, -1, 0 } },
      { .setup = 1, .share = 1, .workers = 1, .bind = TILA_BIND_NONE, .crowded = 1, .ncpus = 1,
        .sched = TILA_SCHED_STARPU },
      "STARPU_WORKERS_NOBIND=1 STARPU_MPI_NOBIND=1 " ENV_ALL },
    { "TILA_PROGRESS_WORKER=0 on 4 ranks of 2 CPUs: the progress thread keeps to messages",
      { .facts = { 2, 0, 2, 4, 3, -1, 0 }, .naps_built = 1, .progress_worker_off = 1 },
      { .setup = 1, .share = 1, .workers = 1, .bind = TILA_BIND_NONE, .crowded = 1, .ncpus = 1,
        .sched = TILA_SCHED_LWS_WAKING, NAPS },
      "STARPU_WORKERS_NOBIND=1 STARPU_MPI_NOBIND=1 " ENV_ALL },
    { "the user's STARPU_MPI_DRIVER_CALL_FREQUENCY=4: the progress thread runs worker 0",
      { .facts = { 2, 0, 2, 1, 0, -1, 0 }, .naps_built = 1, .driver_call_frequency = 4 },
      { .setup = 1, .share = 2, .workers = 2, .bind = TILA_BIND_STARPU, .progress_shares_core = 1,
        .ncpus = 2, .sched = TILA_SCHED_LWS_WAKING, NAPS, .progress_naps = 1,
        .progress = TILA_PROGRESS_WORKER0 },
      "STARPU_MPI_NOBIND=1 " ENV_ALL },
    { "a GPU node: dmdas, two CUDA workers per GPU, CPU workers still nap",
      { .facts = { 2, 0, 2, 1, 0, -1, 0 }, .naps_built = 1, .cuda_built = 1, .cuda_devices = 2 },
      { .setup = 1, .share = 2, .workers = 2, .bind = TILA_BIND_STARPU, .progress_shares_core = 1,
        .ncpus = 2, .sched = TILA_SCHED_DMDAS, NAPS, .progress_naps = 1 },
      "STARPU_MPI_NOBIND=1 STARPU_NWORKER_PER_CUDA=2 " ENV_ALL },
    { "built with CUDA, no GPU, 4 ranks of 2 CPUs: lws, no progress worker",
      { .facts = { 2, 0, 2, 4, 3, -1, 0 }, .naps_built = 1, .cuda_built = 1 },
      { .setup = 1, .share = 1, .workers = 1, .bind = TILA_BIND_NONE, .crowded = 1, .ncpus = 1,
        .sched = TILA_SCHED_LWS_WAKING, NAPS },
      "STARPU_WORKERS_NOBIND=1 STARPU_MPI_NOBIND=1 " ENV_ALL },
    { "a GPU node with the user's scheduler: kept",
      { .facts = { 2, 0, 2, 1, 0, -1, 0 }, .naps_built = 1, .cuda_built = 1, .cuda_devices = 1,
        .user_sched = 1, .sched_name = "eager" },
      { .setup = 1, .share = 2, .workers = 2, .bind = TILA_BIND_STARPU, .progress_shares_core = 1,
        .ncpus = 2, .sched = TILA_SCHED_USER, NAPS, .progress_naps = 1 },
      "STARPU_MPI_NOBIND=1 STARPU_NWORKER_PER_CUDA=2 " ENV_ALL },
    { "the user's scheduler on a CPU node: kept, its workers nap without a waking push",
      { .facts = { 2, 0, 2, 1, 0, -1, 0 }, .naps_built = 1, .user_sched = 1 },
      { .setup = 1, .share = 2, .workers = 2, .bind = TILA_BIND_STARPU, .progress_shares_core = 1,
        .ncpus = 2, .sched = TILA_SCHED_USER, NAPS, .progress_naps = 1 },
      "STARPU_MPI_NOBIND=1 " ENV_ALL },
    { "OpenBLAS, no thread count set: one thread while Tila runs",
      { .facts = { 2, 0, 2, 1, 0, -1, 0 }, .naps_built = 1, .openblas = 1 },
      { .setup = 1, .share = 2, .workers = 2, .bind = TILA_BIND_STARPU, .progress_shares_core = 1,
        .ncpus = 2, .sched = TILA_SCHED_LWS_WAKING, NAPS, .progress_naps = 1,
        .blas_one_thread = 1 },
      "STARPU_MPI_NOBIND=1 " ENV_ALL },
    { "OpenBLAS with OPENBLAS_NUM_THREADS set: left alone",
      { .facts = { 2, 0, 2, 1, 0, -1, 0 }, .naps_built = 1, .openblas = 1, .blas_threads_set = 1 },
      { .setup = 1, .share = 2, .workers = 2, .bind = TILA_BIND_STARPU, .progress_shares_core = 1,
        .ncpus = 2, .sched = TILA_SCHED_LWS_WAKING, NAPS, .progress_naps = 1 },
      "STARPU_MPI_NOBIND=1 " ENV_ALL },
    { "TILA_VERBOSE: StarPU's messages too, STARPU_CATCH_SIGNALS: its handlers",
      { .facts = { 2, 0, 2, 1, 0, -1, 0 }, .naps_built = 1, .verbose = 1, .catch_signals = 1 },
      { .setup = 1, .share = 2, .workers = 2, .bind = TILA_BIND_STARPU, .progress_shares_core = 1,
        .ncpus = 2, .sched = TILA_SCHED_LWS_WAKING, NAPS, .progress_naps = 1,
        .catch_signals = 1 },
      "STARPU_MPI_NOBIND=1 STARPU_MPI_COOP_SENDS=0 STARPU_MPI_NDETACHED_SEND_MB=1536 "
      "STARPU_MINIMUM_CLEAN_BUFFERS=0 STARPU_TARGET_CLEAN_BUFFERS=0" },
    { "a simulated node: nothing set up, StarPU's settings of every start",
      { .simulation = 1, .naps_built = 1, .openblas = 1 },
      { .ncpus = -1, .sched = TILA_SCHED_STARPU },
      ENV_ALL },
    { "StarPU started by the program: its workers as they are",
      { .facts = { 2, 0, 2, 4, 3, -1, 0 }, .starpu_up = 1, .naps_built = 1, .cuda_built = 1,
        .cuda_devices = 1 },
      { .ncpus = -1, .sched = TILA_SCHED_STARPU },
      ENV_ALL },
};
/* clang-format on */

/* The plan's variables as a case writes them. */
static void env_text(const tila_node_plan_t *p, char *text, size_t size)
{
    text[0] = 0;
    for (int k = 0; k < p->nenv; k++) {
        size_t len = strlen(text);
        snprintf(text + len, size - len, "%s%s%s%s", k ? " " : "", p->env[k].name,
                 p->env[k].overwrite ? ":=" : "=", p->env[k].value);
    }
}

/* Every field of the plan but its variables. */
static int plan_equal(const tila_node_plan_t *a, const tila_node_plan_t *b)
{
    return a->setup == b->setup && a->share == b->share && a->workers == b->workers &&
           a->bind == b->bind && a->first == b->first && a->crowded == b->crowded &&
           a->progress_shares_core == b->progress_shares_core && a->ncpus == b->ncpus &&
           a->sched == b->sched && a->worker_naps == b->worker_naps &&
           a->worker_rest == b->worker_rest && a->rest_after_s == b->rest_after_s &&
           a->rest_ns == b->rest_ns && a->progress_naps == b->progress_naps &&
           a->progress == b->progress && a->blas_one_thread == b->blas_one_thread &&
           a->catch_signals == b->catch_signals;
}

/* TILA_CPU_TASK_FLOPS's text, on a native node, a simulated one and a StarPU the program
 * started: the plan's cpu_task_flops and whether the text was refused. */
static void cpu_task_flops_check(void)
{
    static const struct {
        const char *text;
        double flops;
        int bad;
    } cases[] = { { NULL, 1e8, 0 },  { "", 1e8, 0 },    { "2e9", 2e9, 0 },   { "5e7", 5e7, 0 },
                  { "0", 0, 0 },     { "-5", 0, 0 },    { "abc", 1e8, 1 },   { "1e8x", 1e8, 1 },
                  { "nan", 1e8, 1 } };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++)
        for (int where = 0; where < 3; where++) {
            tila_node_input_t in = { .facts = { 2, 0, 2, 1, 0, -1, 0 },
                                     .cuda_built = 1,
                                     .cuda_devices = 1,
                                     .simulation = where == 1,
                                     .starpu_up = where == 2,
                                     .cpu_task_flops = cases[k].text };
            tila_node_plan_t p;
            char what[200];
            tila_node_plan(&in, &p);
            snprintf(what, sizeof what, "TILA_CPU_TASK_FLOPS=%s %s: cpu_task_flops %g%s",
                     cases[k].text ? cases[k].text : "(unset)",
                     where == 0 ? "native" : where == 1 ? "simulated" : "StarPU up", p.cpu_task_flops,
                     p.cpu_task_flops_bad ? " (refused: the default)" : "");
            check(p.cpu_task_flops == cases[k].flops && p.cpu_task_flops_bad == cases[k].bad, what);
        }
}

/* What TILA_VERBOSE says of case k's plan, on CPUs numbered cpus. */
static void describe_check(size_t k, const int *cpus, const char *want)
{
    tila_node_plan_t p;
    char how[320], what[600];
    tila_node_plan(&cases[k].in, &p);
    tila_node_describe(&cases[k].in, &p, cpus, how, sizeof how);
    snprintf(what, sizeof what, "verbose line of \"%s\": %s", cases[k].what, how);
    check(!strcmp(how, want), what);
}

int main(void)
{
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        const node_case_t *c = &cases[k];
        tila_node_plan_t p;
        char env[600], what[1200];
        tila_node_plan(&c->in, &p);
        env_text(&p, env, sizeof env);
        snprintf(what, sizeof what,
                 "%s: setup %d share %d workers %d bind %d first %d crowded %d ncpus %d sched %d "
                 "naps %d rest %d after %g s for %ld ns, progress naps %d progress %d blas1 %d "
                 "signals %d; %s",
                 c->what, p.setup, p.share, p.workers, (int)p.bind, p.first, p.crowded, p.ncpus,
                 (int)p.sched, p.worker_naps, p.worker_rest, p.rest_after_s, p.rest_ns,
                 p.progress_naps, (int)p.progress, p.blas_one_thread, p.catch_signals, env);
        /* no case sets TILA_CPU_TASK_FLOPS: the default */
        check(plan_equal(&p, &c->want) && !strcmp(env, c->env) && p.cpu_task_flops == 1e8 &&
                  !p.cpu_task_flops_bad,
              what);
    }
    cpu_task_flops_check();
    static const int two[] = { 0, 1 }, gaps[] = { 0, 2, 4, 6, 8, 10, 12, 14 };
    describe_check(1, two,
                   "1 CPU worker(s), bound to CPUs 1-1, idle workers nap until a push, progress "
                   "thread naps and runs between tasks");
    describe_check(6, gaps,
                   "4 CPU worker(s), bound to CPUs 8-14, idle workers nap until a push, progress "
                   "thread naps and runs between tasks");
    describe_check(4, two,
                   "1 CPU worker(s), unbound (more ranks than CPUs), idle workers nap until a "
                   "push, the progress thread runs the short tasks on one more CPU worker");
    describe_check(8, two,
                   "2 CPU worker(s), unbound (a CPU quota), idle workers nap until a push, "
                   "progress thread naps and runs between tasks");
    describe_check(19, two,
                   "2 CPU worker(s), scheduler dmdas, idle workers nap, progress thread naps and "
                   "runs between tasks");
    describe_check(21, two,
                   "2 CPU worker(s), scheduler eager, idle workers nap, progress thread naps and "
                   "runs between tasks");
    describe_check(11, two, ", idle workers nap until a push");
    describe_check(23, two,
                   "2 CPU worker(s), OpenBLAS 1 thread, idle workers nap until a push, progress "
                   "thread naps and runs between tasks");
    describe_check(18, two,
                   "2 CPU worker(s), idle workers nap until a push, progress thread naps and "
                   "runs between tasks, the progress thread runs CPU worker 0");
    describe_check(3, two,
                   "1 CPU worker(s), bound within mpirun's binding, idle workers nap until a "
                   "push, progress thread naps and runs between tasks");
    int cpus[16];
    int n = tila_cpulist_parse("0-3,8,10-11\n", cpus, 16);
    check(n == 7 && cpus[0] == 0 && cpus[3] == 3 && cpus[4] == 8 && cpus[6] == 11,
          "cpuset list 0-3,8,10-11: 7 CPUs");
    check(tila_cpulist_parse("5", cpus, 16) == 1 && cpus[0] == 5, "cpuset list 5");
    check(tila_cpulist_parse("0-20", cpus, 16) == -1, "cpuset list longer than the array: -1");
    check(tila_cpulist_parse("3-1", cpus, 16) == -1, "cpuset list 3-1: -1");
    check(tila_cpu_quota_parse("max 100000\n", NULL) == 0, "cpu.max 'max 100000': no quota");
    check(tila_cpu_quota_parse("250000 100000\n", NULL) == 3, "cpu.max '250000 100000': 3 CPUs");
    check(tila_cpu_quota_parse("-1\n", "100000\n") == 0, "cfs_quota_us -1: no quota");
    check(tila_cpu_quota_parse("200000\n", "100000\n") == 2, "cfs_quota_us 200000 / 100000: 2");
    check(tila_cpu_quota_parse(NULL, NULL) == 0, "no cgroup file: no quota");
    printf("%d passed, %d failed, 0 skipped\n", passed, failed);
    return failed ? 1 : 0;
}
