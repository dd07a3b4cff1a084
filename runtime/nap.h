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

/**
 * Idle CPU workers nap (StarPU's idle hook); unless the user named a scheduler, conf's
 * becomes lws waking a napping worker on each push.  Returns 1 when the push wakes.
 */
int tila_worker_naps_start(struct starpu_conf *conf);

/** Off: this start's workers do not nap (a previous start's setting forgotten). */
void tila_worker_naps_off(void);

/** StarPU-MPI's progress thread naps between its tests (on) or not. */
void tila_progress_naps_start(int on);

#pragma GCC visibility pop

#endif /* TILA_NAP_H */
