/**
 * @file test_zcuda.c
 * @brief The CUDA tile kernels against their CPU twins, on the same tiles.
 * @precisions normal z -> c d s
 *
 * What it proves: each kernel of kernels/cuda computes, on the GPU, what its twin of
 * kernels/cpu computes on the CPU (the conversions between precisions:
 * test_zlag2c_cuda.c), for empty, 1 x 1, odd and unequal sizes, leading dimensions larger
 * than the rows, every side/uplo/trans/diag, complex scalars; and what it must not read
 * (beta = 0: C; the other triangle of a triangular or symmetric tile) holds NaN, which
 * would show; the rows between m and ld are not written.
 *
 * Tolerances, and why they suffice:
 *  - bit for bit where both sides do the same rounded operations in the same order: the
 *    copies and settings (lacpy, laset), colamax (a max is exact), the generators (plrnt,
 *    plghe: each entry a function of its seed and global index, built without fused
 *    multiply-adds on either side), and every norm kernel's partial result (kernels/tila_lan_order.h: the
 *    promise that a norm's value does not depend on the workers rests on this); a NaN
 *    partial equals any NaN (its payload is the hardware's);
 *  - BLAS-3 (gemm, gemm2, trsm, trmm, herk, hemm), potrf and the QR updates: each side is within
 *    gamma_{k+2} |A| |B| of the exact result (Higham 3.5, 8.1, 10.1, 19.3), so the two
 *    differ by at most twice that in Frobenius norm: the error printed is
 *    ||GPU - CPU||_F / (eps (k + 2) scale), scale the norm of the inputs' product (gemm,
 *    herk) or of the result (solves, factors), and must be <= 10 on the well conditioned
 *    tiles used here; a wrong op, scalar, triangle or leading dimension gives O(1 / eps);
 *  - lascal, geadd: one or two roundings per entry (cuBLAS may fuse them): <= 4 eps;
 *  - geqrt, tpqrt: cuSOLVER's Householder vectors follow LAPACK's convention (larfg), so
 *    R, V and T agree as the solves do; the GPU's factors are also checked on their own
 *    (residual and orthogonality of Q R, tests/core's check).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core_z.h"
#include "cuda_kernel.h"
#include "cuda_z.h"
#include "cuda_test.h"
#include "kerneltests_z.h"

#define PREC TILA_COMPLEX64
#define TOL 10.0
typedef tila_complex64_t elem_t;

static char P(void) { return kernel_prec_letter(PREC); }

static elem_t *host(int ld, int n, unsigned long long seed, int m)
{
    elem_t *A = kernel_alloc(PREC, ld, n);
    if (seed) kernel_fill(PREC, m, n, A, ld, seed);
    return A;
}

static cuDoubleComplex *put(int ld, int n, const elem_t *A)
{
    return cuda_test_put(PREC, ld, n, A);
}

/* The GPU's m x n result G (downloaded) against the CPU's C, both ld apart: the error in
 * units of eps (k + 2) scale, and the rows m..ld-1 of G as they were in G0. */
static double gpu_error(int m, int n, int ld, const elem_t *G, const elem_t *C, int k, double scale)
{
    return kernel_ratio(kernel_dist_fro(PREC, m, n, G, ld, C, ld), DBL_EPSILON * (k + 2) * scale);
}

/*
 * The defined part of a T of ?geqrt/?tpqrt: block b (columns b nb ... b nb + nb - 1) is
 * upper triangular and its strictly lower part unspecified (LAPACK leaves it as it was: NaN
 * here, from host()): zeroed in a copy of T's nb x k, so that two T compare on what both
 * promise and nothing else.
 */
static elem_t *t_defined(int nb, int k, const elem_t *T, int ldt)
{
    elem_t *U = host(ldt, k, 0, 0);
    for (int j = 0; j < k; j++)
        for (int i = 0; i < nb; i++)
            U[(size_t)j * ldt + i] = i > j % nb ? 0 : T[(size_t)j * ldt + i];
    return U;
}

/* gpu_error of two T on their defined part (t_defined); scale their size. */
static double t_error(int nb, int k, int ldt, const elem_t *TG, const elem_t *T, int depth)
{
    elem_t *UG = t_defined(nb, k, TG, ldt), *U = t_defined(nb, k, T, ldt);
    double e = gpu_error(nb, k, ldt, UG, U, depth, tila_test_zfnorm(nb, k, U, ldt) + 1e-300);
    free(UG), free(U);
    return e;
}

/* ---- BLAS: gemm, trsm, trmm, herk, lascal, geadd ------------------------------------- */

static void run_gemm(tila_trans_t ta, tila_trans_t tb, int m, int n, int k, int zero_beta,
                     unsigned long long seed)
{
    int am = ta == TILA_NOTRANS ? m : k, an = ta == TILA_NOTRANS ? k : m;
    int bm = tb == TILA_NOTRANS ? k : n, bn = tb == TILA_NOTRANS ? n : k;
    int lda = am + 2, ldb = bm + 1, ldc = m + 3;
    elem_t *A = host(lda, an, seed, am), *B = host(ldb, bn, seed + 1, bm);
    elem_t *C = host(ldc, n, zero_beta ? 0 : seed + 2, m); /* beta = 0: C NaN, not read */
    elem_t alpha = tila_test_zscalar(0.7, -0.4),
           beta = zero_beta ? 0 : tila_test_zscalar(-1.1, 0.3);
    elem_t *G = kernel_dup(PREC, ldc, n, C), *C0 = kernel_dup(PREC, ldc, n, C);
    cuDoubleComplex *dA = put(lda, an, A), *dB = put(ldb, bn, B), *dC = put(ldc, n, C);
    int rc = tila_core_zgemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
    int rg = tila_cuda_zgemm(cuda_test.blas, ta, tb, m, n, k, tila_cuda_zscalar(alpha), dA, lda, dB,
                             ldb, tila_cuda_zscalar(beta), dC, ldc);
    cuda_test_get(PREC, ldc, n, G, dC);
    double scale =
        cabs(alpha) * tila_test_zfnorm(am, an, A, lda) * tila_test_zfnorm(bm, bn, B, ldb) +
        (zero_beta ? 0 : cabs(beta) * tila_test_zfnorm(m, n, C0, ldc));
    double err = gpu_error(m, n, ldc, G, C, k, scale);
    int ok = rc == 0 && rg == 0 && err <= TOL && kernel_untouched(PREC, m, n, ldc, G, C0);
    kernel_check(ok, "cuda_gemm", P(), err, "transa=%c transb=%c m=%d n=%d k=%d beta=%s rc=%d",
                 kernel_letter(ta), kernel_letter(tb), m, n, k, zero_beta ? "0(C=NaN)" : "complex",
                 rg);
    cuda_test_free(dA);
    cuda_test_free(dB);
    cuda_test_free(dC);
    free(A), free(B), free(C), free(G), free(C0);
}

/* gemm2: C1 = alpha1 A B1 + beta1 C1 and C2 = alpha2 A^H B2 + beta2 C2, each against the
 * CPU kernel's within gemm's bound (its inner size m or k). */
static void run_gemm2(int m, int n, int k, int zero_beta, unsigned long long seed)
{
    int lda = m + 2, ldb1 = k + 1, ldc1 = m + 3, ldb2 = m + 2, ldc2 = k + 1;
    elem_t *A = host(lda, k, seed, m), *B1 = host(ldb1, n, seed + 1, k);
    elem_t *B2 = host(ldb2, n, seed + 2, m);
    elem_t *C1 = host(ldc1, n, zero_beta ? 0 : seed + 3, m); /* beta = 0: NaN, not read */
    elem_t *C2 = host(ldc2, n, zero_beta ? 0 : seed + 4, k);
    elem_t alpha1 = tila_test_zscalar(-1, 0.25), alpha2 = tila_test_zscalar(0.5, -0.75);
    elem_t beta1 = zero_beta ? 0 : tila_test_zscalar(1, -0.5),
           beta2 = zero_beta ? 0 : tila_test_zscalar(-0.25, 1);
    elem_t *G1 = kernel_dup(PREC, ldc1, n, C1), *G2 = kernel_dup(PREC, ldc2, n, C2);
    elem_t *C10 = kernel_dup(PREC, ldc1, n, C1), *C20 = kernel_dup(PREC, ldc2, n, C2);
    cuDoubleComplex *dA = put(lda, k, A), *dB1 = put(ldb1, n, B1), *dB2 = put(ldb2, n, B2);
    cuDoubleComplex *dC1 = put(ldc1, n, C1), *dC2 = put(ldc2, n, C2);
    int rc = tila_core_zgemm2(m, n, k, A, lda, alpha1, B1, ldb1, beta1, C1, ldc1, alpha2, B2,
                              ldb2, beta2, C2, ldc2);
    int rg = tila_cuda_zgemm2(cuda_test.blas, m, n, k, dA, lda, tila_cuda_zscalar(alpha1), dB1,
                              ldb1, tila_cuda_zscalar(beta1), dC1, ldc1, tila_cuda_zscalar(alpha2),
                              dB2, ldb2, tila_cuda_zscalar(beta2), dC2, ldc2);
    cuda_test_get(PREC, ldc1, n, G1, dC1);
    cuda_test_get(PREC, ldc2, n, G2, dC2);
    double na = tila_test_zfnorm(m, k, A, lda);
    double s1 = cabs(alpha1) * na * tila_test_zfnorm(k, n, B1, ldb1) +
                (zero_beta ? 0 : cabs(beta1) * tila_test_zfnorm(m, n, C10, ldc1));
    double s2 = cabs(alpha2) * na * tila_test_zfnorm(m, n, B2, ldb2) +
                (zero_beta ? 0 : cabs(beta2) * tila_test_zfnorm(k, n, C20, ldc2));
    double e1 = gpu_error(m, n, ldc1, G1, C1, k, s1), e2 = gpu_error(k, n, ldc2, G2, C2, m, s2);
    double err = e1 > e2 || e1 != e1 ? e1 : e2;
    int ok = rc == 0 && rg == 0 && err <= TOL && kernel_untouched(PREC, m, n, ldc1, G1, C10) &&
             kernel_untouched(PREC, k, n, ldc2, G2, C20);
    kernel_check(ok, "cuda_gemm2", P(), err, "m=%d n=%d k=%d beta=%s rc=%d", m, n, k,
                 zero_beta ? "0(C=NaN)" : "complex", rg);
    cuda_test_free(dA);
    cuda_test_free(dB1);
    cuda_test_free(dB2);
    cuda_test_free(dC1);
    cuda_test_free(dC2);
    free(A), free(B1), free(B2), free(C1), free(C2), free(G1), free(G2), free(C10), free(C20);
}

/* trsm (mm = 0), trmm (mm = 1), trmm by gemm (mm = 2, tila_cuda_ztrmm_gemm: the other
 * triangle's NaN must not reach the product) or trsm halved down to 8 rows (mm = 3,
 * tila_cuda_ztrsm_rec): B = alpha op(A)^-1 B or alpha op(A) B, or on the right. */
static void run_trxm(int mm, tila_side_t side, tila_uplo_t uplo, tila_trans_t trans,
                     tila_diag_t diag, int m, int n, unsigned long long seed)
{
    int k = side == TILA_LEFT ? m : n, lda = k + 1, ldb = m + 2;
    elem_t *A = kernel_alloc(PREC, lda, k), *B = host(ldb, n, seed + 1, m);
    tila_test_ztriangle(uplo, diag, k, A, lda, seed); /* the other triangle NaN */
    elem_t alpha = tila_test_zscalar(0.8, 0.25);
    elem_t *G = kernel_dup(PREC, ldb, n, B), *B0 = kernel_dup(PREC, ldb, n, B);
    cuDoubleComplex *dA = put(lda, k, A), *dB = put(ldb, n, B);
    int rc, rg;
    if (mm == 2) {
        cuDoubleComplex *dW =
            cuda_test_alloc(sizeof(cuDoubleComplex) * (tila_cuda_ztrmm_gemm_work(side, m, n) + 1));
        rc = tila_core_ztrmm(side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb);
        rg = tila_cuda_ztrmm_gemm(cuda_test.blas, side, uplo, trans, diag, m, n,
                                  tila_cuda_zscalar(alpha), dA, lda, dB, ldb, dW);
        cuda_test_free(dW); /* after the stream's work (cuda_test_free synchronises) */
    }
    else if (mm) {
        rc = tila_core_ztrmm(side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb);
        rg = tila_cuda_ztrmm(cuda_test.blas, side, uplo, trans, diag, m, n,
                             tila_cuda_zscalar(alpha), dA, lda, dB, ldb);
    }
    else if (mm == 3) {
        rc = tila_core_ztrsm(side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb);
        rg = tila_cuda_ztrsm_rec(cuda_test.blas, side, uplo, trans, diag, m, n,
                                 tila_cuda_zscalar(alpha), dA, lda, dB, ldb, 8);
    }
    else {
        rc = tila_core_ztrsm(side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb);
        rg = tila_cuda_ztrsm(cuda_test.blas, side, uplo, trans, diag, m, n,
                             tila_cuda_zscalar(alpha), dA, lda, dB, ldb);
    }
    cuda_test_get(PREC, ldb, n, G, dB);
    double err = gpu_error(m, n, ldb, G, B, k, tila_test_zfnorm(m, n, B, ldb) + 1e-300);
    int ok = rc == 0 && rg == 0 && err <= TOL && kernel_untouched(PREC, m, n, ldb, G, B0);
    static const char *names[] = { "cuda_trsm", "cuda_trmm", "cuda_trmm_gemm", "cuda_trsm_rec" };
    kernel_check(ok, names[mm], P(), err,
                 "side=%c uplo=%c trans=%c diag=%c m=%d n=%d rc=%d", kernel_letter(side),
                 kernel_letter(uplo), kernel_letter(trans), kernel_letter(diag), m, n, rg);
    cuda_test_free(dA);
    cuda_test_free(dB);
    free(A), free(B), free(G), free(B0);
}

static void run_herk(tila_uplo_t uplo, tila_trans_t trans, int n, int k, unsigned long long seed)
{
    int am = trans == TILA_NOTRANS ? n : k, an = trans == TILA_NOTRANS ? k : n;
    int lda = am + 1, ldc = n + 2;
    elem_t *A = host(lda, an, seed, am), *C = host(ldc, n, seed + 1, n);
    elem_t *G = kernel_dup(PREC, ldc, n, C), *C0 = kernel_dup(PREC, ldc, n, C);
    cuDoubleComplex *dA = put(lda, an, A), *dC = put(ldc, n, C);
    int rc = tila_core_zherk(uplo, trans, n, k, -1.0, A, lda, 0.5, C, ldc);
    int rg = tila_cuda_zherk(cuda_test.blas, uplo, trans, n, k, -1.0, dA, lda, 0.5, dC, ldc);
    cuda_test_get(PREC, ldc, n, G, dC);
    double a = tila_test_zfnorm(am, an, A, lda);
    double err = gpu_error(n, n, ldc, G, C, k, a * a + tila_test_zfnorm(n, n, C0, ldc));
    int ok = rc == 0 && rg == 0 && err <= TOL && kernel_untouched(PREC, n, n, ldc, G, C0);
    kernel_check(ok, "cuda_herk", P(), err, "uplo=%c trans=%c n=%d k=%d rc=%d", kernel_letter(uplo),
                 kernel_letter(trans), n, k, rg);
    cuda_test_free(dA);
    cuda_test_free(dC);
    free(A), free(C), free(G), free(C0);
}

/* hemm: A's other triangle NaN (not read), beta = 0 with C NaN on every third case. */
static void run_hemm(tila_side_t side, tila_uplo_t uplo, int m, int n, unsigned long long seed)
{
    int k = side == TILA_LEFT ? m : n, lda = k + 1, ldb = m + 2, ldc = m + 3, zero = seed % 3 == 0;
    elem_t *A = host(lda, k, seed, k), *B = host(ldb, n, seed + 1, m);
    elem_t *C = host(ldc, n, zero ? 0 : seed + 2, m);
    for (int j = 0; j < k; j++)
        for (int i = 0; i < k; i++)
            if (uplo == TILA_UPPER ? i > j : i < j) A[(size_t)j * lda + i] = NAN;
    elem_t *G = kernel_dup(PREC, ldc, n, C), *C0 = kernel_dup(PREC, ldc, n, C);
    elem_t alpha = tila_test_zscalar(0.6, -0.2), beta = zero ? 0 : tila_test_zscalar(-0.9, 0.5);
    cuDoubleComplex *dA = put(lda, k, A), *dB = put(ldb, n, B), *dC = put(ldc, n, C);
    int rc = tila_core_zhemm(side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc);
    int rg = tila_cuda_zhemm(cuda_test.blas, side, uplo, m, n, tila_cuda_zscalar(alpha), dA, lda,
                             dB, ldb, tila_cuda_zscalar(beta), dC, ldc);
    cuda_test_get(PREC, ldc, n, G, dC);
    /* ||A||_F from its stored triangle, twice (a bound: the full matrix's is below it). */
    double a = 0;
    for (int j = 0; j < k; j++)
        for (int i = 0; i < k; i++)
            if (uplo == TILA_UPPER ? i <= j : i >= j) a += 2 * pow(cabs(A[(size_t)j * lda + i]), 2);
    double scale =
        sqrt(a) * tila_test_zfnorm(m, n, B, ldb) + (zero ? 0 : tila_test_zfnorm(m, n, C0, ldc));
    double err = gpu_error(m, n, ldc, G, C, k, scale);
    int ok = rc == 0 && rg == 0 && err <= TOL && kernel_untouched(PREC, m, n, ldc, G, C0);
    kernel_check(ok, "cuda_hemm", P(), err, "side=%c uplo=%c m=%d n=%d%s rc=%d",
                 kernel_letter(side), kernel_letter(uplo), m, n, zero ? " C=NaN" : "", rg);
    cuda_test_free(dA);
    cuda_test_free(dB);
    cuda_test_free(dC);
    free(A), free(B), free(C), free(G), free(C0);
}

/* lascal (add = 0): A = alpha A; geadd (add = 1): B = alpha A + beta B. */
static void run_scale(int add, int m, int n, unsigned long long seed)
{
    int lda = m + 1, ldb = m + 2;
    elem_t *A = host(lda, n, seed, m), *B = host(ldb, n, seed + 1, m);
    elem_t alpha = tila_test_zscalar(-0.6, 0.9), beta = tila_test_zscalar(1.3, -0.2);
    elem_t *X = add ? B : A;
    int ld = add ? ldb : lda;
    elem_t *G = kernel_dup(PREC, ld, n, X), *X0 = kernel_dup(PREC, ld, n, X);
    cuDoubleComplex *dA = put(lda, n, A), *dB = put(ldb, n, B);
    int rc, rg;
    if (add) {
        rc = tila_core_zgeadd(m, n, alpha, A, lda, beta, B, ldb);
        rg = tila_cuda_zgeadd(cuda_test.blas, m, n, tila_cuda_zscalar(alpha), dA, lda,
                              tila_cuda_zscalar(beta), dB, ldb);
    }
    else {
        rc = tila_core_zlascal(m, n, alpha, A, lda);
        rg = tila_cuda_zlascal(cuda_test.blas, m, n, tila_cuda_zscalar(alpha), dA, lda);
    }
    cuda_test_get(PREC, ld, n, G, add ? (void *)dB : (void *)dA);
    double scale = cabs(alpha) * tila_test_zfnorm(m, n, A, lda) +
                   (add ? cabs(beta) * tila_test_zfnorm(m, n, X0, ldb) : 0);
    double err = gpu_error(m, n, ld, G, X, 0, scale) * 2; /* units of eps scale */
    int ok = rc == 0 && rg == 0 && err <= 4 && kernel_untouched(PREC, m, n, ld, G, X0);
    kernel_check(ok, add ? "cuda_geadd" : "cuda_lascal", P(), err, "m=%d n=%d rc=%d", m, n, rg);
    cuda_test_free(dA);
    cuda_test_free(dB);
    free(A), free(B), free(G), free(X0);
}

/* A library call that fails is the kernel's TILA_ERR_DEVICE, returned, not the end of the
 * program, and the tile stays as it was: cuBLAS refuses a handle that was never created
 * (CUBLAS_STATUS_NOT_INITIALIZED).  cuSOLVER has no such defined failure to provoke: 12.x
 * dereferences a NULL handle (a segfault) and sizes the workspace of a negative order
 * without complaint; the workers' handles are made at tila_init, which fails without them. */
static void run_device_error(unsigned long long seed)
{
    int n = 8;
    elem_t *A = host(n, n, seed, n), *G = kernel_dup(PREC, n, n, A);
    cuDoubleComplex *dA = put(n, n, A), one = tila_cuda_zscalar(1.0);
    int gemm =
        tila_cuda_zgemm(NULL, TILA_NOTRANS, TILA_NOTRANS, n, n, n, one, dA, n, dA, n, one, dA, n);
    cuda_test_get(PREC, n, n, G, dA);
    int ok = gemm == TILA_ERR_DEVICE && kernel_equal(PREC, n, n, G, n, A, n);
    kernel_check(ok, "cuda_device_error", P(), 0, "gemm=%d (want %d)", gemm, TILA_ERR_DEVICE);
    cuda_test_free(dA);
    free(A), free(G);
}

void tila_test_zcuda_blas(const kernel_opts_t *o)
{
    static const int mnk[][3] = { { 0, 0, 0 },  { 1, 1, 1 },    { 3, 0, 2 },   { 33, 17, 45 },
                                  { 5, 1, 29 }, { 64, 64, 64 }, { 100, 37, 0 } };
    static const tila_trans_t tr[] = { TILA_NOTRANS, TILA_TRANS, TILA_CONJTRANS };
    static const tila_side_t sides[] = { TILA_LEFT, TILA_RIGHT };
    static const tila_uplo_t uplos[] = { TILA_UPPER, TILA_LOWER };
    static const tila_diag_t diags[] = { TILA_NONUNIT, TILA_UNIT };
    unsigned long long seed = o->seed;
    for (size_t s = 0; s < sizeof mnk / sizeof mnk[0]; s++)
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                run_gemm(tr[a], tr[b], mnk[s][0], mnk[s][1], mnk[s][2], (a + b + (int)s) % 2,
                         seed += 3);
    for (size_t s = 0; s < sizeof mnk / sizeof mnk[0]; s++)
        for (int zb = 0; zb < 2; zb++)
            run_gemm2(mnk[s][0], mnk[s][1], mnk[s][2], zb, seed += 5);
    static const int mn[][2] = { { 0, 3 }, { 1, 1 }, { 17, 9 }, { 9, 17 }, { 64, 33 } };
    for (size_t s = 0; s < sizeof mn / sizeof mn[0]; s++)
        for (int mm = 0; mm < 4; mm++)
            for (int si = 0; si < 2; si++)
                for (int u = 0; u < 2; u++)
                    for (int t = 0; t < 3; t++)
                        for (int d = 0; d < 2; d++)
                            run_trxm(mm, sides[si], uplos[u], tr[t], diags[d], mn[s][0], mn[s][1],
                                     seed += 2);
    for (size_t s = 0; s < sizeof mn / sizeof mn[0]; s++) {
        for (int u = 0; u < 2; u++) {
            run_herk(uplos[u], TILA_NOTRANS, mn[s][0], mn[s][1], seed += 2);
            run_herk(uplos[u], TILA_CONJTRANS, mn[s][0], mn[s][1], seed += 2);
        }
        run_scale(0, mn[s][0], mn[s][1], seed += 2);
        run_scale(1, mn[s][0], mn[s][1], seed += 2);
        for (int si = 0; si < 2; si++)
            for (int u = 0; u < 2; u++)
                run_hemm(sides[si], uplos[u], mn[s][0], mn[s][1], seed += 1);
    }
    run_device_error(seed + 1);
}

/* colamax, to the bit; a NaN and an Inf planted in columns 1 and 2. */
static void run_colamax(int m, int n, unsigned long long seed)
{
    int lda = m + 2;
    elem_t *A = host(lda, n, seed, m);
    if (m > 2 && n > 2) {
        A[(size_t)1 * lda + m / 2] = NAN;
        A[(size_t)2 * lda + m - 1] = -INFINITY;
    }
    double *w = malloc(sizeof *w * (size_t)(n + 1)), *g = malloc(sizeof *g * (size_t)(n + 1));
    cuDoubleComplex *dA = put(lda, n, A);
    double *dw = cuda_test_alloc(sizeof *dw * (size_t)(n + 1));
    int rc = tila_core_zcolamax(m, n, A, lda, w);
    int rg = tila_cuda_zcolamax(cuda_test.stream, m, n, dA, lda, dw);
    TILA_CUDA_ASSERT(
        cudaMemcpyAsync(g, dw, sizeof *g * (size_t)n, cudaMemcpyDeviceToHost, cuda_test.stream));
    TILA_CUDA_ASSERT(cudaStreamSynchronize(cuda_test.stream));
    int same = 1;
    for (int j = 0; j < n; j++)
        same &= isnan(w[j]) ? isnan(g[j]) : !memcmp(&w[j], &g[j], sizeof *w);
    kernel_check(rc == 0 && rg == 0 && same, "cuda_colamax", P(), same ? 0 : 1, "m=%d n=%d rc=%d",
                 m, n, rg);
    cuda_test_free(dA);
    cuda_test_free(dw);
    free(A), free(w), free(g);
}

/* ---- Copies, settings and generators, to the bit ------------------------------------ */

static void run_copies(tila_uplo_t uplo, int m, int n, unsigned long long seed)
{
    int lda = m + 1, ldb = m + 3;
    elem_t *A = host(lda, n, seed, m), *B = host(ldb, n, seed + 1, m);
    elem_t *G = kernel_dup(PREC, ldb, n, B), *B0 = kernel_dup(PREC, ldb, n, B);
    cuDoubleComplex *dA = put(lda, n, A), *dB = put(ldb, n, B);
    int rc = tila_core_zlacpy(uplo, m, n, A, lda, B, ldb);
    int rg = tila_cuda_zlacpy(cuda_test.stream, uplo, m, n, dA, lda, dB, ldb);
    cuda_test_get(PREC, ldb, n, G, dB);
    int ok = rc == 0 && rg == 0 && kernel_equal(PREC, ldb, n, G, ldb, B, ldb);
    kernel_check(ok, "cuda_lacpy", P(), 0, "uplo=%c m=%d n=%d (bits) rc=%d", kernel_letter(uplo), m,
                 n, rg);
    /* laset on the copy's original. */
    elem_t alpha = tila_test_zscalar(0.3, -2), beta = tila_test_zscalar(-1.5, 0.5);
    memcpy(G, B0, kernel_elem_size(PREC) * (size_t)ldb * (size_t)(n > 0 ? n : 1));
    cuda_test_free(dB);
    dB = put(ldb, n, B0);
    rc = tila_core_zlaset(uplo, m, n, alpha, beta, B0, ldb);
    rg = tila_cuda_zlaset(cuda_test.stream, uplo, m, n, tila_cuda_zscalar(alpha),
                          tila_cuda_zscalar(beta), dB, ldb);
    cuda_test_get(PREC, ldb, n, G, dB);
    ok = rc == 0 && rg == 0 && kernel_equal(PREC, ldb, n, G, ldb, B0, ldb);
    kernel_check(ok, "cuda_laset", P(), 0, "uplo=%c m=%d n=%d (bits) rc=%d", kernel_letter(uplo), m,
                 n, rg);
    cuda_test_free(dA);
    cuda_test_free(dB);
    free(A), free(B), free(G), free(B0);
}

/* plrnt (herm = 0) or plghe/plgsy (herm = 1) of an m x n tile at (i0, j0). */
static void run_generator(int herm, int m, int n, int i0, int j0, unsigned long long seed)
{
    int lda = m + 2;
    elem_t *C = kernel_alloc(PREC, lda, n), *G = kernel_alloc(PREC, lda, n);
    cuDoubleComplex *dA = put(lda, n, C);
    double bump = 4.0 * (i0 + m > j0 + n ? i0 + m : j0 + n);
    int rc, rg;
    if (herm) {
        rc = tila_core_zplghe(bump, m, n, C, lda, i0, j0, seed);
        rg = tila_cuda_zplghe(cuda_test.stream, bump, m, n, dA, lda, i0, j0, seed);
    }
    else {
        rc = tila_core_zplrnt(m, n, C, lda, i0, j0, seed);
        rg = tila_cuda_zplrnt(cuda_test.stream, m, n, dA, lda, i0, j0, seed);
    }
    cuda_test_get(PREC, lda, n, G, dA);
    int ok = rc == 0 && rg == 0 && kernel_equal(PREC, lda, n, G, lda, C, lda);
    kernel_check(ok, herm ? "cuda_plghe" : "cuda_plrnt", P(), 0,
                 "m=%d n=%d i0=%d j0=%d seed=%llu (bits) rc=%d", m, n, i0, j0, seed, rg);
    cuda_test_free(dA);
    free(C), free(G);
}

void tila_test_zcuda_aux(const kernel_opts_t *o)
{
    static const int mn[][2] = { { 0, 0 }, { 1, 1 }, { 17, 9 }, { 9, 17 }, { 300, 257 } };
    static const tila_uplo_t uplos[] = { TILA_GENERAL, TILA_UPPER, TILA_LOWER };
    unsigned long long seed = o->seed;
    for (size_t s = 0; s < sizeof mn / sizeof mn[0]; s++) {
        for (int u = 0; u < 3; u++)
            run_copies(uplos[u], mn[s][0], mn[s][1], seed += 2);
        run_colamax(mn[s][0], mn[s][1], seed++);
        for (int herm = 0; herm < 2; herm++) {
            run_generator(herm, mn[s][0], mn[s][1], 0, 0, seed++);
            run_generator(herm, mn[s][0], mn[s][1], 1000, 37, seed++);
            run_generator(herm, mn[s][0], mn[s][1], 37, 1000, seed++);
            run_generator(herm, mn[s][0], mn[s][1], 500, 500, seed++);
        }
    }
}

/* ---- potrf ---------------------------------------------------------------------------- */

static void run_potrf(tila_uplo_t uplo, int n, int fail_at, unsigned long long seed)
{
    int lda = n + 3;
    elem_t *A = host(lda, n, seed, n);
    for (int j = 0; j < n; j++) /* Hermitian, diagonally dominant: positive definite */
        for (int i = 0; i <= j; i++) {
            elem_t a = A[(size_t)j * lda + i];
            A[(size_t)j * lda + i] = i == j ? creal(a) + n : a;
            A[(size_t)i * lda + j] = i == j ? creal(a) + n : conj(a);
        }
    if (fail_at >= 0) A[(size_t)fail_at * lda + fail_at] = -1;
    elem_t *G = kernel_dup(PREC, lda, n, A), *A0 = kernel_dup(PREC, lda, n, A);
    cuDoubleComplex *dA = put(lda, n, A);
    int lwork = 0;
    TILA_CUDA_ASSERT(tila_cuda_zpotrf_lwork(cuda_test.solver, uplo, n, dA, lda, &lwork));
    cuDoubleComplex *work =
        cuda_test_alloc(sizeof(cuDoubleComplex) * (size_t)(lwork > 0 ? lwork : 1));
    int *devinfo = cuda_test_alloc(sizeof(int)), info_gpu = 0;
    TILA_CUDA_ASSERT(cudaMemset(devinfo, 0, sizeof(int)));
    int rc = tila_core_zpotrf(uplo, n, A, lda);
    int rg = tila_cuda_zpotrf(cuda_test.solver, uplo, n, dA, lda, work, lwork, devinfo);
    cuda_test_get(PREC, lda, n, G, dA);
    TILA_CUDA_ASSERT(cudaMemcpy(&info_gpu, devinfo, sizeof(int), cudaMemcpyDeviceToHost));
    /* Only the factor's triangle is compared (the other is LAPACK's to leave). */
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            if (uplo == TILA_UPPER ? i > j : i < j) G[(size_t)j * lda + i] = A[(size_t)j * lda + i];
    double err = fail_at >= 0 ? 0 : gpu_error(n, n, lda, G, A, n, tila_test_zfnorm(n, n, A, lda));
    int ok = rg == 0 && info_gpu == rc && err <= TOL && kernel_untouched(PREC, n, n, lda, G, A0);
    kernel_check(ok, "cuda_potrf", P(), err, "uplo=%c n=%d info cpu=%d gpu=%d", kernel_letter(uplo),
                 n, rc, info_gpu);
    cuda_test_free(dA);
    cuda_test_free(work);
    cuda_test_free(devinfo);
    free(A), free(G), free(A0);
}

void tila_test_zcuda_potrf(const kernel_opts_t *o)
{
    static const int ns[] = { 0, 1, 17, 64, 100, 257 };
    unsigned long long seed = o->seed;
    for (int u = 0; u < 2; u++) {
        tila_uplo_t uplo = u ? TILA_LOWER : TILA_UPPER;
        for (size_t s = 0; s < sizeof ns / sizeof ns[0]; s++)
            run_potrf(uplo, ns[s], -1, seed++);
        run_potrf(uplo, 17, 5, seed++); /* info = 6 on both */
        run_potrf(uplo, 100, 0, seed++);
    }
}

/* ---- Norms, to the bit ---------------------------------------------------------------- */

enum kind { GE, TR, SY, HE, OFF };
static const char *kind_name[] = { "cuda_lange", "cuda_lantr", "cuda_lansy", "cuda_lanhe",
                                   "cuda_lansy_offdiag" };
static const tila_norm_t norms[4] = { TILA_NORM_MAX, TILA_NORM_ONE, TILA_NORM_INF, TILA_NORM_FRO };

/* The norm's letter: M, O, I or F. */
static char norm_letter(tila_norm_t norm)
{
    return norm == TILA_NORM_MAX   ? 'M'
           : norm == TILA_NORM_ONE ? 'O'
           : norm == TILA_NORM_INF ? 'I'
                                   : 'F';
}

/* The partials of both sides: the same bits, or both NaN. */
static int same_partial(int len, const double *x, const double *y)
{
    for (int k = 0; k < len; k++)
        if (!(isnan(x[k]) && isnan(y[k])) && memcmp(&x[k], &y[k], sizeof x[k])) return 0;
    return 1;
}

/* special: 0 random, 1 entries * 2^-e, 2 entries * 2^+e (squares under/overflow), 3 a
 * NaN, 4 an Inf, 5 one tiny and one huge part per entry (|z| off its fast path). */
static void run_norm(enum kind k, tila_norm_t norm, tila_uplo_t uplo, tila_diag_t diag, int m,
                     int n, int special, unsigned long long seed)
{
    int lda = m + 2, e = ilogb(DBL_MAX) > 200 ? 996 : 120;
    elem_t *A = host(lda, n, seed, m);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            elem_t *a = &A[(size_t)j * lda + i];
            if (special == 1) *a = ldexp(1, -e) * *a;
            if (special == 2) *a = ldexp(1, e) * *a;
#if defined(COMPLEX)
            if (special == 5) *a = creal(*a) * ldexp(1, e / 2 + 20) + I * cimag(*a) * ldexp(1, -e);
#endif
        }
    if (special == 3 && m > 2 && n > 1) A[(size_t)1 * lda + 2] = NAN;
    if (special == 4 && m > 1 && n > 2) A[(size_t)2 * lda + 1] = -INFINITY;
    int len = norm == TILA_NORM_MAX ? 1 : norm == TILA_NORM_FRO ? 2 : m > n ? m : n;
    double *wc = malloc(sizeof *wc * (size_t)(2 * len + 2)),
           *wg = malloc(sizeof *wg * (size_t)(2 * len + 2));
    for (int q = 0; q < 2 * len + 2; q++) /* a running partial, as a driver leaves it */
        wc[q] = norm == TILA_NORM_FRO ? (q % 2 ? 0.75 : 2) : 0.25 * (q % 3);
    size_t wbytes = sizeof(double) * (size_t)(2 * len + 2);
    double *dw = cuda_test_alloc(wbytes);
    TILA_CUDA_ASSERT(cudaMemcpy(dw, wc, wbytes, cudaMemcpyHostToDevice));
    double *scratch = cuda_test_alloc(sizeof(double) * tila_cuda_zlan_scratch_elems(n));
    cuDoubleComplex *dA = put(lda, n, A);
    double *c2 = wc + len + 1, *g2 = dw + len + 1;
    int rc = 0, rg = 0;
    switch (k) {
    case GE:
        rc = tila_core_zlange(norm, m, n, A, lda, wc);
        rg = tila_cuda_zlange(cuda_test.stream, norm, m, n, dA, lda, dw, scratch);
        break;
    case TR:
        rc = tila_core_zlantr(norm, uplo, diag, m, n, A, lda, wc);
        rg = tila_cuda_zlantr(cuda_test.stream, norm, uplo, diag, m, n, dA, lda, dw, scratch);
        break;
#if defined(COMPLEX)
    case HE:
        rc = tila_core_zlanhe(norm, uplo, n, A, lda, wc);
        rg = tila_cuda_zlanhe(cuda_test.stream, norm, uplo, n, dA, lda, dw, scratch);
        break;
#endif
    case OFF:
        rc = tila_core_zlansy_offdiag(norm, m, n, A, lda, wc, c2);
        rg = tila_cuda_zlansy_offdiag(cuda_test.stream, norm, m, n, dA, lda, dw, g2, scratch);
        break;
    default:
        rc = tila_core_zlansy(norm, uplo, n, A, lda, wc);
        rg = tila_cuda_zlansy(cuda_test.stream, norm, uplo, n, dA, lda, dw, scratch);
        break;
    }
    TILA_CUDA_ASSERT(cudaStreamSynchronize(cuda_test.stream));
    TILA_CUDA_ASSERT(cudaMemcpy(wg, dw, wbytes, cudaMemcpyDeviceToHost));
    int ok = rc == 0 && rg == 0 && same_partial(2 * len + 2, wg, wc);
    kernel_check(ok, kind_name[k], P(), 0,
                 "norm=%c uplo=%c diag=%c m=%d n=%d special=%d (bits) first=%.17g/%.17g",
                 norm_letter(norm),
                 kernel_letter(uplo), kernel_letter(diag), m, n, special, wg[0], wc[0]);
    cuda_test_free(dA);
    cuda_test_free(dw);
    cuda_test_free(scratch);
    free(A), free(wc), free(wg);
}

/* Many tiles in one launch (tila_cuda_zlange_tiles) against its CPU twin, tile by tile:
 * whole tiles and trapezoids of every kind and size in one call, one of them with a NaN,
 * one scaled past the squares' range, every partial to the bit. */
static void run_norm_tiles(tila_norm_t norm, unsigned long long seed)
{
    static const int mn[][2] = { { 1, 1 },   { 3, 70 },  { 70, 3 },    { 33, 31 },
                                 { 64, 65 }, { 0, 5 },   { 100, 100 }, { 300, 257 } };
    enum { K = 3 * (int)(sizeof mn / sizeof mn[0]) };
    tila_lan_tile_t ct[K], gt[K];
    elem_t *A[K];
    cuDoubleComplex *dA[K];
    size_t off = 0;
    int e = ilogb(DBL_MAX) > 200 ? 996 : 120;
    for (int t = 0; t < K; t++) {
        int m = mn[t % 8][0], n = mn[t % 8][1], lda = m + 3, kind = t / 8;
        A[t] = host(lda, n, seed + (unsigned long long)t, m);
        if (t == 4 && m > 2 && n > 1) A[t][(size_t)1 * lda + 2] = NAN;
        if (t == 7)
            for (size_t q = 0; q < (size_t)lda * n; q++)
                A[t][q] = ldexp(1, e) * A[t][q];
        dA[t] = put(lda, n, A[t]);
        ct[t] = (tila_lan_tile_t){ .A = A[t],
                                   .lda = lda,
                                   .m = m,
                                   .n = n,
                                   .trapezoid = kind > 0,
                                   .uplo = kind == 1 ? TILA_UPPER : TILA_LOWER,
                                   .diag = t % 2 ? TILA_UNIT : TILA_NONUNIT,
                                   .off = off };
        gt[t] = ct[t];
        gt[t].A = dA[t];
        off += norm == TILA_NORM_MAX   ? 1
               : norm == TILA_NORM_FRO ? 2
               : norm == TILA_NORM_INF ? m
                                       : n;
    }
    size_t wbytes = sizeof(double) * (off + 1);
    double *wc = malloc(wbytes), *wg = malloc(wbytes);
    for (size_t q = 0; q <= off; q++) /* a running partial, as a driver leaves it */
        wc[q] = norm == TILA_NORM_FRO ? (q % 2 ? 0.75 : 2) : 0.25 * (double)(q % 3);
    double *dw = cuda_test_alloc(wbytes);
    TILA_CUDA_ASSERT(cudaMemcpy(dw, wc, wbytes, cudaMemcpyHostToDevice));
    size_t sbytes = tila_cuda_zlange_tiles_scratch(norm, K, gt);
    void *scratch = cuda_test_alloc(sbytes);
    int rc = tila_core_zlange_tiles(norm, K, ct, wc);
    int rg = tila_cuda_zlange_tiles(cuda_test.stream, norm, K, gt, dw, scratch, sbytes);
    int small = tila_cuda_zlange_tiles(cuda_test.stream, norm, K, gt, dw, scratch, sbytes - 1);
    TILA_CUDA_ASSERT(cudaStreamSynchronize(cuda_test.stream));
    TILA_CUDA_ASSERT(cudaMemcpy(wg, dw, wbytes, cudaMemcpyDeviceToHost));
    int ok = rc == 0 && rg == 0 && small == -7 && same_partial((int)off + 1, wg, wc);
    kernel_check(ok, "cuda_lange_tiles", P(), 0,
                 "norm=%c %d tiles (whole, upper, lower; unit and not) (bits) rc=%d/%d small=%d",
                 norm_letter(norm),
                 K, rc, rg, small);
    for (int t = 0; t < K; t++) {
        cuda_test_free(dA[t]);
        free(A[t]);
    }
    cuda_test_free(dw);
    cuda_test_free(scratch);
    free(wc), free(wg);
}

void tila_test_zcuda_lange(const kernel_opts_t *o)
{
    static const int mn[][2] = { { 0, 5 },   { 1, 1 },   { 3, 70 },    { 70, 3 },
                                 { 33, 31 }, { 64, 65 }, { 100, 100 }, { 300, 257 } };
    static const tila_uplo_t uplos[] = { TILA_UPPER, TILA_LOWER };
    static const tila_diag_t diags[] = { TILA_NONUNIT, TILA_UNIT };
    unsigned long long seed = o->seed;
    for (int t = 0; t < 4; t++)
        for (size_t s = 0; s < sizeof mn / sizeof mn[0]; s++) {
            int m = mn[s][0], n = mn[s][1];
            for (int sp = 0; sp < 6; sp++) {
                if (sp && (m < 33 || m > 100)) continue;
                run_norm(GE, norms[t], TILA_GENERAL, TILA_NONUNIT, m, n, sp, seed++);
                run_norm(OFF, norms[t], TILA_GENERAL, TILA_NONUNIT, m, n, sp, seed++);
                for (int u = 0; u < 2; u++) {
                    for (int d = 0; d < 2; d++)
                        run_norm(TR, norms[t], uplos[u], diags[d], m, n, sp, seed++);
                    run_norm(SY, norms[t], uplos[u], TILA_NONUNIT, n, n, sp, seed++);
#if defined(COMPLEX)
                    run_norm(HE, norms[t], uplos[u], TILA_NONUNIT, n, n, sp, seed++);
#endif
                }
            }
        }
    for (int t = 0; t < 4; t++)
        run_norm_tiles(norms[t], seed++);
}

/* ---- QR ------------------------------------------------------------------------------- */

/* The QR kernels' ut_min (tila_cuda_zlarft_blocks): 0, cuSOLVER's larft on every block, or
 * 1, the UT transform on every block; the suite runs both. */
static int qr_ut_min;

/* geqrt of an m x n tile in blocks of ib; its V and T on the host returned for unmqr. */
static void run_geqrt(int m, int n, int ib, unsigned long long seed)
{
    int lda = m + 1, k = m < n ? m : n, ldt = ib > 1 ? ib : 1;
    elem_t *A = host(lda, n, seed, m), *A0 = kernel_dup(PREC, lda, n, A);
    elem_t *G = kernel_dup(PREC, lda, n, A), *T = host(ldt, n, 0, 0), *TG = host(ldt, n, 0, 0);
    elem_t *work = host(ib + 1, n + 1, 0, 0);
    cuDoubleComplex *dA = put(lda, n, A), *dT = put(ldt, n, T);
    cuDoubleComplex *tau = cuda_test_alloc(sizeof(cuDoubleComplex) * (size_t)(k + 1));
    size_t dbytes, hbytes;
    TILA_CUDA_ASSERT(tila_cuda_zgeqrt_worksize(cuda_test.solver, cuda_test.params, m, n, ib, dA,
                                               lda, tau, dT, ldt, &dbytes, &hbytes));
    void *dwork = cuda_test_alloc(dbytes), *hwork = malloc(hbytes + 1);
    int rc = tila_core_zgeqrt(m, n, ib, A, lda, T, ldt, work);
    int rg = tila_cuda_zgeqrt(cuda_test.blas, qr_ut_min, cuda_test.solver, cuda_test.params, m, n,
                              ib, dA, lda, dT, ldt, tau, dwork, dbytes, hwork, hbytes);
    cuda_test_get(PREC, lda, n, G, dA);
    cuda_test_get(PREC, ldt, n, TG, dT);
    double resid, orth;
    tila_test_zgeqrt_check(m, n, ib, A0, lda, G, lda, TG, ldt, &resid, &orth);
    double err = gpu_error(m, n, lda, G, A, m, tila_test_zfnorm(m, n, A, lda));
    int nb = ib < k ? ib : k;
    double errt = t_error(nb, k, ldt, TG, T, m);
    int ok = rc == 0 && rg == 0 && resid <= TOL && orth <= TOL && err <= TOL && errt <= TOL;
    kernel_check(ok, "cuda_geqrt", P(), err > errt ? err : errt,
                 "m=%d n=%d ib=%d ut_min=%d resid=%.3g orth=%.3g T=%.3g rc=%d", m, n, ib, qr_ut_min,
                 resid, orth, errt, rg);
    /* unmqr with these reflectors, every side and trans, against the CPU's. */
    static const tila_trans_t trs[] = { TILA_NOTRANS, TILA_CONJTRANS };
    for (int side = 0; side < 2 && k > 0; side++)
        for (int t = 0; t < 2; t++) {
            int cm = side ? 23 : m, cn = side ? m : 19, ldc = cm + 2;
            elem_t *C = host(ldc, cn, seed + 7, cm), *CG = kernel_dup(PREC, ldc, cn, C);
            elem_t *w = host(m + cm + cn + ib, m + cm + cn + ib, 0, 0);
            cuDoubleComplex *dC = put(ldc, cn, C), *dV = put(lda, n, A), *dT2 = put(ldt, n, T);
            size_t welems = (size_t)(m + cm + cn + ib) * (size_t)(m + cm + cn + ib) * 3;
            cuDoubleComplex *dw = cuda_test_alloc(sizeof(cuDoubleComplex) * welems);
            tila_side_t sd = side ? TILA_RIGHT : TILA_LEFT;
            rc = tila_core_zunmqr(sd, trs[t], cm, cn, k, ib, A, lda, T, ldt, C, ldc, w);
            rg = tila_cuda_zunmqr(cuda_test.blas, sd, trs[t], cm, cn, k, ib, dV, lda, dT2, ldt, dC,
                                  ldc, dw);
            cuda_test_get(PREC, ldc, cn, CG, dC);
            err = gpu_error(cm, cn, ldc, CG, C, m, tila_test_zfnorm(cm, cn, C, ldc));
            kernel_check(rc == 0 && rg == 0 && err <= TOL, "cuda_unmqr", P(), err,
                         "side=%c trans=%c m=%d n=%d k=%d ib=%d rc=%d", kernel_letter(sd),
                         kernel_letter(trs[t]), cm, cn, k, ib, rg);
            cuda_test_free(dC);
            cuda_test_free(dV);
            cuda_test_free(dT2);
            cuda_test_free(dw);
            free(C), free(CG), free(w);
        }
    cuda_test_free(dA);
    cuda_test_free(dT);
    cuda_test_free(tau);
    cuda_test_free(dwork);
    free(hwork), free(A), free(A0), free(G), free(T), free(TG), free(work);
}

/* tpqrt of [A; B] (A n x n upper, B m x n, its last l rows upper trapezoidal), then tpmqrt
 * with its V and T on a pair [C1; C2] from the left and the right. */
static void run_tpqrt(int m, int n, int l, int ib, unsigned long long seed)
{
    int lda = n + 1, ldb = m + 2, ldt = ib;
    elem_t *A = host(lda, n, seed, n), *B = host(ldb, n, seed + 1, m);
    for (int j = 0; j < n; j++) /* A upper; B's last l rows upper trapezoidal */
        for (int i = 0; i < n; i++)
            if (i > j) A[(size_t)j * lda + i] = 0;
    for (int j = 0; j < n; j++)
        for (int i = m - l; i < m; i++)
            if (i - (m - l) > j) B[(size_t)j * ldb + i] = 0;
    elem_t *AG = kernel_dup(PREC, lda, n, A), *BG = kernel_dup(PREC, ldb, n, B);
    elem_t *T = host(ldt, n, 0, 0), *TG = host(ldt, n, 0, 0);
    elem_t *w = host(ib + m + n, n + m + 1, 0, 0);
    cuDoubleComplex *dA = put(lda, n, A), *dB = put(ldb, n, B), *dT = put(ldt, n, T);
    cuDoubleComplex *gw = cuda_test_alloc(sizeof(cuDoubleComplex) * (size_t)(n + (n + m) * n + 1));
    size_t dbytes, hbytes;
    TILA_CUDA_ASSERT(tila_cuda_ztpqrt_worksize(cuda_test.solver, cuda_test.params, m, n, ib, dT,
                                               ldt, gw, &dbytes, &hbytes));
    void *dwork = cuda_test_alloc(dbytes), *hwork = malloc(hbytes + 1);
    int rc = tila_core_ztpqrt(m, n, l, ib, A, lda, B, ldb, T, ldt, w);
    int rg = tila_cuda_ztpqrt(cuda_test.solver, cuda_test.params, m, n, l, ib, dA, lda, dB, ldb, dT,
                              ldt, gw, dwork, dbytes, hwork, hbytes);
    cuda_test_get(PREC, lda, n, AG, dA);
    cuda_test_get(PREC, ldb, n, BG, dB);
    cuda_test_get(PREC, ldt, n, TG, dT);
    double scale = tila_test_zfnorm(n, n, A, lda) + tila_test_zfnorm(m, n, B, ldb);
    double err = gpu_error(n, n, lda, AG, A, m + n, scale);
    double errb = gpu_error(m, n, ldb, BG, B, m + n, scale);
    double errt = t_error(ib < n ? ib : n, n, ldt, TG, T, m + n);
    err = err > errb ? err : errb;
    err = err > errt ? err : errt;
    kernel_check(rc == 0 && rg == 0 && err <= TOL, "cuda_tpqrt", P(), err,
                 "m=%d n=%d l=%d ib=%d rc=%d", m, n, l, ib, rg);
    static const tila_trans_t trs[] = { TILA_NOTRANS, TILA_CONJTRANS };
    for (int side = 0; side < 2; side++)
        for (int t = 0; t < 2; t++) {
            tila_side_t sd = side ? TILA_RIGHT : TILA_LEFT;
            /* left: C1 n x q, C2 m x q; right: C1 q x n, C2 q x m. */
            int q = 13, c1m = side ? q : n, c1n = side ? n : q, c2m = side ? q : m,
                c2n = side ? m : q;
            int ld1 = c1m + 1, ld2 = c2m + 2;
            elem_t *C1 = host(ld1, c1n, seed + 5, c1m), *C2 = host(ld2, c2n, seed + 6, c2m);
            elem_t *G1 = kernel_dup(PREC, ld1, c1n, C1), *G2 = kernel_dup(PREC, ld2, c2n, C2);
            elem_t *hw = host(ib + m + n + q, ib + m + n + q, 0, 0);
            cuDoubleComplex *d1 = put(ld1, c1n, C1), *d2 = put(ld2, c2n, C2), *dV = put(ldb, n, B),
                            *dT2 = put(ldt, n, T);
            size_t we = (size_t)(ib + m + n + q) * (size_t)(ib + m + n + q) * 3;
            cuDoubleComplex *dw = cuda_test_alloc(sizeof(cuDoubleComplex) * we);
            rc = tila_core_ztpmqrt(sd, trs[t], c2m, c2n, n, l, ib, B, ldb, T, ldt, C1, ld1, C2, ld2,
                                   hw);
            rg = tila_cuda_ztpmqrt(cuda_test.blas, sd, trs[t], c2m, c2n, n, l, ib, dV, ldb, dT2,
                                   ldt, d1, ld1, d2, ld2, dw);
            cuda_test_get(PREC, ld1, c1n, G1, d1);
            cuda_test_get(PREC, ld2, c2n, G2, d2);
            double s2 = tila_test_zfnorm(c1m, c1n, C1, ld1) + tila_test_zfnorm(c2m, c2n, C2, ld2);
            double e1 = gpu_error(c1m, c1n, ld1, G1, C1, m + n, s2);
            double e2 = gpu_error(c2m, c2n, ld2, G2, C2, m + n, s2);
            e1 = e1 > e2 ? e1 : e2;
            kernel_check(rc == 0 && rg == 0 && e1 <= TOL, "cuda_tpmqrt", P(), e1,
                         "side=%c trans=%c m=%d n=%d k=%d l=%d ib=%d rc=%d", kernel_letter(sd),
                         kernel_letter(trs[t]), c2m, c2n, n, l, ib, rg);
            cuda_test_free(d1);
            cuda_test_free(d2);
            cuda_test_free(dV);
            cuda_test_free(dT2);
            cuda_test_free(dw);
            free(C1), free(C2), free(G1), free(G2), free(hw);
        }
    cuda_test_free(dA);
    cuda_test_free(dB);
    cuda_test_free(dT);
    cuda_test_free(gw);
    cuda_test_free(dwork);
    free(hwork), free(A), free(B), free(AG), free(BG), free(T), free(TG), free(w);
}

/* geqrt_col of a column of tiles of mb rows (mb < 0: 1 to -mb rows; m rows, n columns),
 * then larft_col of its reflectors: both against the CPU's.  zero: column n / 2 is zero
 * (its reflector the identity, tau 0). */
static void run_col(int m, int n, int mb, int zero, unsigned long long seed)
{
    int count, k = m < n ? m : n, ldt = k > 0 ? k : 1, *mbs = kernel_panel_rows(m, mb, &count);
    elem_t **tc = malloc(sizeof *tc * (size_t)count), **tg = malloc(sizeof *tg * (size_t)count);
    cuDoubleComplex **dt = malloc(sizeof *dt * (size_t)count);
    int *ld = malloc(sizeof *ld * (size_t)count);
    for (int i = 0; i < count; i++) {
        int rows = mbs[i];
        ld[i] = rows + 1 + i;
        tc[i] = host(ld[i], n, seed + (unsigned long long)i, rows);
        if (zero) kernel_set(PREC, rows, 1, tc[i] + (size_t)(n / 2) * ld[i], ld[i], 0, 0);
        tg[i] = kernel_dup(PREC, ld[i], n, tc[i]);
        dt[i] = put(ld[i], n, tc[i]);
    }
    elem_t *T = host(ldt, n, 0, 0), *TG = host(ldt, n, 0, 0);
    elem_t *w = host(m + n + 1, n + 1, 0, 0);
    cuDoubleComplex *dT = put(ldt, n, T);
    cuDoubleComplex *panel = cuda_test_alloc(sizeof(cuDoubleComplex) * ((size_t)m * n + n + 1));
    cuDoubleComplex *tau = panel + (size_t)m * n;
    size_t dbytes, hbytes;
    TILA_CUDA_ASSERT(tila_cuda_zgeqrt_worksize(cuda_test.solver, cuda_test.params, m, n, n, panel,
                                               m, tau, dT, ldt, &dbytes, &hbytes));
    void *dwork = cuda_test_alloc(dbytes), *hwork = malloc(hbytes + 1);
    int rc = tila_core_zgeqrt_col(m, n, mbs, tc, ld, T, ldt, w);
    int rg = tila_cuda_zgeqrt_col(cuda_test.blas, qr_ut_min, cuda_test.solver, cuda_test.params,
                                  cuda_test.stream, m, n, mbs, dt, ld, dT, ldt, panel, tau, dwork,
                                  dbytes, hwork, hbytes);
    double err = 0, scale = 0;
    for (int i = 0; i < count; i++) {
        int rows = mbs[i];
        cuda_test_get(PREC, ld[i], n, tg[i], dt[i]);
        scale += tila_test_zfnorm(rows, n, tc[i], ld[i]);
    }
    for (int i = 0; i < count; i++) {
        int rows = mbs[i];
        double e = gpu_error(rows, n, ld[i], tg[i], tc[i], m, scale);
        err = e > err ? e : err;
    }
    cuda_test_get(PREC, ldt, n, TG, dT);
    double et = t_error(k, k, ldt, TG, T, m);
    kernel_check(rc == 0 && rg == 0 && err <= TOL && et <= TOL, "cuda_geqrt_col", P(),
                 err > et ? err : et, "m=%d n=%d mb=%d zero column %d ut_min=%d rc=%d", m, n, mb,
                 zero, qr_ut_min, rg);
    /* larft_col: T again from the CPU's reflectors and the tau the CPU's T holds on its
     * diagonal (?geqrt's T_jj is tau_j). */
    elem_t *tauh = host(k + 1, 1, 0, 0);
    for (int j = 0; j < k; j++)
        tauh[j] = T[(size_t)j * ldt + j];
    for (int i = 0; i < count; i++) {
        cuda_test_free(dt[i]);
        dt[i] = put(ld[i], n, tc[i]);
    }
    elem_t *T2 = host(ldt, k, 0, 0), *T2G = host(ldt, k, 0, 0);
    cuDoubleComplex *dT2 = put(ldt, k, T2);
    TILA_CUDA_ASSERT(tila_cuda_zlarft_blocks_worksize(cuda_test.solver, cuda_test.params, m, k, k,
                                                      panel, m, tau, dT2, ldt, &dbytes, &hbytes));
    void *dwork2 = cuda_test_alloc(dbytes), *hwork2 = malloc(hbytes + 1);
    rc = tila_core_zlarft_col(m, k, mbs, (const elem_t *const *)tc, ld, tauh, T2, ldt, w);
    rg = tila_cuda_zlarft_col(cuda_test.blas, qr_ut_min, cuda_test.solver, cuda_test.params,
                              cuda_test.stream, m, k, mbs, (const cuDoubleComplex *const *)dt, ld,
                              (const cuDoubleComplex *)tauh, dT2, ldt, panel, tau, dwork2, dbytes,
                              hwork2, hbytes);
    cuda_test_get(PREC, ldt, k, T2G, dT2);
    et = t_error(k, k, ldt, T2G, T2, m);
    kernel_check(rc == 0 && rg == 0 && et <= TOL, "cuda_larft_col", P(), et,
                 "m=%d k=%d mb=%d zero column %d ut_min=%d rc=%d", m, k, mb, zero, qr_ut_min, rg);
    for (int i = 0; i < count; i++) {
        cuda_test_free(dt[i]);
        free(tc[i]), free(tg[i]);
    }
    cuda_test_free(dT);
    cuda_test_free(dT2);
    cuda_test_free(panel);
    cuda_test_free(dwork);
    cuda_test_free(dwork2);
    free(hwork), free(hwork2), free(tc), free(tg), free(dt), free(ld), free(T), free(TG), free(T2),
        free(T2G), free(w), free(tauh), free(mbs);
}

void tila_test_zcuda_qr(const kernel_opts_t *o)
{
    static const int geqrt[][3] = { { 1, 1, 1 },    { 17, 9, 4 },   { 9, 17, 4 },
                                    { 64, 64, 16 }, { 33, 33, 33 }, { 100, 30, 8 } };
    unsigned long long seed = o->seed;
    for (qr_ut_min = 0; qr_ut_min < 2; qr_ut_min++)
        for (size_t s = 0; s < sizeof geqrt / sizeof geqrt[0]; s++)
            run_geqrt(geqrt[s][0], geqrt[s][1], geqrt[s][2], seed += 10);
    qr_ut_min = 0;
    static const int tp[][4] = {
        { 1, 1, 0, 1 }, { 17, 9, 0, 4 }, { 9, 9, 9, 4 }, { 40, 24, 0, 8 }, { 24, 24, 24, 24 }
    };
    for (size_t s = 0; s < sizeof tp / sizeof tp[0]; s++)
        run_tpqrt(tp[s][0], tp[s][1], tp[s][2], tp[s][3], seed += 10);
    static const int col[][3] = {
        { 1, 1, 1 }, { 50, 8, 16 }, { 64, 16, 16 }, { 100, 33, 32 }, { 70, 20, -24 }
    };
    for (qr_ut_min = 0; qr_ut_min < 2; qr_ut_min++)
        for (int zero = 0; zero < 2; zero++)
            for (size_t s = 0; s < sizeof col / sizeof col[0]; s++)
                run_col(col[s][0], col[s][1], col[s][2], zero, seed += 10);
    qr_ut_min = 0;
}
