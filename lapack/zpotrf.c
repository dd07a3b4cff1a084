/**
 * @file zpotrf.c
 * @brief LAPACK's Cholesky routines on Tila: zpotrf, zpotrs and zposv.
 *
 * @precisions normal z -> c d s
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "tila_lapack.h"
#include "tila_layer.h"

/**
 * ZPOTRF( UPLO, N, A, LDA, INFO ): the Cholesky factor of A in its UPLO triangle; INFO = k
 * > 0 when the leading minor of order k is not positive definite.
 */
TILA_LA_EXPORT void zpotrf_(const char *uplo, const int *n, tila_complex64_t *a, const int *lda,
                            int *info, size_t uplo_len)
{
    static tila_la_routine_t routine = { .symbol = "zpotrf_" };
    tila_uplo_t tuplo;
    int ok = tila_letter_uplo(uplo, &tuplo) && *n >= 0 && *lda >= tila_la_max1(*n);
    if (tila_la_begin(&routine, *n, ok)) {
        tila_desc_t *A = tila_la_desc(&routine, TILA_COMPLEX64, a, *lda, *n, *n,
                                      tila_la_tile(TILA_LA_CHOLESKY, *n, *n));
        int rc = A ? tila_zpotrf(tuplo, A) : TILA_ERR_NOMEM;
        int how = tila_la_finish(&routine, &A, 1, rc < 0 ? rc : 0, A != NULL);
        if (how <= 0) {
            *info = how ? TILA_LA_LOST_INFO : rc;
            return;
        }
    }
    typeof(zpotrf_) *real = tila_la_real(&routine);
    if (real)
        real(uplo, n, a, lda, info, uplo_len);
    else
        *info = TILA_LA_NO_REAL_INFO;
    tila_la_leave();
}

/*
 * The solves' common part: B = A^-1 B with A's Cholesky factor in its UPLO triangle, after
 * factoring A first if `factor` (ZPOSV).
 */
static void solve(tila_la_routine_t *routine, int factor, const char *uplo, const int *n,
                  const int *nrhs, tila_complex64_t *a, const int *lda, tila_complex64_t *b,
                  const int *ldb, int *info, size_t uplo_len)
{
    tila_uplo_t tuplo;
    int ok = tila_letter_uplo(uplo, &tuplo) && *n >= 0 && *nrhs >= 0 && *lda >= tila_la_max1(*n) &&
             *ldb >= tila_la_max1(*n);
    if (tila_la_begin(routine, *n, ok)) {
        int nb = tila_la_tile(TILA_LA_CHOLESKY, *n, *n);
        tila_desc_t *D[2] = { tila_la_desc(routine, TILA_COMPLEX64, a, *lda, *n, *n, nb),
                              tila_la_desc(routine, TILA_COMPLEX64, b, *ldb, *n, *nrhs, nb) };
        int begun = D[0] && D[1];
        int rc = !begun  ? TILA_ERR_NOMEM
                 : factor ? tila_zposv(tuplo, D[0], D[1])
                          : tila_zpotrs(tuplo, D[0], D[1]);
        int how = tila_la_finish(routine, D, 2, rc < 0 ? rc : 0, begun);
        if (how <= 0) {
            *info = how ? TILA_LA_LOST_INFO : rc;
            return;
        }
    }
    typedef void fn_t(const char *, const int *, const int *, tila_complex64_t *, const int *,
                      tila_complex64_t *, const int *, int *, size_t);
    fn_t *real = tila_la_real(routine);
    if (real)
        real(uplo, n, nrhs, a, lda, b, ldb, info, uplo_len);
    else
        *info = TILA_LA_NO_REAL_INFO;
    tila_la_leave();
}

/** ZPOTRS( UPLO, N, NRHS, A, LDA, B, LDB, INFO ): B = A^-1 B from ZPOTRF's factor. */
TILA_LA_EXPORT void zpotrs_(const char *uplo, const int *n, const int *nrhs,
                            const tila_complex64_t *a, const int *lda, tila_complex64_t *b,
                            const int *ldb, int *info, size_t uplo_len)
{
    static tila_la_routine_t routine = { .symbol = "zpotrs_" };
    solve(&routine, 0, uplo, n, nrhs, (tila_complex64_t *)a, lda, b, ldb, info, uplo_len);
}

/**
 * ZPOSV( UPLO, N, NRHS, A, LDA, B, LDB, INFO ): A's Cholesky factor, then B = A^-1 B; INFO
 * = k > 0 as ZPOTRF's, B then left as it was.
 */
TILA_LA_EXPORT void zposv_(const char *uplo, const int *n, const int *nrhs, tila_complex64_t *a,
                           const int *lda, tila_complex64_t *b, const int *ldb, int *info,
                           size_t uplo_len)
{
    static tila_la_routine_t routine = { .symbol = "zposv_" };
    solve(&routine, 1, uplo, n, nrhs, a, lda, b, ldb, info, uplo_len);
}
