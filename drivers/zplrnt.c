/**
 * @file zplrnt.c
 * @brief Fill a matrix with the seeded random matrix, tile by tile on each owner.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "codelets_z.h"
#include "tila_runtime.h"

int tila_zplrnt_async(tila_desc_t *A, unsigned long long seed, tila_sequence_t *seq,
                      tila_request_t *req)
{
    static const char *func = "tila_zplrnt";
    int rc = tila_check_init(func);
    if (rc) return rc;
    if ((rc = tila_check_desc(func, 1, "A", A, TILA_COMPLEX64))) return rc;
    if ((rc = tila_check_sequence(func, 3, seq, req))) return rc;
    tila_call_begin(seq, req);

    tila_task_t t = tila_task_init(seq, req, 0);
    for (int n = 0; n < A->nt && !rc; n++)
        for (int m = 0; m < A->mt && !rc; m++) {
            tila_task_on(&t, A, m, n);
            rc = tila_insert_zplrnt(&t, tila_tile_rows(A, m), tila_tile_cols(A, n),
                                    tila_task_tile(&t, A, m, n), A->row0[m], A->col0[n], seed);
        }
    return rc;
}

int tila_zplrnt(tila_desc_t *A, unsigned long long seed)
{
    tila_sync_t s;
    int rc = tila_sync_begin("tila_zplrnt", &s);
    return rc ? rc : tila_sync_end(&s, tila_zplrnt_async(A, seed, s.seq, &s.req));
}
