/**
 * @file zlange.c
 * @brief LAPACK's norms on Tila: zlange, zlantr, zlansy and zlanhe.
 *
 * Each runs tila_z* on the caller's array in place (include/tila_z.h says what its value
 * guarantees); WORK is not used.  LAPACK's norms check no argument: an unknown letter, or
 * a leading dimension too small for the matrix, goes to the real routine, which decides
 * what it returns.
 *
 * @precisions normal z -> c d s
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <math.h>

#include "tila_lapack.h"
#include "tila_layer.h"

/* Tila's view of an m x n norm's array (lda). */
static tila_desc_t *norm_desc(tila_la_routine_t *r, const tila_complex64_t *a, int lda, int m,
                              int n)
{
    return tila_la_desc(r, TILA_COMPLEX64, (void *)a, lda, m, n, tila_la_tile(TILA_LA_NORM, m, n));
}

/* The end of a norm Tila computed: 0 when its value stands, 1 when LAPACK computes it. */
static int norm_end(tila_la_routine_t *r, tila_desc_t *A, int rc)
{
    return tila_la_finish(r, &A, 1, rc, 0);
}

/** ZLANGE( NORM, M, N, A, LDA, WORK ): a norm of the m x n A. */
TILA_LA_EXPORT double zlange_(const char *norm, const int *m, const int *n,
                              const tila_complex64_t *a, const int *lda, double *work,
                              size_t norm_len)
{
    static tila_la_routine_t routine = { .symbol = "zlange_" };
    tila_norm_t tnorm;
    int ok = tila_letter_norm(norm, &tnorm) && *m >= 0 && *n >= 0 && *lda >= tila_la_max1(*m);
    if (tila_la_begin(&routine, *m > *n ? *m : *n, ok)) {
        tila_desc_t *A = norm_desc(&routine, a, *lda, *m, *n);
        double value = 0;
        int rc = A ? tila_zlange(tnorm, A, &value) : TILA_ERR_NOMEM;
        if (!norm_end(&routine, A, rc)) return value;
    }
    typeof(zlange_) *real = tila_la_real(&routine);
    double value = real ? real(norm, m, n, a, lda, work, norm_len) : NAN;
    tila_la_leave();
    return value;
}

/**
 * ZLANTR( NORM, UPLO, DIAG, M, N, A, LDA, WORK ): a norm of the UPLO trapezoid of the
 * m x n A, with a unit diagonal (not read) if DIAG = 'U'.
 */
TILA_LA_EXPORT double zlantr_(const char *norm, const char *uplo, const char *diag, const int *m,
                              const int *n, const tila_complex64_t *a, const int *lda, double *work,
                              size_t norm_len, size_t uplo_len, size_t diag_len)
{
    static tila_la_routine_t routine = { .symbol = "zlantr_" };
    tila_norm_t tnorm;
    tila_uplo_t tuplo;
    tila_diag_t tdiag;
    int ok = tila_letter_norm(norm, &tnorm) && tila_letter_uplo(uplo, &tuplo) &&
             tila_letter_diag(diag, &tdiag) && *m >= 0 && *n >= 0 && *lda >= tila_la_max1(*m);
    if (tila_la_begin(&routine, *m > *n ? *m : *n, ok)) {
        tila_desc_t *A = norm_desc(&routine, a, *lda, *m, *n);
        double value = 0;
        int rc = A ? tila_zlantr(tnorm, tuplo, tdiag, A, &value) : TILA_ERR_NOMEM;
        if (!norm_end(&routine, A, rc)) return value;
    }
    typeof(zlantr_) *real = tila_la_real(&routine);
    double value =
        real ? real(norm, uplo, diag, m, n, a, lda, work, norm_len, uplo_len, diag_len) : NAN;
    tila_la_leave();
    return value;
}

/*
 * A norm of the n x n symmetric A (Hermitian if `hermitian`, in complex only) whose UPLO
 * triangle is stored.
 */
static double lansy(tila_la_routine_t *routine, int hermitian, const char *norm, const char *uplo,
                    const int *n, const tila_complex64_t *a, const int *lda, double *work,
                    size_t norm_len, size_t uplo_len)
{
    (void)hermitian;
    tila_norm_t tnorm;
    tila_uplo_t tuplo;
    int ok = tila_letter_norm(norm, &tnorm) && tila_letter_uplo(uplo, &tuplo) && *n >= 0 &&
             *lda >= tila_la_max1(*n);
    if (tila_la_begin(routine, *n, ok)) {
        tila_desc_t *A = norm_desc(routine, a, *lda, *n, *n);
        double value = 0;
        int rc = TILA_ERR_NOMEM;
        if (A) {
#if defined(COMPLEX)
            if (hermitian)
                rc = tila_zlanhe(tnorm, tuplo, A, &value);
            else
#endif
                rc = tila_zlansy(tnorm, tuplo, A, &value);
        }
        if (!norm_end(routine, A, rc)) return value;
    }
    double (*real)(const char *, const char *, const int *, const tila_complex64_t *, const int *,
                   double *, size_t, size_t) = tila_la_real(routine);
    double value = real ? real(norm, uplo, n, a, lda, work, norm_len, uplo_len) : NAN;
    tila_la_leave();
    return value;
}

/** ZLANSY( NORM, UPLO, N, A, LDA, WORK ): a norm of the symmetric A. */
TILA_LA_EXPORT double zlansy_(const char *norm, const char *uplo, const int *n,
                              const tila_complex64_t *a, const int *lda, double *work,
                              size_t norm_len, size_t uplo_len)
{
    static tila_la_routine_t routine = { .symbol = "zlansy_" };
    return lansy(&routine, 0, norm, uplo, n, a, lda, work, norm_len, uplo_len);
}

#if defined(COMPLEX)
/** ZLANHE( NORM, UPLO, N, A, LDA, WORK ): a norm of the Hermitian A. */
TILA_LA_EXPORT double zlanhe_(const char *norm, const char *uplo, const int *n,
                              const tila_complex64_t *a, const int *lda, double *work,
                              size_t norm_len, size_t uplo_len)
{
    static tila_la_routine_t routine = { .symbol = "zlanhe_" };
    return lansy(&routine, 1, norm, uplo, n, a, lda, work, norm_len, uplo_len);
}
#endif
