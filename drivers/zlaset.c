/**
 * @file zlaset.c
 * @brief Tiled LASET: off-diagonal entries of a triangle (or all) = alpha, diagonal = beta.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "codelets_z.h"
#include "tila_runtime.h"

int tila_zlaset_async(tila_uplo_t uplo, tila_complex64_t alpha, tila_complex64_t beta,
                      tila_desc_t *A, tila_sequence_t *seq, tila_request_t *req)
{
    static const char *func = "tila_zlaset";
    int rc = tila_check_init(func);
    if (rc) return rc;
    if ((rc = tila_check_uplo(func, 1, uplo))) return rc;
    if ((rc = tila_check_desc(func, 4, "A", A, TILA_COMPLEX64))) return rc;
    if ((rc = tila_check_triangle_tiles(func, 4, uplo, A))) return rc;
    if (alpha != beta &&
        (rc = tila_check_square_tiles(func, 4, "a diagonal different from the rest", A)))
        return rc;
    if ((rc = tila_check_sequence(func, 5, seq, req))) return rc;
    tila_call_begin(seq, req);

    tila_task_t t = tila_task_init(seq, req, 0);
    for (int n = 0; n < A->nt && !rc; n++)
        for (int m = 0; m < A->mt && !rc; m++) {
            tila_uplo_t part = tila_tile_part(uplo, m, n);
            if (part == TILA_TILE_NONE) continue;
            /* With square tiles, only diagonal tiles hold diagonal entries. */
            tila_task_on(&t, A, m, n);
            rc = tila_insert_zlaset(&t, part, tila_tile_rows(A, m), tila_tile_cols(A, n), alpha,
                                    m == n ? beta : alpha, tila_task_tile(&t, A, m, n));
        }
    return rc;
}

int tila_zlaset(tila_uplo_t uplo, tila_complex64_t alpha, tila_complex64_t beta, tila_desc_t *A)
{
    tila_sync_t s;
    int rc = tila_sync_begin("tila_zlaset", &s);
    return rc ? rc : tila_sync_end(&s, tila_zlaset_async(uplo, alpha, beta, A, s.seq, &s.req));
}
