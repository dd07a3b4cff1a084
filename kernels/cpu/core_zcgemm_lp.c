/**
 * @file core_zcgemm_lp.c
 * @brief Tile kernels: single-precision GEMM and HERK whose products take their inputs
 * rounded to TF32, BF16 or FP16 (the CPU twins of cuBLAS's tensor-core compute types).
 * @precisions mixed zc -> ds
 *
 * The mixed-precision solve's factorization in a lower precision (tila_factor_t) runs its
 * trailing updates on a GPU as cublasGemmEx with CUBLAS_COMPUTE_32F_FAST_TF32, _16BF or
 * _16F: the inputs rounded to that format, the products and sums in single precision.
 * These kernels do the same on a CPU: each input entry (each part of a complex one) rounded
 * to nearest, ties to even, to the format's significand (TF32 and FP16: 11 bits, BF16: 8)
 * and, for FP16, its range (magnitudes from 65520 up become infinite, those below 2^-14
 * round to multiples of 2^-24), into the workspace, then single precision's GEMM or HERK.
 * cuBLAS's FAST_16F and FAST_16BF may also take TF32 instead (CUDA's header says so): a
 * result within either format's error bound matches its contract.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core_kernel.h"
#include "core_zc.h"

#if defined(COMPLEX)
#define ZC_PARTS 2 /* floats in a tila_complex32_t */
#else
#define ZC_PARTS 1
#endif

/** x rounded to nearest (ties to even) to `keep` bits after the binary point of its
 * significand; Inf and NaN unchanged. */
static float round_significand(float x, int keep)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7f800000u) == 0x7f800000u) return x;
    int drop = 23 - keep;
    uint32_t lsb = (u >> drop) & 1u, half = (1u << (drop - 1)) - 1u + lsb;
    u = (u + half) & ~((1u << drop) - 1u); /* a carry into the exponent is the right result */
    memcpy(&x, &u, sizeof x);
    return x;
}

/** x in the format's significand and (FP16) range, as a float. */
static float round_to(tila_factor_t factor, float x)
{
    switch (factor) {
    case TILA_FACTOR_TF32: return round_significand(x, 10);
    case TILA_FACTOR_BF16: return round_significand(x, 7);
    case TILA_FACTOR_FP16: {
        float a = fabsf(x);
        if (a < 0x1p-14f) /* half's subnormals: multiples of 2^-24 (exact scalings) */
            return nearbyintf(x * 0x1p24f) * 0x1p-24f;
        x = round_significand(x, 10);
        return fabsf(x) > 65504.0f ? copysignf(INFINITY, x) : x;
    }
    default: return x;
    }
}

/* W = X rounded (rows x cols of X, ld ldx), with ld rows. */
static void round_tile(tila_factor_t factor, int rows, int cols, const tila_complex32_t *X,
                       int ldx, tila_complex32_t *W)
{
    for (int j = 0; j < cols; j++) {
        const float *x = (const float *)(X + (size_t)j * ldx);
        float *w = (float *)(W + (size_t)j * rows);
        for (int i = 0; i < rows * ZC_PARTS; i++)
            w[i] = round_to(factor, x[i]);
    }
}

static int valid_factor(tila_factor_t f)
{
    return f == TILA_FACTOR_FP32 || f == TILA_FACTOR_TF32 || f == TILA_FACTOR_BF16 ||
           f == TILA_FACTOR_FP16;
}

/**
 * C = alpha op(A) op(B) + beta C in single precision with op(A)'s and op(B)'s entries
 * rounded to `factor`'s format first (TILA_FACTOR_FP32: not rounded); C is m x n, k the
 * inner size.
 * @param lda   >= max(1, m) if transa is TILA_NOTRANS, else >= max(1, k); likewise ldb.
 * @param ldc   >= max(1, m).
 * @param work  lwork elements: at least m k + k n (unread for TILA_FACTOR_FP32).
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_cgemm_lp(tila_factor_t factor, tila_trans_t transa, tila_trans_t transb, int m,
                       int n, int k, tila_complex32_t alpha, const tila_complex32_t *A, int lda,
                       const tila_complex32_t *B, int ldb, tila_complex32_t beta,
                       tila_complex32_t *C, int ldc, tila_complex32_t *work, size_t lwork)
{
    if (!valid_factor(factor)) return -1;
    int rc = tila_args_gemm(transa, transb, m, n, k, lda, ldb, ldc, 1);
    if (rc) return rc;
    int ra = transa == TILA_NOTRANS ? m : k, ca = transa == TILA_NOTRANS ? k : m;
    int rb = transb == TILA_NOTRANS ? k : n, cb = transb == TILA_NOTRANS ? n : k;
    size_t need = (size_t)m * k + (size_t)k * n;
    if (factor != TILA_FACTOR_FP32 && (!work || lwork < need)) return -16;
    if (m == 0 || n == 0) return 0;
    if (factor != TILA_FACTOR_FP32 && k > 0) {
        tila_complex32_t *wa = work, *wb = work + (size_t)m * k;
        round_tile(factor, ra, ca, A, lda, wa);
        round_tile(factor, rb, cb, B, ldb, wb);
        A = wa, lda = tila_max1(ra);
        B = wb, ldb = tila_max1(rb);
    }
#if defined(COMPLEX)
    cblas_cgemm(CblasColMajor, tila_cblas_trans(transa), tila_cblas_trans(transb), m, n, k, &alpha,
                A, lda, B, ldb, &beta, C, ldc);
#else
    cblas_cgemm(CblasColMajor, tila_cblas_trans(transa), tila_cblas_trans(transb), m, n, k, alpha,
                A, lda, B, ldb, beta, C, ldc);
#endif
    return 0;
}

/**
 * C = alpha op(A) op(A)^H + beta C on the triangle uplo of the n x n C, in single precision
 * with op(A)'s entries rounded to `factor`'s format first (TILA_FACTOR_FP32: not rounded);
 * op(A) = A (trans TILA_NOTRANS, n x k) or A^H (TILA_CONJTRANS, A k x n).  C's other
 * triangle is unspecified on return (the GPU's kernel, one GEMM, updates it too).
 * @param lda   >= max(1, n) if trans is TILA_NOTRANS, else >= max(1, k).
 * @param ldc   >= max(1, n).
 * @param work  lwork elements: at least n k (unread for TILA_FACTOR_FP32).
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_cherk_lp(tila_factor_t factor, tila_uplo_t uplo, tila_trans_t trans, int n, int k,
                       float alpha, const tila_complex32_t *A, int lda, float beta,
                       tila_complex32_t *C, int ldc, tila_complex32_t *work, size_t lwork)
{
    if (!valid_factor(factor)) return -1;
    int rc = tila_args_herk(uplo, trans == TILA_NOTRANS || trans == TILA_CONJTRANS, trans, n, k,
                            lda, ldc, 1);
    if (rc) return rc;
    int ra = trans == TILA_NOTRANS ? n : k, ca = trans == TILA_NOTRANS ? k : n;
    if (factor != TILA_FACTOR_FP32 && (!work || lwork < (size_t)n * k)) return -13;
    if (n == 0) return 0;
    if (factor != TILA_FACTOR_FP32 && k > 0) {
        round_tile(factor, ra, ca, A, lda, work);
        A = work, lda = tila_max1(ra);
    }
    cblas_cherk(CblasColMajor, uplo == TILA_UPPER ? CblasUpper : CblasLower,
                trans == TILA_NOTRANS ? CblasNoTrans : CblasConjTrans, n, k, alpha, A, lda, beta,
                C, ldc);
    return 0;
}
