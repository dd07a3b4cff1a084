/**
 * @file comm.c
 * @brief Tila's own collectives (sequence status, norms), made from the main thread while
 * StarPU's workers and StarPU-MPI's progress thread share the rank's cores.
 *
 * A blocking MPI collective spins (or yields, with Open MPI's mpi_yield_when_idle) in the
 * calling thread until the other ranks arrive.  Before idle workers napped
 * (runtime/node/nap_workers.c), that thread and the idle worker polling on the same core
 * took turns of a scheduler slice, milliseconds per allreduce.  The nap fixed that; a wait
 * that spins without end would still take a shared core from the workers of a rank that is
 * late with its tasks (more ranks than cores).  So the collective is started nonblocking
 * and tested back to back for 200 us, then between 20 us sleeps.
 *
 * Open MPI's nonblocking collectives progress only inside MPI calls, so each round of the
 * allreduce waits for every rank's next test: a rank that sleeps early, or with the
 * kernel's default 50 us timer slack, answers late once per round and per allreduce.
 * Hence the 200 us of tests before the first sleep, and sleeps with 1 us of timer slack,
 * the thread's own restored after.  The measurements behind both: bench/LOG.md,
 * "Measurements that code comments held".
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <sys/prctl.h>

#include "tila_runtime_private.h"

/* Tests back to back until this long (s), then a sleep between tests (ns). */
static const double comm_spin_s = 200e-6;
static const long comm_nap_ns = 20000;

int tila_allreduce(void *buf, int count, MPI_Datatype type, MPI_Op op)
{
    return tila_allreduce_poll(buf, count, type, op, NULL, NULL);
}

int tila_allreduce_poll(void *buf, int count, MPI_Datatype type, MPI_Op op, void (*poll)(void *arg),
                        void *arg)
{
    MPI_Request req;
    int done = 0, rc = TILA_SUCCESS;
    if (MPI_Iallreduce(MPI_IN_PLACE, buf, count, type, op, tila_rt.comm, &req) != MPI_SUCCESS)
        return TILA_ERR_MPI;
    /* prctl takes its five arguments whatever the option: unused ones 0, not garbage */
    int slack = prctl(PR_GET_TIMERSLACK, 0UL, 0UL, 0UL, 0UL), slackened = 0;
    for (double t0 = tila_clock(); !done;) {
        if (MPI_Test(&req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
            rc = TILA_ERR_MPI;
            break;
        }
        if (done || tila_clock() - t0 < comm_spin_s) continue;
        if (poll) poll(arg);
        if (!slackened && slack > 1000)
            slackened = !prctl(PR_SET_TIMERSLACK, 1000UL, 0UL, 0UL, 0UL);
        tila_nap(comm_nap_ns);
    }
    if (slackened) prctl(PR_SET_TIMERSLACK, (unsigned long)slack, 0UL, 0UL, 0UL);
    return rc;
}
