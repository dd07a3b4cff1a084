/**
 * @file mpi.c
 * @brief MPI as the drop-in libraries need it: MPI_THREAD_MULTIPLE whoever starts MPI, and
 *        Tila's end at the start of MPI_Finalize, whatever the program's language.
 *
 * StarPU-MPI's progress thread calls MPI beside the program's thread, so Tila needs
 * MPI_THREAD_MULTIPLE.  A program that starts MPI itself asks for less (MPI_Init is
 * MPI_THREAD_SINGLE; FUNNELED is common): each start below asks MPI for
 * MPI_THREAD_MULTIPLE instead and returns what MPI gives in `provided` (at least what the
 * program required, where MPI supports MULTIPLE; a program that checks `provided ==
 * required` rather than `>=` would see the raise).  C's MPI_Init / MPI_Init_thread, and
 * Fortran's in every mangling the MPI libraries use: mpif.h and `use mpi`
 * (mpi_init_, MPICH's MPI_INIT, mpi_init and mpi_init__ as well), `use mpi_f08`
 * (mpi_init_f08_, whose IERROR is optional).  Fortran's do not pass through C's.
 *
 * Each passes the call on to the next MPI_Init_thread (the MPI library's, or a profiling
 * tool's loaded after this library, which then sees the start).
 *
 * Tila's end: MPI_Finalize deletes MPI_COMM_SELF's attributes first, while MPI still
 * works, in C and Fortran alike (tila_layer_at_finalize).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <dlfcn.h>

#include <mpi.h>

#include "tila_layer.h"

#define EXPORT __attribute__((visibility("default")))

typedef int init_thread_fn(int *, char ***, int, int *);

/* MPI_Init_thread(..., MPI_THREAD_MULTIPLE, ...) through the next definition. */
static int start_multiple(int *argc, char ***argv, int *provided)
{
    init_thread_fn *next = (init_thread_fn *)dlsym(RTLD_NEXT, "MPI_Init_thread");
    if (!next) next = PMPI_Init_thread;
    return next(argc, argv, MPI_THREAD_MULTIPLE, provided);
}

EXPORT int MPI_Init(int *argc, char ***argv)
{
    int provided;
    return start_multiple(argc, argv, &provided);
}

EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    (void)required;
    return start_multiple(argc, argv, provided);
}

static void fortran_init(MPI_Fint *ierr)
{
    int provided;
    int rc = start_multiple(NULL, NULL, &provided);
    if (ierr) *ierr = rc;
}

static void fortran_init_thread(const MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr)
{
    (void)required;
    int p = MPI_THREAD_SINGLE;
    int rc = start_multiple(NULL, NULL, &p);
    *provided = p;
    if (ierr) *ierr = rc;
}

EXPORT void mpi_init_(MPI_Fint *ierr) { fortran_init(ierr); }
EXPORT void mpi_init__(MPI_Fint *ierr) { fortran_init(ierr); }
EXPORT void mpi_init(MPI_Fint *ierr) { fortran_init(ierr); }
EXPORT void MPI_INIT(MPI_Fint *ierr) { fortran_init(ierr); }
EXPORT void mpi_init_f08_(MPI_Fint *ierr) { fortran_init(ierr); }

EXPORT void mpi_init_thread_(const MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr)
{
    fortran_init_thread(required, provided, ierr);
}

EXPORT void mpi_init_thread__(const MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr)
{
    fortran_init_thread(required, provided, ierr);
}

EXPORT void mpi_init_thread(const MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr)
{
    fortran_init_thread(required, provided, ierr);
}

EXPORT void MPI_INIT_THREAD(const MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr)
{
    fortran_init_thread(required, provided, ierr);
}

EXPORT void mpi_init_thread_f08_(const MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr)
{
    fortran_init_thread(required, provided, ierr);
}

static void (*at_finalize)(void);

static int finalizing(MPI_Comm comm, int key, void *value, void *extra)
{
    (void)comm, (void)key, (void)value, (void)extra;
    if (at_finalize) at_finalize();
    return MPI_SUCCESS;
}

void tila_layer_at_finalize(void (*fn)(void))
{
    int up = 0, down = 0, key;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    if (at_finalize || !up || down) return;
    at_finalize = fn;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, finalizing, &key, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, key, NULL);
}
