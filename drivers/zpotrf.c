/**
 * @file zpotrf.c
 * @brief Tiled Cholesky factorization A = L L^H or U^H U, right-looking, over StarPU-MPI.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "codelets_z.h"
#include "tila_runtime.h"

/*
 * Priorities: the panel (POTRF, then its TRSMs) runs first, then the updates of the
 * next panel's column, which unlock the next POTRF; the rest of the trailing matrix last.
 */
enum { PRIO_POTRF = 3, PRIO_TRSM = 2, PRIO_NEXT = 1, PRIO_UPDATE = 0 };

/* Tile (i, j) of the triangle as if it were lower: (i, j) itself, or (j, i) for upper. */
static starpu_data_handle_t tri(const tila_task_t *t, const tila_desc_t *A, tila_uplo_t uplo, int i,
                                int j)
{
    return uplo == TILA_LOWER ? tila_task_tile(t, A, i, j) : tila_task_tile(t, A, j, i);
}

static void tri_on(tila_task_t *t, const tila_desc_t *A, tila_uplo_t uplo, int i, int j)
{
    if (uplo == TILA_LOWER)
        tila_task_on(t, A, i, j);
    else
        tila_task_on(t, A, j, i);
}

int tila_zpotrf_async(tila_uplo_t uplo, tila_desc_t *A, tila_sequence_t *seq, tila_request_t *req)
{
    static const char *func = "tila_zpotrf";
    int rc = tila_check_init(func);
    if (rc) return rc;
    if ((rc = tila_check_triangle(func, 1, uplo))) return rc;
    if ((rc = tila_check_desc(func, 2, "A", A, TILA_COMPLEX64))) return rc;
    if ((rc = tila_check_square(func, 2, A))) return rc;
    if ((rc = tila_check_sequence(func, 3, seq, req))) return rc;
    if (A->n == 0) return 0;

    /* Written in the lower form: for upper, every tile (i, j) is (j, i) and the
     * operations are conjugate-transposed. */
    int lower = uplo == TILA_LOWER;
    tila_side_t side = lower ? TILA_RIGHT : TILA_LEFT;
    tila_trans_t herk_trans = lower ? TILA_NOTRANS : TILA_CONJTRANS;
    int nt = A->nt;
    tila_task_t t = tila_task_init(seq, req, PRIO_POTRF);
    for (int k = 0; k < nt && !rc; k++) {
        int nk = tila_tile_cols(A, k);
        t.priority = PRIO_POTRF;
        tila_task_on(&t, A, k, k);
        rc = tila_insert_zpotrf(&t, uplo, nk, tila_task_tile(&t, A, k, k), A->col0[k]);
        for (int m = k + 1; m < nt && !rc; m++) {
            t.priority = PRIO_TRSM;
            tri_on(&t, A, uplo, m, k);
            rc = tila_insert_ztrsm(&t, side, uplo, TILA_CONJTRANS, TILA_NONUNIT,
                                   lower ? tila_tile_rows(A, m) : nk,
                                   lower ? nk : tila_tile_cols(A, m), 1.0,
                                   tila_task_tile(&t, A, k, k), tri(&t, A, uplo, m, k));
        }
        /* The diagonal tile has all its readers: drop its copies on other ranks. */
        tila_tile_flush(A, k, k);
        for (int m = k + 1; m < nt && !rc; m++) {
            int nm = tila_tile_rows(A, m);
            t.priority = m == k + 1 ? PRIO_NEXT : PRIO_UPDATE;
            tila_task_on(&t, A, m, m);
            rc = tila_insert_zherk(&t, uplo, herk_trans, nm, nk, -1.0, tri(&t, A, uplo, m, k), 1.0,
                                   tila_task_tile(&t, A, m, m));
            for (int n = k + 1; n < m && !rc; n++) {
                t.priority = n == k + 1 ? PRIO_NEXT : PRIO_UPDATE;
                tri_on(&t, A, uplo, m, n);
                rc = lower
                         ? tila_insert_zgemm(
                               &t, TILA_NOTRANS, TILA_CONJTRANS, nm, tila_tile_rows(A, n), nk, -1.0,
                               tila_task_tile(&t, A, m, k), tila_task_tile(&t, A, n, k), 1.0,
                               tila_task_tile(&t, A, m, n))
                         : tila_insert_zgemm(&t, TILA_CONJTRANS, TILA_NOTRANS, tila_tile_cols(A, n),
                                             nm, nk, -1.0, tila_task_tile(&t, A, k, n),
                                             tila_task_tile(&t, A, k, m), 1.0,
                                             tila_task_tile(&t, A, n, m));
            }
        }
        /* The panel's tiles have all their readers too. */
        for (int m = k + 1; m < nt; m++)
            tila_tile_flush(A, lower ? m : k, lower ? k : m);
    }
    return rc;
}

int tila_zpotrf(tila_uplo_t uplo, tila_desc_t *A)
{
    tila_sync_t s;
    int rc = tila_sync_begin("tila_zpotrf", &s);
    return rc ? rc : tila_sync_end(&s, tila_zpotrf_async(uplo, A, s.seq, &s.req));
}
