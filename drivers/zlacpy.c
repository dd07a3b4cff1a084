/**
 * @file zlacpy.c
 * @brief Tiled B = A on a triangle or everywhere.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "codelets_z.h"
#include "tila_runtime.h"

int tila_zlacpy_async(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B, tila_sequence_t *seq,
                      tila_request_t *req)
{
    static const char *func = "tila_zlacpy";
    int rc = tila_check_init(func);
    if (rc) return rc;
    if ((rc = tila_check_uplo(func, 1, uplo))) return rc;
    if ((rc = tila_check_desc(func, 2, "A", A, TILA_COMPLEX64))) return rc;
    if ((rc = tila_check_desc(func, 3, "B", B, TILA_COMPLEX64))) return rc;
    if ((rc = tila_check_same_tiling(func, 3, "B", A, B))) return rc;
    if ((rc = tila_check_triangle_tiles(func, 2, uplo, A))) return rc;
    if ((rc = tila_check_sequence(func, 4, seq, req))) return rc;

    tila_task_t t = tila_task_init(seq, req, 0);
    for (int n = 0; n < A->nt && !rc; n++)
        for (int m = 0; m < A->mt && !rc; m++) {
            tila_uplo_t part = tila_tile_part(uplo, m, n);
            if (part == TILA_TILE_NONE) continue;
            tila_task_on(&t, B, m, n);
            rc = tila_insert_zlacpy(&t, part, tila_tile_rows(A, m), tila_tile_cols(A, n),
                                    tila_tile(A, m, n), tila_tile(B, m, n));
        }
    return rc;
}

int tila_zlacpy(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B)
{
    tila_sync_t s;
    int rc = tila_sync_begin("tila_zlacpy", &s);
    return rc ? rc : tila_sync_end(&s, tila_zlacpy_async(uplo, A, B, s.seq, &s.req));
}
