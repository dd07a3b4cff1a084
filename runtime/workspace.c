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
 * The tiles are chained through their handles' user data: adding one allocates nothing of
 * Tila's, so no rank can run out of memory there and take fewer tags than the others.
 * Also here: the registration of a codelet's scratch buffer, of any size.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdint.h>

#include "tila_runtime_private.h"

void tila_workspace_init(tila_workspace_t *ws, size_t eltsize)
{
    *ws = (tila_workspace_t){ .eltsize = eltsize };
}

starpu_data_handle_t tila_workspace_tile(tila_workspace_t *ws, int rank, int rows, int cols)
{
    /* Every rank registers the same data in the same order; nothing here can fail on one
     * rank only (StarPU aborts when it cannot register), so the tags agree. */
    int64_t tag = tila_tag_book(1);
    starpu_data_handle_t h;
    starpu_matrix_data_register(&h, -1, 0, (uint32_t)rows, (uint32_t)rows, (uint32_t)cols,
                                ws->eltsize);
    starpu_mpi_data_register_comm(h, tag, rank, tila_starpu_comm());
    starpu_data_set_user_data(h, ws->last);
    ws->last = h;
    ws->count++;
    return h;
}

void tila_workspace_release(tila_workspace_t *ws)
{
    for (starpu_data_handle_t h = ws->last, prev; h; h = prev) {
        prev = starpu_data_get_user_data(h);
        starpu_data_unregister_submit(h);
    }
    *ws = (tila_workspace_t){ 0 };
}

void tila_scratch_register(starpu_data_handle_t *h, size_t elems, size_t eltsize)
{
    size_t per = elems > UINT32_MAX ? (elems + UINT32_MAX - 1) / UINT32_MAX : 1;
    starpu_vector_data_register(h, -1, 0, (uint32_t)((elems + per - 1) / per), eltsize * per);
}

void tila_scratch_release(starpu_data_handle_t *h)
{
    if (*h) starpu_data_unregister_submit(*h);
    *h = NULL;
}
