/**
 * @file tila_partials.h
 * @brief Internal: the partials service: per-tile partial results of one call, each on the
 * rank of the task that writes it, brought home as the tasks end and folded at the wait
 * (runtime/partials.c).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_PARTIALS_H
#define TILA_PARTIALS_H

#include "tila_runtime.h"

/**
 * Keys that order as values: x >= 0 or NaN as a 64-bit integer (a negative x counts as 0),
 * NaN above everything, so that MPI_MAX over keys is the maximum over values, exactly and
 * in any order.
 */
int64_t tila_key(double x);
/** *k = the larger of key *k and x's key. */
void tila_key_max(int64_t *k, double x);
/** The value of a key. */
double tila_key_value(int64_t k);

typedef struct tila_partials_s tila_partials_t;

/**
 * Room for `max` partials of one call, of elements of eltsize bytes (float or double).  It
 * books their tags first (tila_tag_book), so call it on every rank, in the same order,
 * before anything that can fail on one rank only.  Collective.  NULL when out of memory
 * (the tags booked all the same).
 */
tila_partials_t *tila_partials_create(int64_t max, size_t eltsize);

/**
 * The next partial: `count` elements written by a task on `rank` (in STARPU_W), labelled
 * `first` (the index its entry 0 stands for: a sum's, a column's).  Called on every rank
 * for every partial, in the same order.  On `rank` the runtime allocates and registers it
 * (home: main memory; all bits set until its task writes it, a NaN that shows a task that
 * did not) and *h is its handle; elsewhere *h is NULL.
 * @return 0, TILA_ERR_NOMEM, or TILA_ERR_STARPU beyond create's max.
 */
int tila_partials_add(tila_partials_t *P, int rank, int first, int count, starpu_data_handle_t *h);

/**
 * `nseg` partials in one vector, one after the other, written by one task on `rank` (a
 * task that reads many tiles: one launch on a GPU, one transfer home): segment s has
 * counts[s] elements labelled firsts[s].  The same partials, in the same order, as nseg
 * calls of tila_partials_add, under one tag and one handle (*h, on `rank`).  Called on
 * every rank, in the same order.
 * @return 0, TILA_ERR_NOMEM (also for nseg < 1 or an empty run), or TILA_ERR_STARPU beyond
 *         create's max.
 */
int tila_partials_add_run(tila_partials_t *P, int rank, int nseg, const int *firsts,
                          const int *counts, starpu_data_handle_t *h);

/** Every task that writes them is submitted: each partial comes home as its task ends
 * (tila_data_bring_home: where GPUs wrote them). */
void tila_partials_submitted(tila_partials_t *P);

/** Their tasks are done (after their sequence's wait, or in its hook): the partials are
 * unregistered, their values in memory.  Once; later calls do nothing. */
void tila_partials_collect(tila_partials_t *P);

/** This rank's partials, collected: how many, partial i's label and count, its entry e
 * (exactly, as a double). */
size_t tila_partials_count(const tila_partials_t *P);
int tila_partials_first(const tila_partials_t *P, size_t i);
int tila_partials_size(const tila_partials_t *P, size_t i);
double tila_partials_entry(const tila_partials_t *P, size_t i, int e);

/** key[first + e] = the larger of it and the key of entry e of each partial here. */
void tila_partials_fold_max(const tila_partials_t *P, int64_t *key);

/** Collect and free (NULL: nothing). */
void tila_partials_destroy(tila_partials_t *P);

/**
 * Partials whose maxima the call needs on every rank: `len` maxima, max[j] the largest
 * entry (tila_key's measure, at least 0) of the partials' entries labelled j, over every
 * rank.  The fold runs at seq's wait and its keys ride in the allreduce that agrees on the
 * status (len keys of seq's wait, reserved here: call it before anything that can fail,
 * on every rank).  Hand it to the wait with tila_partials_maxima_submitted.  Collective.
 * NULL when out of memory: then fail seq on this rank (the others' maxima are not read).
 */
tila_partials_t *tila_partials_maxima(tila_sequence_t *seq, int len, int64_t max, size_t eltsize,
                                      double *maxima);

/**
 * Every partial of P is submitted: they come home as their tasks end, and seq's wait folds
 * them (a rank short of memory fails the status) and writes the maxima once the keys have
 * crossed (meaningful where the status is 0).  seq owns P from here.
 */
void tila_partials_maxima_submitted(tila_partials_t *P, tila_sequence_t *seq);

#endif /* TILA_PARTIALS_H */
