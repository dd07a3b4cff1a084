/**
 * @file zcposv.c
 * @brief LAPACK's mixed-precision Cholesky solve on Tila: zcposv (dsposv in real).
 *
 * ScaLAPACK has no mixed-precision routine, so only the LAPACK layer has this one.
 *
 * @precisions mixed zc -> ds
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "tila_lapack.h"
#include "tila_layer.h"

/**
 * ZCPOSV( UPLO, N, NRHS, A, LDA, B, LDB, X, LDX, WORK, SWORK, RWORK, ITER, INFO ) (DSPOSV
 * has no RWORK): X = A^-1 B by a single-precision Cholesky factorization refined in double
 * (tila_zcposv: one step past LAPACK's stopping test), or by ZPOSV's when that fails; ITER
 * and INFO as LAPACK's.  Tila allocates its own workspaces: WORK, SWORK (and RWORK) are
 * untouched when Tila takes the call.
 */
TILA_LA_EXPORT void zcposv_(const char *uplo, const int *n, const int *nrhs, tila_complex64_t *a,
                            const int *lda, tila_complex64_t *b, const int *ldb,
                            tila_complex64_t *x, const int *ldx, tila_complex64_t *work,
                            tila_complex32_t *swork,
#if defined(COMPLEX)
                            double *rwork,
#endif
                            int *iter, int *info, size_t uplo_len)
{
    static tila_la_routine_t routine = { .symbol = "zcposv_" };
    tila_uplo_t tuplo;
    /* NRHS = 0 goes to LAPACK, which still factors A (its INFO, A overwritten on -3). */
    int ok = tila_letter_uplo(uplo, &tuplo) && *n >= 0 && *nrhs > 0 && *lda >= tila_la_max1(*n) &&
             *ldb >= tila_la_max1(*n) && *ldx >= tila_la_max1(*n);
    if (tila_la_begin(&routine, *n, ok)) {
        int nb = tila_la_tile(TILA_LA_CHOLESKY, *n, *n);
        tila_desc_t *D[3] = { tila_la_desc(&routine, TILA_COMPLEX64, a, *lda, *n, *n, nb),
                              tila_la_desc(&routine, TILA_COMPLEX64, b, *ldb, *n, *nrhs, nb),
                              tila_la_desc(&routine, TILA_COMPLEX64, x, *ldx, *n, *nrhs, nb) };
        int begun = D[0] && D[1] && D[2];
        int rc = begun ? tila_zcposv(tuplo, D[0], D[1], D[2], iter) : TILA_ERR_NOMEM;
        int how = tila_la_finish(&routine, D, 3, rc < 0 ? rc : 0, begun);
        if (how <= 0) {
            *info = how ? TILA_LA_LOST_INFO : rc;
            return;
        }
    }
    typeof(zcposv_) *real = tila_la_real(&routine);
    if (real)
        real(uplo, n, nrhs, a, lda, b, ldb, x, ldx, work, swork,
#if defined(COMPLEX)
             rwork,
#endif
             iter, info, uplo_len);
    else
        *info = TILA_LA_NO_REAL_INFO;
    tila_la_leave();
}
