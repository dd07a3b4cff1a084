/**
 * @file bcast.c
 * @brief A tile's broadcast to its readers down a binomial tree of relays (bcast.h).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "tila_bcast.h"

static tila_bcast_mode_t bcast_env(const char *func)
{
    const char *v = getenv("TILA_BCAST");
    if (!v || !*v || !strcmp(v, "auto")) return TILA_BCAST_AUTO;
    if (!strcmp(v, "direct")) return TILA_BCAST_DIRECT;
    if (!strcmp(v, "tree")) return TILA_BCAST_TREE;
    static int said;
    if (!said++) tila_error(func, "TILA_BCAST=%s is none of direct, tree and auto: auto taken", v);
    return TILA_BCAST_AUTO;
}

/* The bytes a rank's sends in flight are bounded (STARPU_MPI_NDETACHED_SEND_MB, a
 * variable of the StarPU that tools/ builds, which tila_init sets unless the user did; 0:
 * no bound), read as that StarPU reads it. */
static int bcast_sends_bounded(void)
{
    return starpu_get_env_number_default("STARPU_MPI_NDETACHED_SEND_MB", 0) > 0;
}

/* auto: trees where the node has GPUs, the tiles are large and the sends in flight are
 * not bounded in bytes (measured in simulation: bench/LOG.md), else StarPU-MPI's own
 * sends. */
tila_bcast_mode_t tila_bcast_choice(const char *func, size_t tile_bytes)
{
    tila_bcast_mode_t mode = bcast_env(func);
    if (mode == TILA_BCAST_AUTO &&
        (tila_cuda_ndevices() == 0 || tile_bytes < TILA_BCAST_AUTO_BYTES || bcast_sends_bounded()))
        return TILA_BCAST_DIRECT;
    return mode;
}

int tila_bcast_alloc(tila_bcast_t **b, int count)
{
    size_t ranks = (size_t)tila_comm_size();
    *b = tila_calloc(TILA_ALLOC_WORK, count > 0 ? (size_t)count : 1, sizeof **b);
    int rc = *b ? 0 : TILA_ERR_NOMEM;
    for (int i = 0; i < count && !rc; i++) {
        tila_bcast_t *x = &(*b)[i];
        x->rank = tila_malloc(TILA_ALLOC_WORK, ranks * sizeof *x->rank);
        x->from = tila_malloc(TILA_ALLOC_WORK, ranks * sizeof *x->from);
        if (!x->rank || !x->from) rc = TILA_ERR_NOMEM;
    }
    return rc;
}

void tila_bcast_free(tila_bcast_t **b, int count)
{
    for (int i = 0; *b && i < count; i++) {
        free((*b)[i].rank);
        free((*b)[i].from);
    }
    free(*b);
    *b = NULL;
}

void tila_bcast_start(tila_bcast_t *b, int owner)
{
    b->count = 1;
    b->rank[0] = owner;
    b->from[0] = NULL;
}

void tila_bcast_reader(tila_bcast_t *b, int rank)
{
    for (int i = 0; i < b->count; i++)
        if (b->rank[i] == rank) return;
    b->rank[b->count] = rank;
    b->from[b->count] = NULL;
    b->count++;
}

static void reverse(int *x, int n)
{
    for (int i = 0, j = n - 1; i < j; i++, j--) {
        int t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
}

void tila_bcast_rotate(tila_bcast_t *b, int shift)
{
    int r = b->count - 1, *x = b->rank + 1;
    if (r < 2 || (shift %= r) == 0) return;
    /* x rotated left by shift places: three reversals */
    reverse(x, shift);
    reverse(x + shift, r - shift);
    reverse(x, r);
}

int tila_bcast_tree(const tila_bcast_t *b, tila_bcast_mode_t mode)
{
    int readers = b->count - 1;
    return mode == TILA_BCAST_TREE ? readers >= 3
           : mode == TILA_BCAST_AUTO ? readers >= TILA_BCAST_AUTO_READERS
                                     : 0;
}

int tila_bcast_relay(tila_bcast_t *b, starpu_data_handle_t tile, int rows, int cols,
                     tila_workspace_t *ws, int prio)
{
    int me = tila_comm_rank(), rc = 0;
    for (int i = 1; i < b->count; i++) {
        int parent = tila_bcast_parent(i);
        starpu_data_handle_t from = b->from[parent];
        if (!tila_bcast_relays(i, b->count)) {
            b->from[i] = from;
            continue;
        }
        b->from[i] = tila_workspace_tile(ws, b->rank[i], rows, cols);
        int64_t tag = tila_tag_book(1);
        if (me == b->rank[parent])
            rc |= starpu_mpi_isend_detached_prio(from ? from : tile, b->rank[i], tag, prio,
                                                 tila_starpu_comm(), NULL, NULL);
        else if (me == b->rank[i])
            rc |= starpu_mpi_irecv_detached(b->from[i], b->rank[parent], tag, tila_starpu_comm(),
                                            NULL, NULL);
    }
    return rc ? TILA_ERR_MPI : 0;
}

starpu_data_handle_t tila_bcast_for(const tila_bcast_t *b, int rank)
{
    for (int i = 1; i < b->count; i++)
        if (b->rank[i] == rank) return b->from[i];
    return NULL;
}
