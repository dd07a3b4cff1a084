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

#include <pthread.h>
#include <stddef.h>

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
 * The room tila_layer_qr_tau needs to gather T on rank `root` (*space, to free; NULL on the
 * other ranks).  Taken before the factorization that overwrites A, so that a failure
 * leaves the caller's data as it was.  Local.
 * @return 0, or TILA_ERR_NOMEM on root.
 */
int tila_layer_qr_tau_alloc(const tila_desc_t *T, int root, void **space);

/**
 * The scalar factors tau(0 .. k - 1) of a QR factorization from the PANEL scheme's T (one tile
 * per tile column of A, each that column's triangular factor: reflector j's is T(j - j0, j),
 * j0 the first column of j's tile column), on rank `root` (tau written there only, k
 * elements of T's precision), through `space` (tila_layer_qr_tau_alloc's).  Collective: T
 * is gathered on root.
 * @return 0, or a Tila error on every rank when any failed.
 */
int tila_layer_qr_tau(tila_desc_t *T, int k, void *tau, int root, void *space);

/* ---- The book of calls (calls.c) ------------------------------------------------------ */

/** The most paths a library's calls can take. */
#define TILA_LAYER_MAXPATHS 12

/** One Fortran entry point; a static object in its file. */
typedef struct tila_layer_routine_s {
    const char *name;   /**< as the library prints it ("PZPOTRF"); NULL: LAPACK's way, the
                             symbol in upper case without its underscore */
    const char *symbol; /**< the real routine: "pzpotrf_" */
    void *real;         /**< found on first use */
    int missing;        /**< none was found, and that was said (once) */
    long count[TILA_LAYER_MAXPATHS];   /**< calls so far, by path */
    int listed;                        /**< in the book's list */
    struct tila_layer_routine_s *next; /**< that list */
} tila_layer_routine_t;

/** A library's book: what each path means, and the routines called so far. */
typedef struct tila_layer_book_s {
    const char *const *path_text; /**< as TILA_VERBOSE prints each path */
    int npaths;
    tila_layer_routine_t *routines; /**< latest first */
    pthread_mutex_t lock;           /**< calls may come from several threads */
} tila_layer_book_t;

/** r's printed name into name. */
void tila_layer_name(const tila_layer_routine_t *r, char *name, size_t size);

/** Count a call of r under `path`; the first of each path said when `say` (TILA_VERBOSE). */
void tila_layer_count(tila_layer_book_t *b, tila_layer_routine_t *r, int path, int say);

/** Each routine's calls by path, said when `say` (TILA_VERBOSE); then the list is empty. */
void tila_layer_summary(tila_layer_book_t *b, int say);

/** Calls of the routine named (or whose symbol is) `name` under `path`; -1 out of range. */
long tila_layer_calls(tila_layer_book_t *b, const char *name, int path);

/** r's real routine (dlsym RTLD_NEXT), or NULL, said on stderr (once a routine) with how to
 * link it. */
void *tila_layer_real(tila_layer_routine_t *r, const char *library, const char *link);

/**
 * Call fn at the start of MPI_Finalize (MPI still works), once; nothing when MPI is not
 * running or fn is already set (mpi.c).
 */
void tila_layer_at_finalize(void (*fn)(void));

#pragma GCC visibility pop

#endif /* TILA_LAYER_H */
