/**
 * @file comm.c
 * @brief Tila's own collectives (sequence status, norms), made from the main thread while
 * StarPU's workers and StarPU-MPI's progress thread share the rank's cores.
 *
 * A blocking MPI collective spins (or yields, with Open MPI's mpi_yield_when_idle) in the
 * calling thread until the other ranks arrive.  Before idle workers napped (init.c), that
 * thread and the idle worker polling on the same core took turns of a scheduler slice: 2
 * ranks on 2 cores measured 4-8 ms per allreduce (0.2 us before tila_init).  The nap fixed
 * that; a spinning wait would still take a shared core from the workers of a rank that is
 * late with its tasks (more ranks than cores).  So the collective is started nonblocking
 * and tested, a few times back to back, then between short sleeps.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <time.h>

#include "tila_runtime.h"

/* Tests back to back before sleeping, and the sleep between tests (ns). */
enum { TILA_COMM_SPINS = 50, TILA_COMM_NAP_NS = 20000 };

int tila_allreduce(void *buf, int count, MPI_Datatype type, MPI_Op op)
{
    MPI_Request req;
    int done = 0;
    if (MPI_Iallreduce(MPI_IN_PLACE, buf, count, type, op, tila_rt.comm, &req) != MPI_SUCCESS)
        return TILA_ERR_MPI;
    for (int k = 0; !done; k++) {
        if (MPI_Test(&req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) return TILA_ERR_MPI;
        if (!done && k >= TILA_COMM_SPINS)
            nanosleep(&(struct timespec){ .tv_nsec = TILA_COMM_NAP_NS }, NULL);
    }
    return TILA_SUCCESS;
}
