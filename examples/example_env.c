/**
 * @file example_env.c
 * @brief Examples' shared bits: options, timing, and warnings about a slow environment.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tila_config.h"
#include "example_env.h"

#ifdef TILA_HAVE_OPENBLAS
char *openblas_get_corename(void);
int openblas_get_num_threads(void);
#endif

/* Does the usage string offer option `opt` (as a whole word)? */
static int usage_offers(const char *usage, const char *opt)
{
    size_t len = strlen(opt);
    for (const char *p = strstr(usage, opt); p; p = strstr(p + 1, opt))
        if ((p == usage || p[-1] == '[' || p[-1] == ' ') && (p[len] == ' ' || p[len] == ']'))
            return 1;
    return 0;
}

int example_parse(int argc, char **argv, example_opts_t *o, const char *usage)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *why = "unknown option";
        int *dst = !strcmp(a, "--m")    ? &o->m
                   : !strcmp(a, "--n")  ? &o->n
                   : !strcmp(a, "--k")  ? &o->k
                   : !strcmp(a, "--nb") ? &o->nb
                   : !strcmp(a, "--ib") ? &o->ib
                   : !strcmp(a, "--p")  ? &o->p
                   : !strcmp(a, "--q")  ? &o->q
                                        : NULL;
        int seed = !strcmp(a, "--seed"), offered = usage_offers(usage, a);
        if (offered && (dst || seed) && i + 1 < argc) {
            char *end;
            unsigned long long v = strtoull(argv[i + 1], &end, 10);
            if (*argv[i + 1] != '-' && *end == '\0' && end != argv[i + 1] &&
                (seed || v <= 1u << 30)) {
                if (seed)
                    o->seed = v;
                else
                    *dst = (int)v;
                i++;
                continue;
            }
            why = "not a non-negative integer after";
        }
        else if (offered && !strcmp(a, "--check")) {
            o->check = 1;
            continue;
        }
        else if (offered && (dst || seed)) {
            why = "no value after";
        }
        if (tila_comm_rank() == 0) fprintf(stderr, "%s '%s'\nusage: %s\n", why, a, usage);
        return -1;
    }
    return 0;
}

int example_start(int *argc, char ***argv, example_opts_t *o, const char *usage)
{
    if (tila_init(argc, argv) != TILA_SUCCESS) return 1;
    if (example_parse(*argc, *argv, o, usage)) {
        tila_finalize();
        return 2;
    }
    return 0;
}

const char *example_sched(void)
{
    struct starpu_sched_policy *policy = starpu_sched_ctx_get_sched_policy(0);
    return policy && policy->policy_name ? policy->policy_name : "?";
}

tila_desc_t *example_desc(const char *prog, int m, int n, const example_opts_t *o)
{
    tila_dist_t dist = { .p = o->p, .q = o->q };
    tila_desc_t *A;
    int rc = tila_desc_create(&A, TILA_REAL64, m, n, o->nb, o->nb, &dist);
    if (rc) {
        if (tila_comm_rank() == 0) fprintf(stderr, "%s: %s\n", prog, tila_strerror(rc));
        tila_finalize();
        exit(1);
    }
    return A;
}

tila_seconds_t example_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (tila_seconds_t)t.tv_sec + 1e-9 * (tila_seconds_t)t.tv_nsec;
}

/* Does /proc/cpuinfo list this flag? */
static int cpu_has(const char *flag)
{
    char line[8192], word[64];
    FILE *f = fopen("/proc/cpuinfo", "r");
    int found = 0;
    if (!f) return 0;
    snprintf(word, sizeof word, " %s ", flag);
    while (!found && fgets(line, sizeof line, f))
        if (!strncmp(line, "flags", 5)) {
            line[strcspn(line, "\n")] = ' ';
            found = strstr(line, word) != NULL;
            break;
        }
    fclose(f);
    return found;
}

void example_check_env(void)
{
    if (tila_comm_rank() != 0) return;
#ifdef TILA_HAVE_OPENBLAS
    const char *core = openblas_get_corename();
    static const char *old[] = { "Prescott",   "Core2",       "Penryn", "Dunnington",
                                 "Nehalem",    "Sandybridge", "Atom",   "Katmai",
                                 "Coppermine", "Northwood",   "Banias", "Unknown" };
    const char *want = cpu_has("avx512f") ? "SkylakeX" : cpu_has("avx2") ? "Haswell" : NULL;
    for (size_t i = 0; want && core && i < sizeof old / sizeof old[0]; i++)
        if (!strcasecmp(core, old[i]))
            fprintf(stderr,
                    "warning: OpenBLAS runs its '%s' kernels on a CPU that supports "
                    "%s ones (dgemm several times slower): set OPENBLAS_CORETYPE=%s\n",
                    core, want, want);
    /* tila_init makes OpenBLAS single-threaded unless the user's variables say otherwise */
    if (openblas_get_num_threads() != 1)
        fprintf(stderr, "warning: OpenBLAS may start its own threads inside each StarPU worker "
                        "(oversubscribed cores): set OPENBLAS_NUM_THREADS=1\n");
#endif
    if (tila_comm_size() > 1 && !getenv("STARPU_WORKERS_GETBIND") && !getenv("STARPU_MPI_NOBIND") &&
        !getenv("STARPU_WORKERS_NOBIND"))
        fprintf(stderr, "warning: StarPU-MPI binds every rank's workers from core 0, so ranks "
                        "on one node share cores: run 'mpirun --bind-to core' with "
                        "STARPU_WORKERS_GETBIND=1 STARPU_NCPU=1 STARPU_MPI_NOBIND=1\n");
}
