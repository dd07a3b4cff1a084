/**
 * @file tila_interpose.h
 * @brief What libtila exports, outside Tila's interface (include/), for its drop-in layers
 *        (dropin/, lapack/, scalapack/): the functions of other libraries that libtila
 *        defines, and how a layer that defines them too hands calls on
 *        (runtime/node/interpose.c).  This folder alone is on the layers' include path.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_INTERPOSE_H
#define TILA_INTERPOSE_H

#include <mpi.h>

/**
 * MPI_Test for StarPU-MPI's progress thread: PMPI_Test, then the thread's nap while
 * nothing completes (runtime/node/nap_progress.c; PMPI_Test alone where Tila's StarPU
 * has no naps).  A layer that defines MPI_Test (found before libtila's in a program that
 * preloads the layer) hands that thread's calls here.
 */
int tila_progress_mpi_test(MPI_Request *request, int *flag, MPI_Status *status);

#endif /* TILA_INTERPOSE_H */
