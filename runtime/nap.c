/**
 * @file nap.c
 * @brief Idle threads give the core back: StarPU's CPU workers and StarPU-MPI's progress
 * thread nap while they have nothing to do.
 *
 * Neither thread ever blocks in StarPU 1.3 as Debian builds it.  On a rank whose cores
 * are all taken by CPU workers (one core per rank on this project's 2-core machine, or
 * any node where every core runs a worker), both poll on a core that another thread of
 * the rank needs:
 *
 * - the last awake worker polls the scheduler for tasks and held its core until the
 *   scheduler's tick, so every message and collective waited 4-8 ms (2 ranks, a 1000^2
 *   norm: 12-28 ms instead of 1).  After 20 us idle, a CPU worker naps 50 us at a time.
 * - the progress thread tests its MPI requests back to back as long as one is pending
 *   (its loop blocks only when none is): 54 % of each rank's cycles in a 2-rank potrs,
 *   the worker computing during less than half of the solve.  Tila's MPI_Test, below,
 *   passes every call to PMPI_Test and, in that thread only, after 20 us without a
 *   completed request, sleeps between tests: 10 us, doubling to 160 us while nothing
 *   completes.  A message then waits at most one nap; the worker gets the core back.
 *   Lowering the thread's priority instead was measured and rejected: a user's thread
 *   spinning in blocking MPI starved it (a 1 MB raw-MPI ping-pong took over 60 s).
 *
 * The progress thread is StarPU-MPI's thread named "MPI".  Some of its tests run under
 * StarPU-MPI's progress_mutex, so a worker that submits a request meanwhile waits for
 * the nap too (at most 160 us, once per message).  The naps are on unless
 * TILA_IDLE_NAP=0, and the progress thread's only when the rank has CPUs of its own and
 * a worker on each: where ranks outnumber the CPUs, a thread that sleeps waits behind the
 * other ranks' threads to run again, and 4 ranks on 2 cores solved 3x slower.  Tila's
 * MPI_Test replaces the MPI library's for the whole program: other threads' calls go
 * straight to PMPI_Test.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "tila_runtime.h"

/* Workers: idle time before napping, and the nap. */
static const double worker_idle_s = 20e-6;
static const long worker_nap_ns = 50000;
/* Progress thread: time since a request completed before napping, the first and the
 * longest nap, and the least time between two naps (one per pass of its loop, which
 * may test several requests). */
static const double progress_idle_s = 20e-6, progress_gap_s = 3e-6;
static const long progress_nap_ns = 10000, progress_max_nap_ns = 160000;

static int progress_naps; /* set before StarPU-MPI starts its thread */

double tila_clock(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

void tila_nap(long ns) { nanosleep(&(struct timespec){ .tv_nsec = ns }, NULL); }

static unsigned tila_idle_nap(void *arg)
{
    static __thread double idle, last;
    (void)arg;
    if (starpu_worker_get_type(starpu_worker_get_id()) != STARPU_CPU_WORKER) return 0;
    double now = tila_clock();
    idle = now - last < worker_idle_s ? idle + (now - last) : 0;
    if (idle > worker_idle_s) tila_nap(worker_nap_ns);
    last = tila_clock();
    return 0;
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    /* kind: 0 not yet known, 1 StarPU-MPI's progress thread, 2 any other thread */
    static __thread int kind;
    static __thread double busy, napped;
    static __thread long nap;
    int rc = PMPI_Test(request, flag, status);
    if (kind == 0) {
        char name[17] = "";
        prctl(PR_GET_NAME, name);
        kind = progress_naps && !strcmp(name, "MPI") ? 1 : 2;
        /* naps as short as asked, not the default 50 us late */
        if (kind == 1) prctl(PR_SET_TIMERSLACK, 1000UL);
    }
    if (kind != 1 || rc != MPI_SUCCESS) return rc;
    double now = tila_clock();
    if (*flag || nap == 0) {
        busy = now;
        nap = progress_nap_ns;
    }
    else if (now - busy > progress_idle_s && now - napped > progress_gap_s) {
        tila_nap(nap);
        nap = nap * 2 < progress_max_nap_ns ? nap * 2 : progress_max_nap_ns;
        napped = tila_clock();
    }
    return rc;
}

const char *tila_naps_start(int progress_shares_core)
{
    const char *off = getenv("TILA_IDLE_NAP");
    if (off && !strcmp(off, "0")) return "";
    starpu_idle_hook_register(tila_idle_nap, NULL);
    progress_naps = progress_shares_core;
    return progress_shares_core ? ", idle workers and progress thread nap" : ", idle workers nap";
}
