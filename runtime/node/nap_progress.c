/**
 * @file nap_progress.c
 * @brief StarPU-MPI's progress thread naps between its MPI tests, and runs between tasks
 *        (StarPU 1.3).
 *
 * StarPU-MPI 1.3's progress thread tests its requests back to back as long as one is
 * pending (its loop blocks only when none is), on a core where a worker computes.  Tila's
 * MPI_Test (interpose.c) passes every call on to the next MPI_Test and, in that thread
 * only, after 20 us without a completed request, sleeps between tests: 10 us, doubling to
 * 160 us while nothing completes.  A message then waits at most one nap; the worker gets
 * the core back.  The end of a Tila task (tila_progress_yield, when its sends are queued)
 * cuts a nap short and makes the next one the shortest, so that the sends do not wait.
 *
 * Each nap would end with the progress thread preempting the worker, thousands of times
 * a second, so the thread is SCHED_BATCH (the same share of the core, but its wake-up does
 * not preempt) and a worker yields the core at the end of each Tila task: the thread runs
 * between two tasks, when a worker goes idle, and at the scheduler's tick.  (A lower
 * priority instead starved it behind a user's thread spinning in blocking MPI.)
 *
 * The MPI_Test that brings the calls here is libtila's (interpose.c), and the drop-in
 * layers' through tila_progress_mpi_test; a call that comes back here from inside one of
 * libtila's own is passed on without a second nap.
 *
 * The thread is the one StarPU-MPI starts in tila_init and names "MPI": tila_init marks
 * which by its thread id (tila_progress_thread_mark), so that no other thread (one of the
 * program's, whatever its name) ever naps here.  Some of its tests run under
 * StarPU-MPI's progress_mutex, so a worker that submits a request meanwhile waits for the
 * nap too (at most 160 us, once per message).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nap.h"

#ifdef TILA_STARPU_NAPS

/* Time since a request completed before napping, the first and the longest nap, and
 * the least time between two naps (one per pass of the thread's loop, which may test
 * several requests). */
static const double progress_idle_s = 20e-6, progress_gap_s = 3e-6;
static const long progress_nap_ns = 10000, progress_max_nap_ns = 160000;

/* The state (tila_node, node.h): whether the thread naps (the plan's progress_naps),
 * whether it is SCHED_BATCH (workers yield to it), its thread id once tila_init has seen it
 * start, tila_progress_park's request and its answer (the thread is to stop in its next
 * test, and has), the tasks ended so far (their sends queued), and whether it naps now. */

void tila_progress_naps_start(void)
{
    tila_node.progress_batch = 0; /* no yielding until this start's thread is SCHED_BATCH */
}

/* The ids of this process's threads named "MPI", at most n of them. */
static int mpi_threads(pid_t *tids, int n)
{
    int found = 0;
    DIR *dir = opendir("/proc/self/task");
    if (!dir) return 0;
    for (struct dirent *e; found < n && (e = readdir(dir));) {
        char path[300], name[17] = "";
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        if (fgets(name, sizeof name, f) && !strcmp(name, "MPI\n")) tids[found++] = atoi(e->d_name);
        fclose(f);
    }
    closedir(dir);
    return found;
}

void tila_progress_thread_mark(int started)
{
    pid_t *before = tila_node.mpi_before;
    int nbefore = tila_node.nmpi_before;
    if (!started) {
        __atomic_store_n(&tila_node.progress_tid, 0, __ATOMIC_RELEASE);
        tila_node.nmpi_before = mpi_threads(before, 16);
        return;
    }
    pid_t now[16];
    int n = mpi_threads(now, 16);
    for (int i = 0; i < n; i++) {
        int old = 0;
        for (int j = 0; j < nbefore; j++)
            old |= now[i] == before[j];
        if (!old) __atomic_store_n(&tila_node.progress_tid, now[i], __ATOMIC_RELEASE);
    }
}

/* One MPI_Test through `test`, and the progress thread's nap after it.  A call made while
 * this thread is already inside one (libtila's MPI_Test whose next MPI_Test is a layer's,
 * which comes back here) is passed on without a second nap. */
int tila_progress_test(tila_test_fn *test, MPI_Request *request, int *flag, MPI_Status *status)
{
    /* kind: 0 not yet known, 1 StarPU-MPI's progress thread napping, 2 any other thread,
     * 3 the progress thread without naps */
    static __thread int kind, inside;
    static __thread double busy, napped;
    static __thread long nap;
    static __thread unsigned seen;
    if (inside) return test(request, flag, status);
    if (__atomic_load_n(&tila_node.park, __ATOMIC_ACQUIRE) &&
        ((pid_t)syscall(SYS_gettid) == __atomic_load_n(&tila_node.progress_tid, __ATOMIC_ACQUIRE) ||
         (tila_progress_worker_id() >= 0 && starpu_worker_get_id() == tila_progress_worker_id()))) {
        /* StarPU-MPI's thread (named "MPI", or running worker 0 under that worker's name) */
        /* outside MPI, for good: the program may finalize MPI, and the process exit */
        __atomic_store_n(&tila_node.parked, 1, __ATOMIC_RELEASE);
        for (;;)
            pause();
    }
    inside = 1;
    int rc = test(request, flag, status);
    inside = 0;
    if (kind == 0) {
        pid_t tid = __atomic_load_n(&tila_node.progress_tid, __ATOMIC_ACQUIRE);
        if (!tid) return rc; /* not known yet: decide at a later call */
        kind = (pid_t)syscall(SYS_gettid) != tid ? 2 : tila_node.plan.progress_naps ? 1 : 3;
        if (kind == 1) {
            /* naps as short as asked, not the default 50 us late */
            prctl(PR_SET_TIMERSLACK, 1000UL, 0UL, 0UL, 0UL);
            struct sched_param none = { 0 };
            if (!pthread_setschedparam(pthread_self(), SCHED_BATCH, &none))
                __atomic_store_n(&tila_node.progress_batch, 1, __ATOMIC_RELAXED);
        }
    }
    if (kind == 2 || rc != MPI_SUCCESS) return rc;
    if (*flag) tila_watch_message(); /* a message moved: the watch of waits (watch.c) */
    if (kind == 3) return rc;
    double now = tila_clock();
    if (*flag || nap == 0) {
        busy = now;
        nap = progress_nap_ns;
    }
    else if (now - busy > progress_idle_s && now - napped > progress_gap_s) {
        /* a task that ended since the last nap may have queued a send: no nap, or a nap
         * that such an end cuts short, and the next nap the shortest */
        __atomic_store_n(&tila_node.progress_napping, 1, __ATOMIC_SEQ_CST);
        tila_futex_nap(&tila_node.ends, seen, nap);
        __atomic_store_n(&tila_node.progress_napping, 0, __ATOMIC_SEQ_CST);
        unsigned now_ends = __atomic_load_n(&tila_node.ends, __ATOMIC_SEQ_CST);
        nap = now_ends != seen                ? progress_nap_ns
              : nap * 2 < progress_max_nap_ns ? nap * 2
                                              : progress_max_nap_ns;
        seen = now_ends;
        napped = tila_clock();
    }
    return rc;
}

void tila_progress_park(void)
{
    __atomic_store_n(&tila_node.park, 1, __ATOMIC_RELEASE);
    /* a thread blocked without requests never tests again, and is as harmless */
    for (int k = 0; k < 100 && !__atomic_load_n(&tila_node.parked, __ATOMIC_ACQUIRE); k++)
        tila_nap(5000000);
}

void tila_progress_yield(void)
{
    if (tila_node.plan.progress_naps)
        tila_futex_count_and_wake(&tila_node.ends, &tila_node.progress_napping);
    if (__atomic_load_n(&tila_node.progress_batch, __ATOMIC_RELAXED)) sched_yield();
}

#else /* !TILA_STARPU_NAPS */

void tila_progress_park(void) {}
void tila_progress_thread_mark(int started) { (void)started; }
void tila_progress_yield(void) {}

#endif /* TILA_STARPU_NAPS */
