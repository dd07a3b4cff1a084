/**
 * @file pzpotrf.c
 * @brief ScaLAPACK's pzpotrf on Tila: Cholesky factorization of a distributed submatrix.
 *
 * @precisions normal z -> c d s
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "tila_scalapack.h"

/**
 * PZPOTRF( UPLO, N, A, IA, JA, DESCA, INFO ), as ScaLAPACK defines it: the Cholesky factor
 * of sub(A) = A(IA:IA+N-1, JA:JA+N-1) in its UPLO triangle; INFO = k > 0 when the leading
 * minor of order k is not positive definite.
 */
TILA_SL_EXPORT void pzpotrf_(const char *uplo, const int *n, tila_complex64_t *a, const int *ia,
                             const int *ja, const int *desca, int *info, size_t uplo_len)
{
    static tila_sl_routine_t routine = { .name = "PZPOTRF", .symbol = "pzpotrf_" };
    tila_uplo_t tuplo;
    tila_sl_mat_t A = { .a = a, .ia = *ia, .ja = *ja, .desc = desca, .m = *n, .n = *n };
    int ok = tila_letter_uplo(uplo, &tuplo) && tila_sl_factor_ok(&A);
    tila_sl_call_t c;
    if (tila_sl_begin(&c, &routine, desca[TILA_SL_CTXT], *n, ok)) {
        int path = tila_sl_open_factor(&c, &A, NULL, *n, 768, TILA_COMPLEX64);
        if (path < 0) {
            tila_sl_end(&c, TILA_SL_OFF);
        }
        else {
            int rc = tila_zpotrf(tuplo, A.A);
            tila_sl_mat_t *out[] = { &A };
            int how = tila_sl_finish(&c, out, 1, 1, TILA_COMPLEX64, rc < 0 ? rc : 0, 1, path);
            if (how <= 0) {
                *info = how ? TILA_SL_LOST_INFO : rc;
                return;
            }
        }
    }
    typeof(pzpotrf_) *real = tila_sl_real(&routine);
    real(uplo, n, a, ia, ja, desca, info, uplo_len);
}
