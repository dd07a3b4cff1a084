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
#include <stdio.h>
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

tila_complex64_t tila_test_zconj(tila_complex64_t x)
{
#if defined(COMPLEX)
    return conj(x);
#else
    return x;
#endif
}

int tila_test_zherm_ops(tila_trans_t trans[3])
{
    int n = 0;
    trans[n++] = TILA_NOTRANS;
#if !defined(COMPLEX)
    trans[n++] = TILA_TRANS;
#endif
    trans[n++] = TILA_CONJTRANS;
    return n;
}

int tila_test_zis_zero(int m, int n, const tila_complex64_t *X, int ldx)
{
    int all_zero = 1;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            all_zero &= X[(size_t)j * ldx + i] == 0;
    return all_zero;
}

double tila_test_ztrnorm(tila_uplo_t uplo, tila_diag_t diag, int k, const tila_complex64_t *A,
                         int lda)
{
    if (k <= 0) return 0;
    return LAPACKE_zlantr_work(LAPACK_COL_MAJOR, 'F', kernel_letter(uplo), kernel_letter(diag), k,
                               k, A, lda, NULL);
}

double tila_test_ztrsm_error(tila_side_t side, tila_uplo_t uplo, tila_trans_t trans,
                             tila_diag_t diag, int m, int n, tila_complex64_t alpha,
                             const tila_complex64_t *A, int lda, const tila_complex64_t *X,
                             const tila_complex64_t *B0, int ldb)
{
    int k = side == TILA_LEFT ? m : n;
    tila_complex64_t one = 1;
    /* R = op(A) X - alpha B0, or X op(A) - alpha B0. */
    tila_complex64_t *R = kernel_dup(PREC, ldb, n, X);
    if (m > 0 && n > 0)
        cblas_ztrmm(CblasColMajor, (enum CBLAS_SIDE)side, (enum CBLAS_UPLO)uplo,
                    (enum CBLAS_TRANSPOSE)trans, (enum CBLAS_DIAG)diag, m, n, CBLAS_SADDR(one), A,
                    lda, R, ldb);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            R[(size_t)j * ldb + i] -= alpha * B0[(size_t)j * ldb + i];
    double bound = (tila_test_ztrnorm(uplo, diag, k, A, lda) * tila_test_zfnorm(m, n, X, ldb) +
                    cabs(alpha) * tila_test_zfnorm(m, n, B0, ldb)) *
                   (k > 1 ? k : 1) * DBL_EPSILON;
    double err = kernel_ratio(tila_test_zfnorm(m, n, R, ldb), bound);
    free(R);
    return err;
}

void tila_test_ztrxm_make(tila_test_ztrxm_t *c, tila_side_t side, tila_uplo_t uplo,
                          tila_diag_t diag, int m, int n, unsigned long long seed)
{
    c->side = side, c->uplo = uplo, c->diag = diag, c->m = m, c->n = n;
    c->k = side == TILA_LEFT ? m : n, c->lda = c->k + 2, c->ldb = m + 3;
    c->A = kernel_alloc(PREC, c->lda, c->k), c->B = kernel_alloc(PREC, c->ldb, n);
    tila_test_ztriangle(uplo, diag, c->k, c->A, c->lda, seed);
    kernel_fill(PREC, m, n, c->B, c->ldb, seed + 1);
    c->B0 = kernel_dup(PREC, c->ldb, n, c->B);
}

int tila_test_ztrxm_check(tila_test_ztrxm_t *c, const char *name, tila_trans_t trans,
                          tila_complex64_t alpha, int rc, double err, double tol)
{
    int m = c->m, n = c->n;
    int ok = rc == 0 && err <= tol && kernel_untouched(PREC, m, n, c->ldb, c->B, c->B0) &&
             (alpha != 0 || tila_test_zis_zero(m, n, c->B, c->ldb));
    kernel_check(ok, name, kernel_prec_letter(PREC), err,
                 "side=%c uplo=%c trans=%c diag=%c m=%d n=%d lda=%d ldb=%d alpha=(%g,%g) rc=%d",
                 kernel_letter(c->side), kernel_letter(c->uplo), kernel_letter(trans),
                 kernel_letter(c->diag), m, n, c->lda, c->ldb, creal(alpha), cimag(alpha), rc);
    free(c->A);
    free(c->B);
    free(c->B0);
    return ok;
}

unsigned long long tila_test_ztrxm_sweep(tila_test_ztrxm_run_t *run, const int *orders, int norders,
                                         const int *others, const tila_complex64_t *alphas,
                                         int nothers, unsigned long long seed)
{
    static const tila_side_t sides[] = { TILA_LEFT, TILA_RIGHT };
    static const tila_uplo_t uplos[] = { TILA_UPPER, TILA_LOWER };
    static const tila_trans_t trans[] = { TILA_NOTRANS, TILA_TRANS, TILA_CONJTRANS };
    static const tila_diag_t diags[] = { TILA_NONUNIT, TILA_UNIT };
    for (int s = 0; s < 2; s++)
        for (int u = 0; u < 2; u++)
            for (int t = 0; t < 3; t++)
                for (int d = 0; d < 2; d++)
                    for (int k = 0; k < norders; k++)
                        for (int r = 0; r < nothers; r++) {
                            int m = s == 0 ? orders[k] : others[r];
                            int n = s == 0 ? others[r] : orders[k];
                            run(sides[s], uplos[u], trans[t], diags[d], m, n, alphas[r], seed += 2);
                        }
    return seed;
}

/* An array of count pointers (at least one). */
static tila_complex64_t **pointers(int count)
{
    tila_complex64_t **p = calloc((size_t)(count > 0 ? count : 1), sizeof *p);
    if (!p) {
        fprintf(stderr, "tila-kernel-tests: out of memory\n");
        exit(1);
    }
    return p;
}

void tila_test_zpanel_cut(tila_test_zpanel_t *P, int m, int n, int mb, const tila_complex64_t *G,
                          int ldg)
{
    P->n = n;
    P->mbs = kernel_panel_rows(m, mb, &P->ntiles);
    P->lds = malloc(sizeof *P->lds * (size_t)(P->ntiles > 0 ? P->ntiles : 1));
    P->tiles = pointers(P->ntiles);
    P->saved = NULL;
    if (!P->lds) {
        fprintf(stderr, "tila-kernel-tests: out of memory\n");
        exit(1);
    }
    for (int t = 0, r = 0; t < P->ntiles; r += P->mbs[t++]) {
        P->lds[t] = P->mbs[t] + 1 + t % 3;
        P->tiles[t] = kernel_alloc(PREC, P->lds[t], n);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < P->mbs[t]; i++)
                P->tiles[t][(size_t)j * P->lds[t] + i] = G[(size_t)j * ldg + r + i];
    }
}

void tila_test_zpanel_save(tila_test_zpanel_t *P)
{
    P->saved = pointers(P->ntiles);
    for (int t = 0; t < P->ntiles; t++)
        P->saved[t] = kernel_dup(PREC, P->lds[t], P->n, P->tiles[t]);
}

void tila_test_zpanel_join(const tila_test_zpanel_t *P, tila_complex64_t *F, int ldf)
{
    for (int t = 0, r = 0; t < P->ntiles; r += P->mbs[t++])
        for (int j = 0; j < P->n; j++)
            for (int i = 0; i < P->mbs[t]; i++)
                F[(size_t)j * ldf + r + i] = P->tiles[t][(size_t)j * P->lds[t] + i];
}

void tila_test_zpanel_free(tila_test_zpanel_t *P)
{
    for (int t = 0; t < P->ntiles; t++) {
        free(P->tiles[t]);
        if (P->saved) free(P->saved[t]);
    }
    free(P->tiles);
    free(P->saved);
    free(P->lds);
    free(P->mbs);
}

double tila_test_zpanel_check(const tila_test_zpanel_t *P, int m, int nb, const tila_complex64_t *G,
                              int ldg, const tila_complex64_t *T, int ldt, double *resid,
                              double *orth)
{
    int ldf = m > 1 ? m : 1;
    tila_complex64_t *F = kernel_alloc(PREC, ldf, P->n);
    tila_test_zpanel_join(P, F, ldf);
    tila_test_zgeqrt_check(m, P->n, nb, G, ldg, F, ldf, T, ldt, resid, orth);
    free(F);
    return *resid > *orth || *resid != *resid ? *resid : *orth;
}

void tila_test_zgen_tiles(const char *name, tila_test_zgen_t gen, const tila_complex64_t *G, int gm,
                          int gn, const int (*tiles)[4], int ntiles, unsigned long long seed)
{
    for (int t = 0; t < ntiles; t++) {
        int i0 = tiles[t][0], j0 = tiles[t][1], m = tiles[t][2], n = tiles[t][3], lda = m + 2;
        tila_complex64_t *A = kernel_alloc(PREC, lda, n), *A0 = kernel_dup(PREC, lda, n, A);
        int rc = gen(m, n, A, lda, i0, j0, seed);
        const tila_complex64_t *sub = G + i0 + (size_t)j0 * gm;
        double err = kernel_diff_fro(PREC, m, n, A, lda, sub, gm);
        int ok = rc == 0 && kernel_equal(PREC, m, n, A, lda, sub, gm) &&
                 kernel_untouched(PREC, m, n, lda, A, A0);
        kernel_check(ok, name, kernel_prec_letter(PREC), err,
                     "tile of %dx%d i0=%d j0=%d m=%d n=%d lda=%d rc=%d", gm, gn, i0, j0, m, n, lda,
                     rc);
        free(A);
        free(A0);
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
