/**
 * @file zunmqr.c
 * @brief Tiled C = op(Q) C or C op(Q) with the Q of tila_zgeqrf, over StarPU-MPI.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "drivers_z.h"

int tila_zunmqr_async(tila_side_t side, tila_trans_t trans, tila_desc_t *A, tila_desc_t *T,
                      tila_desc_t *C, tila_sequence_t *seq, tila_request_t *req)
{
    static const char *func = "tila_zunmqr";
    int rc = tila_check_init(func);
    if (rc) return rc;
    if ((rc = tila_check_side(func, 1, side))) return rc;
#if defined(COMPLEX)
    if (trans != TILA_NOTRANS && trans != TILA_CONJTRANS)
        return tila_illegal_value(func, 2, "trans", (int)trans,
                                  "Q is applied as Q "
                                  "(TILA_NOTRANS) or Q^H (TILA_CONJTRANS)");
#else
    if ((rc = tila_check_trans(func, 2, "trans", trans))) return rc;
#endif
    if ((rc = tila_zqr_check_factors(func, 3, A, T))) return rc;
    if ((rc = tila_check_desc(func, 5, "C", C, TILA_COMPLEX64))) return rc;
    int left = side == TILA_LEFT;
    int cqt = left ? C->mt : C->nt;
    const int *cq0 = left ? C->row0 : C->col0;
    if (!tila_tiling_equal(cqt, cq0, A->mt, A->row0)) {
        tila_error(func,
                   "argument 5 (C) has %d %s in %d tiles, Q has order %d in %d tiles: they must "
                   "be tiled alike",
                   cq0[cqt], left ? "rows" : "columns", cqt, A->m, A->mt);
        return -5;
    }
    if ((rc = tila_check_sequence(func, 6, seq, req))) return rc;
    tila_call_begin(seq, req);
    return tila_zunmqr_submit(side, trans, A, T, C, 0, seq, req);
}

int tila_zunmqr(tila_side_t side, tila_trans_t trans, tila_desc_t *A, tila_desc_t *T,
                tila_desc_t *C)
{
    tila_sync_t s;
    int rc = tila_sync_begin("tila_zunmqr", &s);
    return rc ? rc : tila_sync_end(&s, tila_zunmqr_async(side, trans, A, T, C, s.seq, &s.req));
}
