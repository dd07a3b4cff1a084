/**
 * @file start_sim.c
 * @brief The steps of tila_init and tila_finalize under simulation (StarPU built with
 *        SimGrid): no MPI call of Tila's own; StarPU-MPI starts StarPU on the world.
 *
 * Simulation (StarPU built with SimGrid, every rank an SMPI process of one simulator):
 * SMPI starts MPI in each rank's own actor, which becomes StarPU-MPI's progress thread,
 * and the application's main runs in another actor, where SimGrid 3.32 answers MPI calls
 * with "MPI_Init was not called".  So nothing here calls MPI: the node is the platform
 * file's (its CPUs and GPUs, each rank simulating one node), the rank and size come
 * from StarPU-MPI, and Tila's collectives go through StarPU-MPI (comm_sim.c).  No kernel
 * runs, so tiles take no memory: StarPU's copies of remote tiles are folded
 * (STARPU_MALLOC_SIMULATION_FOLDED), Tila's own tiles address space alone (desc.c).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "tila_runtime_private.h"
#include "tila_start.h"

int tila_mpi_start(int *argc, char ***argv, int alone)
{
    (void)argc;
    (void)argv;
    if (!alone) return TILA_SUCCESS;
    tila_error("tila_init_comm", "a simulation runs Tila on MPI_COMM_WORLD only");
    return TILA_ERR_MPI;
}

void tila_mpi_stop(void) {}

/* The ranks of one simulator start alike. */
int tila_worst_of_ranks(int rc) { return rc; }

/*
 * StarPU-MPI starts StarPU, with Tila's conf: a StarPU started first (as natively)
 * leaves one of the simulated node's two CPU workers idle and asserts at shutdown.  As
 * StarPU-MPI does by default, one CPU is kept for its progress thread unless STARPU_NCPU
 * says how many workers to start (bench/tila-sim does).
 */
int tila_starpu_start(int *argc, char ***argv, struct starpu_conf *conf)
{
    tila_rt.starpu_comm = MPI_COMM_WORLD; /* StarPU-SMPI works on the world only */
    int rc = starpu_mpi_init_conf(argc, argv, 0, MPI_COMM_WORLD, conf);
    if (rc) return tila_starpu_failed(rc, "starpu_mpi_init_conf");
    starpu_malloc_on_node_set_default_flags(
        STARPU_MAIN_RAM,
        STARPU_MALLOC_PINNED | STARPU_MALLOC_COUNT | STARPU_MALLOC_SIMULATION_FOLDED);
    return TILA_SUCCESS;
}

int tila_comm_start(void)
{
    tila_rt.comm = MPI_COMM_WORLD;
    starpu_mpi_comm_rank(MPI_COMM_WORLD, &tila_rt.rank);
    starpu_mpi_comm_size(MPI_COMM_WORLD, &tila_rt.size);
    return TILA_SUCCESS;
}

void tila_comm_stop(void) {}

/* StarPU's files: nothing is written where no kernel runs and no bus is measured. */
int tila_starpu_home(void) { return TILA_SUCCESS; }
