/**
 * @file tila_lapack.h
 * @brief libtila_lapack's core: which LAPACK calls of one process run on Tila, and how.
 *
 * Each Fortran entry point (zpotrf_, zlange_, ...) checks its arguments as the real routine
 * does, then asks tila_la_begin whether Tila takes the call: the arguments must be legal
 * (else the real routine reports them through XERBLA, as ever), the problem must reach the
 * size threshold, Tila must be able to run on this process alone, and the call must not
 * come from inside another one (a StarPU worker's tile kernel, or a routine that went to
 * LAPACK and calls others).  Otherwise the real routine runs, found with dlsym(RTLD_NEXT).
 * A call Tila takes runs on the caller's column-major arrays in place: Tila's tiles are
 * views of them with the caller's leading dimension.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_LAPACK_H
#define TILA_LAPACK_H

#include <stddef.h>

#include "tila.h"
#include "tila_layer.h"

/* The entry points this library exists for; everything else in it is hidden. */
#define TILA_LA_EXPORT __attribute__((visibility("default")))

#pragma GCC visibility push(hidden)

/** What became of a call: printed once per routine and path, counted for the exit summary. */
typedef enum tila_la_path_e {
    TILA_LA_TILA,  /**< Tila, in place on the caller's arrays */
    TILA_LA_SMALL, /**< LAPACK: below the size threshold */
    TILA_LA_ARGS,  /**< LAPACK: an illegal argument (which it reports) or a workspace query */
    TILA_LA_CASE,  /**< LAPACK: a case this library leaves to it (the routine says which) */
    TILA_LA_OFF,   /**< LAPACK: Tila cannot run here (not started, several MPI ranks, busy), or
                        failed before it wrote the caller's arrays */
    TILA_LA_LOST,  /**< Tila failed after it had begun to write the caller's arrays */
    TILA_LA_NPATHS
} tila_la_path_t;

/** One Fortran entry point ({ .symbol = "zpotrf_" }); a static object in its file. */
typedef tila_layer_routine_t tila_la_routine_t;

/** What a call's tile size is chosen for. */
typedef enum tila_la_shape_e {
    TILA_LA_CHOLESKY, /**< potrf, potrs, posv: n / 8, 192 to 768 */
    TILA_LA_QR,       /**< geqrf, unmqr, ungqr, gels: min(m, n) / 8, 192 to 384 */
    TILA_LA_NORM      /**< the norms: 1024 */
} tila_la_shape_t;

/**
 * Does Tila take this call?  `size` is the problem's order (against TILA_LAPACK_MIN_N),
 * args_ok whether the arguments are legal.  Every call enters here once and leaves by
 * tila_la_end (after Tila computed it) or tila_la_leave (after the real routine ran).
 * On 1 Tila is up, this thread holds it, and BLAS runs one thread per worker until
 * tila_la_end.  On 0 (counted, unless the call is nested), call tila_la_real(r).
 */
int tila_la_begin(tila_la_routine_t *r, int size, int args_ok);

/** The end of a call Tila took: counted under TILA_LA_TILA, Tila and BLAS given back. */
void tila_la_end(tila_la_routine_t *r);

/** The end of a call the real routine ran. */
void tila_la_leave(void);

/**
 * Refuse a call that tila_la_begin accepted, before anything was changed, because of a
 * case left to LAPACK (TILA_LA_CASE) or a workspace query (TILA_LA_ARGS): the caller then
 * runs the real routine and calls tila_la_leave.
 */
void tila_la_refuse(tila_la_routine_t *r, tila_la_path_t path);

/** The real routine of r; NULL, said on stderr once, if none follows libtila_lapack: the
 * caller then returns TILA_LA_NO_REAL_INFO (a norm NaN), never aborting its host. */
void *tila_la_real(tila_la_routine_t *r);

/** Tila's tile size for this call: TILA_LAPACK_NB when set, else by `shape`. */
int tila_la_tile(tila_la_shape_t shape, int m, int n);

/** Tila's view of the caller's m x n array a (lda) in nb x nb tiles; NULL on failure
 * (said on stderr). */
tila_desc_t *tila_la_desc(tila_la_routine_t *r, tila_prec_t prec, void *a, int lda, int m, int n,
                          int nb);

/** INFO where Tila failed after it had begun to write the caller's arrays (TILA_LA_LOST). */
#define TILA_LA_LOST_INFO (-10000)

/** INFO where the call falls to the real routine and there is none (tila_la_real NULL):
 * the caller's arrays are as they were; a norm is NaN. */
#define TILA_LA_NO_REAL_INFO (-10001)

/**
 * The end of Tila's part of a call: the `count` descriptors D[k] (NULL ones skipped)
 * destroyed; rc is Tila's result (0 or a negative TILA_ERR_*), `begun` whether Tila may
 * have written the caller's output.  Returns 0 when Tila's result stands (the call ended
 * as tila_la_end); 1 when Tila failed before writing anything (counted TILA_LA_OFF): run
 * the real routine, then tila_la_leave; -1 when it failed after (said on stderr, counted
 * TILA_LA_LOST, the call ended): return TILA_LA_LOST_INFO where the routine has an INFO.
 */
int tila_la_finish(tila_la_routine_t *r, tila_desc_t **D, int count, int rc, int begun);

/** max(1, n), the smallest legal leading dimension. */
static inline int tila_la_max1(int n) { return n > 1 ? n : 1; }

#pragma GCC visibility pop

#endif /* TILA_LAPACK_H */
