/**
 * @file nap.c
 * @brief Idle threads give the core back: the switch, and what both mechanisms share.
 *
 * StarPU 1.3, as Debian builds it, never blocks an idle CPU worker (it polls the
 * scheduler) nor StarPU-MPI's progress thread while that thread has a request pending
 * (it tests them back to back).  Where every core of a rank runs a worker, both polls
 * take a core that another thread of the rank needs: messages wait for the scheduler's
 * tick, and the progress thread takes half of the rank's cycles.  Two mechanisms give
 * the core back, each in its file:
 *
 * - nap_workers.c: an idle CPU worker naps in short steps, and a push of a task wakes it;
 * - nap_progress.c: StarPU-MPI's progress thread naps between its MPI tests while
 *   nothing completes, and runs between two tasks, when a worker yields the core.
 *
 * Both are on unless TILA_IDLE_NAP=0; the progress thread's only where it shares the
 * rank's CPUs with a worker on each, unless unbound ranks outnumber the CPUs (a thread
 * that sleeps waits behind the other ranks' threads to run again; there the progress
 * thread runs the short tasks instead, progress_worker.c); tila_node_plan decides (plan.c).
 * Both rest on StarPU 1.3's polling: configure
 * builds them with StarPU 1.3 only (TILA_STARPU_NAPS).  Between two calls of a program
 * that uses Tila now and then, idle workers rest on their own once no task is pending
 * (nap_workers.c), and tila_pause blocks every one of these threads.
 * The measurements behind each choice: bench/results/idle-naps.md.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "nap.h"

double tila_clock(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

void tila_nap(long ns) { nanosleep(&(struct timespec){ .tv_nsec = ns }, NULL); }

void tila_futex_nap(unsigned *count, unsigned seen, long ns)
{
    syscall(SYS_futex, count, FUTEX_WAIT_PRIVATE, seen, &(struct timespec){ .tv_nsec = ns }, NULL,
            0);
}

void tila_futex_count_and_wake(unsigned *count, int *nappers)
{
    __atomic_add_fetch(count, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(nappers, __ATOMIC_SEQ_CST))
        syscall(SYS_futex, count, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

void tila_futex_wake_all(unsigned *count)
{
    syscall(SYS_futex, count, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

void tila_naps_start(const tila_node_plan_t *p)
{
#ifndef TILA_STARPU_NAPS
    (void)p;
#else
    /* this start's settings, not a previous tila_init's */
    tila_worker_naps_off();
    tila_progress_naps_start();
    if (p->worker_naps) tila_worker_naps_start();
#endif
}

void tila_naps_stop(void)
{
#ifdef TILA_STARPU_NAPS
    tila_naps_stopping(1);
    tila_worker_naps_unhook();
#endif
}
