/**
 * @file pzposv.c
 * @brief ScaLAPACK's pzpotrs and pzposv on Tila: solves with a distributed Cholesky factor.
 *
 * @precisions normal z -> c d s
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "tila_scalapack.h"

/*
 * Solve sub(A) X = sub(B) into sub(B): with the factor already in sub(A) (PZPOTRS), or
 * factoring sub(A) first if `factor` (PZPOSV).  The arguments are PZPOTRS's and PZPOSV's.
 */
static void solve(tila_sl_routine_t *routine, int factor, const char *uplo, const int *n,
                  const int *nrhs, tila_complex64_t *a, const int *ia, const int *ja,
                  const int *desca, tila_complex64_t *b, const int *ib, const int *jb,
                  const int *descb, int *info, size_t uplo_len)
{
    tila_uplo_t tuplo;
    tila_sl_mat_t A = { .a = a, .ia = *ia, .ja = *ja, .desc = desca, .m = *n, .n = *n };
    tila_sl_mat_t B = { .a = b, .ia = *ib, .ja = *jb, .desc = descb, .m = *n, .n = *nrhs };
    int ok = tila_letter_uplo(uplo, &tuplo) && tila_sl_solve_ok(&A, &B);
    tila_sl_call_t c;
    if (tila_sl_begin(&c, routine, desca[TILA_SL_CTXT], *n, ok)) {
        int path = tila_sl_open_factor(&c, &A, &B, *n, 768, TILA_COMPLEX64);
        if (path < 0) {
            tila_sl_end(&c, TILA_SL_OFF);
        }
        else {
            /* PZPOSV's INFO is PZPOTRF's; PZPOTRS has no numerical failure. */
            int rc = factor ? tila_zposv(tuplo, A.A, B.A) : tila_zpotrs(tuplo, A.A, B.A);
            /* the outputs first: B, and A when factored */
            tila_sl_mat_t *out[] = { &B, &A };
            int how = tila_sl_finish(&c, out, 2, factor ? 2 : 1, TILA_COMPLEX64, rc < 0 ? rc : 0, 1,
                                     path);
            if (how <= 0) {
                *info = how ? TILA_SL_LOST_INFO : rc;
                return;
            }
        }
    }
    void (*real)(const char *, const int *, const int *, tila_complex64_t *, const int *,
                 const int *, const int *, tila_complex64_t *, const int *, const int *,
                 const int *, int *, size_t) = tila_sl_real(routine);
    real(uplo, n, nrhs, a, ia, ja, desca, b, ib, jb, descb, info, uplo_len);
}

/**
 * PZPOTRS( UPLO, N, NRHS, A, IA, JA, DESCA, B, IB, JB, DESCB, INFO ), as ScaLAPACK defines
 * it: sub(B) = A(IA:, JA:)^-1 sub(B) with the factor from PZPOTRF.
 */
TILA_SL_EXPORT void pzpotrs_(const char *uplo, const int *n, const int *nrhs, tila_complex64_t *a,
                             const int *ia, const int *ja, const int *desca, tila_complex64_t *b,
                             const int *ib, const int *jb, const int *descb, int *info,
                             size_t uplo_len)
{
    static tila_sl_routine_t routine = { .name = "PZPOTRS", .symbol = "pzpotrs_" };
    solve(&routine, 0, uplo, n, nrhs, a, ia, ja, desca, b, ib, jb, descb, info, uplo_len);
}

/**
 * PZPOSV( UPLO, N, NRHS, A, IA, JA, DESCA, B, IB, JB, DESCB, INFO ), as ScaLAPACK defines
 * it: factor sub(A) as PZPOTRF does, then solve sub(A) X = sub(B) into sub(B); INFO = k > 0
 * as PZPOTRF's, and then sub(B) is left as it was.
 */
TILA_SL_EXPORT void pzposv_(const char *uplo, const int *n, const int *nrhs, tila_complex64_t *a,
                            const int *ia, const int *ja, const int *desca, tila_complex64_t *b,
                            const int *ib, const int *jb, const int *descb, int *info,
                            size_t uplo_len)
{
    static tila_sl_routine_t routine = { .name = "PZPOSV", .symbol = "pzposv_" };
    solve(&routine, 1, uplo, n, nrhs, a, ia, ja, desca, b, ib, jb, descb, info, uplo_len);
}
