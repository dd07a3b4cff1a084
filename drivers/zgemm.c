/**
 * @file zgemm.c
 * @brief Tiled C = alpha op(A) op(B) + beta C over StarPU-MPI.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "codelets_z.h"
#include "tila_runtime.h"

int tila_zgemm_async(tila_trans_t transa, tila_trans_t transb, tila_complex64_t alpha,
                     tila_desc_t *A, tila_desc_t *B, tila_complex64_t beta, tila_desc_t *C,
                     tila_sequence_t *seq, tila_request_t *req)
{
    static const char *func = "tila_zgemm";
    int rc = tila_check_init(func);
    if (rc) return rc;
    if ((rc = tila_check_trans(func, 1, "transa", transa))) return rc;
    if ((rc = tila_check_trans(func, 2, "transb", transb))) return rc;
    if ((rc = tila_check_desc(func, 4, "A", A, TILA_COMPLEX64))) return rc;
    if ((rc = tila_check_desc(func, 5, "B", B, TILA_COMPLEX64))) return rc;
    if ((rc = tila_check_desc(func, 7, "C", C, TILA_COMPLEX64))) return rc;
    int na = transa == TILA_NOTRANS;
    int nb = transb == TILA_NOTRANS;
    int am = na ? A->m : A->n, ak = na ? A->n : A->m, amb = na ? A->mb : A->nb,
        akb = na ? A->nb : A->mb;
    int bk = nb ? B->m : B->n, bn = nb ? B->n : B->m, bkb = nb ? B->mb : B->nb,
        bnb = nb ? B->nb : B->mb;
    if (am != C->m || amb != C->mb) {
        tila_error(func, "op(A) has %d rows in tiles of %d, C has %d in tiles of %d", am, amb, C->m,
                   C->mb);
        return -4;
    }
    if (bn != C->n || bnb != C->nb) {
        tila_error(func, "op(B) has %d columns in tiles of %d, C has %d in tiles of %d", bn, bnb,
                   C->n, C->nb);
        return -5;
    }
    if (bk != ak || bkb != akb) {
        tila_error(func,
                   "op(A) has %d columns in tiles of %d, op(B) has %d rows in tiles "
                   "of %d",
                   ak, akb, bk, bkb);
        return -5;
    }
    if ((rc = tila_check_sequence(func, 8, seq, req))) return rc;

    int kt = na ? A->nt : A->mt;
    tila_task_t t = tila_task_init(seq, req, 0);
    for (int n = 0; n < C->nt && !rc; n++)
        for (int m = 0; m < C->mt && !rc; m++) {
            int rows = tila_tile_rows(C, m), cols = tila_tile_cols(C, n);
            tila_task_on(&t, C, m, n);
            if (kt == 0) {
                /* op(A) op(B) is empty: C = beta C. */
                rc = tila_insert_zlascal(&t, rows, cols, beta, tila_task_tile(&t, C, m, n));
                continue;
            }
            for (int k = 0; k < kt && !rc; k++) {
                int inner = k == kt - 1 ? ak - k * akb : akb;
                rc = tila_insert_zgemm(
                    &t, transa, transb, rows, cols, inner, alpha,
                    tila_task_op_tile(&t, A, transa, m, k), tila_task_op_tile(&t, B, transb, k, n),
                    k == 0 ? beta : (tila_complex64_t)1.0, tila_task_tile(&t, C, m, n));
            }
        }
    return rc;
}

int tila_zgemm(tila_trans_t transa, tila_trans_t transb, tila_complex64_t alpha, tila_desc_t *A,
               tila_desc_t *B, tila_complex64_t beta, tila_desc_t *C)
{
    tila_sync_t s;
    int rc = tila_sync_begin("tila_zgemm", &s);
    return rc ? rc
              : tila_sync_end(
                    &s, tila_zgemm_async(transa, transb, alpha, A, B, beta, C, s.seq, &s.req));
}
