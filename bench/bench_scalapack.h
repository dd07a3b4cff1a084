/**
 * @file bench_scalapack.h
 * @brief The ScaLAPACK peer: BLACS grid, local arrays, the routines timed.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef BENCH_SCALAPACK_H
#define BENCH_SCALAPACK_H

#include "bench_run.h"

/* ScaLAPACK and BLACS, Fortran and C entry points (libscalapack-openmpi). */
void Cblacs_get(int context, int what, int *value);
void Cblacs_gridinit(int *context, const char *order, int nprow, int npcol);
void Cblacs_gridexit(int context);
int numroc_(const int *n, const int *nb, const int *iproc, const int *isrcproc, const int *nprocs);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb,
               const int *irsrc, const int *icsrc, const int *ictxt, const int *lld, int *info);
void pdgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
             const double *alpha, const double *a, const int *ia, const int *ja, const int *desca,
             const double *b, const int *ib, const int *jb, const int *descb, const double *beta,
             double *c, const int *ic, const int *jc, const int *descc);
void pdpotrf_(const char *uplo, const int *n, double *a, const int *ia, const int *ja,
              const int *desca, int *info);

/** The P x Q grid (default: the most square of the world). Prints why on failure. */
int bench_scalapack_grid(bench_cfg_t *c);

/** This rank's local array and descriptor of `op`. */
void bench_scalapack_alloc(bench_cfg_t *c, bench_op_t *op);

/** The bytes of this rank's local array of `op` (bench_scalapack_alloc's). */
size_t bench_scalapack_bytes(const bench_op_t *op);

/** The whole `op` into rank 0's column-major `full` (collective). */
void bench_scalapack_gather(const bench_cfg_t *c, const bench_op_t *op, double *full);

void bench_scalapack_exit(bench_cfg_t *c);

#endif /* BENCH_SCALAPACK_H */
