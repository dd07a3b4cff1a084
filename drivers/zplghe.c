/**
 * @file zplghe.c
 * @brief Fill a square matrix with the seeded random Hermitian one, diagonal shifted.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "codelets_z.h"
#include "tila_runtime.h"

int tila_zplghe_async(double bump, tila_desc_t *A, unsigned long long seed, tila_sequence_t *seq,
                      tila_request_t *req)
{
    static const char *func = "tila_zplghe";
    int rc = tila_check_init(func);
    if (rc) return rc;
    if ((rc = tila_check_desc(func, 2, "A", A, TILA_COMPLEX64))) return rc;
    if (A->m != A->n) {
        tila_error(func, "argument 2 (A) is %d x %d, a Hermitian matrix is square", A->m, A->n);
        return -2;
    }
    if ((rc = tila_check_sequence(func, 4, seq, req))) return rc;
    tila_call_begin(seq, req);

    tila_task_t t = tila_task_init(seq, req, 0);
    for (int n = 0; n < A->nt && !rc; n++)
        for (int m = 0; m < A->mt && !rc; m++) {
            tila_task_on(&t, A, m, n);
            rc = tila_insert_zplghe(&t, bump, tila_tile_rows(A, m), tila_tile_cols(A, n),
                                    tila_task_tile(&t, A, m, n), A->row0[m], A->col0[n], seed);
        }
    return rc;
}

int tila_zplghe(double bump, tila_desc_t *A, unsigned long long seed)
{
    tila_sync_t s;
    int rc = tila_sync_begin("tila_zplghe", &s);
    return rc ? rc : tila_sync_end(&s, tila_zplghe_async(bump, A, seed, s.seq, &s.req));
}
