/**
 * @file tila_runtime.h
 * @brief Internal: the precision-free runtime beneath drivers and codelets.  Here: the
 * process state, the tag book, Tila's allreduce; and, by concern, its parts (include this
 * header, which includes them in order): tila_rt_desc.h (descriptor layout and tiles),
 * tila_rt_check.h (errors, argument checks, tila_call_begin), tila_rt_sequence.h (wait
 * hooks, continuations, child sequences, synchronous calls), tila_rt_workspace.h
 * (workspaces, scratch, allocations), tila_rt_task.h (task placement and accounting),
 * tila_rt_cuda.h (the CUDA workers' resources).  The partials service has its own header,
 * tila_partials.h.
 * What only the runtime itself uses (the node's set-up, naps, the progress worker, the
 * environment's registry: runtime/node/node.h) is in runtime/private/tila_runtime_private.h,
 * on the include path of the runtime's own sources alone: the build refuses a driver or
 * codelet that reaches for it.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_RUNTIME_H
#define TILA_RUNTIME_H

#include "tila_config.h"

#include <pthread.h>
#include <stdint.h>
#include <starpu.h>
#include <starpu_mpi.h>

#include "tila.h"

#define TILA_MAX_CUDA_DEVICES 64

/*
 * StarPU-MPI matches a message by (source, tag): a tag must name the same data on every
 * rank.  Tila's own data take fixed tags, whether or not this rank uses them (the progress
 * worker is on only where a node's ranks outnumber its CPUs, or off by a rank's own
 * environment); descriptors, workspaces and calls' partials book the next ones
 * (tila_tag_book), in the same order on every rank (they are created collectively).
 */
enum {
    TILA_TAG_PROGRESS = 0, /**< the progress worker's receive from the rank to itself */
    TILA_TAG_ABSENT = 1,   /**< tila_rt.absent */
    TILA_TAG_FIRST = 2     /**< the first tag of the data created after tila_init */
};

/**
 * The tag book (runtime/tags.c): `count` consecutive tags for the data of one creation (a
 * descriptor's tiles, a workspace tile, a call's partials), the first returned.
 * Collective: every rank books the same counts in the same order, before anything that
 * can fail on one rank only, so that the tags of the next data agree whatever becomes of
 * this one.
 */
int64_t tila_tag_book(int64_t count);
/** The first tag the next booking gets (what a collective agreement compares). */
int64_t tila_tag_next(void);
/** After an agreement (the largest next tag of all ranks): a rank behind catches up. */
void tila_tag_agree(int64_t next);

/** Process-wide state between tila_init and tila_finalize. */
typedef struct tila_runtime_s {
    int initialized;
    int started_mpi;    /**< tila_init called MPI_Init_thread */
    int started_starpu; /**< tila_init called starpu_init */
    int rank, size;
    MPI_Comm comm;                         /**< Tila's own collectives (a duplicate of the world) */
    int comm_started;                      /**< comm is a duplicate to free */
    MPI_Comm starpu_comm;                  /**< StarPU-MPI's (another duplicate; the world in simulation) */
    int64_t next_tag;                      /**< the tag book's next tag (runtime/tags.c alone) */
    int ncuda;                             /**< CUDA devices with a worker here */
    int cuda_devid[TILA_MAX_CUDA_DEVICES]; /**< device number of each */
    unsigned nwords;          /**< 32-bit words of a worker bitmap (StarPU's task->workerids) */
    uint32_t *device_workers; /**< per device, a bitmap: CPU workers + that device's CUDA ones */
    uint32_t *cpu_workers;    /**< the CPU workers (TILA_DEVICE_CPU tiles), when a GPU has one */
    /** Stands for the tiles of a task this rank takes no part in (tila_task_tile); NULL
     * on one rank. */
    starpu_data_handle_t absent;
    /** Bitmaps of the workers that run the tasks under TILA_SHORT_TASK_FLOPS (the CPU
     * worker StarPU-MPI's progress thread runs, node/progress_worker.c) and the others; NULL:
     * any worker runs any task. */
    uint32_t *short_workers, *long_workers;
    /** On a node with GPUs and CPU workers: per device, then for any device, the bitmap of
     * the CUDA workers alone (ncuda + 1 of them), which run the tasks of more than
     * cpu_task_flops flops on tiles a GPU may hold (init.c); NULL: no such restriction. */
    uint32_t *gpu_workers;
    double cpu_task_flops;
    int paused; /**< tila_pause: StarPU's workers wait for tila_resume */
    /** TILA_TRACE: every task's pop prologue (runtime/trace.c), else NULL. */
    void (*trace_pop)(void *);
} tila_runtime_t;

extern tila_runtime_t tila_rt;

#include "tila_rt_desc.h"

/**
 * MPI_Allreduce in place on Tila's communicator, waiting without holding a core that a
 * StarPU worker needs (runtime/comm.c); under simulation, through StarPU-MPI transfers
 * (runtime/comm_sim.c: the types and operations Tila uses).  Collective.
 * @return 0 or TILA_ERR_MPI.
 */
int tila_allreduce(void *buf, int count, MPI_Datatype type, MPI_Op op);

#include "tila_rt_check.h"

#include "tila_rt_sequence.h"

#include "tila_rt_workspace.h"

#include "tila_rt_task.h"

#include "tila_rt_cuda.h"

#endif /* TILA_RUNTIME_H */
