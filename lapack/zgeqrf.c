/**
 * @file zgeqrf.c
 * @brief LAPACK's QR routines on Tila: zgeqrf, zunmqr, zungqr and zgels.
 *
 * zgeqrf runs Tila's PANEL scheme, whose reflectors are LAPACK's, stored where LAPACK
 * stores them, and whose triangular factors hold tau on their diagonals.  zunmqr and zungqr
 * take any reflectors and tau (from LAPACK or from here): tila_zlarft rebuilds the PANEL
 * scheme's factors from them.  WORK(1) is set to LAPACK's optimal LWORK, asked from the real
 * routine, as LAPACK's callers may read it.
 *
 * @precisions normal z -> c d s
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include <lapacke.h>

#include "tila_lapack.h"
#include "tila_layer.h"

#if defined(COMPLEX)
#define CONJ_LETTER 'C' /* the transpose that the routines of this precision take */
#else
#define CONJ_LETTER 'T'
#endif

static const int query = -1;

/* The PANEL-scheme T of A; NULL where A is NULL or on failure. */
static tila_desc_t *panel_t(tila_desc_t *A)
{
    tila_desc_t *T = NULL;
    if (A) tila_desc_create_qr_t(&T, A, tila_desc_nb(A), TILA_QR_TREE_PANEL);
    return T;
}

/* 'N', or the transpose of this precision; trans as Tila says it. */
static int qr_trans(const char *c, tila_trans_t *trans)
{
    *trans = tila_letter_is(c, 'N') ? TILA_NOTRANS : TILA_CONJTRANS;
    return tila_letter_is(c, 'N') || tila_letter_is(c, CONJ_LETTER);
}

/**
 * ZGEQRF( M, N, A, LDA, TAU, WORK, LWORK, INFO ): A = Q R, R on and above the diagonal,
 * Q = H(1) ... H(k) as reflectors below it with their scalar factors in TAU.
 */
TILA_LA_EXPORT void zgeqrf_(const int *m, const int *n, tila_complex64_t *a, const int *lda,
                            tila_complex64_t *tau, tila_complex64_t *work, const int *lwork,
                            int *info)
{
    static tila_la_routine_t routine = { .symbol = "zgeqrf_" };
    typeof(zgeqrf_) *real = tila_la_real(&routine);
    int k = *m < *n ? *m : *n;
    int ok = *m >= 0 && *n >= 0 && *lda >= tila_la_max1(*m) && *lwork >= tila_la_max1(*n);
    if (tila_la_begin(&routine, k, ok)) {
        tila_desc_t *D[2] = { tila_la_desc(&routine, TILA_COMPLEX64, a, *lda, *m, *n,
                                           tila_la_tile(TILA_LA_QR, *m, *n)) };
        D[1] = panel_t(D[0]);
        /* TAU's gather before the factorization overwrites A: a failure leaves A intact. */
        void *space = NULL;
        int rc = D[1] ? tila_layer_qr_tau_alloc(D[1], 0, &space) : TILA_ERR_NOMEM;
        int begun = !rc;
        if (!rc) rc = tila_zgeqrf(D[0], D[1]);
        if (!rc) rc = tila_layer_qr_tau(D[1], k, tau, 0, space);
        free(space);
        int how = tila_la_finish(&routine, D, 2, rc, begun);
        if (how <= 0) {
            if (real) real(m, n, a, lda, tau, work, &query, info);
            *info = how ? TILA_LA_LOST_INFO : 0;
            return;
        }
    }
    if (real)
        real(m, n, a, lda, tau, work, lwork, info);
    else
        *info = TILA_LA_NO_REAL_INFO;
    tila_la_leave();
}

/**
 * ZUNMQR( SIDE, TRANS, M, N, K, A, LDA, TAU, C, LDC, WORK, LWORK, INFO ): C = op(Q) C or
 * C op(Q), Q = H(1) ... H(K) as ZGEQRF leaves it in A's first K columns and TAU.
 */
TILA_LA_EXPORT void zunmqr_(const char *side, const char *trans, const int *m, const int *n,
                            const int *k, const tila_complex64_t *a, const int *lda,
                            const tila_complex64_t *tau, tila_complex64_t *c, const int *ldc,
                            tila_complex64_t *work, const int *lwork, int *info, size_t side_len,
                            size_t trans_len)
{
    static tila_la_routine_t routine = { .symbol = "zunmqr_" };
    typeof(zunmqr_) *real = tila_la_real(&routine);
    tila_side_t tside;
    tila_trans_t ttrans;
    int left = tila_letter_is(side, 'L'), nq = left ? *m : *n, nw = left ? *n : *m;
    int ok = tila_letter_side(side, &tside) && qr_trans(trans, &ttrans) && *m >= 0 && *n >= 0 &&
             *k >= 0 && *k <= nq && *lda >= tila_la_max1(nq) && *ldc >= tila_la_max1(*m) &&
             *lwork >= tila_la_max1(nw);
    if (tila_la_begin(&routine, *k < nw ? *k : nw, ok)) {
        int nb = tila_la_tile(TILA_LA_QR, nq, *k);
        tila_desc_t *D[3] = { tila_la_desc(&routine, TILA_COMPLEX64, (void *)a, *lda, nq, *k, nb),
                              tila_la_desc(&routine, TILA_COMPLEX64, c, *ldc, *m, *n, nb) };
        D[2] = panel_t(D[0]);
        int rc = D[1] && D[2] ? tila_zlarft(D[0], tau, D[2]) : TILA_ERR_NOMEM, begun = !rc;
        if (!rc) rc = tila_zunmqr(tside, ttrans, D[0], D[2], D[1]);
        int how = tila_la_finish(&routine, D, 3, rc, begun);
        if (how <= 0) {
            if (real)
                real(side, trans, m, n, k, a, lda, tau, c, ldc, work, &query, info, side_len,
                     trans_len);
            *info = how ? TILA_LA_LOST_INFO : 0;
            return;
        }
    }
    if (real)
        real(side, trans, m, n, k, a, lda, tau, c, ldc, work, lwork, info, side_len, trans_len);
    else
        *info = TILA_LA_NO_REAL_INFO;
    tila_la_leave();
}

/**
 * ZUNGQR( M, N, K, A, LDA, TAU, WORK, LWORK, INFO ): A = the first N columns of H(1) ...
 * H(K), whose reflectors ZGEQRF left in A's first K columns and TAU.
 */
TILA_LA_EXPORT void zungqr_(const int *m, const int *n, const int *k, tila_complex64_t *a,
                            const int *lda, const tila_complex64_t *tau, tila_complex64_t *work,
                            const int *lwork, int *info)
{
    static tila_la_routine_t routine = { .symbol = "zungqr_" };
    typeof(zungqr_) *real = tila_la_real(&routine);
    int ok = *m >= 0 && *n >= 0 && *n <= *m && *k >= 0 && *k <= *n && *lda >= tila_la_max1(*m) &&
             *lwork >= tila_la_max1(*n);
    tila_complex64_t *v = NULL;
    if (tila_la_begin(&routine, *k, ok)) {
        /* Q overwrites the reflectors: Tila reads them from a copy. */
        int ldv = tila_la_max1(*m);
        v = malloc(sizeof *v * (size_t)ldv * (size_t)tila_la_max1(*k));
        if (v) {
            int nb = tila_la_tile(TILA_LA_QR, *m, *n);
            LAPACKE_zlacpy_work(LAPACK_COL_MAJOR, 'A', *m, *k, a, *lda, v, ldv);
            tila_desc_t *D[3] = { tila_la_desc(&routine, TILA_COMPLEX64, v, ldv, *m, *k, nb),
                                  tila_la_desc(&routine, TILA_COMPLEX64, a, *lda, *m, *n, nb) };
            D[2] = panel_t(D[0]);
            int rc = D[1] && D[2] ? tila_zlarft(D[0], tau, D[2]) : TILA_ERR_NOMEM, begun = !rc;
            if (!rc) rc = tila_zungqr(D[0], D[2], D[1]);
            int how = tila_la_finish(&routine, D, 3, rc, begun);
            free(v);
            if (how <= 0) {
                if (real) real(m, n, k, a, lda, tau, work, &query, info);
                *info = how ? TILA_LA_LOST_INFO : 0;
                return;
            }
        }
        else {
            tila_la_refuse(&routine, TILA_LA_OFF);
        }
    }
    if (real)
        real(m, n, k, a, lda, tau, work, lwork, info);
    else
        *info = TILA_LA_NO_REAL_INFO;
    tila_la_leave();
}

/*
 * Can Tila solve this least squares problem as LAPACK would: the overdetermined A X = B,
 * with A and B needing none of ZGELS's scaling (A's largest entry between LAPACK's
 * SMLNUM and BIGNUM, B's too or B zero; NaN fails)?
 */
static int gels_case(int notrans, int m, int n, int nrhs, const tila_complex64_t *a, int lda,
                     const tila_complex64_t *b, int ldb)
{
    if (!notrans || m < n) return 0;
    const double small = DBL_MIN / DBL_EPSILON, big = 1 / small;
    int rows = m > n ? m : n;
    double anrm = zlange_("M", &m, &n, a, &lda, NULL, 1);
    double bnrm = zlange_("M", &rows, &nrhs, b, &ldb, NULL, 1);
    return anrm >= small && anrm <= big && (bnrm == 0 || (bnrm >= small && bnrm <= big));
}

/**
 * ZGELS( TRANS, M, N, NRHS, A, LDA, B, LDB, WORK, LWORK, INFO ): least squares by QR.
 * Tila solves the overdetermined A X = B; INFO = i > 0 when R(i, i) is exactly zero (A is
 * not of full rank), B then unspecified, as LAPACK says.  The other cases go to LAPACK.
 */
TILA_LA_EXPORT void zgels_(const char *trans, const int *m, const int *n, const int *nrhs,
                           tila_complex64_t *a, const int *lda, tila_complex64_t *b, const int *ldb,
                           tila_complex64_t *work, const int *lwork, int *info, size_t trans_len)
{
    static tila_la_routine_t routine = { .symbol = "zgels_" };
    typeof(zgels_) *real = tila_la_real(&routine);
    tila_trans_t ttrans;
    int mn = *m < *n ? *m : *n, big = *m > *n ? *m : *n;
    int need = mn + (mn > *nrhs ? mn : *nrhs);
    int ok = qr_trans(trans, &ttrans) && *m >= 0 && *n >= 0 && *nrhs >= 0 &&
             *lda >= tila_la_max1(*m) && *ldb >= tila_la_max1(big) && *lwork >= tila_la_max1(need);
    if (tila_la_begin(&routine, mn, ok)) {
        if (gels_case(ttrans == TILA_NOTRANS, *m, *n, *nrhs, a, *lda, b, *ldb)) {
            int nb = tila_la_tile(TILA_LA_QR, *m, *n);
            tila_desc_t *D[3] = { tila_la_desc(&routine, TILA_COMPLEX64, a, *lda, *m, *n, nb),
                                  tila_la_desc(&routine, TILA_COMPLEX64, b, *ldb, *m, *nrhs, nb) };
            D[2] = panel_t(D[0]);
            int begun = D[1] && D[2];
            int rc = begun ? tila_zgels(D[0], D[2], D[1]) : TILA_ERR_NOMEM;
            int how = tila_la_finish(&routine, D, 3, rc, begun);
            if (how <= 0) {
                if (real) real(trans, m, n, nrhs, a, lda, b, ldb, work, &query, info, trans_len);
                /* LAPACK's ZTRTRS: the first exact zero on R's diagonal. */
                *info = how ? TILA_LA_LOST_INFO : 0;
                for (int i = 0; i < *n && !*info; i++)
                    if (a[(size_t)i * *lda + i] == 0) *info = i + 1;
                return;
            }
        }
        else {
            tila_la_refuse(&routine, TILA_LA_CASE);
        }
    }
    if (real)
        real(trans, m, n, nrhs, a, lda, b, ldb, work, lwork, info, trans_len);
    else
        *info = TILA_LA_NO_REAL_INFO;
    tila_la_leave();
}
