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

/** Idle CPU workers nap (StarPU's idle hook registered). */
void tila_worker_naps_start(void);

/** Off: this start's workers do not nap (a previous start's setting forgotten). */
void tila_worker_naps_off(void);

/** StarPU-MPI's progress thread starts without SCHED_BATCH (this start's thread sets it:
 * nap_progress.c); whether it naps is the plan's progress_naps. */
void tila_progress_naps_start(void);

/** MPI_Test's type. */
typedef int tila_test_fn(MPI_Request *request, int *flag, MPI_Status *status);

/** One MPI_Test through `test`, and StarPU-MPI's progress thread's nap after it
 * (nap_progress.c; interpose.c's MPI_Test and tila_progress_mpi_test). */
int tila_progress_test(tila_test_fn *test, MPI_Request *request, int *flag, MPI_Status *status);

#pragma GCC visibility pop

#endif /* TILA_NAP_H */
