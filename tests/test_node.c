/**
 * @file test_node.c
 * @brief tila-node-test: how a rank shares its node (tila_node_plan, runtime/node.c), case
 *        by case, and the cgroup files' parsers.
 *
 * One line per case: PASS|FAIL node CASE; then "N passed, N failed, 0 skipped".  Each case
 * is a node as the launcher and the cgroup leave it (CPUs offered, a quota, the rank's
 * mask, ranks on the node, the user's settings) and the plan it must get.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <string.h>

#include "tila_runtime_private.h"

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
    tila_node_facts_t f;
    tila_node_plan_t want;
} node_case_t;

/* facts: offered, quota, mine, nlocal, local, user_ncpus, user_bind;
 * plan: share, workers, bind, first, crowded, progress_shares_core */
static const node_case_t cases[] = {
    { "one rank, every CPU of 2", { 2, 0, 2, 1, 0, -1, 0 }, { 2, 2, TILA_BIND_STARPU, 0, 0, 1 } },
    { "2 ranks unbound on 2 CPUs: one each, bound",
      { 2, 0, 2, 2, 1, -1, 0 },
      { 1, 1, TILA_BIND_SLICE, 1, 0, 1 } },
    { "2 ranks bound to a core each by Open MPI on 64 CPUs: 32 each",
      { 64, 0, 1, 2, 1, -1, 0 },
      { 32, 32, TILA_BIND_SLICE, 32, 0, 1 } },
    { "2 ranks bound to a core each on 2 CPUs: one each, within the binding",
      { 2, 0, 1, 2, 0, -1, 0 },
      { 1, 1, TILA_BIND_WITHIN, 0, 0, 1 } },
    { "4 ranks unbound on 2 CPUs: crowded, unbound",
      { 2, 0, 2, 4, 3, -1, 0 },
      { 1, 1, TILA_BIND_NONE, 0, 1, 0 } },
    { "4 ranks bound by a rankfile on 2 CPUs: crowded, within the binding",
      { 2, 0, 1, 4, 2, -1, 0 },
      { 1, 1, TILA_BIND_WITHIN, 0, 1, 1 } },
    { "a Slurm cpuset of 8 CPUs, 2 ranks unbound in it: 4 each, not 8",
      { 8, 0, 8, 2, 1, -1, 0 },
      { 4, 4, TILA_BIND_SLICE, 4, 0, 1 } },
    { "a Slurm cpuset of 8, ranks bound to 4 CPUs each by --cpu-bind",
      { 8, 0, 4, 2, 1, -1, 0 },
      { 4, 4, TILA_BIND_WITHIN, 0, 0, 1 } },
    { "a container's --cpus=2 on 64 CPUs, one rank: 2 workers, unbound",
      { 64, 2, 64, 1, 0, -1, 0 },
      { 2, 2, TILA_BIND_NONE, 0, 0, 1 } },
    { "a quota of 3 CPUs, 2 ranks: 1 each, unbound",
      { 64, 3, 64, 2, 0, -1, 0 },
      { 1, 1, TILA_BIND_NONE, 0, 0, 1 } },
    { "a quota wider than the cpuset counts for nothing",
      { 4, 16, 4, 1, 0, -1, 0 },
      { 4, 4, TILA_BIND_STARPU, 0, 0, 1 } },
    { "the user's STARPU_NCPU=1 beside 2 CPUs: the progress thread has a CPU",
      { 2, 0, 2, 1, 0, 1, 0 },
      { 2, 1, TILA_BIND_STARPU, 0, 0, 0 } },
    { "the user's binding is kept", { 2, 0, 2, 2, 0, -1, 1 }, { 1, 1, TILA_BIND_USER, 0, 0, 1 } },
};

int main(void)
{
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        const node_case_t *c = &cases[k];
        tila_node_plan_t p;
        tila_node_plan(&c->f, &p);
        char what[256];
        snprintf(what, sizeof what,
                 "%s: share %d workers %d bind %d first %d crowded %d progress naps %d", c->what,
                 p.share, p.workers, (int)p.bind, p.first, p.crowded, p.progress_shares_core);
        check(p.share == c->want.share && p.workers == c->want.workers && p.bind == c->want.bind &&
                  p.first == c->want.first && p.crowded == c->want.crowded &&
                  p.progress_shares_core == c->want.progress_shares_core,
              what);
    }
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
