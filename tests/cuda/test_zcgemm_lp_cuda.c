/**
 * @file test_zcgemm_lp_cuda.c
 * @brief The tensor-core tile updates (cgemm_lp, cherk_lp; sgemm_lp, ssyrk_lp in real)
 * against their CPU twins.
 * @precisions mixed zc -> ds
 *
 * What it proves: cublasGemmEx in CUBLAS_COMPUTE_32F (FP32), _FAST_TF32, _FAST_16BF and
 * _FAST_16F gives the CPU twin's result (inputs rounded to the format by hand, single
 * precision's product) within the format's bound: ||GPU - CPU||_F / (u (k + 2) scale) <= 10,
 * u = 2^-24, 2^-11, 2^-8, 2^-11 (cuBLAS may take TF32 for the FAST_16 types: within the
 * same bound), scale = |alpha| ||op(A)||_F ||op(B)||_F + |beta| ||C||_F; every trans, odd
 * sizes, leading dimensions above the rows, k = 0; HERK_LP on its triangle (the GPU's one
 * GEMM writes the other too, which the contract leaves unspecified).  The entries stay in
 * half's range: beyond it the twins may differ by design (Inf against TF32's finite).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core_zc.h"
#include "cuda_kernel.h"
#include "cuda_test.h"
#include "cuda_test_zc.h"
#include "cuda_zc.h"
#include "kerneltests_z.h"

#define NAME "cuda_gemm_lp"

static const char *const fname[] = { "env", "fp32", "tf32", "bf16", "fp16" };

static double unit(tila_factor_t f)
{
    return f == TILA_FACTOR_FP32 ? 0x1p-24 : f == TILA_FACTOR_BF16 ? 0x1p-8 : 0x1p-11;
}

static double mag(tila_complex32_t x)
{
#if defined(COMPLEX)
    return cabsf(x);
#else
    return fabsf(x);
#endif
}

/* ||X||_F of the m x n X (ld), the triangle uplo only when herk. */
static double fro(int herk, tila_uplo_t uplo, int m, int n, const tila_complex32_t *X, int ld)
{
    double s = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            if (herk && (uplo == TILA_LOWER ? i < j : i > j)) continue;
            double a = mag(X[(size_t)j * ld + i]);
            s += a * a;
        }
    return sqrt(s);
}

static void run_one(tila_factor_t f, int herk, tila_uplo_t uplo, tila_trans_t ta, tila_trans_t tb,
                    int m, int n, int k, unsigned long long seed)
{
    int ra = ta == TILA_NOTRANS ? m : k, ca = ta == TILA_NOTRANS ? k : m;
    int rb = tb == TILA_NOTRANS ? k : n, cb = tb == TILA_NOTRANS ? n : k;
    int lda = ra + 1, ldb = rb + 2, ldc = m + 1;
    tila_complex32_t *A = kernel_alloc(TILA_COMPLEX32, lda, ca),
                     *B = kernel_alloc(TILA_COMPLEX32, ldb, cb),
                     *C = kernel_alloc(TILA_COMPLEX32, ldc, n);
    kernel_fill(TILA_COMPLEX32, ra, ca, A, lda, seed);
    kernel_fill(TILA_COMPLEX32, rb, cb, B, ldb, seed + 1);
    kernel_fill(TILA_COMPLEX32, m, n, C, ldc, seed + 2);
    tila_complex32_t *G = kernel_dup(TILA_COMPLEX32, ldc, n, C);
    double c0 = fro(herk, uplo, m, n, C, ldc);
    size_t lwork = (size_t)m * k + (size_t)k * n + 1;
    tila_complex32_t *W = kernel_alloc(TILA_COMPLEX32, (int)lwork, 1);
    void *dA = cuda_test_put(TILA_COMPLEX32, lda, ca, A), *dB = cuda_test_put(TILA_COMPLEX32, ldb, cb, B),
         *dC = cuda_test_put(TILA_COMPLEX32, ldc, n, G);
#if defined(COMPLEX)
    tila_complex32_t alpha = herk ? -1.0f : 0.5f + 0.25f * I, beta = herk ? 1.0f : 0.75f - 0.5f * I;
    cuFloatComplex ga = make_cuFloatComplex(crealf(alpha), cimagf(alpha)),
                   gb = make_cuFloatComplex(crealf(beta), cimagf(beta));
#else
    tila_complex32_t alpha = herk ? -1.0f : 0.5f, beta = herk ? 1.0f : 0.75f;
    float ga = alpha, gb = beta;
#endif
    int rc, rg;
    if (herk) {
        rc = tila_core_cherk_lp(f, uplo, ta, n, k, -1, A, lda, 1, C, ldc, W, lwork);
        rg = tila_cuda_cherk_lp(cuda_test.blas, f, uplo, ta, n, k, -1, dA, lda, 1, dC, ldc);
    }
    else {
        rc = tila_core_cgemm_lp(f, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, W, lwork);
        rg = tila_cuda_cgemm_lp(cuda_test.blas, f, ta, tb, m, n, k, ga, dA, lda, dB, ldb, gb, dC,
                                ldc);
    }
    cuda_test_get(TILA_COMPLEX32, ldc, n, G, dC);
    double diff = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            if (herk && (uplo == TILA_LOWER ? i < j : i > j)) continue;
            double d = mag(G[(size_t)j * ldc + i] - C[(size_t)j * ldc + i]);
            diff += d * d;
        }
    double scale = mag(alpha) * fro(0, uplo, ra, ca, A, lda) *
                       (herk ? fro(0, uplo, ra, ca, A, lda) : fro(0, uplo, rb, cb, B, ldb)) +
                   mag(beta) * c0 + 1e-30;
    double err = sqrt(diff) / (unit(f) * (k + 2) * scale);
    kernel_check(rc == 0 && rg == 0 && err <= 10, NAME, kernel_prec_letter(TILA_COMPLEX64), err,
                 "%s %s%s transa=%c transb=%c m=%d n=%d k=%d rc=%d/%d", herk ? "herk" : "gemm",
                 fname[f], herk ? (uplo == TILA_LOWER ? " L" : " U") : "", kernel_letter(ta),
                 kernel_letter(tb), m, n, k, rc, rg);
    cuda_test_free(dA), cuda_test_free(dB), cuda_test_free(dC);
    free(A), free(B), free(C), free(G), free(W);
}

void tila_test_zcgemm_lp_cuda(const kernel_opts_t *o)
{
    static const int shapes[][3] = { { 1, 1, 1 }, { 7, 5, 3 }, { 64, 64, 64 }, { 33, 17, 0 },
                                     { 130, 70, 90 } };
    static const tila_trans_t trans[] = { TILA_NOTRANS, TILA_TRANS, TILA_CONJTRANS };
    unsigned long long seed = o->seed;
    for (int f = TILA_FACTOR_FP32; f <= TILA_FACTOR_FP16; f++)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            for (int ta = 0; ta < 3; ta++)
                for (int tb = 0; tb < 3; tb++)
                    run_one((tila_factor_t)f, 0, TILA_LOWER, trans[ta], trans[tb], shapes[s][0],
                            shapes[s][1], shapes[s][2], seed += 3);
            for (int u = 0; u < 2; u++)
                for (int t = 0; t < 3; t += 2)
                    run_one((tila_factor_t)f, 1, u ? TILA_UPPER : TILA_LOWER, trans[t],
                            trans[2 - t], shapes[s][1], shapes[s][1], shapes[s][2], seed += 3);
        }
}
