/**
 * @file workspace.c
 * @brief Workspaces of asynchronous routines: tiles that live as long as
 * the tasks using them, registered with StarPU-MPI and released without waiting.
 *
 * Each tile is registered with home node -1 on every rank, owned by the rank whose
 * task writes it: StarPU allocates it where that task runs, StarPU-MPI moves it to the
 * tasks of other ranks that read it.  tila_workspace_release submits the
 * unregistration of every tile at once: StarPU frees each after the last task and
 * transfer using it, so nothing waits and nothing is left after the sequence's wait.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>

#include "tila_runtime_private.h"

void tila_workspace_init(tila_workspace_t *ws, size_t eltsize)
{
    *ws = (tila_workspace_t){ .eltsize = eltsize };
}

/* Keep h (registered with home node -1) as written first on `rank`; NULL on failure. */
static starpu_data_handle_t workspace_add(tila_workspace_t *ws, starpu_data_handle_t h, int rank)
{
    /* Every rank registers the same data in the same order, and takes the tag before
     * anything that may fail on one rank only: the tags agree. */
    int64_t tag = tila_rt.next_tag++;
    if (ws->count == ws->cap) {
        size_t cap = ws->cap ? 2 * ws->cap : 64;
        starpu_data_handle_t *hs = realloc(ws->handles, cap * sizeof *hs);
        if (!hs) {
            starpu_data_unregister_submit(h);
            return NULL;
        }
        ws->handles = hs;
        ws->cap = cap;
    }
    starpu_mpi_data_register_comm(h, tag, rank, tila_starpu_comm());
    ws->handles[ws->count++] = h;
    return h;
}

starpu_data_handle_t tila_workspace_tile(tila_workspace_t *ws, int rank, int rows, int cols)
{
    starpu_data_handle_t h;
    starpu_matrix_data_register(&h, -1, 0, (uint32_t)rows, (uint32_t)rows, (uint32_t)cols,
                                ws->eltsize);
    return workspace_add(ws, h, rank);
}

void tila_workspace_release(tila_workspace_t *ws)
{
    for (size_t k = 0; k < ws->count; k++)
        starpu_data_unregister_submit(ws->handles[k]);
    free(ws->handles);
    *ws = (tila_workspace_t){ 0 };
}
