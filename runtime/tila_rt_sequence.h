/**
 * @file tila_rt_sequence.h
 * @brief Internal: what a call leaves for its sequence's wait (hooks, continuations), child sequences, synchronous calls (runtime/sequence.c).
 * A part of the runtime's header: include tila_runtime.h, which includes the parts in order.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_RT_SEQUENCE_H
#define TILA_RT_SEQUENCE_H

#include "tila_runtime.h"

/**
 * Work a call leaves for its sequence's wait: the norms reduce their partial results
 * across ranks there, with collectives, once the tasks are done.  A hook only reduces: it
 * reads what its call's tasks left on this rank, exchanges it with Tila's collectives
 * (tila_allreduce), writes the results and frees; it submits no task and waits for no
 * sequence (tila_sequence_wait refuses to run inside a hook).  Work that depends on the
 * results and needs tasks is a continuation's (tila_continuation_t).  The first round of that
 * reduction rides in the allreduce that agrees on the status: once this rank's tasks are
 * done, tila_sequence_wait calls keys(hook, key) for every hook, in the order the hooks
 * were added (calls are submitted in the same order everywhere), which writes the hook's
 * nkeys 64-bit keys (they start at INT64_MIN) and returns 0 or a failure of this rank;
 * the maxima of the keys over the ranks come back with the status, and fn(hook, status,
 * 1, key) gets them with the status (the same on every rank).  A sequence destroyed
 * without a wait calls fn(hook, status, 0, NULL), which must only release.  The hook is
 * embedded in the call's own state, which fn frees.  Every rank must count the same keys
 * whatever failed on it, so a call reserves them with tila_sequence_keys before anything
 * that can fail; a rank that then has no hook leaves its keys at INT64_MIN, and its
 * failure makes the status nonzero everywhere.  @return 0 or a code for the wait to return.
 */
typedef struct tila_wait_hook_s {
    int nkeys;
    int (*keys)(struct tila_wait_hook_s *hook, int64_t *key);
    int (*fn)(struct tila_wait_hook_s *hook, int status, int run, const int64_t *key);
    struct tila_wait_hook_s *next;
} tila_wait_hook_t;

/**
 * What a call leaves for its sequence's wait that needs more tasks, chosen by values the
 * wait brings (a mixed-precision solve refines or falls back): a continuation.  It runs on
 * every rank after the status is agreed and every hook has run, in the order the
 * continuations were added, as fn(c, status, 1) with the agreed status.  It may submit
 * and wait, in sequences of its own (a child of the caller's, or those of synchronous
 * calls, whose waits run their own hooks and continuations: continuations nest), never in
 * the sequence whose wait runs it; it makes the same calls in the same order on every
 * rank, since they are collective.  A sequence destroyed without a wait calls fn(c,
 * status, 0), which must only release.  The continuation is embedded in the call's state,
 * which fn frees.  @return 0 or a code for the wait to return.
 */
typedef struct tila_continuation_s {
    int (*fn)(struct tila_continuation_s *c, int status, int run);
    struct tila_continuation_s *next;
} tila_continuation_t;

/** Add continuation c to seq's wait (tila_continuation_t). */
void tila_sequence_then(tila_sequence_t *seq, tila_continuation_t *c);

/**
 * A sequence for a routine's inner steps whose failures are the routine's to handle (a
 * mixed-precision solve falls back when its single-precision factorization fails): its
 * tasks also do nothing once `parent` (the caller's sequence) has failed, while its own
 * failures stay out of the parent's status.
 */
int tila_sequence_create_child(tila_sequence_t **seq, const tila_sequence_t *parent);

/** 1 when seq, or the parent it was created with, has failed on this rank. */
int tila_sequence_failed(const tila_sequence_t *seq);

/** Reserve nkeys keys in the allreduce of seq's wait, for a hook added later. */
void tila_sequence_keys(tila_sequence_t *seq, int nkeys);
void tila_sequence_on_wait(tila_sequence_t *seq, tila_wait_hook_t *hook);

/** What a synchronous routine runs its _async form in: a sequence of its own, a request. */
typedef struct tila_sync_s {
    tila_sequence_t *seq;
    tila_request_t req;
} tila_sync_t;

/** Start a synchronous call: Tila initialised, the sequence created.  @return 0 or a code. */
int tila_sync_begin(const char *func, tila_sync_t *s);

/**
 * Finish it: `rc` is what the _async form returned.  Waits for the sequence (also after a
 * refused submission: part of the work may be in flight, and the wait is collective),
 * destroys it.  @return rc if not 0, else the sequence's status.
 */
int tila_sync_end(tila_sync_t *s, int rc);

#endif /* TILA_RT_SEQUENCE_H */
