/**
 * @file kernel_ztest.c
 * @brief Helpers of the CPU tile kernel tests in double complex: scalars, norms, well-
 *        conditioned triangles, QR checks.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <cblas.h>
#include <complex.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>

#include "kerneltests_z.h"

#define PREC TILA_COMPLEX64

tila_complex64_t tila_test_zscalar(double re, double im)
{
#if defined(COMPLEX)
    return re + im * I;
#else
    (void)im;
    return re;
#endif
}

double tila_test_zfnorm(int m, int n, const tila_complex64_t *A, int lda)
{
    if (m <= 0 || n <= 0) return 0;
    return LAPACKE_zlange_work(LAPACK_COL_MAJOR, 'F', m, n, A, lda, NULL);
}

void tila_test_ztriangle(tila_uplo_t uplo, tila_diag_t diag, int k, tila_complex64_t *A, int lda,
                         unsigned long long seed)
{
    double s = k > 1 ? 1 / sqrt((double)k) : 1;
    kernel_fill(PREC, k, k, A, lda, seed);
    for (int j = 0; j < k; j++)
        for (int i = 0; i < k; i++) {
            tila_complex64_t *a = &A[(size_t)j * lda + i];
            if (i == j && diag == TILA_NONUNIT) {
                /* Modulus 1 + |a| in [1, 1.71), the phase (sign) of a. */
                double r = cabs(*a);
                *a = r > 0 ? *a / r * (1 + r) : 1;
            }
            else if (i != j && (uplo == TILA_UPPER) == (i < j))
                *a *= s;
            else
                kernel_set(PREC, 1, 1, a, 1, NAN, NAN);
        }
}

double tila_test_zorth(int n, const tila_complex64_t *Q, int ldq)
{
    if (n <= 0) return 0;
    tila_complex64_t *W = kernel_alloc(PREC, n, n);
    kernel_set(PREC, n, n, W, n, 0, 0);
    for (int i = 0; i < n; i++)
        W[(size_t)i * n + i] = 1;
    /* W = I - Q^H Q on its upper triangle, W Hermitian. */
    cblas_zherk(CblasColMajor, CblasUpper, CblasConjTrans, n, n, -1.0, Q, ldq, 1.0, W, n);
    double r = LAPACKE_zlanhe_work(LAPACK_COL_MAJOR, 'F', 'U', n, W, n, NULL);
    free(W);
    return r / (n * DBL_EPSILON);
}

void tila_test_zgeqrt_check(int m, int n, int nb, const tila_complex64_t *A0, int lda0,
                            const tila_complex64_t *F, int ldf, const tila_complex64_t *T, int ldt,
                            double *resid, double *orth)
{
    int k = m < n ? m : n, ldq = m > 1 ? m : 1;
    *resid = *orth = 0;
    if (m == 0) return;
    tila_complex64_t *Q = kernel_alloc(PREC, ldq, m), *R = kernel_alloc(PREC, ldq, n);
    tila_complex64_t *D = kernel_alloc(PREC, ldq, n);
    tila_complex64_t one = 1, mone = -1;
    /* Q = Q I with LAPACK's own application of the block reflectors. */
    kernel_set(PREC, m, m, Q, ldq, 0, 0);
    for (int i = 0; i < m; i++)
        Q[(size_t)i * ldq + i] = 1;
    if (k > 0) {
        tila_complex64_t *work = kernel_alloc(PREC, nb, m);
        LAPACKE_zgemqrt_work(LAPACK_COL_MAJOR, 'L', 'N', m, m, k, nb, F, ldf, T, ldt, Q, ldq, work);
        free(work);
    }
    /* R: the upper trapezoid of F; D = A0 - Q R. */
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            R[(size_t)j * ldq + i] = i <= j ? F[(size_t)j * ldf + i] : 0;
            D[(size_t)j * ldq + i] = A0[(size_t)j * lda0 + i];
        }
    if (n > 0)
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, m, CBLAS_SADDR(mone), Q, ldq,
                    R, ldq, CBLAS_SADDR(one), D, ldq);
    double anorm = tila_test_zfnorm(m, n, A0, lda0);
    *resid =
        tila_test_zfnorm(m, n, D, ldq) / ((m > n ? m : n) * (anorm > 0 ? anorm : 1) * DBL_EPSILON);
    *orth = tila_test_zorth(m, Q, ldq);
    free(Q);
    free(R);
    free(D);
}
