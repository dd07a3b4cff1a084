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
    for (int n = 0, j1st = 0; n < B->nt && !rc; n++) {
        int c0 = B->col0[n], c1 = B->col0[n + 1];
        /* A's first tile column that reaches into B's tile column n. */
        while (A->col0[j1st + 1] <= c0)
            j1st++;
        for (int m = 0, i1st = 0; m < B->mt && !rc; m++) {
            int r0 = B->row0[m], r1 = B->row0[m + 1];
            while (A->row0[i1st + 1] <= r0)
                i1st++;
            tila_task_on(t, B, m, n);
            for (int j = j1st; j < A->nt && A->col0[j] < c1 && !rc; j++)
                for (int i = i1st; i < A->mt && A->row0[i] < r1 && !rc; i++) {
                    int i0 = A->row0[i] > r0 ? A->row0[i] : r0;
                    int j0 = A->col0[j] > c0 ? A->col0[j] : c0;
                    int i1 = A->row0[i + 1] < r1 ? A->row0[i + 1] : r1;
                    int j1 = A->col0[j + 1] < c1 ? A->col0[j + 1] : c1;
                    int whole = i0 == r0 && i1 == r1 && j0 == c0 && j1 == c1;
                    rc = tila_insert_zlacpy_at(t, i1 - i0, j1 - j0, tila_task_tile(t, A, i, j),
                                               i0 - A->row0[i], j0 - A->col0[j],
                                               tila_task_tile(t, B, m, n), i0 - r0, j0 - c0, whole);
                }
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
    int retile = uplo == TILA_GENERAL && A->m == B->m && A->n == B->n && !tila_same_tiles(A, B);
    if (!retile && (rc = tila_check_same_tiling(func, 3, "B", A, B))) return rc;
    if ((rc = tila_check_triangle_tiles(func, 2, uplo, A))) return rc;
    if ((rc = tila_check_sequence(func, 4, seq, req))) return rc;
    tila_call_begin(seq, req);

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
