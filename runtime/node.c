/**
 * @file node.c
 * @brief How many CPU workers a rank gets, and where: the node's facts (online CPUs, the
 *        rank's affinity mask, the cgroup's cpuset and CPU quota) read here, and the plan
 *        made from them by a pure function (tila_node_plan, unit-tested by
 *        tests/test_node.c).
 *
 * The CPUs a node offers the job are its cgroup's cpuset (a Slurm allocation, a
 * container's --cpuset-cpus), at most the CPU quota's worth (a container's --cpus, cgroup
 * v2 cpu.max or v1 cfs_quota_us / cfs_period_us, rounded up), else every online CPU.
 * Then:
 *
 * - ranks unbound (their mask is every CPU offered), or bound to one CPU each where each
 *   could have several (Open MPI's default for 1 or 2 ranks, which would leave the other
 *   CPUs idle): the offered CPUs split evenly among the node's ranks, each rank's workers
 *   bound to its slice of them, or unbound when the ranks outnumber the CPUs (crowded);
 *   unbound as well under a quota narrower than the cpuset, which names no CPUs;
 * - ranks bound by the launcher to several CPUs each (mpirun --bind-to socket, Slurm's
 *   --cpu-bind): one worker per CPU of the rank's mask, bound within it;
 * - a user's STARPU_NCPU (or conf) sets the number of workers, a user's binding
 *   (STARPU_WORKERS_*) the binding: Tila leaves them alone.
 *
 * StarPU-MPI's progress thread naps only where each rank has CPUs of its own with a worker
 * on each (nap.c).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tila_runtime_private.h"

void tila_node_plan(const tila_node_facts_t *f, tila_node_plan_t *p)
{
    int offered = f->offered > 0 ? f->offered : 1;
    int quota = f->quota > 0 && f->quota < offered;
    int avail = quota ? f->quota : offered;
    int nlocal = f->nlocal > 0 ? f->nlocal : 1;
    memset(p, 0, sizeof *p);
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

int tila_cpulist_parse(const char *text, int *cpus, int max)
{
    int n = 0;
    const char *s = text;
    while (s && *s && *s != '\n') {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        if (end == s || a < 0) return -1;
        s = end;
        if (*s == '-') {
            b = strtol(s + 1, &end, 10);
            if (end == s + 1 || b < a) return -1;
            s = end;
        }
        for (long c = a; c <= b; c++) {
            if (n == max) return -1;
            cpus[n++] = (int)c;
        }
        if (*s == ',')
            s++;
        else if (*s && *s != '\n')
            return -1;
    }
    return n;
}

int tila_cpu_quota_parse(const char *quota, const char *period)
{
    /* v2: "max 100000" or "200000 100000" in one file (period NULL); v1: two files, the
     * quota -1 when none */
    long q, per;
    char word[32];
    if (!quota) return 0;
    if (!period) {
        if (sscanf(quota, "%31s %ld", word, &per) != 2 || !strcmp(word, "max")) return 0;
        q = strtol(word, NULL, 10);
    }
    else {
        q = strtol(quota, NULL, 10);
        per = strtol(period, NULL, 10);
    }
    if (q <= 0 || per <= 0) return 0;
    return (int)((q + per - 1) / per);
}

/* The first line of a file, or NULL. */
static char *first_line(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    char *line = fgets(buf, (int)size, f);
    fclose(f);
    return line;
}

/* This process's cgroup v2 path ("0::/path"), or "" (the root, as in most containers). */
static void cgroup_v2_path(char *path, size_t size)
{
    char line[512];
    path[0] = 0;
    if (size < sizeof line) return;
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (!f) return;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "0::", 3)) {
            line[strcspn(line, "\n")] = 0;
            snprintf(path, size, "%s", strcmp(line + 3, "/") ? line + 3 : "");
        }
    fclose(f);
}

void tila_node_facts_read(tila_node_facts_t *f, int *cpus, int max)
{
    char v2[512], path[1024], buf[4096], buf2[64];
    int online = (int)sysconf(_SC_NPROCESSORS_ONLN);
    cgroup_v2_path(v2, sizeof v2);
    cpu_set_t mask;
    CPU_ZERO(&mask);
    f->mine = sched_getaffinity(0, sizeof mask, &mask) == 0 ? CPU_COUNT(&mask) : online;
    /* the cpuset: v2, then v1; else every online CPU */
    const char *sets[] = { "/sys/fs/cgroup%s/cpuset.cpus.effective",
                           "/sys/fs/cgroup/cpuset%s/cpuset.effective_cpus" };
    int n = -1;
    for (int k = 0; k < 2 && n <= 0; k++) {
        snprintf(path, sizeof path, sets[k], k == 0 ? v2 : "");
        if (first_line(path, buf, sizeof buf)) n = tila_cpulist_parse(buf, cpus, max);
    }
    if (n <= 0) {
        n = online < max ? online : max;
        for (int c = 0; c < n; c++)
            cpus[c] = c;
    }
    f->offered = n;
    /* the quota: v2's cpu.max, then v1's */
    snprintf(path, sizeof path, "/sys/fs/cgroup%s/cpu.max", v2);
    f->quota = tila_cpu_quota_parse(first_line(path, buf, sizeof buf), NULL);
    if (!f->quota)
        f->quota = tila_cpu_quota_parse(
            first_line("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", buf, 64),
            first_line("/sys/fs/cgroup/cpu/cpu.cfs_period_us", buf2, sizeof buf2));
}
