/**
 * @file facts.c
 * @brief What a node offers a rank: its online CPUs, the rank's affinity mask, the cgroup's
 *        cpuset and CPU quota, read here for the node's plan (plan.c).
 *
 * The CPUs a node offers the job are its cgroup's cpuset (a Slurm allocation, a
 * container's --cpuset-cpus), at most the CPU quota's worth (a container's --cpus, cgroup
 * v2 cpu.max or v1 cfs_quota_us / cfs_period_us, rounded up), else every online CPU.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "node.h"

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

/*
 * This process's cgroup paths from /proc/self/cgroup: v2's ("0::/path"), and v1's cpuset
 * and cpu controllers' ("N:cpuset:/path", "N:cpu,cpuacct:/path"); "" for the root (as in
 * most containers) or when absent.
 */
static void cgroup_paths(char *v2, char *cpuset, char *cpu, size_t size)
{
    char line[1024];
    v2[0] = cpuset[0] = cpu[0] = 0;
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (!f) return;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char *ctrl = strchr(line, ':'), *path = ctrl ? strchr(ctrl + 1, ':') : NULL;
        if (!path) continue;
        *path++ = 0;
        ctrl++;
        if (!strcmp(path, "/")) path = "";
        if (!*ctrl) {
            snprintf(v2, size, "%s", path);
            continue;
        }
        /* the controller list, comma-separated */
        for (char *c = strtok(ctrl, ","); c; c = strtok(NULL, ","))
            if (!strcmp(c, "cpuset"))
                snprintf(cpuset, size, "%s", path);
            else if (!strcmp(c, "cpu"))
                snprintf(cpu, size, "%s", path);
    }
    fclose(f);
}

/* The least CPU quota of cgroup `path` and its ancestors under `root`, where `file` (and
 * `period`, v1) hold it; 0 for none. */
static int quota_up(const char *root, const char *path, const char *file, const char *period)
{
    char dir[1024], p1[1100], p2[1100], b1[128], b2[128];
    int least = 0;
    snprintf(dir, sizeof dir, "%s", path);
    for (;;) {
        snprintf(p1, sizeof p1, "%s%s/%s", root, dir, file);
        snprintf(p2, sizeof p2, "%s%s/%s", root, dir, period ? period : "");
        int q = tila_cpu_quota_parse(first_line(p1, b1, sizeof b1),
                                     period ? first_line(p2, b2, sizeof b2) : NULL);
        if (q > 0 && (!least || q < least)) least = q;
        char *slash = strrchr(dir, '/');
        if (!slash) break;
        *slash = 0;
    }
    return least;
}

void tila_node_facts_read(tila_node_facts_t *f, int *cpus, int max)
{
    char v2[512], v1set[512], v1cpu[512], path[1100], buf[4096];
    int online = (int)sysconf(_SC_NPROCESSORS_ONLN);
    cgroup_paths(v2, v1set, v1cpu, sizeof v2);
    cpu_set_t mask;
    CPU_ZERO(&mask);
    f->mine = sched_getaffinity(0, sizeof mask, &mask) == 0 ? CPU_COUNT(&mask) : online;
    /* the cpuset: v2, then v1 (the process's cgroup, then the root); else every online CPU */
    const char *sets[][2] = { { "/sys/fs/cgroup%s/cpuset.cpus.effective", v2 },
                              { "/sys/fs/cgroup/cpuset%s/cpuset.effective_cpus", v1set },
                              { "/sys/fs/cgroup/cpuset%s/cpuset.effective_cpus", "" } };
    int n = -1;
    for (int k = 0; k < 3 && n <= 0; k++) {
        snprintf(path, sizeof path, sets[k][0], sets[k][1]);
        if (first_line(path, buf, sizeof buf)) n = tila_cpulist_parse(buf, cpus, max);
    }
    if (n <= 0) {
        n = online < max ? online : max;
        for (int c = 0; c < n; c++)
            cpus[c] = c;
    }
    f->offered = n;
    /* the quota: the least of the process's cgroup and its ancestors, v2 then v1 */
    f->quota = quota_up("/sys/fs/cgroup", v2, "cpu.max", NULL);
    if (!f->quota)
        f->quota = quota_up("/sys/fs/cgroup/cpu", v1cpu, "cpu.cfs_quota_us", "cpu.cfs_period_us");
}
