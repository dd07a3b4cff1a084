/**
 * @file pzlange.c
 * @brief ScaLAPACK's norms on Tila: pzlange, pzlantr, pzlansy and pzlanhe.
 *
 * Each runs tila_z* on the caller's blocks in place, so its value does not depend on the
 * grid (include/tila_z.h says what it guarantees); WORK is not used.  A submatrix that
 * starts inside a block has a first tile row and column of their own sizes; pzlantr,
 * pzlansy and pzlanhe need it as far into its first block row as into its first block
 * column, in square blocks.  Other submatrices, or blocks too small for tiles, stay with
 * ScaLAPACK: a copy into Tila's tiles would cost more than the norm.  Blocks too small are
 * those below TILA_SCALAPACK_MIN_NB for the norms ScaLAPACK computes slowly and below twice
 * it for the others (slow_there, tila_sl_norm_begin).  ScaLAPACK's norms check no
 * argument; an unknown letter goes to the real routine, which decides what it returns.
 *
 * @precisions normal z -> c d s
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "tila_scalapack.h"

/*
 * The norms ScaLAPACK computes slowly: the row sums (the infinity norm; the one norm too of
 * a symmetric matrix) and the Frobenius norm's scaled sums (bench/README.md).
 */
static int slow_there(tila_norm_t norm, int symmetric)
{
    return norm == TILA_NORM_INF || norm == TILA_NORM_FRO || (symmetric && norm == TILA_NORM_ONE);
}

/** PZLANGE( NORM, M, N, A, IA, JA, DESCA, WORK ): a norm of sub(A), on every process. */
TILA_SL_EXPORT double pzlange_(const char *norm, const int *m, const int *n,
                               const tila_complex64_t *a, const int *ia, const int *ja,
                               const int *desca, double *work, size_t norm_len)
{
    static tila_sl_routine_t routine = { .name = "PZLANGE", .symbol = "pzlange_" };
    tila_norm_t tnorm = TILA_NORM_FRO;
    tila_sl_mat_t A = { .a = (void *)a, .ia = *ia, .ja = *ja, .desc = desca, .m = *m, .n = *n };
    int ok = tila_letter_norm(norm, &tnorm) && tila_sl_desc_ok(&A);
    tila_sl_call_t c;
    if (tila_sl_norm_begin(&c, &routine, &A, TILA_COMPLEX64, 0, slow_there(tnorm, 0), ok)) {
        double value = 0;
        int rc = tila_zlange(tnorm, A.A, &value);
        if (!tila_sl_norm_end(&c, &A, TILA_COMPLEX64, rc)) return value;
    }
    typeof(pzlange_) *real = tila_sl_real(&routine);
    return real(norm, m, n, a, ia, ja, desca, work, norm_len);
}

/**
 * PZLANTR( NORM, UPLO, DIAG, M, N, A, IA, JA, DESCA, WORK ): a norm of the UPLO trapezoid
 * of sub(A), with a unit diagonal (not read) if DIAG = 'U'.
 */
TILA_SL_EXPORT double pzlantr_(const char *norm, const char *uplo, const char *diag, const int *m,
                               const int *n, const tila_complex64_t *a, const int *ia,
                               const int *ja, const int *desca, double *work, size_t norm_len,
                               size_t uplo_len, size_t diag_len)
{
    static tila_sl_routine_t routine = { .name = "PZLANTR", .symbol = "pzlantr_" };
    tila_norm_t tnorm = TILA_NORM_FRO;
    tila_uplo_t tuplo;
    tila_diag_t tdiag;
    tila_sl_mat_t A = { .a = (void *)a, .ia = *ia, .ja = *ja, .desc = desca, .m = *m, .n = *n };
    int ok = tila_letter_norm(norm, &tnorm) && tila_letter_uplo(uplo, &tuplo) &&
             tila_letter_diag(diag, &tdiag) && tila_sl_desc_ok(&A);
    tila_sl_call_t c;
    if (tila_sl_norm_begin(&c, &routine, &A, TILA_COMPLEX64, 1, slow_there(tnorm, 0), ok)) {
        double value = 0;
        int rc = tila_zlantr(tnorm, tuplo, tdiag, A.A, &value);
        if (!tila_sl_norm_end(&c, &A, TILA_COMPLEX64, rc)) return value;
    }
    typeof(pzlantr_) *real = tila_sl_real(&routine);
    return real(norm, uplo, diag, m, n, a, ia, ja, desca, work, norm_len, uplo_len, diag_len);
}

/*
 * A norm of the symmetric sub(A) (Hermitian if `hermitian`, in complex only) whose UPLO
 * triangle is stored.
 */
static double lansy(tila_sl_routine_t *routine, int hermitian, const char *norm, const char *uplo,
                    const int *n, const tila_complex64_t *a, const int *ia, const int *ja,
                    const int *desca, double *work, size_t norm_len, size_t uplo_len)
{
    (void)hermitian;
    tila_norm_t tnorm = TILA_NORM_FRO;
    tila_uplo_t tuplo;
    tila_sl_mat_t A = { .a = (void *)a, .ia = *ia, .ja = *ja, .desc = desca, .m = *n, .n = *n };
    int ok =
        tila_letter_norm(norm, &tnorm) && tila_letter_uplo(uplo, &tuplo) && tila_sl_desc_ok(&A);
    tila_sl_call_t c;
    if (tila_sl_norm_begin(&c, routine, &A, TILA_COMPLEX64, 1, slow_there(tnorm, 1), ok)) {
        double value = 0;
        int rc;
#if defined(COMPLEX)
        if (hermitian)
            rc = tila_zlanhe(tnorm, tuplo, A.A, &value);
        else
#endif
            rc = tila_zlansy(tnorm, tuplo, A.A, &value);
        if (!tila_sl_norm_end(&c, &A, TILA_COMPLEX64, rc)) return value;
    }
    double (*real)(const char *, const char *, const int *, const tila_complex64_t *, const int *,
                   const int *, const int *, double *, size_t, size_t) = tila_sl_real(routine);
    return real(norm, uplo, n, a, ia, ja, desca, work, norm_len, uplo_len);
}

TILA_SL_EXPORT double pzlansy_(const char *norm, const char *uplo, const int *n,
                               const tila_complex64_t *a, const int *ia, const int *ja,
                               const int *desca, double *work, size_t norm_len, size_t uplo_len)
{
    static tila_sl_routine_t routine = { .name = "PZLANSY", .symbol = "pzlansy_" };
    return lansy(&routine, 0, norm, uplo, n, a, ia, ja, desca, work, norm_len, uplo_len);
}

#if defined(COMPLEX)
TILA_SL_EXPORT double pzlanhe_(const char *norm, const char *uplo, const int *n,
                               const tila_complex64_t *a, const int *ia, const int *ja,
                               const int *desca, double *work, size_t norm_len, size_t uplo_len)
{
    static tila_sl_routine_t routine = { .name = "PZLANHE", .symbol = "pzlanhe_" };
    return lansy(&routine, 1, norm, uplo, n, a, ia, ja, desca, work, norm_len, uplo_len);
}
#endif
