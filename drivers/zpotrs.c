/**
 * @file zpotrs.c
 * @brief Solve A X = B with A's Cholesky factor from tila_zpotrf.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "tila_runtime.h"

int tila_zpotrs_async(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B, tila_sequence_t *seq,
                      tila_request_t *req)
{
    static const char *func = "tila_zpotrs";
    int rc = tila_check_init(func);
    if (rc) return rc;
    if ((rc = tila_check_triangle(func, 1, uplo))) return rc;
    if ((rc = tila_check_desc(func, 2, "A", A, TILA_COMPLEX64))) return rc;
    if ((rc = tila_check_desc(func, 3, "B", B, TILA_COMPLEX64))) return rc;
    if ((rc = tila_check_rhs(func, 2, A, B))) return rc;
    if ((rc = tila_check_sequence(func, 4, seq, req))) return rc;
    tila_call_begin(seq, req);
    /* L L^H X = B: L Y = B, then L^H X = Y (U^H U: U^H Y = B, then U X = Y). */
    tila_trans_t first = uplo == TILA_LOWER ? TILA_NOTRANS : TILA_CONJTRANS;
    tila_trans_t second = uplo == TILA_LOWER ? TILA_CONJTRANS : TILA_NOTRANS;
    rc = tila_ztrsm_async(TILA_LEFT, uplo, first, TILA_NONUNIT, 1.0, A, B, seq, req);
    if (!rc) rc = tila_ztrsm_async(TILA_LEFT, uplo, second, TILA_NONUNIT, 1.0, A, B, seq, req);
    return rc;
}

int tila_zpotrs(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B)
{
    tila_sync_t s;
    int rc = tila_sync_begin("tila_zpotrs", &s);
    return rc ? rc : tila_sync_end(&s, tila_zpotrs_async(uplo, A, B, s.seq, &s.req));
}
