/**
 * @file test_zcuda_inv.c
 * @brief The CUDA kernels of a triangular solve by the inverse (trtri, trsm_inv) against
 *        their CPU twins, on the same tiles.
 * @precisions normal z -> c d s
 *
 * What it proves: tila_cuda_ztrtri inverts the triangle as tila_core_ztrtri does (upper,
 * lower, unit, non-unit; orders 0, 1, odd, 64, 100, 257; ld above n): T within the
 * tolerance below, T's other triangle exactly 0 (and its unit diagonal exactly 1) where
 * the device memory started as NaN, A's other triangle and unit diagonal not read (NaN
 * there), T's rows below n not written, the column sums of A to the bit (the same norm
 * kernel order on both sides) and those of T within the tolerance, and the status
 * (devinfo) as LAPACK's info, also for an exact zero on the diagonal; tila_cuda_ztrsm_inv
 * computes what tila_core_ztrsm_inv does for both sides and every op, complex alpha.
 *
 * Tolerances, and why they suffice (as tests/cuda/test_zcuda.c): each side's inverse is
 * within c k eps |A^-1| |A| |A^-1| of the exact one, on well conditioned triangles
 * (tila_test_ztriangle) O(k eps ||T||), and the products within gamma_{k+2} |T| |B|: the
 * error printed is ||GPU - CPU||_F / (eps (k + 2) scale), scale ||T|| or the product's, and
 * must be <= 10; a wrong triangle, op, side or leading dimension gives O(1 / eps).
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

static double gpu_error(int m, int n, int ld, const elem_t *G, const elem_t *C, int k, double scale)
{
    return kernel_ratio(kernel_dist_fro(PREC, m, n, G, ld, C, ld), DBL_EPSILON * (k + 2) * scale);
}

/* The inverse of the triangle of order n; zero_at >= 1: an exact zero at a(zero_at, zero_at). */
static void run_trtri(tila_uplo_t uplo, tila_diag_t diag, int n, int zero_at,
                      unsigned long long seed)
{
    int lda = n + 2, ldt = n + 3;
    elem_t *A = kernel_alloc(PREC, lda, n), *T = kernel_alloc(PREC, ldt, n);
    tila_test_ztriangle(uplo, diag, n, A, lda, seed); /* the other triangle NaN */
    if (zero_at > 0) A[(size_t)(zero_at - 1) * lda + zero_at - 1] = 0;
    elem_t *G = kernel_dup(PREC, ldt, n, T), *T0 = kernel_dup(PREC, ldt, n, T);
    double *sums = calloc((size_t)(2 * n + 1), sizeof *sums);
    double *gsums = calloc((size_t)(2 * n + 1), sizeof *gsums);
    cuDoubleComplex *dA = cuda_test_put(PREC, lda, n, A), *dT = cuda_test_put(PREC, ldt, n, T);
    size_t dbytes = 0, hbytes = 0;
    TILA_CUDA_ASSERT(
        tila_cuda_ztrtri_worksize(cuda_test.solver, uplo, diag, n, dT, ldt, &dbytes, &hbytes));
    void *dwork = cuda_test_alloc(dbytes), *hwork = malloc(hbytes > 0 ? hbytes : 1);
    double *dsums = cuda_test_alloc(sizeof(double) * (size_t)(2 * n + 1));
    double *scratch = cuda_test_alloc(sizeof(double) * tila_cuda_zlan_scratch_elems(n));
    int *devinfo = cuda_test_alloc(sizeof(int)), info_gpu = 0;
    TILA_CUDA_ASSERT(cudaMemset(devinfo, 0, sizeof(int)));
    int rc = tila_core_ztrtri(uplo, diag, n, A, lda, T, ldt, sums);
    int rg = tila_cuda_ztrtri(cuda_test.solver, cuda_test.stream, uplo, diag, n, dA, lda, dT, ldt,
                              dsums, scratch, devinfo, dwork, dbytes, hwork, hbytes);
    cuda_test_get(PREC, ldt, n, G, dT);
    TILA_CUDA_ASSERT(cudaMemcpy(&info_gpu, devinfo, sizeof(int), cudaMemcpyDeviceToHost));
    if (n > 0)
        TILA_CUDA_ASSERT(
            cudaMemcpy(gsums, dsums, sizeof(double) * 2 * (size_t)n, cudaMemcpyDeviceToHost));
    double err = 0, serr = 0;
    int zeros = 1, same_a = 1;
    if (rc == 0 && n > 0) {
        double tnorm = tila_test_zfnorm(n, n, T, ldt);
        err = gpu_error(n, n, ldt, G, T, n, tnorm);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                elem_t g = G[(size_t)j * ldt + i];
                if (uplo == TILA_UPPER ? i > j : i < j) zeros &= g == 0;
                if (i == j && diag == TILA_UNIT) zeros &= g == 1;
            }
        same_a = !memcmp(gsums, sums, sizeof *sums * (size_t)n);
        double d2 = 0, s2 = 0;
        for (int j = 0; j < n; j++) {
            d2 += (gsums[n + j] - sums[n + j]) * (gsums[n + j] - sums[n + j]);
            s2 += sums[n + j] * sums[n + j];
        }
        serr = kernel_ratio(sqrt(d2), DBL_EPSILON * (n + 2) * sqrt(s2));
    }
    int ok = rg == 0 && info_gpu == rc && (zero_at > 0 ? rc == zero_at : rc == 0) && err <= TOL &&
             serr <= TOL * n && zeros && same_a && kernel_untouched(PREC, n, n, ldt, G, T0);
    kernel_check(ok, "cuda_trtri", P(), err,
                 "uplo=%c diag=%c n=%d info cpu=%d gpu=%d other-triangle=%s A-sums=%s "
                 "T-sums-error=%.2g",
                 kernel_letter(uplo), kernel_letter(diag), n, rc, info_gpu, zeros ? "0" : "WRONG",
                 same_a ? "same" : "DIFFER", serr);
    cuda_test_free(dA), cuda_test_free(dT), cuda_test_free(dwork), cuda_test_free(dsums);
    cuda_test_free(scratch), cuda_test_free(devinfo);
    free(A), free(T), free(G), free(T0), free(sums), free(gsums), free(hwork);
}

static void run_trsm_inv(tila_side_t side, tila_trans_t trans, int m, int n,
                         unsigned long long seed)
{
    int k = side == TILA_LEFT ? m : n, lda = k + 1, ldt = k + 2, ldb = m + 3, ldw = m + 1;
    elem_t *A = kernel_alloc(PREC, lda, k), *T = kernel_alloc(PREC, ldt, k);
    elem_t *B = kernel_alloc(PREC, ldb, n), *W = kernel_alloc(PREC, ldw, n);
    double *sums = malloc(sizeof *sums * (size_t)(2 * k + 1));
    tila_test_ztriangle(TILA_LOWER, TILA_NONUNIT, k, A, lda, seed);
    tila_core_ztrtri(TILA_LOWER, TILA_NONUNIT, k, A, lda, T, ldt, sums);
    kernel_fill(PREC, m, n, B, ldb, seed + 1);
    elem_t alpha = tila_test_zscalar(0.8, -0.3);
    elem_t *G = kernel_dup(PREC, ldb, n, B), *B0 = kernel_dup(PREC, ldb, n, B);
    cuDoubleComplex *dT = cuda_test_put(PREC, ldt, k, T), *dB = cuda_test_put(PREC, ldb, n, B);
    cuDoubleComplex *dW = cuda_test_put(PREC, ldw, n, W);
    int rc = tila_core_ztrsm_inv(side, trans, m, n, alpha, T, ldt, B, ldb, W, ldw);
    int rg = tila_cuda_ztrsm_inv(cuda_test.blas, cuda_test.stream, side, trans, m, n,
                                 tila_cuda_zscalar(alpha), dT, ldt, dB, ldb, dW, ldw);
    cuda_test_get(PREC, ldb, n, G, dB);
    double scale = cabs(alpha) * tila_test_zfnorm(k, k, T, ldt) * tila_test_zfnorm(m, n, B0, ldb);
    double err = gpu_error(m, n, ldb, G, B, k, scale);
    int ok = rc == 0 && rg == 0 && err <= TOL && kernel_untouched(PREC, m, n, ldb, G, B0);
    kernel_check(ok, "cuda_trsm_inv", P(), err, "side=%c trans=%c m=%d n=%d rc=%d",
                 kernel_letter(side), kernel_letter(trans), m, n, rg);
    cuda_test_free(dT), cuda_test_free(dB), cuda_test_free(dW);
    free(A), free(T), free(B), free(W), free(sums), free(G), free(B0);
}

void tila_test_zcuda_inv(const kernel_opts_t *o)
{
    static const int ns[] = { 0, 1, 17, 64, 100, 257 };
    static const tila_trans_t trans[] = { TILA_NOTRANS, TILA_TRANS, TILA_CONJTRANS };
    unsigned long long seed = o->seed;
    for (int u = 0; u < 2; u++)
        for (int d = 0; d < 2; d++)
            for (size_t s = 0; s < sizeof ns / sizeof ns[0]; s++)
                run_trtri(u ? TILA_LOWER : TILA_UPPER, d ? TILA_UNIT : TILA_NONUNIT, ns[s], 0,
                          seed++);
    run_trtri(TILA_LOWER, TILA_NONUNIT, 17, 6, seed++); /* info 6 on both */
    run_trtri(TILA_UPPER, TILA_NONUNIT, 100, 1, seed++);
    for (int s = 0; s < 2; s++)
        for (int t = 0; t < 3; t++)
            for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
                int m = s == 0 ? ns[k] : 19, n = s == 0 ? 19 : ns[k];
                run_trsm_inv(s ? TILA_RIGHT : TILA_LEFT, trans[t], m, n, seed += 2);
            }
}
