/**
 * @file tila_rt_workspace.h
 * @brief Internal: workspaces, scratch buffers, and allocations through the test hook (runtime/workspace.c, runtime/desc.c).
 * A part of the runtime's header: include tila_runtime.h, which includes the parts in order.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_RT_WORKSPACE_H
#define TILA_RT_WORKSPACE_H

#include "tila_runtime.h"

/**
 * Tiles of partial results of one asynchronous call (see workspace.c): registered
 * as they are needed, released with tila_workspace_release once the call's tasks are
 * submitted; StarPU frees each tile after its last use.  The tiles are chained through
 * their handles (StarPU's user data), so that adding one allocates nothing of Tila's and
 * cannot fail on one rank only.
 */
typedef struct tila_workspace_s {
    starpu_data_handle_t last; /**< the tile added last; each one's user data: the one before */
    size_t count;
    size_t eltsize;
} tila_workspace_t;

void tila_workspace_init(tila_workspace_t *ws, size_t eltsize);
/** A rows x cols tile (leading dimension rows), written first by a task on `rank`; never NULL. */
starpu_data_handle_t tila_workspace_tile(tila_workspace_t *ws, int rank, int rows, int cols);
void tila_workspace_release(tila_workspace_t *ws);

/**
 * Register a codelet's scratch (STARPU_SCRATCH) of `elems` elements of `eltsize` bytes, of
 * any size: StarPU 1.3 counts a vector's elements in 32 bits, so a larger scratch is
 * registered with elements of a multiple of eltsize (the codelets take its address alone).
 */
void tila_scratch_register(starpu_data_handle_t *h, size_t elems, size_t eltsize);

/** Release a scratch of tila_scratch_register once the tasks that use it are submitted:
 * StarPU frees it after the last of them, nothing waits.  A NULL *h is none; *h is NULL
 * after. */
void tila_scratch_release(starpu_data_handle_t *h);

/**
 * What a rank allocates for a call: a task's arguments, a descriptor (its layout and
 * storage), a driver's own arrays before it submits (TILA_ALLOC_WORK).
 */
typedef enum tila_alloc_kind_e {
    TILA_ALLOC_ARGS,
    TILA_ALLOC_DESC,
    TILA_ALLOC_WORK
} tila_alloc_kind_t;

/**
 * malloc and calloc through the test hook of TILA_TEST_ALLOC_FAIL=RANK:K[+][:KIND]
 * (KIND args, desc or work; any when absent): on rank RANK, the K-th of these allocations
 * (of that kind) since the hook was armed returns NULL, and with `+` every one after it too.
 * The hook is armed, or disarmed when the variable is unset, at each descriptor creation
 * (a collective point: every rank counts from the same place of the program).
 */
void *tila_malloc(tila_alloc_kind_t kind, size_t bytes);
void *tila_calloc(tila_alloc_kind_t kind, size_t count, size_t size);
/** 1 when the hook fails this allocation (for allocations of another allocator's). */
int tila_alloc_fails(tila_alloc_kind_t kind);
/** Read TILA_TEST_ALLOC_FAIL again and count from zero (tila_desc_create and its kin). */
void tila_alloc_hook_arm(void);

/**
 * A driver's own allocations before it submits anything are rank-local: agree on them
 * before the first task, so that a rank short of memory fails the call on every rank
 * instead of leaving the others waiting for its messages.  Collective (nothing on one
 * rank).  @return the most negative rc of all ranks (0 when none failed).
 */
int tila_submit_agree(int rc);

#endif /* TILA_RT_WORKSPACE_H */
