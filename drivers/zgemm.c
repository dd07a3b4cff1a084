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
    /* Tilings of op(A)'s and op(B)'s rows and columns: (tile count, boundaries). */
    int amt = na ? A->mt : A->nt, akt = na ? A->nt : A->mt;
    const int *am0 = na ? A->row0 : A->col0, *ak0 = na ? A->col0 : A->row0;
    int bkt = nb ? B->mt : B->nt, bnt = nb ? B->nt : B->mt;
    const int *bk0 = nb ? B->row0 : B->col0, *bn0 = nb ? B->col0 : B->row0;
    if (!tila_tiling_equal(amt, am0, C->mt, C->row0)) {
        tila_error(func,
                   "op(A) has %d rows in %d tiles, C has %d in %d tiles: they must be tiled alike",
                   am0[amt], amt, C->m, C->mt);
        return -4;
    }
    if (!tila_tiling_equal(bnt, bn0, C->nt, C->col0)) {
        tila_error(
            func,
            "op(B) has %d columns in %d tiles, C has %d in %d tiles: they must be tiled alike",
            bn0[bnt], bnt, C->n, C->nt);
        return -5;
    }
    if (!tila_tiling_equal(akt, ak0, bkt, bk0)) {
        tila_error(func,
                   "op(A) has %d columns in %d tiles, op(B) has %d rows in %d tiles: they must "
                   "be tiled alike",
                   ak0[akt], akt, bk0[bkt], bkt);
        return -5;
    }
    if ((rc = tila_check_sequence(func, 8, seq, req))) return rc;
    tila_call_begin(seq, req);

    int kt = akt;
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
                int inner = ak0[k + 1] - ak0[k];
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
