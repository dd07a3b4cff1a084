/**
 * @file lan_reduce.h
 * @brief Internal: the norms' reduction of tile partial results across ranks, at the
 * sequence's wait (see lan_reduce.c).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_LAN_REDUCE_H
#define TILA_LAN_REDUCE_H

#include "tila_partials.h"

typedef struct tila_lan_s tila_lan_t;

/**
 * A reduction for one norm of a matrix of mt x nt tiles into *value.  `len` sums for the
 * one and infinity norms (the matrix's columns or rows), of which the first `nones` start
 * at one (a unit diagonal); len = 1 for max and Frobenius.  The partials and *value are
 * reals of `realsize` bytes (float or double), the reduction is computed in double.
 * It reserves its keys in seq's wait first (tila_sequence_keys), so call it before
 * anything that can fail.  Collective.  NULL when out of memory.
 */
tila_lan_t *tila_lan_create(tila_sequence_t *seq, tila_norm_t norm, int len, int nones, int mt,
                            int nt, size_t realsize, void *value);

/**
 * The next partial result, `count` reals written by a tile task on `rank`: the tile's sums
 * of entries first .. first + count - 1 (one, infinity), its max (count 1) or its
 * Frobenius pair (count 2, first 0).  Called on every rank for every partial, in the same
 * order; *h is the partial's handle (tila_partials_add), on `rank`, NULL elsewhere.
 * @return 0 or TILA_ERR_NOMEM.
 */
int tila_lan_part(tila_lan_t *l, int rank, int first, int count, starpu_data_handle_t *h);

/**
 * `nseg` partials of tiles that one task on `rank` reads, in one vector (tila_partials_add_run):
 * segment s is the partial tila_lan_part(l, rank, firsts[s], counts[s], ...) would make.
 * The other ranks may call tila_lan_part for each segment instead (a rank batches its own
 * tiles alone): every rank learns the same of which ranks hold which sums' partials.
 * @return 0 or TILA_ERR_NOMEM.
 */
int tila_lan_part_run(tila_lan_t *l, int rank, int nseg, const int *firsts, const int *counts,
                      starpu_data_handle_t *h);

/**
 * Every partial is submitted (rc: how the submission went): the reduction runs at the
 * wait of seq, which then owns l; on a failure the sequence fails and the wait only
 * releases.
 */
void tila_lan_submitted(tila_lan_t *l, tila_sequence_t *seq, tila_request_t *req, int rc);

#endif /* TILA_LAN_REDUCE_H */
