/**
 * @file zgels.c
 * @brief Tiled least squares min ||B - A X||_2 (m >= n) by QR, over StarPU-MPI.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "codelets_z.h"
#include "drivers_z.h"

int tila_zgels_async(tila_desc_t *A, tila_desc_t *T, tila_desc_t *B, tila_sequence_t *seq,
                     tila_request_t *req)
{
    static const char *func = "tila_zgels";
    int rc = tila_check_init(func);
    if (rc) return rc;
    if ((rc = tila_zqr_check_factors(func, 1, A, T))) return rc;
    if (A->m < A->n) {
        tila_error(func, "argument 1 (A) is %d x %d: least squares needs m >= n", A->m, A->n);
        return -1;
    }
    if ((rc = tila_check_desc(func, 3, "B", B, TILA_COMPLEX64))) return rc;
    if (!tila_tiling_equal(B->mt, B->row0, A->mt, A->row0)) {
        tila_error(func,
                   "argument 3 (B) has %d rows in %d tiles, A has %d in %d tiles: B's rows "
                   "must be tiled as A's",
                   B->m, B->mt, A->m, A->mt);
        return -3;
    }
    if ((rc = tila_check_sequence(func, 4, seq, req))) return rc;
    tila_call_begin(seq, req);
    /* A = Q R, B = Q^H B, then R X = B(0:n, :). */
    rc = tila_zgeqrf_async(A, T, seq, req);
    if (!rc) rc = tila_zunmqr_submit(TILA_LEFT, TILA_CONJTRANS, A, T, B, 0, seq, req);
    if (!rc) {
        /* B(0:n, :) = R^{-1} B(0:n, :), R the n x n upper triangle on A's top. */
        tila_task_t t = tila_task_init(seq, req, 0);
        rc = tila_ztrsm_left_submit(&t, TILA_UPPER, TILA_NOTRANS, TILA_NONUNIT, 1.0, A, B, A->nt);
    }
    return rc;
}

int tila_zgels(tila_desc_t *A, tila_desc_t *T, tila_desc_t *B)
{
    tila_sync_t s;
    int rc = tila_sync_begin("tila_zgels", &s);
    return rc ? rc : tila_sync_end(&s, tila_zgels_async(A, T, B, s.seq, &s.req));
}
