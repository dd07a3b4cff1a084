/**
 * @file tila_rt_check.h
 * @brief Internal: errors and the drivers' shared argument checks (runtime/error.c, runtime/check.c), and tila_call_begin.
 * A part of the runtime's header: include tila_runtime.h, which includes the parts in order.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_RT_CHECK_H
#define TILA_RT_CHECK_H

#include "tila_runtime.h"

/** Print "func: message" on stderr, prefixed by the rank when there are several. */
void tila_error(const char *func, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** TILA_ERR_NOT_INITIALIZED (or TILA_ERR_STUCK after a call that could not finish) with a
 * message, else 0.  A check: it changes nothing (tila_call_begin does). */
int tila_check_init(const char *func);

/**
 * A call whose arguments passed their checks begins: Tila's workers are back (tila_resume,
 * after tila_pause) and req joins seq's wait, which gives it the status agreed there (a
 * request not yet in seq starts at 0).  Idempotent; a driver calls it before its first
 * tila_task_init, which fails the sequence (TILA_ERR_INTERNAL) where it did not.
 */
void tila_call_begin(tila_sequence_t *seq, tila_request_t *req);

/**
 * Argument checks shared by drivers; each prints the message and returns -pos
 * (pos is the argument's position) when the check fails, else 0, and changes nothing.
 */
int tila_check_desc(const char *func, int pos, const char *name, const tila_desc_t *A,
                    tila_prec_t prec);
int tila_check_sequence(const char *func, int pos, tila_sequence_t *seq, tila_request_t *req);
/** Print "argument pos (name) has illegal value value: allowed"; returns -pos. */
int tila_illegal_value(const char *func, int pos, const char *name, int value, const char *allowed);
/** uplo is TILA_UPPER, TILA_LOWER or TILA_GENERAL. */
int tila_check_uplo(const char *func, int pos, tila_uplo_t uplo);
/** uplo is TILA_UPPER or TILA_LOWER (a triangle, not the whole matrix). */
int tila_check_triangle(const char *func, int pos, tila_uplo_t uplo);
/** trans (argument `name`) is TILA_NOTRANS, TILA_TRANS or TILA_CONJTRANS. */
int tila_check_trans(const char *func, int pos, const char *name, tila_trans_t trans);
int tila_check_side(const char *func, int pos, tila_side_t side);
int tila_check_diag(const char *func, int pos, tila_diag_t diag);
/** A (argument pos) has square tiles, which `what` ("the tiled QR", ...) needs. */
int tila_check_square_tiles(const char *func, int pos, const char *what, const tila_desc_t *A);
/** A triangle (uplo not TILA_GENERAL) needs square tiles. */
int tila_check_triangle_tiles(const char *func, int pos, tila_uplo_t uplo, const tila_desc_t *A);
/** A (argument pos) is square, in square tiles. */
int tila_check_square(const char *func, int pos, const tila_desc_t *A);
/** A (argument pos) is square in square tiles and B (pos + 1) has its rows and tiling. */
int tila_check_rhs(const char *func, int pos, const tila_desc_t *A, const tila_desc_t *B);
/** B has A's size and tiling. */
int tila_check_same_tiling(const char *func, int pos, const char *name, const tila_desc_t *A,
                           const tila_desc_t *B);

#endif /* TILA_RT_CHECK_H */
