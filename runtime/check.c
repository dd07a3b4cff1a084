/**
 * @file check.c
 * @brief Argument checks shared by the drivers (LAPACK's -i contract).
 *
 * A check only looks: it prints its message and returns -pos, or 0, and changes nothing.
 * What a call then does to begin (its request joins the sequence, Tila's workers come back
 * after tila_pause) is tila_call_begin's, which the drivers call once their checks pass.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "tila_runtime_private.h"

static const char *tila_prec_name(tila_prec_t prec)
{
    static const char *name[] = { "s (float)", "d (double)", "c (float complex)",
                                  "z (double complex)" };
    return (unsigned)prec <= TILA_COMPLEX64 ? name[prec] : "unknown";
}

int tila_check_desc(const char *func, int pos, const char *name, const tila_desc_t *A,
                    tila_prec_t prec)
{
    if (!A) {
        tila_error(func, "argument %d (%s) is NULL", pos, name);
        return -pos;
    }
    if (A->prec != prec) {
        tila_error(func, "argument %d (%s) holds %s elements, this routine takes %s", pos, name,
                   tila_prec_name(A->prec), tila_prec_name(prec));
        return -pos;
    }
    if (A->held) {
        tila_error(func, "argument %d (%s) is in use by %s until its sequence's wait", pos, name,
                   A->held);
        return -pos;
    }
    return 0;
}

int tila_check_sequence(const char *func, int pos, tila_sequence_t *seq, tila_request_t *req)
{
    if (!seq) {
        tila_error(func, "argument %d (sequence) is NULL", pos);
        return -pos;
    }
    if (!req) {
        tila_error(func, "argument %d (request) is NULL", pos + 1);
        return -(pos + 1);
    }
    return 0;
}

int tila_check_same_tiling(const char *func, int pos, const char *name, const tila_desc_t *A,
                           const tila_desc_t *B)
{
    if (!tila_same_tiles(A, B)) {
        tila_error(func,
                   "argument %d (%s) is %d x %d in %d x %d tiles, expected %d x %d in "
                   "%d x %d tiles of the same sizes",
                   pos, name, B->m, B->n, B->mt, B->nt, A->m, A->n, A->mt, A->nt);
        return -pos;
    }
    return 0;
}

int tila_illegal_value(const char *func, int pos, const char *name, int value, const char *allowed)
{
    tila_error(func, "argument %d (%s) has illegal value %d: %s", pos, name, value, allowed);
    return -pos;
}

int tila_check_uplo(const char *func, int pos, tila_uplo_t uplo)
{
    return uplo == TILA_UPPER || uplo == TILA_LOWER || uplo == TILA_GENERAL
               ? 0
               : tila_illegal_value(func, pos, "uplo", (int)uplo,
                                    "TILA_UPPER, TILA_LOWER or TILA_GENERAL");
}

int tila_check_square_tiles(const char *func, int pos, const char *what, const tila_desc_t *A)
{
    if (tila_tiling_diagonal(A)) return 0;
    tila_error(func,
               "argument %d (A): %s needs square diagonal tiles (the same row and column "
               "boundaries), A has %d x %d tiles of other sizes",
               pos, what, A->mt, A->nt);
    return -pos;
}

int tila_check_triangle_tiles(const char *func, int pos, tila_uplo_t uplo, const tila_desc_t *A)
{
    return uplo == TILA_GENERAL ? 0 : tila_check_square_tiles(func, pos, "a triangle", A);
}

int tila_check_square(const char *func, int pos, const tila_desc_t *A)
{
    if (tila_square_tiles(A)) return 0;
    tila_error(func,
               "argument %d (A) is %d x %d in %d x %d tiles: it must be square, its rows "
               "tiled as its columns",
               pos, A->m, A->n, A->mt, A->nt);
    return -pos;
}

int tila_check_rhs(const char *func, int pos, const tila_desc_t *A, const tila_desc_t *B)
{
    int rc = tila_check_square(func, pos, A);
    if (rc) return rc;
    if (!tila_tiling_equal(B->mt, B->row0, A->nt, A->col0)) {
        tila_error(func,
                   "argument %d (B) has %d rows in %d tiles; A is %d x %d in %d x %d tiles: "
                   "B's rows must be tiled as A's",
                   pos + 1, B->m, B->mt, A->m, A->n, A->mt, A->nt);
        return -(pos + 1);
    }
    return 0;
}

int tila_check_triangle(const char *func, int pos, tila_uplo_t uplo)
{
    return uplo == TILA_UPPER || uplo == TILA_LOWER
               ? 0
               : tila_illegal_value(func, pos, "uplo", (int)uplo, "TILA_UPPER or TILA_LOWER");
}

int tila_check_trans(const char *func, int pos, const char *name, tila_trans_t trans)
{
    return trans == TILA_NOTRANS || trans == TILA_TRANS || trans == TILA_CONJTRANS
               ? 0
               : tila_illegal_value(func, pos, name, (int)trans,
                                    "TILA_NOTRANS, TILA_TRANS or TILA_CONJTRANS");
}

int tila_check_side(const char *func, int pos, tila_side_t side)
{
    return side == TILA_LEFT || side == TILA_RIGHT
               ? 0
               : tila_illegal_value(func, pos, "side", (int)side, "TILA_LEFT or TILA_RIGHT");
}

int tila_check_diag(const char *func, int pos, tila_diag_t diag)
{
    return diag == TILA_UNIT || diag == TILA_NONUNIT
               ? 0
               : tila_illegal_value(func, pos, "diag", (int)diag, "TILA_UNIT or TILA_NONUNIT");
}
