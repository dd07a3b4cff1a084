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
 * Each passes the call on to the next definition, so that a profiling tool loaded after
 * this library sees the start: MPI_Init_thread to the next MPI_Init_thread (the tool's, or
 * the MPI library's); MPI_Init to the tool's MPI_Init where a tool defines one (the next
 * MPI_Init is in another object than the next PMPI_Init, the MPI library's), whose
 * PMPI_Init comes back here (this library's PMPI_Init) and goes on as
 * PMPI_Init_thread(MPI_THREAD_MULTIPLE); else to the next MPI_Init_thread.
 *
 * Tila's end: MPI_Finalize deletes MPI_COMM_SELF's attributes first, while MPI still
 * works, in C and Fortran alike (tila_layer_at_finalize).
 *
 * MPI_Test: StarPU-MPI's progress thread tests its requests with it, and libtila's naps
 * that thread between tests, on the core a worker computes on (runtime/node/nap_progress.c).
 * In a program that preloads this library the MPI library comes before libtila in the
 * symbol search (the program needs MPI; libtila is this library's need), and StarPU-MPI's
 * calls would bind to MPI's own: the thread tested without a break and took the core from
 * the worker (bench/LOG.md: pdgeqrf at 2 ranks fell below ScaLAPACK's speed).  This
 * library's MPI_Test, found first, takes them to libtila's naps, around
 * PMPI_Test (a profiling tool's MPI_Test is passed over for these calls).  Every other
 * thread's calls (the program's) go to the next MPI_Test, a profiling tool's loaded after
 * this library or the MPI library's: StarPU-MPI's thread is the one named "MPI" (StarPU
 * names it before its first test; libtila tells it from a program's thread of that name
 * by its id, and passes that one's calls on to PMPI_Test).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>
#include <sys/prctl.h>

#include <mpi.h>

#include "tila_interpose.h"
#include "tila_layer.h"

#define EXPORT __attribute__((visibility("default")))

typedef int init_thread_fn(int *, char ***, int, int *);
typedef int init_fn(int *, char ***);

/* MPI_Init_thread(..., MPI_THREAD_MULTIPLE, ...) through the next definition. */
static int start_multiple(int *argc, char ***argv, int *provided)
{
    init_thread_fn *next = (init_thread_fn *)dlsym(RTLD_NEXT, "MPI_Init_thread");
    if (!next) next = PMPI_Init_thread;
    return next(argc, argv, MPI_THREAD_MULTIPLE, provided);
}

EXPORT int MPI_Init(int *argc, char ***argv)
{
    init_fn *next = (init_fn *)dlsym(RTLD_NEXT, "MPI_Init");
    init_fn *own = (init_fn *)dlsym(RTLD_NEXT, "PMPI_Init");
    Dl_info a, b;
    /* a tool's (another object than the MPI library's PMPI_Init): back in PMPI_Init below */
    if (next && own && next != own && dladdr((void *)next, &a) && dladdr((void *)own, &b) &&
        a.dli_fbase != b.dli_fbase)
        return next(argc, argv);
    int provided;
    return start_multiple(argc, argv, &provided);
}

/* A profiling tool's MPI_Init starts MPI with PMPI_Init: MPI_THREAD_MULTIPLE here too. */
EXPORT int PMPI_Init(int *argc, char ***argv)
{
    init_thread_fn *next = (init_thread_fn *)dlsym(RTLD_NEXT, "PMPI_Init_thread");
    int provided;
    return next ? next(argc, argv, MPI_THREAD_MULTIPLE, &provided) : MPI_ERR_OTHER;
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

typedef int test_fn(MPI_Request *, int *, MPI_Status *);

EXPORT int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    static test_fn *next;
    /* 0 not known yet, 1 a thread named "MPI" (StarPU-MPI's, which libtila tells), 2 other */
    static __thread int kind;
    if (kind == 0) {
        char name[17] = "";
        prctl(PR_GET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
        kind = strcmp(name, "MPI") ? 2 : 1;
    }
    if (kind == 1) return tila_progress_mpi_test(request, flag, status);
    test_fn *test = __atomic_load_n(&next, __ATOMIC_ACQUIRE);
    if (!test) {
        test = (test_fn *)dlsym(RTLD_NEXT, "MPI_Test");
        if (!test) test = PMPI_Test;
        __atomic_store_n(&next, test, __ATOMIC_RELEASE);
    }
    return test(request, flag, status);
}
