/**
 * @file nap.h
 * @brief What the two nap mechanisms share (nap.c) and how nap.c starts them
 *        (nap_workers.c, nap_progress.c).  Built with StarPU 1.3 only (TILA_STARPU_NAPS).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_NAP_H
#define TILA_NAP_H

#include "tila_runtime_private.h"

#pragma GCC visibility push(hidden)

/** Sleep at most ns nanoseconds, less once *count is no longer `seen` (a futex). */
void tila_futex_nap(unsigned *count, unsigned seen, long ns);

/** Add one to *count and, when *nappers says someone naps on it, wake one of them. */
void tila_futex_count_and_wake(unsigned *count, int *nappers);

/** Wake everyone waiting on count (its value changed first by the caller). */
void tila_futex_wake_all(unsigned *count);

/** No task of Tila's pending on this rank, nor any other of StarPU's (nap_workers.c). */
int tila_naps_idle(void);

/** Wake every napping or resting worker (nap_workers.c). */
void tila_naps_wake_all(void);

/** While Tila stops (on), no worker rests, and those resting are woken. */
void tila_naps_stopping(int on);

/** The CPU worker that StarPU-MPI's progress thread runs, or -1 (progress_worker.c). */
int tila_progress_worker_id(void);

/** From an idle worker between calls: complete the receive that keeps the progress thread
 * running its worker, without waiting (nothing when it is not posted, or is being). */
void tila_progress_worker_rest_async(void);

/**
 * Idle CPU workers nap (StarPU's idle hook); unless the user named a scheduler, conf's
 * becomes lws waking a napping worker on each push.  Returns 1 when the push wakes.
 */
int tila_worker_naps_start(struct starpu_conf *conf);

/** Off: this start's workers do not nap (a previous start's setting forgotten). */
void tila_worker_naps_off(void);

/** StarPU's idle hook deregistered (tila_finalize, before StarPU stops). */
void tila_worker_naps_unhook(void);

/** StarPU-MPI's progress thread naps between its tests (on) or not. */
void tila_progress_naps_start(int on);

#pragma GCC visibility pop

#endif /* TILA_NAP_H */
