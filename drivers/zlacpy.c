/**
 * @file zlacpy.c
 * @brief Tiled B = A on a triangle or everywhere, or between two tilings.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "codelets_z.h"
#include "tila_runtime.h"

/*
 * B = A, B tiled otherwise: each tile of B gathers, on its owner, the pieces of the tiles of
 * A that it covers (one task each, A's tiles moving to B's owners as StarPU-MPI sends them).
 */
static int copy_retiled(tila_task_t *t, tila_desc_t *A, tila_desc_t *B)
{
    int rc = 0;
    for (int n = 0; n < B->nt && !rc; n++)
        for (int m = 0; m < B->mt && !rc; m++) {
            int r0 = m * B->mb, r1 = r0 + tila_tile_rows(B, m);
            int c0 = n * B->nb, c1 = c0 + tila_tile_cols(B, n);
            tila_task_on(t, B, m, n);
            for (int j = c0 / A->nb; j * A->nb < c1 && !rc; j++)
                for (int i = r0 / A->mb; i * A->mb < r1 && !rc; i++) {
                    int i0 = i * A->mb > r0 ? i * A->mb : r0;
                    int j0 = j * A->nb > c0 ? j * A->nb : c0;
                    int i1 = i * A->mb + tila_tile_rows(A, i),
                        j1 = j * A->nb + tila_tile_cols(A, j);
                    i1 = i1 < r1 ? i1 : r1;
                    j1 = j1 < c1 ? j1 : c1;
                    int whole = i0 == r0 && i1 == r1 && j0 == c0 && j1 == c1;
                    rc = tila_insert_zlacpy_at(t, i1 - i0, j1 - j0, tila_task_tile(t, A, i, j),
                                               i0 - i * A->mb, j0 - j * A->nb,
                                               tila_task_tile(t, B, m, n), i0 - r0, j0 - c0, whole);
                }
        }
    return rc;
}

int tila_zlacpy_async(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B, tila_sequence_t *seq,
                      tila_request_t *req)
{
    static const char *func = "tila_zlacpy";
    int rc = tila_check_init(func);
    if (rc) return rc;
    if ((rc = tila_check_uplo(func, 1, uplo))) return rc;
    if ((rc = tila_check_desc(func, 2, "A", A, TILA_COMPLEX64))) return rc;
    if ((rc = tila_check_desc(func, 3, "B", B, TILA_COMPLEX64))) return rc;
    int retile =
        uplo == TILA_GENERAL && A->m == B->m && A->n == B->n && (A->mb != B->mb || A->nb != B->nb);
    if (!retile && (rc = tila_check_same_tiling(func, 3, "B", A, B))) return rc;
    if ((rc = tila_check_triangle_tiles(func, 2, uplo, A))) return rc;
    if ((rc = tila_check_sequence(func, 4, seq, req))) return rc;

    tila_task_t t = tila_task_init(seq, req, 0);
    if (retile) return copy_retiled(&t, A, B);
    for (int n = 0; n < A->nt && !rc; n++)
        for (int m = 0; m < A->mt && !rc; m++) {
            tila_uplo_t part = tila_tile_part(uplo, m, n);
            if (part == TILA_TILE_NONE) continue;
            tila_task_on(&t, B, m, n);
            rc = tila_insert_zlacpy(&t, part, tila_tile_rows(A, m), tila_tile_cols(A, n),
                                    tila_task_tile(&t, A, m, n), tila_task_tile(&t, B, m, n));
        }
    return rc;
}

int tila_zlacpy(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B)
{
    tila_sync_t s;
    int rc = tila_sync_begin("tila_zlacpy", &s);
    return rc ? rc : tila_sync_end(&s, tila_zlacpy_async(uplo, A, B, s.seq, &s.req));
}
