/**
 * @file trace.c
 * @brief TILA_TRACE=FILE: a line for every task this rank ran, from StarPU's profiling (when
 * it was submitted, pushed, popped, waited for its data, ran, on which worker, the bytes of its
 * data and the tiles it named), the marks a program sets (tila_trace_mark), and what crossed
 * each bus between two marks.  bench/tila-trace reads the files and reports.
 *
 * Recording: with the variable set, tila_init turns StarPU's task profiling on and every task
 * gets a pop prologue (tila_rt.trace_pop, run by the worker that popped it, while the task
 * still holds its data) that notes its data, and the task's callback (tila_task_done) adds
 * the times; records wait in memory and are written at each mark and at tila_finalize, so a
 * program that hangs has its trace up to its last mark.  One file on one rank, FILE.RANK on
 * several.  Times are microseconds since tila_init, on StarPU's clock.
 *
 * Format (one record a line, comma-separated; a task's tiles as TAG:MODE separated by
 * spaces, TAG the tile's MPI tag, unique among Tila's data, MODE r, w or rw; tasks in the
 * order they ended; StarPU numbers tasks only in its FxT builds, so submission order is
 * SUBMIT's):
 *   # tila-trace 1 rank=R size=S
 *   worker,ID,NAME
 *   task,NAME,WORKER,SUBMIT,PUSHED,POPPED,FETCH_START,FETCH_END,START,END,BYTES,TILES
 *   mark,TIME,LABEL
 *   bus,TIME,SRC,DST,BYTES,TRANSFERS,SECONDS          (since the previous mark)
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tila_runtime_private.h"

typedef struct tila_trace_task_s {
    struct tila_trace_task_s *next;
    char name[40];
    int worker;
    unsigned nbuf;
    uint64_t bytes;
    /* submitted, pushed, popped, data fetch start and end, start, end (us) */
    double t[7];
    int64_t *tags;
    enum starpu_data_access_mode *modes;
} tila_trace_task_t;

static struct {
    FILE *file;
    starpu_pthread_mutex_t lock;
    tila_trace_task_t *done, **tail; /* finished tasks not yet written */
} trace;

static double us(const struct timespec *ts)
{
    return starpu_timing_timespec_to_us((struct timespec *)ts);
}

/* The pop prologue: the task's data, while it holds it (its callback may run after a
 * handle it used was unregistered and freed).  The record rides in the prologue's own
 * argument, which StarPU does not free (STARPU_PROLOGUE_CALLBACK_POP without an argument). */
static void tila_trace_popped(void *arg)
{
    (void)arg;
    struct starpu_task *task = starpu_task_get_current();
    if (!task || task->prologue_callback_pop_arg) return; /* popped again: keep the first */
    unsigned n = task->cl ? STARPU_TASK_GET_NBUFFERS(task) : 0;
    tila_trace_task_t *r = calloc(1, sizeof *r + n * (sizeof *r->tags + sizeof *r->modes));
    if (!r) return;
    r->nbuf = n;
    r->tags = (int64_t *)(r + 1);
    r->modes = (enum starpu_data_access_mode *)(r->tags + n);
    for (unsigned i = 0; i < n; i++) {
        starpu_data_handle_t h = STARPU_TASK_GET_HANDLE(task, i);
        r->modes[i] = STARPU_TASK_GET_MODE(task, i);
        r->bytes += starpu_data_get_size(h);
        /* A scratch buffer is a worker's own, never registered with StarPU-MPI (whose
         * starpu_mpi_data_get_tag asserts on it): its address names it. */
        int64_t tag = r->modes[i] & STARPU_SCRATCH ? -1 : starpu_mpi_data_get_tag(h);
        r->tags[i] = tag >= 0 ? tag : -(int64_t)(uintptr_t)h;
    }
    task->prologue_callback_pop_arg = r;
}

void tila_trace_task_done(void)
{
    struct starpu_task *task = starpu_task_get_current();
    if (!trace.file || !task) return;
    tila_trace_task_t *r = task->prologue_callback_pop_arg;
    task->prologue_callback_pop_arg = NULL;
    const struct starpu_profiling_task_info *p = task->profiling_info;
    if (!r) return; /* StarPU ran no pop (a task without a codelet) or memory ran out */
    snprintf(r->name, sizeof r->name, "%s",
             starpu_task_get_name(task) ? starpu_task_get_name(task) : "?");
    r->worker = p ? p->workerid : starpu_worker_get_id();
    if (p) {
        const struct timespec *ts[7] = { &p->submit_time,
                                         &p->push_end_time,
                                         &p->pop_end_time,
                                         &p->acquire_data_start_time,
                                         &p->acquire_data_end_time,
                                         &p->start_time,
                                         &p->end_time };
        for (int i = 0; i < 7; i++)
            r->t[i] = us(ts[i]);
    }
    starpu_pthread_mutex_lock(&trace.lock);
    *trace.tail = r;
    trace.tail = &r->next;
    starpu_pthread_mutex_unlock(&trace.lock);
}

static const char *mode_text(enum starpu_data_access_mode m)
{
    m &= STARPU_RW;
    return m == STARPU_RW ? "rw" : m == STARPU_W ? "w" : "r";
}

/* Write and free the finished tasks; the caller holds the lock. */
static void tila_trace_flush_tasks(void)
{
    tila_trace_task_t *r = trace.done;
    trace.done = NULL;
    trace.tail = &trace.done;
    while (r) {
        tila_trace_task_t *next = r->next;
        fprintf(trace.file, "task,%s,%d", r->name, r->worker);
        for (int i = 0; i < 7; i++)
            fprintf(trace.file, ",%.3f", r->t[i]);
        fprintf(trace.file, ",%llu,", (unsigned long long)r->bytes);
        for (unsigned i = 0; i < r->nbuf; i++)
            fprintf(trace.file, "%s%lld:%s", i ? " " : "", (long long)r->tags[i],
                    mode_text(r->modes[i]));
        fputc('\n', trace.file);
        free(r);
        r = next;
    }
}

/* What crossed each bus since the last reading, which resets StarPU's counters: written
 * when `write`. */
static void tila_trace_buses(double now, int write)
{
    for (int b = 0; b < starpu_bus_get_count(); b++) {
        struct starpu_profiling_bus_info info;
        char src[32], dst[32];
        if (starpu_bus_get_profiling_info(b, &info) || !write || info.transfer_count == 0) continue;
        starpu_memory_node_get_name((unsigned)starpu_bus_get_src(b), src, sizeof src);
        starpu_memory_node_get_name((unsigned)starpu_bus_get_dst(b), dst, sizeof dst);
        fprintf(trace.file, "bus,%.3f,%s,%s,%lld,%d,%.6f\n", now, src, dst, info.transferred_bytes,
                info.transfer_count, 1e-6 * starpu_timing_timespec_to_us(&info.total_time));
    }
}

int tila_trace_start(void)
{
    const char *path = getenv("TILA_TRACE");
    if (!path || !*path) return TILA_SUCCESS;
    char name[4096];
    if (tila_rt.size > 1)
        snprintf(name, sizeof name, "%s.%d", path, tila_rt.rank);
    else
        snprintf(name, sizeof name, "%s", path);
    trace.file = fopen(name, "w");
    if (!trace.file) {
        tila_error("tila_init", "TILA_TRACE: cannot write %s: no trace", name);
        return TILA_SUCCESS; /* a trace is a diagnostic: Tila runs without it */
    }
    starpu_pthread_mutex_init(&trace.lock, NULL);
    trace.done = NULL;
    trace.tail = &trace.done;
    fprintf(trace.file, "# tila-trace 1 rank=%d size=%d\n", tila_rt.rank, tila_rt.size);
    for (unsigned w = 0; w < starpu_worker_get_count(); w++) {
        char wname[64];
        starpu_worker_get_name((int)w, wname, sizeof wname);
        for (char *c = wname; *c; c++)
            if (*c == ',') *c = ' ';
        fprintf(trace.file, "worker,%u,%s\n", w, wname);
    }
    starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
    tila_trace_buses(0, 0); /* from now on */
    tila_rt.trace_pop = tila_trace_popped;
    return TILA_SUCCESS;
}

void tila_trace_mark(const char *label)
{
    if (!tila_rt.initialized || !trace.file) return;
    double now = starpu_timing_now();
    starpu_pthread_mutex_lock(&trace.lock);
    tila_trace_flush_tasks();
    tila_trace_buses(now, 1);
    fprintf(trace.file, "mark,%.3f,", now);
    for (const char *c = label ? label : ""; *c; c++)
        fputc(*c == ',' || *c == '\n' ? ' ' : *c, trace.file);
    fputc('\n', trace.file);
    fflush(trace.file);
    starpu_pthread_mutex_unlock(&trace.lock);
}

void tila_trace_stop(void)
{
    if (!trace.file) return;
    tila_trace_mark("tila_finalize");
    tila_rt.trace_pop = NULL;
    fclose(trace.file);
    trace.file = NULL;
    starpu_pthread_mutex_destroy(&trace.lock);
}
