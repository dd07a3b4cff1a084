/**
 * @file tila_layer.h
 * @brief What libtila_lapack and libtila_scalapack share (each has its own hidden copy):
 *        their environment variables, the option letters of LAPACK, ScaLAPACK and
 *        PBLAS (UPLO, NORM, ...) as Tila's enums, and MPI's start and end (mpi.c: both
 *        libraries export the same MPI_Init family).
 *
 * Each letter function returns 1 and sets its enum when the letter is one the routines
 * accept (LSAME: either case), else 0.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_LAYER_H
#define TILA_LAYER_H

#include "tila_types.h"

#pragma GCC visibility push(hidden)

/** TILA_VERBOSE is set and not 0. */
int tila_layer_verbose(void);

/** A non-negative integer from the environment variable `name`, or `def`. */
int tila_layer_env_int(const char *name, int def);

/**
 * tila-bench's tile size for an order-n problem on this kind of node (bench/tila-bench.in,
 * auto_nb): n / 8 in steps of 64, from 192 to `most` (768 for Cholesky, 384 for QR).
 */
int tila_layer_tile(int n, int most);

/** LSAME on the first character: *c is `want` (an upper-case letter) in either case. */
int tila_letter_is(const char *c, char want);

/** 'U' / 'L' -> TILA_UPPER / TILA_LOWER. */
int tila_letter_uplo(const char *c, tila_uplo_t *uplo);

/** The norm letters (M, O or 1, I, F or E) -> tila_norm_t. */
int tila_letter_norm(const char *c, tila_norm_t *norm);

/** 'N' / 'U' -> TILA_NONUNIT / TILA_UNIT. */
int tila_letter_diag(const char *c, tila_diag_t *diag);

/** 'N' / 'T' / 'C' -> tila_trans_t ('C' is 'T' in the real precisions: complex = 0). */
int tila_letter_trans(const char *c, tila_trans_t *trans, int complex);

/** 'L' / 'R' -> TILA_LEFT / TILA_RIGHT. */
int tila_letter_side(const char *c, tila_side_t *side);

/**
 * Call fn at the start of MPI_Finalize (MPI still works), once; nothing when MPI is not
 * running or fn is already set (mpi.c).
 */
void tila_layer_at_finalize(void (*fn)(void));

#pragma GCC visibility pop

#endif /* TILA_LAYER_H */
