/**
 * @file interpose.c
 * @brief The functions of other libraries that libtila defines: MPI_Test, through which
 *        StarPU-MPI's progress thread naps (nap_progress.c); and tila_progress_mpi_test,
 *        the same for the drop-in layers (export/tila_interpose.h).
 *
 * libtila's MPI_Test passes every call on to the next MPI_Test (the MPI library's, or a
 * profiling tool's loaded after libtila, which then sees every call); in StarPU-MPI's
 * progress thread alone it naps after the test while nothing completes.  A program that
 * preloads a layer (libtila_scalapack, libtila_lapack) finds the MPI library's MPI_Test
 * before libtila's (the program needs MPI; libtila is the layer's need): the layer
 * defines MPI_Test too (dropin/mpi.c), which brings that thread's calls here through
 * tila_progress_mpi_test, around PMPI_Test.  Without naps (another StarPU than 1.3)
 * libtila defines no MPI_Test, and tila_progress_mpi_test is PMPI_Test.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <dlfcn.h>

#include "nap.h"
#include "tila_interpose.h"

#ifdef TILA_STARPU_NAPS

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    static tila_test_fn *next;
    tila_test_fn *test = __atomic_load_n(&next, __ATOMIC_ACQUIRE);
    if (!test) {
        test = (tila_test_fn *)dlsym(RTLD_NEXT, "MPI_Test");
        if (!test) test = PMPI_Test;
        __atomic_store_n(&next, test, __ATOMIC_RELEASE);
    }
    return tila_progress_test(test, request, flag, status);
}

__attribute__((visibility("default"))) int tila_progress_mpi_test(MPI_Request *request, int *flag,
                                                                  MPI_Status *status)
{
    return tila_progress_test(PMPI_Test, request, flag, status);
}

#else /* !TILA_STARPU_NAPS */

__attribute__((visibility("default"))) int tila_progress_mpi_test(MPI_Request *request, int *flag,
                                                                  MPI_Status *status)
{
    return PMPI_Test(request, flag, status);
}

#endif /* TILA_STARPU_NAPS */
