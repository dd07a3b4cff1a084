/**
 * @file test_zlag2c_cuda.c
 * @brief The CUDA conversions between double complex and single complex (zlag2c, clag2z;
 * dlag2s, slag2d in real) against their CPU twins.
 * @precisions mixed zc -> ds
 *
 * What it proves: to single, the whole tile or a triangle of a square one, the GPU writes
 * the CPU's bits on the part converted and nothing else (NaN around it would show); an
 * entry beyond single's range (1e39, Inf) sets the overflow flag as the CPU returns 1, a
 * NaN does not; back to double the bits are the CPU's too.
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

static int in_part(tila_uplo_t uplo, int i, int j)
{
    return uplo == TILA_GENERAL || (uplo == TILA_UPPER ? i <= j : i >= j);
}

/* big: 0 none, 1 1e39, 2 Inf, 3 NaN, 4 1e39 outside the triangle converted. */
static void run_one(tila_uplo_t uplo, int m, int n, int big, unsigned long long seed)
{
    int lda = m + 2, ldsa = m + 1;
    tila_complex64_t *A = kernel_alloc(TILA_COMPLEX64, lda, n);
    kernel_fill(TILA_COMPLEX64, m, n, A, lda, seed);
    if (big && big < 4 && m > 0 && n > 0)
        A[(size_t)(n - 1) * lda + (uplo == TILA_UPPER ? 0 : m - 1)] = big == 1   ? 1e39
                                                                      : big == 2 ? INFINITY
                                                                                 : NAN;
    if (big == 4) A[uplo == TILA_UPPER ? (size_t)m - 1 : (size_t)(n - 1) * lda] = 1e39;
    tila_complex32_t *S = kernel_alloc(TILA_COMPLEX32, ldsa, n);
    tila_complex32_t *G = kernel_dup(TILA_COMPLEX32, ldsa, n, S);
    void *dA = cuda_test_put(TILA_COMPLEX64, lda, n, A),
         *dS = cuda_test_put(TILA_COMPLEX32, ldsa, n, S);
    /* The flag starts at 1: the kernel must clear it. */
    int *dflag = cuda_test_alloc(sizeof(int)), flag = 1;
    TILA_CUDA_ASSERT(cudaMemcpy(dflag, &flag, sizeof flag, cudaMemcpyHostToDevice));
    flag = -1;
    int rc = tila_core_zlag2c(uplo, m, n, A, lda, S, ldsa);
    int rg = tila_cuda_zlag2c(cuda_test.stream, uplo, m, n, dA, lda, dS, ldsa, dflag);
    cuda_test_get(TILA_COMPLEX32, ldsa, n, G, dS);
    TILA_CUDA_ASSERT(cudaMemcpy(&flag, dflag, sizeof flag, cudaMemcpyDeviceToHost));
    int same = 1;
    if (rc == 0) /* on overflow the CPU stops part way: only the flags compare */
        for (int j = 0; j < n; j++)
            for (int i = 0; i < ldsa; i++) {
                size_t e = (size_t)j * ldsa + i;
                int nan = isnan(crealf(S[e])) && isnan(crealf(G[e]));
                same &= nan || !memcmp(&S[e], &G[e], sizeof *S);
            }
    /* Back to double from the CPU's singles. */
    int back = 1;
    if (rc == 0 && uplo == TILA_GENERAL) {
        tila_complex64_t *Z = kernel_alloc(TILA_COMPLEX64, lda, n),
                         *ZG = kernel_alloc(TILA_COMPLEX64, lda, n);
        void *dS2 = cuda_test_put(TILA_COMPLEX32, ldsa, n, S),
             *dZ = cuda_test_put(TILA_COMPLEX64, lda, n, ZG);
        back = tila_core_clag2z(m, n, S, ldsa, Z, lda) == 0 &&
               tila_cuda_clag2z(cuda_test.stream, m, n, dS2, ldsa, dZ, lda) == 0;
        cuda_test_get(TILA_COMPLEX64, lda, n, ZG, dZ);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < lda; i++) {
                size_t e = (size_t)j * lda + i;
                back &= (isnan(creal(Z[e])) && isnan(creal(ZG[e]))) ||
                        !memcmp(&Z[e], &ZG[e], sizeof *Z);
            }
        cuda_test_free(dS2);
        cuda_test_free(dZ);
        free(Z), free(ZG);
    }
    int want = (big == 1 || big == 2) && m > 0 && n > 0;
    kernel_check(rg == 0 && rc == want && flag == want && same && back, "cuda_lag2c",
                 kernel_prec_letter(TILA_COMPLEX64), 0,
                 "uplo=%c m=%d n=%d big=%d cpu=%d gpu-flag=%d same=%d back=%d", kernel_letter(uplo),
                 m, n, big, rc, flag, same, back);
    cuda_test_free(dA);
    cuda_test_free(dS);
    cuda_test_free(dflag);
    free(A), free(S), free(G);
}

void tila_test_zcuda_lag2c(const kernel_opts_t *o)
{
    static const int sizes[][2] = { { 0, 2 }, { 1, 1 }, { 17, 17 }, { 33, 9 }, { 300, 300 } };
    static const tila_uplo_t uplos[] = { TILA_GENERAL, TILA_UPPER, TILA_LOWER };
    unsigned long long seed = o->seed;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int u = 0; u < 3; u++) {
            if (uplos[u] != TILA_GENERAL && sizes[s][0] != sizes[s][1]) continue;
            for (int big = 0; big < (uplos[u] == TILA_GENERAL || sizes[s][0] < 2 ? 4 : 5); big++)
                run_one(uplos[u], sizes[s][0], sizes[s][1], big, seed += 1);
        }
}
