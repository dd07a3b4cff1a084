/**
 * @file test_zlag2c.c
 * @brief tila_core_zlag2c and tila_core_clag2z (dlag2s, slag2d) against LAPACKE's.
 * @precisions mixed zc -> ds
 *
 * What it proves: to single precision, the whole tile or one triangle of a square one, is
 * LAPACK's zlag2c to the bit (one rounding to nearest an entry), the other triangle and the
 * rows below m left as they were; an entry whose real or imaginary part lies beyond
 * single's range returns 1, as LAPACK's (an Inf too; a NaN does not); back to double is
 * exact.  Empty shapes touch nothing.  Bad arguments return -i.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <complex.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core_zc.h"
#include "kerneltests_z.h"
#include "kerneltests_zc.h"

#define NAME "core_lag2c"

static int in_part(tila_uplo_t uplo, int i, int j)
{
    return uplo == TILA_GENERAL || (uplo == TILA_UPPER ? i <= j : i >= j);
}

/* big: 0 none, 1 an entry beyond single's range, 2 an Inf, 3 a NaN (no overflow), 4 an
 * entry beyond single's range outside the triangle converted (no overflow). */
static void run_one(tila_uplo_t uplo, int m, int n, int big, unsigned long long seed)
{
    int lda = m + 2, ldsa = m + 1;
    tila_complex64_t *A = kernel_alloc(TILA_COMPLEX64, lda, n);
    tila_complex32_t *SA = kernel_alloc(TILA_COMPLEX32, ldsa, n),
                     *Ref = kernel_alloc(TILA_COMPLEX32, ldsa, n);
    kernel_fill(TILA_COMPLEX64, m, n, A, lda, seed);
    if (big && big < 4 && m > 0 && n > 0) {
        /* In the part converted: the last column's last row (lower), first (upper). */
        int i = uplo == TILA_UPPER ? 0 : m - 1;
        A[(size_t)(n - 1) * lda + i] = big == 1 ? 1e39 : big == 2 ? INFINITY : NAN;
    }
    if (big == 4) /* the first column's last row (upper), the last's first (lower) */
        A[uplo == TILA_UPPER ? (size_t)m - 1 : (size_t)(n - 1) * lda] = 1e39;
    tila_complex32_t *SA0 = kernel_dup(TILA_COMPLEX32, ldsa, n, SA);
    int rc = tila_core_zlag2c(uplo, m, n, A, lda, SA, ldsa);
    int want_rc = (big == 1 || big == 2) && m > 0 && n > 0;
    int same = 1;
    if (!want_rc && m > 0 && n > 0) {
        /* The reference converts the whole tile: without the entry planted outside. */
        tila_complex64_t *R = kernel_dup(TILA_COMPLEX64, lda, n, A);
        if (big == 4) R[uplo == TILA_UPPER ? (size_t)m - 1 : (size_t)(n - 1) * lda] = 0;
        LAPACKE_zlag2c_work(LAPACK_COL_MAJOR, m, n, R, lda, Ref, ldsa);
        free(R);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < ldsa; i++) {
                size_t e = (size_t)j * ldsa + i;
                const tila_complex32_t *want = i < m && in_part(uplo, i, j) ? &Ref[e] : &SA0[e];
                same &= !memcmp(&SA[e], want, sizeof *want);
            }
    }
    /* Back: every single is a double, exactly. */
    int back = 1;
    if (!want_rc && m > 0 && n > 0 && uplo == TILA_GENERAL) {
        tila_complex64_t *Z = kernel_alloc(TILA_COMPLEX64, lda, n);
        back = tila_core_clag2z(m, n, SA, ldsa, Z, lda) == 0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) {
                tila_complex64_t z = SA[(size_t)j * ldsa + i], got = Z[(size_t)j * lda + i];
                back &= !memcmp(&z, &got, sizeof z) || (isnan(creal(z)) && isnan(creal(got)));
            }
        free(Z);
    }
    kernel_check(rc == want_rc && same && back, NAME, kernel_prec_letter(TILA_COMPLEX64), 0,
                 "uplo=%c m=%d n=%d lda=%d ldsa=%d%s rc=%d back=%d", kernel_letter(uplo), m, n, lda,
                 ldsa,
                 big == 1   ? " 1e39"
                 : big == 2 ? " Inf"
                 : big == 3 ? " NaN"
                 : big == 4 ? " 1e39-outside"
                            : "",
                 rc, back);
    free(A), free(SA), free(Ref), free(SA0);
}

static void run_errors(void)
{
    tila_complex64_t a[4] = { 0 };
    tila_complex32_t s[4] = { 0 };
    tila_uplo_t G = TILA_GENERAL;
    int got[] = {
        tila_core_zlag2c((tila_uplo_t)0, 1, 1, a, 1, s, 1),
        tila_core_zlag2c(G, -1, 1, a, 1, s, 1),
        tila_core_zlag2c(G, 1, -1, a, 1, s, 1),
        tila_core_zlag2c(TILA_LOWER, 2, 1, a, 2, s, 2), /* a triangle of a non-square */
        tila_core_zlag2c(G, 2, 1, a, 1, s, 2),
        tila_core_zlag2c(G, 2, 1, a, 2, s, 1),
        tila_core_clag2z(-1, 1, s, 1, a, 1),
        tila_core_clag2z(1, -1, s, 1, a, 1),
        tila_core_clag2z(2, 1, s, 1, a, 2),
        tila_core_clag2z(2, 1, s, 2, a, 1),
        tila_core_zlag2c(G, 0, 2, a, 1, s, 1),
    };
    static const int want[] = { -1, -2, -3, -3, -5, -7, -1, -2, -4, -6, 0 };
    KERNEL_CHECK_CODES(NAME, kernel_prec_letter(TILA_COMPLEX64), got, want);
}

void tila_test_zlag2c_core(const kernel_opts_t *o)
{
    static const int sizes[][2] = { { 0, 3 }, { 3, 0 }, { 1, 1 }, { 7, 5 }, { 17, 17 }, { 33, 9 } };
    static const tila_uplo_t uplos[] = { TILA_GENERAL, TILA_UPPER, TILA_LOWER };
    unsigned long long seed = o->seed;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int u = 0; u < 3; u++) {
            int m = sizes[s][0], n = sizes[s][1];
            if (uplos[u] != TILA_GENERAL && m != n) continue;
            for (int big = 0; big < (uplos[u] == TILA_GENERAL || m < 2 ? 4 : 5); big++)
                run_one(uplos[u], m, n, big, seed += 1);
        }
    run_errors();
}
