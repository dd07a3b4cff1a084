/**
 * @file zposv.c
 * @brief Solve A X = B for Hermitian positive definite A: factor, then solve.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "tila_runtime.h"

/* B is checked before A is factored, so that nothing runs on a bad call. */
static int check_b(tila_desc_t *A, tila_desc_t *B)
{
    int rc = tila_check_desc("tila_zposv", 3, "B", B, TILA_COMPLEX64);
    return rc || !A ? rc : tila_check_rhs("tila_zposv", 2, A, B);
}

int tila_zposv_async(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B, tila_sequence_t *seq,
                     tila_request_t *req)
{
    int rc = tila_check_init("tila_zposv");
    if (rc || (rc = check_b(A, B)) || (rc = tila_zpotrf_async(uplo, A, seq, req))) return rc;
    /* A failed factorization makes the solve's tasks do nothing on the rank that saw
     * it; tila_zposv also keeps every other rank's part of B untouched. */
    return tila_zpotrs_async(uplo, A, B, seq, req);
}

int tila_zposv(tila_uplo_t uplo, tila_desc_t *A, tila_desc_t *B)
{
    tila_sync_t s;
    int rc = tila_sync_begin("tila_zposv", &s);
    if (rc) return rc;
    if ((rc = check_b(A, B))) {
        tila_sequence_destroy(&s.seq);
        return rc;
    }
    /* Factor, agree on the status on every rank, and solve only if A is definite. */
    rc = tila_zpotrf_async(uplo, A, s.seq, &s.req);
    int status = tila_sequence_wait(s.seq);
    if (!rc && !status) rc = tila_zpotrs_async(uplo, A, B, s.seq, &s.req);
    return tila_sync_end(&s, rc ? rc : status);
}
