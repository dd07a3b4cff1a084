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

/* B(0:n, :) = R^{-1} B(0:n, :), R the n x n upper triangle of A's top: tile back substitution. */
static int zgels_trsm(tila_task_t *t, const tila_desc_t *A, const tila_desc_t *B)
{
    int rc = 0;
    for (int k = A->nt - 1; k >= 0 && !rc; k--) {
        int kn = tila_tile_cols(A, k);
        for (int j = 0; j < B->nt && !rc; j++) {
            int cols = tila_tile_cols(B, j);
            t->priority = 2 * k + 1;
            tila_task_on(t, B, k, j);
            rc = tila_insert_ztrsm(t, TILA_LEFT, TILA_UPPER, TILA_NOTRANS, TILA_NONUNIT, kn, cols,
                                   1.0, tila_tile(A, k, k), tila_tile(B, k, j));
            t->priority = 2 * k;
            for (int i = 0; i < k && !rc; i++) {
                tila_task_on(t, B, i, j);
                rc = tila_insert_zgemm(t, TILA_NOTRANS, TILA_NOTRANS, A->nb, cols, kn, -1.0,
                                       tila_tile(A, i, k), tila_tile(B, k, j), 1.0,
                                       tila_tile(B, i, j));
            }
        }
    }
    return rc;
}

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
    if (B->m != A->m || B->mb != A->mb) {
        tila_error(func, "argument 3 (B) has %d rows in tiles of %d, A has %d in tiles of %d",
                   B->m, B->mb, A->m, A->mb);
        return -3;
    }
    if ((rc = tila_check_sequence(func, 4, seq, req))) return rc;
    /* A = Q R, B = Q^H B, then R X = B(0:n, :). */
    rc = tila_zgeqrf_async(A, T, seq, req);
    if (!rc)
        rc = tila_zunmqr_submit(TILA_LEFT, TILA_CONJTRANS, A, T, B, 0, seq, req);
    if (!rc) {
        tila_task_t t = tila_task_init(seq, req, 0);
        rc = zgels_trsm(&t, A, B);
    }
    return rc;
}

int tila_zgels(tila_desc_t *A, tila_desc_t *T, tila_desc_t *B)
{
    tila_sequence_t *seq;
    tila_request_t req = TILA_REQUEST_INITIALIZER;
    int rc = tila_check_init("tila_zgels");
    if (rc || (rc = tila_sequence_create(&seq)))
        return rc;
    rc = tila_zgels_async(A, T, B, seq, &req);
    return tila_sequence_run_sync(rc, seq);
}
