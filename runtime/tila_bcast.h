/**
 * @file bcast.h
 * @brief Internal: a tile's broadcast to the ranks whose tasks read it, down a binomial
 * tree of relay copies instead of one send from its owner to each (issue 56, item 1).
 *
 * StarPU-MPI sends a tile from its owner to every rank that runs a task reading it: a
 * panel tile of a P x Q grid leaves its owner up to P + Q - 2 times, on the owner's one
 * link, while the rest of the network idles.  Here the readers, the owner first, form a
 * binomial tree (reader i's parent is i less its highest bit: the owner sends to readers
 * 1, 2, 4, 8, ..., and each reader forwards to its own children); a reader with children
 * receives the tile from its parent into a relay (a workspace tile of its own) by one
 * message, StarPU-MPI's detached send and receive, ordered after the tile's writers and
 * before the relay's readers like a task's transfers, and no copy task; its own tasks
 * read the relay, and its children's the relay too (StarPU-MPI's sends from the relay's
 * rank).  A reader without children reads its parent's copy (the tile itself under the
 * owner).  Every rank sends the tile at most log2(readers) + 1 times, and each reader has
 * it after at most that many hops.  The tree, its relays and their messages' tags are the
 * same on every rank: each rank adds the same readers in the same order.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_BCAST_H
#define TILA_BCAST_H

#include "tila_runtime.h"

/** How a call's panel tiles reach their readers (tila_bcast_choice). */
typedef enum tila_bcast_mode_e {
    TILA_BCAST_DIRECT, /**< StarPU-MPI's sends from the owner to each reader */
    TILA_BCAST_TREE,   /**< a relay tree for every tile of at least 3 readers besides the owner */
    TILA_BCAST_AUTO    /**< on nodes with GPUs and tiles of TILA_BCAST_AUTO_BYTES or more,
                            where StarPU-MPI's sends in flight are not bounded in bytes, a
                            tree for a tile of at least TILA_BCAST_AUTO_READERS readers;
                            else direct */
} tila_bcast_mode_t;

/** AUTO: readers besides the owner from which a tile travels down a tree. */
#define TILA_BCAST_AUTO_READERS 4
/** AUTO: the smallest tile that travels down trees.  Simulated on 16 nodes of 4 H100
 * (bench/LOG.md, session 41): trees gained 3 % with 512 MB tiles (8192^2 doubles), tied at
 * 288 MB (6144^2) and lost 13 % at 128 MB (4096^2), where a relay's whole-tile hop costs
 * more than the owner's link it spares.  With the sends in flight bounded in bytes
 * (STARPU_MPI_NDETACHED_SEND_MB, set by tila_init) direct sends beat the trees at 512 MB
 * too (26.9 against 32.0 s; session 44), and AUTO takes them. */
#define TILA_BCAST_AUTO_BYTES ((size_t)256 << 20)

/** One tile's readers and what each reads. */
typedef struct tila_bcast_s {
    int count;                  /**< readers, the owner at 0 */
    int *rank;                  /**< reader i's rank */
    starpu_data_handle_t *from; /**< what reader i's tasks read; NULL: the tile itself */
} tila_bcast_t;

/**
 * TILA_BCAST (direct, tree or auto; unset: auto) as this rank reads it, auto being direct
 * where the rank has no GPU or the tiles (of tile_bytes) are smaller than
 * TILA_BCAST_AUTO_BYTES.  A value none of those: auto, said once.  Local: a caller agrees
 * on rank 0's choice (every rank must submit the same messages), in an allreduce it makes
 * anyway.
 */
tila_bcast_mode_t tila_bcast_choice(const char *func, size_t tile_bytes);

/** Room for the readers of `count` tiles, each at most every rank: b[0 .. count - 1].
 * @return 0 or TILA_ERR_NOMEM (the caller agrees on it before submitting: tila_submit_agree). */
int tila_bcast_alloc(tila_bcast_t **b, int count);
void tila_bcast_free(tila_bcast_t **b, int count);

/** Start b's list with the tile's owner. */
void tila_bcast_start(tila_bcast_t *b, int owner);

/** Rank `rank` runs a task that reads the tile: a reader, unless already. */
void tila_bcast_reader(tila_bcast_t *b, int rank);

/** The readers after the owner rotated by `shift` places, so that the relays' work (a
 * reader's place sets its children) moves from tile to tile instead of falling on the same
 * ranks. */
void tila_bcast_rotate(tila_bcast_t *b, int shift);

/** Whether b's tile goes down a tree under mode `mode`. */
int tila_bcast_tree(const tila_bcast_t *b, tila_bcast_mode_t mode);

/** Reader i's parent in the tree (i >= 1). */
static inline int tila_bcast_parent(int i)
{
    int high = 1;
    while (high * 2 <= i)
        high *= 2;
    return i - high;
}

/** Whether reader i of `count` has children in the tree (and so holds a relay). */
static inline int tila_bcast_relays(int i, int count)
{
    int high = 1;
    while (high <= i)
        high *= 2;
    return i + high < count;
}

/**
 * b's relays (tila_bcast_tree said yes): for each reader with children, a workspace tile of
 * ws on its rank (rows x cols of elements of ws's size) that receives the tile from its
 * parent; `tile` is the tile's handle on its owner (any value elsewhere).  Every rank, in
 * the same order (each relay books a tag for its handle and one for its message), before
 * the tasks that read the tile.  @return 0 or TILA_ERR_MPI (a message StarPU-MPI refused).
 */
int tila_bcast_relay(tila_bcast_t *b, starpu_data_handle_t tile, int rows, int cols,
                     tila_workspace_t *ws, int prio);

/** What a task on `rank` reads of b's tile: a relay or its parent's, or NULL for the tile
 * itself (the owner, its children, and ranks that are no reader). */
starpu_data_handle_t tila_bcast_for(const tila_bcast_t *b, int rank);

#endif /* TILA_BCAST_H */
