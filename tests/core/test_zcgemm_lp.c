/**
 * @file test_zcgemm_lp.c
 * @brief tila_core_cgemm_lp and tila_core_cherk_lp (sgemm_lp, ssyrk_lp): single-precision
 * GEMM and HERK with their products' inputs in TF32, BF16 or FP16.
 * @precisions mixed zc -> ds
 *
 * What it proves: each input entry (each part of a complex one) is rounded to nearest,
 * ties to even, to the format's significand, and FP16's range (65504 the largest, 65520
 * and up to Inf, multiples of 2^-24 below 2^-14), as an independent rounding in double
 * (frexp, nearbyint) says: op(A) times an identity B, and an identity times op(B), return
 * the rounded entries to the bit (a product by 1 and sums with 0 are exact), on random
 * entries spread over 2^-30 to 2^20 and on planted ones (ties, FP16's edges, Inf, NaN).
 * Then the whole product: C = alpha op(A) op(B) + beta C (every trans), and HERK's
 * triangle, against the same product of the reference-rounded inputs in double, within
 * single precision's bound (k + 2) eps |alpha| |op(A)| |op(B)| + |beta| |C| eps, 10 times
 * over; FP32 is plain single precision's product.  The workspace too small, and each bad
 * argument, return -i.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core_zc.h"
#include "kerneltests_z.h"
#include "kerneltests_zc.h"

#define NAME "core_gemm_lp"

#if defined(COMPLEX)
#define PARTS 2
#else
#define PARTS 1
#endif

static const char *const fname[] = { "env", "fp32", "tf32", "bf16", "fp16" };

/* x rounded to the format: p significand bits (the leading one included), FP16's range. */
static double ref_round(tila_factor_t f, double x)
{
    if (f == TILA_FACTOR_FP32 || !isfinite(x) || x == 0) return x;
    int p = f == TILA_FACTOR_BF16 ? 8 : 11, e;
    frexp(x, &e); /* |x| in [2^(e-1), 2^e) */
    if (f == TILA_FACTOR_FP16 && e < -13) e = -13; /* subnormals: a quantum of 2^-24 */
    double q = ldexp(1, e - p), r = nearbyint(x / q) * q;
    if (f == TILA_FACTOR_FP16 && fabs(r) > 65504) r = copysign(INFINITY, r);
    return r;
}

/* Entries spread over magnitudes 2^-30 .. 2^20, both signs, a few planted. */
static void fill_spread(int m, int n, tila_complex32_t *A, int lda, unsigned long long seed)
{
    static const float planted[] = { 65504.0f, 65519.0f, 65520.0f,    70000.0f,     1.0f + 0x1p-11f,
                                     0x1p-25f, 0x3p-26f, 0x1.8p-14f, 1.0f + 0x3p-11f, INFINITY };
    unsigned long long s = seed * 6364136223846793005ull + 1442695040888963407ull;
    for (int j = 0; j < n; j++) {
        float *a = (float *)(A + (size_t)j * lda);
        for (int i = 0; i < m * PARTS; i++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            double u = (double)(s >> 11) / 9007199254740992.0;
            int e = (int)((s >> 3) % 51) - 30;
            a[i] = (float)((s & 4 ? -1 : 1) * ldexp(0.5 + u / 2, e));
            if ((s >> 20) % 17 == 0) a[i] = planted[(s >> 24) % 10] * (s & 8 ? -1 : 1);
        }
    }
}

static void identity(int n, tila_complex32_t *E, int ld)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < ld; i++)
            E[(size_t)j * ld + i] = i == j;
}

/* op(A) * I and I * op(B): the rounded entries, to the bit (NaN as NaN). */
static void run_rounding(tila_factor_t f, tila_trans_t ta, int m, int k, unsigned long long seed)
{
    int ra = ta == TILA_NOTRANS ? m : k, ca = ta == TILA_NOTRANS ? k : m, lda = ra + 1, ldc = m + 2;
    tila_complex32_t *A = kernel_alloc(TILA_COMPLEX32, lda, ca), *E = kernel_alloc(TILA_COMPLEX32, k, k),
                     *C = kernel_alloc(TILA_COMPLEX32, ldc, k),
                     *W = kernel_alloc(TILA_COMPLEX32, 2 * (m + k), k);
    fill_spread(ra, ca, A, lda, seed);
    identity(k, E, k);
    int rc = tila_core_cgemm_lp(f, ta, TILA_NOTRANS, m, k, k, 1, A, lda, E, k, 0, C, ldc, W,
                                (size_t)2 * (m + k) * k);
    /* A row of op(A) with an infinite rounded entry makes its row of C Inf or NaN (Inf
     * times the identity's zeros): there every entry must be non-finite. */
    int same = 1, planted = 0;
    for (int i = 0; i < m; i++) {
        int inf_row = 0;
        for (int j = 0; j < k; j++) {
            tila_complex32_t a = ta == TILA_NOTRANS ? A[(size_t)j * lda + i] : A[(size_t)i * lda + j];
            const float *x = (const float *)&a;
            for (int p = 0; p < PARTS; p++)
                inf_row |= isinf(ref_round(f, x[p]));
        }
        for (int j = 0; inf_row && j < k; j++) {
            const float *c = (const float *)&C[(size_t)j * ldc + i];
            for (int p = 0; p < PARTS; p++)
                same &= !isfinite(c[p]) || p > 0;
        }
        if (inf_row) continue;
        for (int j = 0; j < k; j++) {
            /* op(A)(i, j): A(i, j), or A(j, i) (conjugated for ^H). */
            tila_complex32_t a = ta == TILA_NOTRANS ? A[(size_t)j * lda + i] : A[(size_t)i * lda + j];
#if defined(COMPLEX)
            if (ta == TILA_CONJTRANS) a = conjf(a);
#endif
            const float *x = (const float *)&a, *c = (const float *)&C[(size_t)j * ldc + i];
            for (int p = 0; p < PARTS; p++) {
                double want = ref_round(f, x[p]);
                same &= (double)c[p] == want || (isnan(want) && isnan(c[p]));
                planted += fabsf(x[p]) >= 65504.0f;
            }
        }
    }
    kernel_check(rc == 0 && same, NAME, kernel_prec_letter(TILA_COMPLEX64), 0,
                 "rounding %s transa=%c m=%d k=%d (entries >= 65504: %d) rc=%d", fname[f],
                 kernel_letter(ta), m, k, planted, rc);
    free(A), free(E), free(C), free(W);
}

/* |x| of the measure the bound takes: |Re| + |Im|. */
static double mag(tila_complex64_t x)
{
#if defined(COMPLEX)
    return fabs(creal(x)) + fabs(cimag(x));
#else
    return fabs(x);
#endif
}

/* op(X)(i, j) of X (ld), in double, reference-rounded. */
static tila_complex64_t op_at(tila_factor_t f, tila_trans_t t, const tila_complex32_t *X, int ld,
                              int i, int j)
{
    tila_complex32_t x = t == TILA_NOTRANS ? X[(size_t)j * ld + i] : X[(size_t)i * ld + j];
#if defined(COMPLEX)
    if (t == TILA_CONJTRANS) x = conjf(x);
    return ref_round(f, crealf(x)) + I * ref_round(f, cimagf(x));
#else
    return ref_round(f, x);
#endif
}

/* GEMM (herk = 0) or HERK's triangle uplo (herk = 1, B = A, transb the other of transa)
 * against the product of the rounded inputs in double. */
static void run_product(tila_factor_t f, int herk, tila_uplo_t uplo, tila_trans_t ta,
                        tila_trans_t tb, int m, int n, int k, unsigned long long seed)
{
    int ra = ta == TILA_NOTRANS ? m : k, ca = ta == TILA_NOTRANS ? k : m;
    int rb = tb == TILA_NOTRANS ? k : n, cb = tb == TILA_NOTRANS ? n : k;
    int lda = ra + 2, ldb = rb + 1, ldc = m + 3;
    tila_complex32_t *A = kernel_alloc(TILA_COMPLEX32, lda, ca), *B = kernel_alloc(TILA_COMPLEX32, ldb, cb),
                     *C = kernel_alloc(TILA_COMPLEX32, ldc, n);
    size_t lwork = (size_t)m * k + (size_t)k * n;
    tila_complex32_t *W = kernel_alloc(TILA_COMPLEX32, (int)(lwork > 0 ? lwork : 1), 1);
    kernel_fill(TILA_COMPLEX32, ra, ca, A, lda, seed);
    kernel_fill(TILA_COMPLEX32, rb, cb, B, ldb, seed + 1);
    kernel_fill(TILA_COMPLEX32, m, n, C, ldc, seed + 2);
    tila_complex32_t *C0 = kernel_dup(TILA_COMPLEX32, ldc, n, C);
#if defined(COMPLEX)
    tila_complex32_t alpha = herk ? -1.0f : 0.75f - 0.5f * I, beta = herk ? 1.0f : 0.5f + 0.25f * I;
#else
    tila_complex32_t alpha = herk ? -1.0f : 0.75f, beta = herk ? 1.0f : 0.5f;
#endif
    int rc = herk ? tila_core_cherk_lp(f, uplo, ta, n, k, crealf(alpha), A, lda, crealf(beta), C,
                                       ldc, W, (size_t)n * k)
                  : tila_core_cgemm_lp(f, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, W,
                                       lwork);
    double worst = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            if (herk && (uplo == TILA_LOWER ? i < j : i > j)) continue;
            tila_complex64_t s = 0;
            double bound = 0;
            for (int l = 0; l < k; l++) {
                tila_complex64_t a = op_at(f, ta, A, lda, i, l),
                                 b = herk ? op_at(f, tb, A, lda, l, j) : op_at(f, tb, B, ldb, l, j);
                s += a * b;
                bound += mag(a) * mag(b);
            }
            tila_complex64_t c0 = C0[(size_t)j * ldc + i], want = (tila_complex64_t)alpha * s +
                                                               (tila_complex64_t)beta * c0;
            if (herk && i == j) want = creal(want); /* HERK's diagonal is real */
            double scale = mag(alpha) * bound + mag(beta) * mag(c0) + DBL_MIN;
            double err = mag((tila_complex64_t)C[(size_t)j * ldc + i] - want) /
                         ((k + 2) * FLT_EPSILON * scale);
            if (!(err <= worst)) worst = err;
        }
    kernel_check(rc == 0 && worst <= 10, NAME, kernel_prec_letter(TILA_COMPLEX64), worst,
                 "%s %s%s transa=%c transb=%c m=%d n=%d k=%d rc=%d", herk ? "herk" : "gemm",
                 fname[f], herk ? (uplo == TILA_LOWER ? " L" : " U") : "", kernel_letter(ta),
                 kernel_letter(tb), m, n, k, rc);
    free(A), free(B), free(C), free(C0), free(W);
}

static void run_errors(void)
{
    tila_complex32_t a[16] = { 0 }, w[16];
    tila_trans_t N = TILA_NOTRANS;
    tila_factor_t T = TILA_FACTOR_TF32;
    int got[] = {
        tila_core_cgemm_lp((tila_factor_t)9, N, N, 1, 1, 1, 1, a, 1, a, 1, 0, a, 1, w, 16),
        tila_core_cgemm_lp(T, (tila_trans_t)0, N, 1, 1, 1, 1, a, 1, a, 1, 0, a, 1, w, 16),
        tila_core_cgemm_lp(T, N, (tila_trans_t)0, 1, 1, 1, 1, a, 1, a, 1, 0, a, 1, w, 16),
        tila_core_cgemm_lp(T, N, N, -1, 1, 1, 1, a, 1, a, 1, 0, a, 1, w, 16),
        tila_core_cgemm_lp(T, N, N, 1, -1, 1, 1, a, 1, a, 1, 0, a, 1, w, 16),
        tila_core_cgemm_lp(T, N, N, 1, 1, -1, 1, a, 1, a, 1, 0, a, 1, w, 16),
        tila_core_cgemm_lp(T, N, N, 2, 1, 1, 1, a, 2, a, 1, 0, a, 1, w, 16),
        tila_core_cgemm_lp(T, N, N, 1, 1, 2, 1, a, 1, a, 1, 0, a, 1, w, 16),
        tila_core_cgemm_lp(T, N, N, 2, 1, 1, 1, a, 1, a, 1, 0, a, 2, w, 16),
        tila_core_cgemm_lp(T, N, N, 2, 2, 2, 1, a, 2, a, 2, 0, a, 2, w, 7),
        tila_core_cgemm_lp(T, N, N, 2, 2, 2, 1, a, 2, a, 2, 0, a, 2, NULL, 16),
        tila_core_cgemm_lp(TILA_FACTOR_FP32, N, N, 2, 2, 2, 1, a, 2, a, 2, 0, a, 2, NULL, 0),
        tila_core_cherk_lp((tila_factor_t)0, TILA_LOWER, N, 1, 1, 1, a, 1, 0, a, 1, w, 16),
        tila_core_cherk_lp(T, TILA_GENERAL, N, 1, 1, 1, a, 1, 0, a, 1, w, 16),
        tila_core_cherk_lp(T, TILA_LOWER, TILA_TRANS, 1, 1, 1, a, 1, 0, a, 1, w, 16),
        tila_core_cherk_lp(T, TILA_LOWER, N, -1, 1, 1, a, 1, 0, a, 1, w, 16),
        tila_core_cherk_lp(T, TILA_LOWER, N, 1, -1, 1, a, 1, 0, a, 1, w, 16),
        tila_core_cherk_lp(T, TILA_LOWER, N, 2, 1, 1, a, 1, 0, a, 2, w, 16),
        tila_core_cherk_lp(T, TILA_LOWER, N, 2, 1, 1, a, 2, 0, a, 1, w, 16),
        tila_core_cherk_lp(T, TILA_LOWER, N, 2, 2, 1, a, 2, 0, a, 2, w, 3),
    };
    static const int want[] = { -1, -2, -3, -4,  -5, -6, -14, -11, -9, -16,
                                -16, 0, -1, -2, -3, -4, -5,  -8,  -11, -13 };
    KERNEL_CHECK_CODES(NAME, kernel_prec_letter(TILA_COMPLEX64), got, want);
}

void tila_test_zcgemm_lp_core(const kernel_opts_t *o)
{
    static const int shapes[][3] = { { 1, 1, 1 }, { 7, 5, 3 }, { 16, 16, 16 }, { 33, 9, 20 },
                                     { 5, 0, 4 }, { 6, 4, 0 } };
    static const tila_trans_t trans[] = { TILA_NOTRANS, TILA_TRANS, TILA_CONJTRANS };
    unsigned long long seed = o->seed;
    for (int f = TILA_FACTOR_FP32; f <= TILA_FACTOR_FP16; f++) {
        for (int t = 0; t < 3; t++) {
            run_rounding((tila_factor_t)f, trans[t], 9, 13, seed += 3);
            run_rounding((tila_factor_t)f, trans[t], 40, 7, seed += 3);
        }
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
            for (int ta = 0; ta < 3; ta++)
                for (int tb = 0; tb < 3; tb++)
                    run_product((tila_factor_t)f, 0, TILA_LOWER, trans[ta], trans[tb], shapes[s][0],
                                shapes[s][1], shapes[s][2], seed += 3);
        for (int u = 0; u < 2; u++)
            for (int t = 0; t < 3; t += 2)
                for (size_t s = 0; s < 4; s++)
                    run_product((tila_factor_t)f, 1, u ? TILA_UPPER : TILA_LOWER, trans[t],
                                trans[2 - t], shapes[s][1], shapes[s][1], shapes[s][2], seed += 3);
    }
    run_errors();
}
