/**
 * @file prof_mpi.c
 * @brief A profiling tool for the layers' tests: MPI_Init, MPI_Init_thread and MPI_Test
 *        wrapped through MPI's profiling interface, the calls counted, the counts printed
 *        at MPI_Finalize.
 *
 * Built by tests/lapack/run-testers.sh as a shared library and preloaded after
 * libtila_lapack (LD_PRELOAD="libtila_lapack.so libprof.so"), as a tool loaded after the
 * layer is: the layer's MPI_Init and MPI_Test must pass the program's calls on to these.
 * MPI_Test's calls are counted per thread, the program's main thread apart: the line
 * "prof-mpi: MPI_Init N MPI_Init_thread N MPI_Test N (main thread) N (all)" on stderr.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <mpi.h>

static long inits, init_threads, tests_main, tests_all;

static int main_thread(void) { return syscall(SYS_gettid) == getpid(); }

int MPI_Init(int *argc, char ***argv)
{
    inits++;
    return PMPI_Init(argc, argv);
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    init_threads++;
    return PMPI_Init_thread(argc, argv, required, provided);
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    __atomic_add_fetch(&tests_all, 1, __ATOMIC_RELAXED);
    if (main_thread()) tests_main++;
    return PMPI_Test(request, flag, status);
}

int MPI_Finalize(void)
{
    fprintf(stderr,
            "prof-mpi: MPI_Init %ld MPI_Init_thread %ld MPI_Test %ld (main thread) %ld (all)\n",
            inits, init_threads, tests_main, __atomic_load_n(&tests_all, __ATOMIC_RELAXED));
    return PMPI_Finalize();
}
