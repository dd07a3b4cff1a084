/**
 * @file watch.c
 * @brief A call that can no longer finish ends in TILA_ERR_STUCK on every rank instead of a
 *        wait without end.
 *
 * A task that StarPU can never start waits for ever, and so does its sequence: StarPU 1.3
 * retries without end the allocation of a buffer larger than what it counts for the
 * node's memory (a STARPU_SCRATCH that a driver sized by the nominal tile: issue 58's
 * tall-skinny QR, on a VM whose NUMA node showed 5 of its 24 GB), and a message that
 * never comes leaves its receiver's tasks blocked.  Nothing fails: every worker idles, the
 * waiting thread sleeps.  While a rank waits for a sequence (tila_sequence_wait, before
 * its tasks are done and then in the agreement on the status), it watches for that:
 *
 * - a rank is still when, between two looks 50 ms apart, no task of Tila's started or
 *   ended on it, none is running (started and not ended: a long kernel is not still, nor
 *   is a GPU task in flight), and StarPU-MPI completed no request; a gap of more than a
 *   second between two looks (the process stopped or starved) starts the time over;
 * - a rank that has been still for TILA_STUCK_TIMEOUT seconds (60 by default; 0: never)
 *   in the same wait tells rank 0; once rank 0 has been still that long too and has heard
 *   it from every rank, it asks each whether it has stayed still since, and when every
 *   one says so (and rank 0 has), the call cannot finish: rank 0 says so to all.
 *
 * Every rank was then still, with no task running, over the same TILA_STUCK_TIMEOUT
 * seconds (each had been for that long when it told rank 0, before rank 0 asked, and
 * still was when it answered): nothing that could make any task ready happened on any
 * rank, and with the programs of every rank waiting in the same call, nothing will.  A
 * slow run has a task running or starting somewhere, or a message completing, well
 * within a minute; a rank that is not yet in the wait (still submitting, or in its own
 * work between asynchronous calls) never says it is still, so no verdict is reached.
 * The messages go point to point on Tila's communicator with a tag of their own (no
 * collective: ranks reach their waits at different times), each naming the wait (every
 * rank counts its waits, which are collective, in the same order).
 *
 * After the verdict each rank fails the sequence with TILA_ERR_STUCK, leaves its tasks
 * (they stay in StarPU: their sequence is never freed) and goes to the agreement, which
 * then ends with TILA_ERR_STUCK on every rank.  Tila's state is not whole after that:
 * later calls, and tila_finalize (which leaves StarPU running, so that the process can
 * exit), return TILA_ERR_STUCK.
 *
 * TILA_TEST_STUCK=RANK:K[:fetch|deps], for the tests: on rank RANK the K-th wait adds to
 * its sequence a task that never starts, its scratch larger than StarPU counts for the
 * node (fetch: the mechanism of issue 58's hang) or its tag never released (deps).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tila_runtime_private.h"

/* Between two looks, the most time between two that keeps a rank's stillness, and the
 * point-to-point tag of the watch's messages (below MPI's least MPI_TAG_UB, 32767). */
static const double watch_step_s = 0.05, watch_gap_s = 1.0;
enum { WATCH_TAG = 32000 };

/* What a message says: a rank has been still (to rank 0); are you still (to each rank);
 * yes / no (to rank 0); the call cannot finish (to each rank). */
enum { WATCH_STILL = 1, WATCH_ASK, WATCH_YES, WATCH_NO, WATCH_STUCK };

/* Tasks of Tila's started, ended, and messages completed so far; tasks running now. */
static unsigned long events;
static long running;
/* Waits so far: the n-th is the same call on every rank. */
static long waits;
/* A call could not finish (on this rank or another), and the tasks it left here. */
static int stuck;
static long abandoned;

/* Rank 0: the wait of each rank's last report of stillness (-1: none, or withdrawn). */
static long *still_of;
static int still_size;

/* Messages on their way: each send's buffer lives until MPI_Test says it went. */
enum { WATCH_SENDS = 64 };
static struct {
    MPI_Request req;
    int64_t msg[3];
} sends[WATCH_SENDS];
static int sends_ready;

void tila_watch_task_started(void)
{
    __atomic_add_fetch(&events, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&running, 1, __ATOMIC_RELAXED);
}

void tila_watch_task_ended(void)
{
    __atomic_add_fetch(&events, 1, __ATOMIC_RELAXED);
    /* a task that ran ends in its callback, where StarPU names it; one that StarPU refused
     * (tila_task_submitted) never started */
    if (starpu_task_get_current()) __atomic_sub_fetch(&running, 1, __ATOMIC_RELAXED);
}

void tila_watch_message(void) { __atomic_add_fetch(&events, 1, __ATOMIC_RELAXED); }

int tila_watch_stuck(void) { return __atomic_load_n(&stuck, __ATOMIC_ACQUIRE); }

void tila_watch_abandon(long tasks)
{
    __atomic_add_fetch(&abandoned, tasks, __ATOMIC_RELAXED);
    __atomic_store_n(&stuck, 1, __ATOMIC_RELEASE);
}

static void send(int to, int64_t what, int64_t wait, int64_t arg)
{
    if (!sends_ready) {
        for (int k = 0; k < WATCH_SENDS; k++)
            sends[k].req = MPI_REQUEST_NULL;
        sends_ready = 1;
    }
    for (int k = 0; k < WATCH_SENDS; k++) {
        int done = 1;
        if (sends[k].req != MPI_REQUEST_NULL) MPI_Test(&sends[k].req, &done, MPI_STATUS_IGNORE);
        if (!done) continue;
        sends[k].msg[0] = what;
        sends[k].msg[1] = wait;
        sends[k].msg[2] = arg;
        MPI_Isend(sends[k].msg, 3, MPI_INT64_T, to, WATCH_TAG, tila_rt.comm, &sends[k].req);
        return;
    }
    /* every buffer still on its way (never seen): this message is dropped, and the
     * protocol only waits longer (a report is sent again, a question asked again) */
}

static int watch_limit(double *seconds)
{
    const char *v = getenv("TILA_STUCK_TIMEOUT");
    *seconds = v && *v ? atof(v) : 60.0;
    return *seconds > 0;
}

/* ---- The test hook: a task that never starts -------------------------------------- */

static void never_cpu(void *buffers[], void *cl_arg)
{
    (void)buffers;
    (void)cl_arg;
}

static struct starpu_codelet never_scratch = {
    .name = "tila_test_stuck",
    .cpu_funcs = { never_cpu },
    .nbuffers = 1,
    .modes = { STARPU_SCRATCH },
};
static struct starpu_codelet never_tag = {
    .name = "tila_test_stuck",
    .cpu_funcs = { never_cpu },
    .nbuffers = 0,
};

static void test_hook(tila_sequence_t *seq, long wait)
{
    const char *v = getenv("TILA_TEST_STUCK");
    char kind[8] = "fetch";
    int rank = -1;
    long k = 0;
    if (!v || sscanf(v, "%d:%ld:%7s", &rank, &k, kind) < 2) return;
    if (rank != tila_rt.rank || k != wait) return;
    struct starpu_task *task = starpu_task_create();
    starpu_ssize_t total = starpu_memory_get_total(STARPU_MAIN_RAM);
    if (!strcmp(kind, "fetch") && total > 0) {
        /* a scratch 1 MiB larger than StarPU counts for the node: never allocated */
        starpu_data_handle_t h;
        starpu_vector_data_register(&h, -1, 0, (uint32_t)(total / 4096 + 256), 4096);
        task->cl = &never_scratch;
        task->handles[0] = h;
    }
    else {
        /* a tag that waits for another that is never released */
        static const starpu_tag_t mine = 0x71a5000000000001ULL, never = 0x71a5000000000002ULL;
        task->cl = &never_tag;
        task->use_tag = 1;
        task->tag_id = mine;
        starpu_tag_declare_deps(mine, 1, never);
    }
    task->callback_func = tila_task_done;
    task->callback_arg = seq;
    tila_sequence_task_added(seq);
    if (starpu_task_submit(task)) tila_task_done(seq);
}

/* ---- The watch ------------------------------------------------------------------------ */

void tila_watch_begin(tila_watch_t *w, tila_sequence_t *seq)
{
    memset(w, 0, sizeof *w);
    w->wait = __atomic_add_fetch(&waits, 1, __ATOMIC_RELAXED);
    test_hook(seq, w->wait);
    w->on = watch_limit(&w->limit);
    if (!w->on) return;
    if (tila_rt.rank == 0 && tila_rt.size > 1 && still_size != tila_rt.size) {
        long *s = realloc(still_of, sizeof *s * (size_t)tila_rt.size);
        if (!s) {
            w->on = 0; /* no watch rather than a wrong one */
            return;
        }
        still_of = s;
        still_size = tila_rt.size;
        for (int r = 0; r < still_size; r++)
            still_of[r] = -1;
    }
    w->since = w->sampled = tila_clock();
    w->events = __atomic_load_n(&events, __ATOMIC_RELAXED);
}

/* Rank 0: every other rank has said that it is still in this wait. */
static int all_still(const tila_watch_t *w)
{
    for (int r = 1; r < tila_rt.size; r++)
        if (still_of[r] != w->wait) return 0;
    return 1;
}

static void receive(tila_watch_t *w)
{
    for (;;) {
        int flag = 0;
        MPI_Status st;
        int64_t m[3];
        if (MPI_Iprobe(MPI_ANY_SOURCE, WATCH_TAG, tila_rt.comm, &flag, &st) != MPI_SUCCESS || !flag)
            return;
        MPI_Recv(m, 3, MPI_INT64_T, st.MPI_SOURCE, WATCH_TAG, tila_rt.comm, MPI_STATUS_IGNORE);
        int from = st.MPI_SOURCE;
        switch (m[0]) {
        case WATCH_STILL:
            if (tila_rt.rank == 0 && from < still_size) still_of[from] = m[1];
            break;
        case WATCH_ASK: /* still since the report, in this very wait */
            send(0, m[1] == w->wait && w->reported ? WATCH_YES : WATCH_NO, m[1], m[2]);
            break;
        case WATCH_YES:
            if (m[1] == w->wait && m[2] == w->round) w->yes++;
            break;
        case WATCH_NO:
            if (from < still_size && m[1] == still_of[from]) still_of[from] = -1;
            if (m[1] == w->wait && m[2] == w->round) w->round = 0;
            break;
        case WATCH_STUCK:
            if (m[1] == w->wait) w->verdict = 1;
            break;
        }
    }
}

int tila_watch_poll(tila_watch_t *w)
{
    if (!w->on || w->verdict) return w->verdict;
    double now = tila_clock();
    if (now < w->next) return 0;
    w->next = now + watch_step_s;
    unsigned long ev = __atomic_load_n(&events, __ATOMIC_RELAXED);
    if (ev != w->events || __atomic_load_n(&running, __ATOMIC_RELAXED) > 0 ||
        now - w->sampled > watch_gap_s) {
        w->since = now;
        w->events = ev;
        w->reported = 0;
        w->round = 0; /* rank 0: a question asked before this is void */
    }
    w->sampled = now;
    if (tila_rt.size > 1) receive(w);
    int quiet = now - w->since >= w->limit;
    if (tila_rt.size == 1 || w->verdict) {
        w->verdict |= quiet;
        return w->verdict;
    }
    if (tila_rt.rank != 0) {
        /* said once a still period */
        if (quiet && !w->reported) {
            send(0, WATCH_STILL, w->wait, 0);
            w->reported = 1;
        }
        return 0;
    }
    if (quiet && !w->round && all_still(w)) {
        w->round = ++w->rounds;
        w->yes = 0;
        for (int r = 1; r < tila_rt.size; r++)
            send(r, WATCH_ASK, w->wait, w->round);
    }
    else if (quiet && w->round && w->yes == tila_rt.size - 1) {
        w->verdict = 1;
        for (int r = 1; r < tila_rt.size; r++)
            send(r, WATCH_STUCK, w->wait, 0);
    }
    return w->verdict;
}

void tila_watch_poll_cb(void *w) { tila_watch_poll(w); }
