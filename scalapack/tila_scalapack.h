/**
 * @file tila_scalapack.h
 * @brief libtila_scalapack's core: which ScaLAPACK calls run on Tila, and how.
 *
 * Each Fortran entry point (pzpotrf_, pzlange_, ...) checks its arguments as the real
 * routine does, then asks tila_sl_begin whether Tila takes the call: the BLACS grid must
 * hold every rank of MPI_COMM_WORLD (Tila's communicator), the problem must reach the size
 * threshold, and every rank's arguments must be legal.  Otherwise the real routine runs
 * (found with dlsym(RTLD_NEXT)): it reports illegal arguments through PXERBLA exactly as
 * ever.  A call Tila takes runs on the caller's local arrays in place when they are split
 * in blocks Tila can use as tiles, else on copies in Tila's tile size (Tila's own tiles
 * filled by tila_<p>lacpy from a view of the caller's blocks, or, for blocks below 32 x 32,
 * ScaLAPACK arrays in tile x tile blocks filled by one MPI_Alltoallv: scalapack/layer.c).  A submatrix that starts inside a block gets a first tile row and column of
 * their own sizes (tila_desc_create_scalapack_sub).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_SCALAPACK_H
#define TILA_SCALAPACK_H

#include <stddef.h>

#include "tila.h"
#include "tila_layer.h"

/* The entry points this library exists for; everything else in it is hidden. */
#define TILA_SL_EXPORT __attribute__((visibility("default")))

#pragma GCC visibility push(hidden)

/* ScaLAPACK's descriptor entries (0-based DTYPE_ ... LLD_). */
enum {
    TILA_SL_DTYPE,
    TILA_SL_CTXT,
    TILA_SL_M,
    TILA_SL_N,
    TILA_SL_MB,
    TILA_SL_NB,
    TILA_SL_RSRC,
    TILA_SL_CSRC,
    TILA_SL_LLD
};

/** What became of a call: printed once per routine and path, counted for the exit summary. */
typedef enum tila_sl_path_e {
    TILA_SL_INPLACE, /**< Tila on the caller's local arrays */
    TILA_SL_COPY,    /**< Tila on copies in its own tile size */
    TILA_SL_SMALL,   /**< the real routine: below the size threshold */
    TILA_SL_GRID,    /**< the real routine: the grid is not every rank */
    TILA_SL_ARGS,    /**< the real routine: an illegal argument, which it reports */
    TILA_SL_LAYOUT,  /**< the real routine: a norm of blocks Tila cannot use in place */
    TILA_SL_CASE,    /**< the real routine: a case this library leaves to it (p?gels says which) */
    TILA_SL_OFF,     /**< the real routine: Tila could not start, or failed before it wrote
                          the caller's data (no memory for a copy, ...) */
    TILA_SL_LOST,    /**< Tila failed after it had written the caller's data in place */
    TILA_SL_NPATHS
} tila_sl_path_t;

/** One Fortran entry point ({ .name = "PZPOTRF", .symbol = "pzpotrf_" }); a static object
 * in its file. */
typedef tila_layer_routine_t tila_sl_routine_t;

/** A call that Tila takes. */
typedef struct tila_sl_call_s {
    tila_sl_routine_t *routine;
    int ctxt, nprow, npcol, myrow, mycol;
    int *ranks; /**< ranks[r * npcol + c]: MPI_COMM_WORLD rank of grid process (r, c); NULL
                     before the call's agreement (tila_sl_begin) */
    int min_nb; /**< TILA_SCALAPACK_MIN_NB, rank 0's */
} tila_sl_call_t;

/** A matrix argument: the caller's submatrix, and what Tila works on. */
typedef struct tila_sl_mat_s {
    void *a;
    int ia, ja; /**< 1-based, as ScaLAPACK's */
    const int *desc;
    int m, n;
    tila_desc_t *A;   /**< Tila's view, between tila_sl_open and tila_sl_close */
    int tile;         /**< the copy's tile size; 0: in place */
    void *copy;       /**< a copy's local array when tila_sl_open's exchange fills it */
    int copy_desc[9]; /**< that copy's ScaLAPACK descriptor */
    void *xbuf;       /**< that exchange's room, taken with the copy (scalapack/layer.c) */
    int desc1[9];     /**< a PBLAS type-2 descriptor as type 1 (tila_sl_pblas_mat) */
} tila_sl_mat_t;

/** Is the descriptor legal on this process for the m x n submatrix at (ia, ja) (CHK1MAT)? */
int tila_sl_desc_ok(const tila_sl_mat_t *M);

/**
 * Is M legal as p?potrf checks its A: a legal descriptor, M square at a block boundary,
 * in square blocks?
 */
int tila_sl_factor_ok(const tila_sl_mat_t *M);

/**
 * The start of a routine that Tila runs on its operands in place or not at all: does Tila
 * take it (tila_sl_begin on M[0]'s context, with `size` against the threshold), with every
 * M[k] usable in place (square blocks if `square`) in M[0]'s context and block sizes?  On
 * 1, every M[k] is open: compute, then tila_sl_inplace_end.  On 0 (counted), call the real
 * routine.
 */
int tila_sl_inplace_begin(tila_sl_call_t *c, tila_sl_routine_t *r, tila_sl_mat_t *const *M,
                          int count, tila_prec_t prec, int square, int size, int args_ok);

/** tila_sl_finish for a call on matrices in place (the first `written` written by it). */
int tila_sl_inplace_end(tila_sl_call_t *c, tila_sl_mat_t *const *M, int count, int written,
                        tila_prec_t prec, int rc);

/** INFO where Tila failed after it had written the caller's data in place (TILA_SL_LOST). */
#define TILA_SL_LOST_INFO (-10000)

/**
 * The end of Tila's part of a call on the `count` open matrices M, of which the first
 * `written` are the call's output: rc (Tila's result: 0 or a negative TILA_ERR_*) agreed by
 * every rank; on success the outputs stored and every M[k] closed, the call counted
 * under `path`.  `begun`: Tila's computation has started (so it may have written an output
 * it works on in place).  Returns 0 when Tila's result stands; 1 when Tila failed but the
 * caller's data is as it was (every output a copy not yet stored, or nothing begun):
 * counted as TILA_SL_OFF, run the real routine; -1 when Tila failed after writing the
 * caller's data (said on stderr, counted as TILA_SL_LOST): return TILA_SL_LOST_INFO where
 * the routine has an INFO.  Collective.
 */
int tila_sl_finish(tila_sl_call_t *c, tila_sl_mat_t *const *M, int count, int written,
                   tila_prec_t prec, int rc, int begun, tila_sl_path_t path);

/** rc agreed: the lowest of every rank's (0 where none failed); a failure said on stderr
 * by the rank that had it.  Collective. */
int tila_sl_agree(const tila_sl_call_t *c, int rc);

/**
 * A norm's start: tila_sl_inplace_begin for one matrix, ScaLAPACK's norms taking any offsets
 * and blocks and a copy costing more than the norm.  A norm ScaLAPACK computes slowly
 * (`slow_there`: its row sums are 5-30 times slower than Tila's, its Frobenius norm up to 2)
 * goes in place from blocks of TILA_SCALAPACK_MIN_NB; the others (max, the one norm of a
 * general or triangular matrix: one fast pass for ScaLAPACK too) from blocks of twice that,
 * where Tila's costs per tile are covered (bench/README.md).
 */
int tila_sl_norm_begin(tila_sl_call_t *c, tila_sl_routine_t *r, tila_sl_mat_t *M, tila_prec_t prec,
                       int square, int slow_there, int args_ok);

/**
 * M for a PBLAS operand: as given, except that a descriptor of PBLAS's type 2 (11 entries,
 * with the first block's IMB x INB) whose first block is a full one is read as type 1; other
 * type-2 descriptors fail tila_sl_desc_ok, and the call goes to PBLAS.
 */
void tila_sl_pblas_mat(tila_sl_mat_t *M, const void *a, int ia, int ja, const int *desc, int m,
                       int n);

/** Close M and count the call: 0 when Tila's value stands, 1 when the real routine must
 * compute it (Tila failed: rc agreed, as tila_sl_finish). */
int tila_sl_norm_end(tila_sl_call_t *c, tila_sl_mat_t *M, tila_prec_t prec, int rc);

/**
 * Does Tila take this call?  size is the problem's order (the threshold's measure),
 * args_ok whether this process found its arguments legal.  On 1, c is filled: open the
 * matrices, compute, close them and call tila_sl_end.  On 0 (counted), call the real
 * routine.  Collective over MPI_COMM_WORLD once the grid is known to span it.
 */
int tila_sl_begin(tila_sl_call_t *c, tila_sl_routine_t *r, int ctxt, int size, int args_ok);

/** Count the call under `path`, print it the first time (TILA_VERBOSE), free c. */
void tila_sl_end(tila_sl_call_t *c, tila_sl_path_t path);

/** Count a call of r that never reached tila_sl_begin under `path` (see tila_sl_end). */
void tila_sl_count(tila_sl_routine_t *r, tila_sl_path_t path);

/**
 * Are a solve's matrices legal as p?potrs and p?posv check them: A as tila_sl_factor_ok,
 * B's rows at a block boundary on A's process row, in blocks of A's size, on A's grid?
 */
int tila_sl_solve_ok(const tila_sl_mat_t *A, const tila_sl_mat_t *B);

/**
 * The tile size Tila uses for a factorization's A (square blocks) and the matrix B it
 * applies to (NULL if none): 0 when both can be used in place, else a copy's tile for an
 * order-`size` problem, tila_layer_tile(size, most).
 */
int tila_sl_factor_tile(const tila_sl_call_t *c, const tila_sl_mat_t *A, const tila_sl_mat_t *B,
                        int size, int most);

/**
 * Open a factorization's A (square blocks) and the matrix B it applies to (NULL if none),
 * both loaded, in the tile of tila_sl_factor_tile.  @return the path, or -1 (nothing open:
 * run the real routine).
 */
int tila_sl_open_factor(const tila_sl_call_t *c, tila_sl_mat_t *A, tila_sl_mat_t *B, int size,
                        int most, tila_prec_t prec);

/**
 * Give Tila a view of M: in place (tile 0) or on a copy in tile x tile blocks, filled
 * from the caller's submatrix if `load`.  Collective; on failure (the same on every rank)
 * nothing is left open and the caller should run the real routine.
 */
int tila_sl_open(const tila_sl_call_t *c, tila_sl_mat_t *M, tila_prec_t prec, int tile, int load);

/**
 * Close Tila's view of M, first copying the copy back into the caller's arrays if `store`;
 * returns 0, or (agreed, the caller's arrays unchanged) why Tila's copy could not be stored.
 */
int tila_sl_close(const tila_sl_call_t *c, tila_sl_mat_t *M, tila_prec_t prec, int store);

/** The real routine of r (aborts with a message if none follows libtila_scalapack). */
void *tila_sl_real(tila_sl_routine_t *r);

/** P?GEQRF's smallest LWORK, NB_A (Mp0 + Nq0 + NB_A), on this process (sub(A)'s descriptor
 * must be valid). */
int tila_sl_geqrf_lwork(const tila_sl_mat_t *A);

/** The room tila_sl_put_tau needs: the gather of T on rank 0, and the taus on every rank. */
typedef struct tila_sl_tau_s {
    void *gather, *all;
} tila_sl_tau_t;

/**
 * Take the room tila_sl_put_tau needs for sub(A)'s factorization with T, before the
 * factorization overwrites sub(A): a failure leaves the caller's data as it was.
 * Collective; 0, or (agreed, nothing taken) TILA_ERR_NOMEM.
 */
int tila_sl_tau_alloc(const tila_sl_call_t *c, const tila_sl_mat_t *A, const tila_desc_t *T,
                      tila_prec_t prec, tila_sl_tau_t *room);

/** Give back tila_sl_tau_alloc's room. */
void tila_sl_tau_free(tila_sl_tau_t *room);

/**
 * Store the scalar factors of the reflectors of a QR factorization into ScaLAPACK's TAU:
 * the diagonal of the PANEL-scheme T of tila_<p>geqrf (one triangular factor per tile
 * column of A->A, whose diagonal holds the taus as LAPACK's ?geqrt leaves them), gathered
 * and broadcast, then written where PXGEQRF writes them: TAU(local column of JA + j - 1)
 * on every process of the process column owning that column; through `room`
 * (tila_sl_tau_alloc's).  Collective; 0, or (agreed, TAU unchanged) why it could not.
 */
int tila_sl_put_tau(const tila_sl_call_t *c, const tila_sl_mat_t *A, tila_desc_t *T, void *tau,
                    tila_prec_t prec, const tila_sl_tau_t *room);

/**
 * The scalar factors of the reflectors in sub(A)'s first k columns, from ScaLAPACK's TAU
 * (LOCc(JA + k - 1) entries tied to A's columns, as P?GEQRF leaves them on every process row):
 * a new array of k entries, the same on every process (TAU as the process row of sub(A)'s
 * first row holds it), for tila_<p>larft.  Collective; the caller frees it; NULL on every
 * rank where one had no memory for it.
 */
void *tila_sl_get_tau(const tila_sl_call_t *c, const tila_sl_mat_t *A, int k, const void *tau,
                      tila_prec_t prec);

#pragma GCC visibility pop

#endif /* TILA_SCALAPACK_H */
