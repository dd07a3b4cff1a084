/**
 * @file comm_sim.c
 * @brief Tila's own collectives under simulation (StarPU with SimGrid): the application's
 * thread cannot call MPI there (init.c), so tila_allreduce goes through StarPU-MPI's
 * point-to-point transfers, which SMPI times on the simulated network.
 *
 * A binomial tree: each rank receives and combines its children's buffers, sends the
 * result to its parent, then the total comes back down the same tree, 2 ceil(log2 P)
 * steps of one small message.  Open MPI's allreduce takes about half as many for these
 * sizes (recursive doubling), a difference of a few microseconds per norm or sequence
 * wait against the tasks' milliseconds.  The values are combined for real, for the
 * types and operations Tila uses (int, int64_t and double; sum, min and max), so a
 * simulated run takes the branches a real one takes.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>

#include "tila_runtime_private.h"

/* Tags of these messages: far above the descriptors' and workspaces' (desc.c). */
static const int64_t comm_sim_tag_base = (int64_t)1 << 60;

static size_t comm_sim_eltsize(MPI_Datatype type)
{
    return type == MPI_INT       ? sizeof(int)
           : type == MPI_INT64_T ? sizeof(int64_t)
           : type == MPI_DOUBLE  ? sizeof(double)
                                 : 0;
}

#define COMM_SIM_COMBINE(T)                                                                        \
    do {                                                                                           \
        T *a = acc;                                                                                \
        const T *b = in;                                                                           \
        for (int i = 0; i < count; i++)                                                            \
            a[i] = op == MPI_SUM ? a[i] + b[i] : (op == MPI_MIN) == (b[i] < a[i]) ? b[i] : a[i];   \
    } while (0)

/* acc[i] = acc[i] op in[i] */
static void comm_sim_combine(void *acc, const void *in, int count, MPI_Datatype type, MPI_Op op)
{
    if (type == MPI_INT)
        COMM_SIM_COMBINE(int);
    else if (type == MPI_INT64_T)
        COMM_SIM_COMBINE(int64_t);
    else
        COMM_SIM_COMBINE(double);
}

/* One message of buf's count elements to or from rank `peer`. */
static int comm_sim_move(void *buf, int count, size_t eltsize, int peer, int64_t tag, int send)
{
    starpu_data_handle_t h;
    starpu_vector_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)buf, (uint32_t)count, eltsize);
    int rc = send ? starpu_mpi_send(h, peer, tag, MPI_COMM_WORLD)
                  : starpu_mpi_recv(h, peer, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    starpu_data_unregister(h);
    return rc;
}

int tila_allreduce(void *buf, int count, MPI_Datatype type, MPI_Op op)
{
    static int64_t calls; /* every rank makes the same calls in the same order */
    size_t eltsize = comm_sim_eltsize(type);
    if (!eltsize || (op != MPI_SUM && op != MPI_MIN && op != MPI_MAX)) {
        tila_error("tila_allreduce", "simulation: no such type and operation here");
        return TILA_ERR_MPI;
    }
    int rank = tila_rt.rank, size = tila_rt.size, rc = 0;
    int64_t tag = comm_sim_tag_base + 2 * calls++;
    if (size == 1 || count == 0) return TILA_SUCCESS;
    void *in = malloc(eltsize * (size_t)count);
    if (!in) return TILA_ERR_NOMEM;
    /* Up: children rank + m for m = 1, 2, 4, ... below rank's lowest set bit; then parent. */
    int low = rank ? rank & -rank : 1 << 30, m;
    for (m = 1; m < low && rank + m < size && !rc; m <<= 1) {
        rc = comm_sim_move(in, count, eltsize, rank + m, tag, 0);
        if (!rc) comm_sim_combine(buf, in, count, type, op);
    }
    if (rank && !rc) rc = comm_sim_move(buf, count, eltsize, rank - low, tag, 1);
    /* Down: from the parent, then to the children, farthest first. */
    if (rank && !rc) rc = comm_sim_move(buf, count, eltsize, rank - low, tag + 1, 0);
    for (m = rank ? low >> 1 : 1 << 30; m > 0 && !rc; m >>= 1)
        if (rank + m < size) rc = comm_sim_move(buf, count, eltsize, rank + m, tag + 1, 1);
    free(in);
    return rc ? TILA_ERR_MPI : TILA_SUCCESS;
}
