/**
 * @file core_zgemm.c
 * @brief Tile kernels: C = alpha op(A) op(B) + beta C (CBLAS), and the two products of one
 *        tile, A B1 and A^H B2, with A read from memory once.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "core_kernel.h"
#include "core_z.h"

/**
 * C = alpha op(A) op(B) + beta C with op(X) = X, X^T or X^H; C is m x n, k the inner size.
 * @param lda >= max(1, m) if transa is TILA_NOTRANS, else >= max(1, k); likewise ldb.
 * @param ldc >= max(1, m).
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_zgemm(tila_trans_t transa, tila_trans_t transb, int m, int n, int k,
                    tila_complex64_t alpha, const tila_complex64_t *A, int lda,
                    const tila_complex64_t *B, int ldb, tila_complex64_t beta, tila_complex64_t *C,
                    int ldc)
{
    int rc = tila_args_gemm(transa, transb, m, n, k, lda, ldb, ldc, 0);
    if (rc || m == 0 || n == 0) return rc;
    if (n == 1 && k > 0 && transb == TILA_NOTRANS) {
        /* One column (a solve with one right-hand side): a matrix-vector product, without
         * the copy of A that OpenBLAS's gemm makes first (faster: bench/LOG.md).  (k = 0
         * stays with gemm: gemv would not scale C by beta.) */
        cblas_zgemv(CblasColMajor, tila_cblas_trans(transa), transa == TILA_NOTRANS ? m : k,
                    transa == TILA_NOTRANS ? k : m, CBLAS_SADDR(alpha), A, lda, B, 1,
                    CBLAS_SADDR(beta), C, 1);
        return 0;
    }
    cblas_zgemm(CblasColMajor, tila_cblas_trans(transa), tila_cblas_trans(transb), m, n, k,
                CBLAS_SADDR(alpha), A, lda, B, ldb, CBLAS_SADDR(beta), C, ldc);
    return 0;
}

/* A's column panels in tila_core_zgemm2 hold at most this many bytes, so that the second
 * product finds its panel in a core's cache (L2 is 0.5-2 MB on the CPUs Tila runs on). */
#define GEMM2_PANEL_BYTES (256 * 1024)
/* Above this many columns of B the products are compute-bound: two whole GEMMs. */
#define GEMM2_PANEL_NMAX 16

/**
 * The two products a Hermitian matrix's stored tile off the diagonal gives, A being m x k:
 * C1 = alpha1 A B1 + beta1 C1 (m x n) and C2 = alpha2 A^H B2 + beta2 C2 (k x n; A^T in
 * real).  For n <= GEMM2_PANEL_NMAX (a residual's few columns, where the products are
 * bound by reading A) A is read from memory once: the two products of each column panel
 * of A, the panel still in cache for the second.  Else two GEMMs.  beta = 0: that C is
 * not read (NaN there does not propagate).
 * @param lda >= max(1, m); ldb1 >= max(1, k); ldc1 >= max(1, m); ldb2 >= max(1, m);
 *        ldc2 >= max(1, k).
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_zgemm2(int m, int n, int k, const tila_complex64_t *A, int lda,
                     tila_complex64_t alpha1, const tila_complex64_t *B1, int ldb1,
                     tila_complex64_t beta1, tila_complex64_t *C1, int ldc1,
                     tila_complex64_t alpha2, const tila_complex64_t *B2, int ldb2,
                     tila_complex64_t beta2, tila_complex64_t *C2, int ldc2)
{
    int rc = tila_args_gemm2(m, n, k, lda, ldb1, ldc1, ldb2, ldc2, 0);
    if (rc || n == 0) return rc;
    /* k = 0: C2 is empty and C1 = beta1 C1.  m = 0: C1 is empty, and the one pass below
     * (w = k) makes C2 = beta2 C2. */
    if (k == 0)
        return tila_core_zgemm(TILA_NOTRANS, TILA_NOTRANS, m, n, 0, alpha1, A, lda, B1, ldb1,
                               beta1, C1, ldc1);
    int w = k;
    if (n <= GEMM2_PANEL_NMAX && m > 0) {
        size_t panel = GEMM2_PANEL_BYTES / (sizeof(tila_complex64_t) * (size_t)m);
        w = panel < 1 ? 1 : panel < (size_t)k ? (int)panel : k;
    }
    for (int c = 0; c < k; c += w) {
        int b = k - c < w ? k - c : w;
        const tila_complex64_t *Ac = A + (size_t)c * lda;
        tila_core_zgemm(TILA_NOTRANS, TILA_NOTRANS, m, n, b, alpha1, Ac, lda, B1 + c, ldb1,
                        c == 0 ? beta1 : 1, C1, ldc1);
        tila_core_zgemm(TILA_CONJTRANS, TILA_NOTRANS, b, n, m, alpha2, Ac, lda, B2, ldb2, beta2,
                        C2 + c, ldc2);
    }
    return 0;
}
