/**
 * @file ztrsm.c
 * @brief Tiled triangular solve: B = alpha op(A)^-1 B or alpha B op(A)^-1.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "codelets_z.h"
#include "drivers_z.h"

/*
 * Left: op(A) X = alpha B, swept down the tile rows when op(A) is lower, up when it is
 * upper.  Step kk solves tile row k, then removes it from the rows still to solve; the
 * first step scales those rows by alpha through its gemm's beta.  Tile k has A's tile
 * column k's order (B's tile row k may be taller: gels solves with R on B's top).
 */
int tila_ztrsm_left_submit(tila_task_t *t, tila_uplo_t uplo, tila_trans_t trans,
                           tila_diag_t diag, tila_complex64_t alpha, const tila_desc_t *A,
                           const tila_desc_t *B, int mt)
{
    int rc = 0, forward = (uplo == TILA_LOWER) == (trans == TILA_NOTRANS);
    for (int kk = 0; kk < mt && !rc; kk++) {
        int k = forward ? kk : mt - 1 - kk;
        tila_complex64_t lalpha = kk == 0 ? alpha : (tila_complex64_t)1.0;
        for (int n = 0; n < B->nt && !rc; n++) {
            t->priority = 1;
            tila_task_on(t, B, k, n);
            rc = tila_insert_ztrsm(t, TILA_LEFT, uplo, trans, diag, tila_tile_cols(A, k),
                                   tila_tile_cols(B, n), lalpha, tila_tile(A, k, k),
                                   tila_tile(B, k, n));
        }
        for (int mm = kk + 1; mm < mt && !rc; mm++) {
            int m = forward ? mm : mt - 1 - mm;
            for (int n = 0; n < B->nt && !rc; n++) {
                t->priority = mm == kk + 1;
                tila_task_on(t, B, m, n);
                rc = tila_insert_zgemm(t, trans, TILA_NOTRANS, tila_tile_cols(A, m),
                                       tila_tile_cols(B, n), tila_tile_cols(A, k), -1.0,
                                       tila_op_tile(A, trans, m, k), tila_tile(B, k, n),
                                       lalpha, tila_tile(B, m, n));
            }
        }
    }
    return rc;
}

/* Right: X op(A) = alpha B, swept along the tile columns the same way. */
static int trsm_right(tila_task_t *t, tila_uplo_t uplo, tila_trans_t trans, tila_diag_t diag,
                      tila_complex64_t alpha, const tila_desc_t *A, tila_desc_t *B)
{
    int rc = 0, nt = B->nt, forward = (uplo == TILA_UPPER) == (trans == TILA_NOTRANS);
    for (int kk = 0; kk < nt && !rc; kk++) {
        int k = forward ? kk : nt - 1 - kk;
        tila_complex64_t lalpha = kk == 0 ? alpha : (tila_complex64_t)1.0;
        for (int m = 0; m < B->mt && !rc; m++) {
            t->priority = 1;
            tila_task_on(t, B, m, k);
            rc = tila_insert_ztrsm(t, TILA_RIGHT, uplo, trans, diag, tila_tile_rows(B, m),
                                   tila_tile_cols(B, k), lalpha, tila_tile(A, k, k),
                                   tila_tile(B, m, k));
        }
        for (int nn = kk + 1; nn < nt && !rc; nn++) {
            int n = forward ? nn : nt - 1 - nn;
            for (int m = 0; m < B->mt && !rc; m++) {
                t->priority = nn == kk + 1;
                tila_task_on(t, B, m, n);
                rc = tila_insert_zgemm(t, TILA_NOTRANS, trans, tila_tile_rows(B, m),
                                       tila_tile_cols(B, n), tila_tile_cols(B, k), -1.0,
                                       tila_tile(B, m, k), tila_op_tile(A, trans, k, n),
                                       lalpha, tila_tile(B, m, n));
            }
        }
    }
    return rc;
}

int tila_ztrsm_async(tila_side_t side, tila_uplo_t uplo, tila_trans_t trans, tila_diag_t diag,
                     tila_complex64_t alpha, tila_desc_t *A, tila_desc_t *B,
                     tila_sequence_t *seq, tila_request_t *req)
{
    static const char *func = "tila_ztrsm";
    int rc = tila_check_init(func);
    if (rc) return rc;
    if ((rc = tila_check_side(func, 1, side))) return rc;
    if ((rc = tila_check_triangle(func, 2, uplo))) return rc;
    if ((rc = tila_check_trans(func, 3, "trans", trans))) return rc;
    if ((rc = tila_check_diag(func, 4, diag))) return rc;
    if ((rc = tila_check_desc(func, 6, "A", A, TILA_COMPLEX64))) return rc;
    if ((rc = tila_check_desc(func, 7, "B", B, TILA_COMPLEX64))) return rc;
    int order = side == TILA_LEFT ? B->m : B->n, tile = side == TILA_LEFT ? B->mb : B->nb;
    if (A->m != A->n || A->mb != A->nb || A->m != order || A->mb != tile) {
        tila_error(func, "argument 6 (A) is %d x %d in %d x %d tiles; it must be %d x %d in "
                   "%d x %d tiles to match B", A->m, A->n, A->mb, A->nb, order, order, tile,
                   tile);
        return -6;
    }
    if ((rc = tila_check_sequence(func, 8, seq, req))) return rc;
    if (B->m == 0 || B->n == 0)
        return 0;
    tila_task_t t = tila_task_init(seq, req, 0);
    if (side == TILA_LEFT)
        return tila_ztrsm_left_submit(&t, uplo, trans, diag, alpha, A, B, B->mt);
    return trsm_right(&t, uplo, trans, diag, alpha, A, B);
}

int tila_ztrsm(tila_side_t side, tila_uplo_t uplo, tila_trans_t trans, tila_diag_t diag,
               tila_complex64_t alpha, tila_desc_t *A, tila_desc_t *B)
{
    tila_sequence_t *seq;
    tila_request_t req = TILA_REQUEST_INITIALIZER;
    int rc = tila_check_init("tila_ztrsm");
    if (rc || (rc = tila_sequence_create(&seq)))
        return rc;
    rc = tila_ztrsm_async(side, uplo, trans, diag, alpha, A, B, seq, &req);
    return tila_sequence_run_sync(rc, seq);
}
