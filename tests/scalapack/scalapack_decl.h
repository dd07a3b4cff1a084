/**
 * @file scalapack_decl.h
 * @brief What the ScaLAPACK layer's own tests call: BLACS and ScaLAPACK's tools, the double
 *        precision routines they check, libtila_scalapack's path counts, and the real
 *        routine of a symbol (from the library that defines numroc_).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_TESTS_SCALAPACK_DECL_H
#define TILA_TESTS_SCALAPACK_DECL_H

#include <stddef.h>
#include <stdio.h>

#include <mpi.h>

#include "../real_routine.h"

void blacs_get_(const int *ctxt, const int *what, int *val);
void blacs_gridinit_(int *ctxt, const char *order, const int *p, const int *q, size_t len);
void blacs_gridexit_(const int *ctxt);
void blacs_gridinfo_(const int *ctxt, int *nprow, int *npcol, int *myrow, int *mycol);
int numroc_(const int *n, const int *nb, const int *iproc, const int *isrc, const int *nprocs);
int indxl2g_(const int *il, const int *nb, const int *iproc, const int *isrc, const int *nprocs);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb, const int *rsrc,
               const int *csrc, const int *ctxt, const int *lld, int *info);
void pdpotrf_(const char *uplo, const int *n, double *a, const int *ia, const int *ja,
              const int *desca, int *info, size_t len);
void pdpotrs_(const char *uplo, const int *n, const int *nrhs, const double *a, const int *ia,
              const int *ja, const int *desca, double *b, const int *ib, const int *jb,
              const int *descb, int *info, size_t len);
void pdposv_(const char *uplo, const int *n, const int *nrhs, double *a, const int *ia,
             const int *ja, const int *desca, double *b, const int *ib, const int *jb,
             const int *descb, int *info, size_t len);
void pdgeqrf_(const int *m, const int *n, double *a, const int *ia, const int *ja, const int *desca,
              double *tau, double *work, const int *lwork, int *info);
void pdormqr_(const char *side, const char *trans, const int *m, const int *n, const int *k,
              const double *a, const int *ia, const int *ja, const int *desca, const double *tau,
              double *c, const int *ic, const int *jc, const int *descc, double *work,
              const int *lwork, int *info, size_t l1, size_t l2);
void pdorgqr_(const int *m, const int *n, const int *k, double *a, const int *ia, const int *ja,
              const int *desca, const double *tau, double *work, const int *lwork, int *info);
void pdgels_(const char *trans, const int *m, const int *n, const int *nrhs, double *a,
             const int *ia, const int *ja, const int *desca, double *b, const int *ib,
             const int *jb, const int *descb, double *work, const int *lwork, int *info,
             size_t len);
double pdlange_(const char *norm, const int *m, const int *n, const double *a, const int *ia,
                const int *ja, const int *desca, double *work, size_t len);
double pdlansy_(const char *norm, const char *uplo, const int *n, const double *a, const int *ia,
                const int *ja, const int *desca, double *work, size_t l1, size_t l2);
double pdlantr_(const char *norm, const char *uplo, const char *diag, const int *m, const int *n,
                const double *a, const int *ia, const int *ja, const int *desca, double *work,
                size_t l1, size_t l2, size_t l3);

void pdgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
             const double *alpha, const double *a, const int *ia, const int *ja, const int *desca,
             const double *b, const int *ib, const int *jb, const int *descb, const double *beta,
             double *c, const int *ic, const int *jc, const int *descc, size_t l1, size_t l2);
void pdtrsm_(const char *side, const char *uplo, const char *ta, const char *diag, const int *m,
             const int *n, const double *alpha, const double *a, const int *ia, const int *ja,
             const int *desca, double *b, const int *ib, const int *jb, const int *descb, size_t l1,
             size_t l2, size_t l3, size_t l4);

/* libtila_scalapack: calls of a routine ("PDPOTRF") that took a path so far; the paths as
 * scalapack/tila_scalapack.h numbers them. */
long tila_scalapack_calls(const char *name, int path);
enum { PATH_INPLACE = 0, PATH_COPY = 1, PATH_OFF = 7, PATH_COUNT = 9 };

/* The real ScaLAPACK's routine: looked up in the library that defines numroc_. */
static inline void *real_routine(const char *symbol)
{
    void *fn = real_routine_beside("numroc_", symbol);
    if (!fn) {
        fprintf(stderr, "no real %s\n", symbol);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return fn;
}

#endif /* TILA_TESTS_SCALAPACK_DECL_H */
