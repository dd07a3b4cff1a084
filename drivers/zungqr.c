/**
 * @file zungqr.c
 * @brief Tiled thin Q of tila_zgeqrf: Q = (first columns of) H_1 H_2 ... applied to I.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "drivers_z.h"

int tila_zungqr_async(tila_desc_t *A, tila_desc_t *T, tila_desc_t *Q, tila_sequence_t *seq,
                      tila_request_t *req)
{
    static const char *func = "tila_zungqr";
    int rc = tila_check_init(func);
    if (rc) return rc;
    if ((rc = tila_zqr_check_factors(func, 1, A, T))) return rc;
    if ((rc = tila_check_desc(func, 3, "Q", Q, TILA_COMPLEX64))) return rc;
    /* The identity Q starts from needs square diagonal tiles: Q's columns are tiled as its
     * rows, and those as A's. */
    if (!tila_tiling_equal(Q->mt, Q->row0, A->mt, A->row0) || !tila_tiling_diagonal(Q) ||
        Q->n > A->m) {
        tila_error(func,
                   "argument 3 (Q) is %d x %d in %d x %d tiles: expected %d rows tiled as A's, "
                   "at most %d columns tiled as its rows",
                   Q->m, Q->n, Q->mt, Q->nt, A->m, A->m);
        return -3;
    }
    if ((rc = tila_check_sequence(func, 4, seq, req))) return rc;
    tila_call_begin(seq, req);
    /* Q = H_1 ... H_k [I; 0]; the identity's columns left of panel k are left as they are
     * by panel k (its reflectors start at A's tile row k), so the product skips them. */
    rc = tila_zlaset_async(TILA_GENERAL, 0.0, 1.0, Q, seq, req);
    return rc ? rc : tila_zunmqr_submit(TILA_LEFT, TILA_NOTRANS, A, T, Q, 1, seq, req);
}

int tila_zungqr(tila_desc_t *A, tila_desc_t *T, tila_desc_t *Q)
{
    tila_sync_t s;
    int rc = tila_sync_begin("tila_zungqr", &s);
    return rc ? rc : tila_sync_end(&s, tila_zungqr_async(A, T, Q, s.seq, &s.req));
}
