/**
 * @file example_env.h
 * @brief Examples' shared bits: options, timing, and warnings about a slow environment.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef EXAMPLE_ENV_H
#define EXAMPLE_ENV_H

#include "tila.h"

/** Options of the examples. */
typedef struct example_opts_s {
    int m, n, k, nb, ib, p, q, check;
    unsigned long long seed;
} example_opts_t;

/**
 * Parse the options among --m --n --k --nb --ib --p --q --seed --check that `usage` offers
 * (values: non-negative integers); -1 with a usage message on anything else.
 */
int example_parse(int argc, char **argv, example_opts_t *o, const char *usage);

/**
 * The start of every example: tila_init, then example_parse; on a bad command line Tila is
 * finalized again.  @return 0 to go on, else the program's exit status: 1 when tila_init
 * failed, 2 for a bad command line.
 */
int example_start(int *argc, char ***argv, example_opts_t *o, const char *usage);

/**
 * On rank 0, once: warn when OpenBLAS runs an older kernel than the CPU supports,
 * when OpenBLAS threads inside StarPU workers, or when several ranks will all bind
 * their workers to the same core.
 */
void example_check_env(void);

/**
 * The name of the scheduler the program runs with (StarPU's global context): Tila's
 * default, lws, unless STARPU_SCHED names another (with GPUs, use dmdas with calibrated
 * models: perfmodels/README.md).
 */
const char *example_sched(void);

/**
 * A new m x n double descriptor with o->nb square tiles on the o->p x o->q grid (or the
 * default one).  On failure: the reason on rank 0 ("prog: ..."), tila_finalize, exit 1.
 */
tila_desc_t *example_desc(const char *prog, int m, int n, const example_opts_t *o);

/** Wall-clock seconds. */
tila_seconds_t example_now(void);

#endif /* EXAMPLE_ENV_H */
