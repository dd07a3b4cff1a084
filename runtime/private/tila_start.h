/**
 * @file tila_start.h
 * @brief The steps of tila_init and tila_finalize (runtime/init.c, the life cycle), each
 *        built natively (runtime/start.c) or under simulation (runtime/start_sim.c).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_START_H
#define TILA_START_H

#include <errno.h>

#include "tila_runtime_private.h"

/** MPI with MPI_THREAD_MULTIPLE, started here unless the program started it; `alone`:
 * Tila on this process alone (tila_init_comm on MPI_COMM_SELF).  Stop: MPI_Finalize where
 * tila_init started MPI. */
int tila_mpi_start(int *argc, char ***argv, int alone);
void tila_mpi_stop(void);

/** The worst (lowest) of every rank's rc, so that no rank goes on alone. */
int tila_worst_of_ranks(int rc);

/** Where StarPU keeps its models and bus calibration: a writable folder, or
 * TILA_ERR_STARPU (instead of StarPU's abort). */
int tila_starpu_home(void);

/** StarPU and StarPU-MPI started with conf, every rank's result agreed. */
int tila_starpu_start(int *argc, char ***argv, struct starpu_conf *conf);

/** Tila's own communicator and this rank's place in it; stop: after starpu_mpi_shutdown. */
int tila_comm_start(void);
void tila_comm_stop(void);

/** The message and Tila's code for a failed start of StarPU (on at least one rank). */
static inline int tila_starpu_failed(int rc, const char *what)
{
    if (rc == -ENODEV) {
        tila_error("tila_init", "StarPU found no worker: check STARPU_NCPU / STARPU_NCUDA");
        return TILA_ERR_NO_WORKER;
    }
    tila_error("tila_init", "%s failed (%d) on at least one rank", what, rc);
    return TILA_ERR_STARPU;
}

#endif /* TILA_START_H */
