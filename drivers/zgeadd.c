/**
 * @file zgeadd.c
 * @brief Tiled B = alpha A + beta B.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "codelets_z.h"
#include "tila_runtime.h"

int tila_zgeadd_async(tila_complex64_t alpha, tila_desc_t *A, tila_complex64_t beta, tila_desc_t *B,
                      tila_sequence_t *seq, tila_request_t *req)
{
    static const char *func = "tila_zgeadd";
    int rc = tila_check_init(func);
    if (rc) return rc;
    if ((rc = tila_check_desc(func, 2, "A", A, TILA_COMPLEX64))) return rc;
    if ((rc = tila_check_desc(func, 4, "B", B, TILA_COMPLEX64))) return rc;
    if ((rc = tila_check_same_tiling(func, 4, "B", A, B))) return rc;
    if ((rc = tila_check_sequence(func, 5, seq, req))) return rc;
    tila_call_begin(seq, req);

    tila_task_t t = tila_task_init(seq, req, 0);
    for (int n = 0; n < B->nt && !rc; n++)
        for (int m = 0; m < B->mt && !rc; m++) {
            tila_task_on(&t, B, m, n);
            rc = tila_insert_zgeadd(&t, tila_tile_rows(B, m), tila_tile_cols(B, n), alpha,
                                    tila_task_tile(&t, A, m, n), beta, tila_task_tile(&t, B, m, n));
        }
    return rc;
}

int tila_zgeadd(tila_complex64_t alpha, tila_desc_t *A, tila_complex64_t beta, tila_desc_t *B)
{
    tila_sync_t s;
    int rc = tila_sync_begin("tila_zgeadd", &s);
    return rc ? rc : tila_sync_end(&s, tila_zgeadd_async(alpha, A, beta, B, s.seq, &s.req));
}
