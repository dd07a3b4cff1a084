/**
 * @file pzunmqr.c
 * @brief ScaLAPACK's pzunmqr, pzungqr and pzgels on Tila: what is done with a QR
 *        factorization, from reflectors and TAU as PZGEQRF leaves them (ScaLAPACK's or
 *        libtila_scalapack's).
 *
 * tila_zlarft rebuilds each tile column's block reflector from the reflectors below R and
 * TAU (gathered from its process columns), then tila_zunmqr or tila_zungqr apply it.  Their
 * arguments are checked by the real routine itself, asked for its workspace (LWORK = -1, with
 * a WORK of our own): that runs every check of ScaLAPACK's but the one of LWORK, reports an
 * illegal argument through PXERBLA and answers the smallest LWORK, which WORK(1) says after a
 * call that Tila took, as ScaLAPACK's does.  In place when the operands have square blocks
 * of at least TILA_SCALAPACK_MIN_NB and start as far into their first block row as into
 * their first block column (pzungqr: on a block boundary), else on copies in Tila's tiles
 * (tila_sl_open).
 *
 * @precisions normal z -> c d s
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <complex.h>
#include <float.h>
#include <stdlib.h>

#include "tila_scalapack.h"

static const int query = -1;

/* The end of a call that the workspace query found illegal: it was reported, count it. */
static int reported(tila_sl_routine_t *r, const int *info)
{
    if (*info) tila_sl_count(r, TILA_SL_ARGS);
    return *info != 0;
}

/* T of the PANEL scheme for the reflectors in V and TAU (ScaLAPACK's, V's first k columns);
 * the result agreed by every rank (on failure *T is NULL). */
static int rebuild_t(const tila_sl_call_t *c, tila_sl_mat_t *V, int k, const tila_complex64_t *tau,
                     tila_desc_t **T)
{
    *T = NULL;
    tila_complex64_t *all = tila_sl_get_tau(c, V, k, tau, TILA_COMPLEX64);
    if (!all) return TILA_ERR_NOMEM;
    /* T agreed before tila_zlarft, whose tasks and wait every rank must enter */
    int rc = tila_sl_agree(c, tila_desc_create_qr_t(T, V->A, tila_desc_nb(V->A),
                                                    TILA_QR_TREE_PANEL));
    if (!rc) rc = tila_sl_agree(c, tila_zlarft(V->A, all, *T));
    free(all);
    if (rc) tila_desc_destroy(T);
    return rc;
}

/**
 * PZUNMQR( SIDE, TRANS, M, N, K, A, IA, JA, DESCA, TAU, C, IC, JC, DESCC, WORK, LWORK,
 * INFO ), as ScaLAPACK defines it: sub(C) = C(IC:IC+M-1, JC:JC+N-1) = op(Q) sub(C) or
 * sub(C) op(Q), Q = H(1) ... H(K) as PZGEQRF leaves it in A(IA:, JA:JA+K-1) and TAU.
 */
TILA_SL_EXPORT void pzunmqr_(const char *side, const char *trans, const int *m, const int *n,
                             const int *k, const tila_complex64_t *a, const int *ia, const int *ja,
                             const int *desca, const tila_complex64_t *tau, tila_complex64_t *c,
                             const int *ic, const int *jc, const int *descc, tila_complex64_t *work,
                             const int *lwork, int *info, size_t side_len, size_t trans_len)
{
    static tila_sl_routine_t routine = { .name = "PZUNMQR", .symbol = "pzunmqr_" };
    typeof(pzunmqr_) *real = tila_sl_real(&routine);
    if (*lwork != -1) {
        tila_complex64_t w;
        real(side, trans, m, n, k, a, ia, ja, desca, tau, c, ic, jc, descc, &w, &query, info,
             side_len, trans_len);
        if (reported(&routine, info)) return;
        int lwmin = (int)creal(w), left = tila_letter_is(side, 'L'), nq = left ? *m : *n;
        int nw = left ? *n : *m;
        tila_sl_mat_t A = { .a = (void *)a, .ia = *ia, .ja = *ja, .desc = desca, .m = nq, .n = *k };
        tila_sl_mat_t C = { .a = c, .ia = *ic, .ja = *jc, .desc = descc, .m = *m, .n = *n };
        int size = *k < nw ? *k : nw;
        tila_sl_call_t cl;
        if (tila_sl_begin(&cl, &routine, desca[TILA_SL_CTXT], size, *lwork >= lwmin)) {
            int path = tila_sl_open_factor(&cl, &A, &C, size, 384, TILA_COMPLEX64);
            if (path < 0) {
                tila_sl_end(&cl, TILA_SL_OFF);
            }
            else {
                tila_desc_t *T;
                int rc = rebuild_t(&cl, &A, *k, tau, &T), begun = !rc;
                if (!rc)
                    rc = tila_zunmqr(left ? TILA_LEFT : TILA_RIGHT,
                                     tila_letter_is(trans, 'N') ? TILA_NOTRANS : TILA_CONJTRANS,
                                     A.A, T, C.A);
                tila_desc_destroy(&T);
                tila_sl_mat_t *out[] = { &C, &A };
                int how = tila_sl_finish(&cl, out, 2, 1, TILA_COMPLEX64, rc, begun, path);
                if (how <= 0) {
                    work[0] = lwmin;
                    if (how) *info = TILA_SL_LOST_INFO;
                    return;
                }
            }
        }
    }
    real(side, trans, m, n, k, a, ia, ja, desca, tau, c, ic, jc, descc, work, lwork, info, side_len,
         trans_len);
}

/**
 * PZUNGQR( M, N, K, A, IA, JA, DESCA, TAU, WORK, LWORK, INFO ), as ScaLAPACK defines it:
 * sub(A) = A(IA:IA+M-1, JA:JA+N-1) = the first N columns of H(1) ... H(K), whose reflectors
 * PZGEQRF left in sub(A)'s first K columns and TAU.
 */
TILA_SL_EXPORT void pzungqr_(const int *m, const int *n, const int *k, tila_complex64_t *a,
                             const int *ia, const int *ja, const int *desca,
                             const tila_complex64_t *tau, tila_complex64_t *work, const int *lwork,
                             int *info)
{
    static tila_sl_routine_t routine = { .name = "PZUNGQR", .symbol = "pzungqr_" };
    typeof(pzungqr_) *real = tila_sl_real(&routine);
    if (*lwork != -1) {
        tila_complex64_t w;
        real(m, n, k, a, ia, ja, desca, tau, &w, &query, info);
        if (reported(&routine, info)) return;
        int lwmin = (int)creal(w);
        tila_sl_mat_t Q = { .a = a, .ia = *ia, .ja = *ja, .desc = desca, .m = *m, .n = *n };
        tila_sl_mat_t V = Q;
        V.n = *k;
        tila_sl_call_t cl;
        if (tila_sl_begin(&cl, &routine, desca[TILA_SL_CTXT], *k, *lwork >= lwmin)) {
            /* Q overwrites the reflectors: Tila reads them from a copy in Q's tiles, which
             * starts a tile at sub(Q)'s first row: in place, Q's must start there too. */
            int tile = tila_sl_factor_tile(&cl, &Q, NULL, *k, 384), opened = 0;
            if (!tile && (Q.ia - 1) % desca[TILA_SL_MB]) tile = tila_layer_tile(*k, 384);
            if (!tila_sl_open(&cl, &V, TILA_COMPLEX64, tile ? tile : desca[TILA_SL_MB], 1)) {
                if (!tila_sl_open(&cl, &Q, TILA_COMPLEX64, tile, 0)) opened = 1;
                else tila_sl_close(&cl, &V, TILA_COMPLEX64, 0);
            }
            if (!opened) {
                tila_sl_end(&cl, TILA_SL_OFF);
            }
            else {
                tila_desc_t *T;
                int rc = rebuild_t(&cl, &V, *k, tau, &T), begun = !rc;
                if (!rc) rc = tila_zungqr(V.A, T, Q.A);
                tila_desc_destroy(&T);
                tila_sl_mat_t *out[] = { &Q, &V };
                int how = tila_sl_finish(&cl, out, 2, 1, TILA_COMPLEX64, rc, begun,
                                         tile ? TILA_SL_COPY : TILA_SL_INPLACE);
                if (how <= 0) {
                    work[0] = lwmin;
                    *info = how ? TILA_SL_LOST_INFO : 0;
                    return;
                }
            }
        }
    }
    real(m, n, k, a, ia, ja, desca, tau, work, lwork, info);
}

/*
 * Does this least squares problem need none of PZGELS's scaling: A's largest entry between
 * its SMLNUM and BIGNUM, B's too or B zero (NaN fails)?  Collective; a negative TILA_ERR_*
 * (agreed) where Tila could not tell.
 */
static int unscaled(const tila_sl_call_t *c, tila_sl_mat_t *A, tila_sl_mat_t *B)
{
    const double small = DBL_MIN / DBL_EPSILON, big = 1 / small;
    double anrm, bnrm;
    int rc = tila_zlange(TILA_NORM_MAX, A->A, &anrm);
    if (!rc) rc = tila_zlange(TILA_NORM_MAX, B->A, &bnrm);
    rc = tila_sl_agree(c, rc);
    if (rc) return rc;
    return anrm >= small && anrm <= big && (bnrm == 0 || (bnrm >= small && bnrm <= big));
}

/**
 * PZGELS( TRANS, M, N, NRHS, A, IA, JA, DESCA, B, IB, JB, DESCB, WORK, LWORK, INFO ), as
 * ScaLAPACK defines it: least squares by QR.  Tila solves the overdetermined sub(A) X =
 * sub(B) (TRANS = 'N', M >= N > 0, NRHS > 0) as PZGELS does: PZGEQRF, Q^H sub(B), then R's
 * triangular solve (no check of R's diagonal: INFO is 0), sub(A) left as PZGEQRF leaves it
 * and sub(B)'s rows N+1:M holding the residual's components.  The transposed, the
 * underdetermined and the empty problems, and those PZGELS scales first, go to ScaLAPACK.
 */
TILA_SL_EXPORT void pzgels_(const char *trans, const int *m, const int *n, const int *nrhs,
                            tila_complex64_t *a, const int *ia, const int *ja, const int *desca,
                            tila_complex64_t *b, const int *ib, const int *jb, const int *descb,
                            tila_complex64_t *work, const int *lwork, int *info, size_t trans_len)
{
    static tila_sl_routine_t routine = { .name = "PZGELS", .symbol = "pzgels_" };
    typeof(pzgels_) *real = tila_sl_real(&routine);
    if (*lwork != -1) {
        tila_complex64_t w;
        real(trans, m, n, nrhs, a, ia, ja, desca, b, ib, jb, descb, &w, &query, info, trans_len);
        if (reported(&routine, info)) return;
        int lwmin = (int)creal(w);
        if (!tila_letter_is(trans, 'N') || *m < *n || *n == 0 || *nrhs == 0) {
            tila_sl_count(&routine, TILA_SL_CASE);
        }
        else {
            tila_sl_mat_t A = { .a = a, .ia = *ia, .ja = *ja, .desc = desca, .m = *m, .n = *n };
            tila_sl_mat_t B = { .a = b, .ia = *ib, .ja = *jb, .desc = descb, .m = *m, .n = *nrhs };
            tila_sl_call_t cl;
            if (tila_sl_begin(&cl, &routine, desca[TILA_SL_CTXT], *n, *lwork >= lwmin)) {
                int path = tila_sl_open_factor(&cl, &A, &B, *n, 384, TILA_COMPLEX64);
                int plain = path >= 0 ? unscaled(&cl, &A, &B) : 0;
                tila_sl_mat_t *out[] = { &A, &B };
                if (plain > 0) {
                    tila_desc_t *T = NULL;
                    int rc = tila_sl_agree(&cl, tila_desc_create_qr_t(&T, A.A, tila_desc_nb(A.A),
                                                                      TILA_QR_TREE_PANEL));
                    int begun = !rc;
                    if (!rc) rc = tila_zgels(A.A, T, B.A);
                    tila_desc_destroy(&T);
                    int how = tila_sl_finish(&cl, out, 2, 2, TILA_COMPLEX64, rc, begun, path);
                    if (how <= 0) {
                        work[0] = lwmin;
                        *info = how ? TILA_SL_LOST_INFO : 0;
                        return;
                    }
                }
                else if (path >= 0) {
                    /* scaled first (a case left to ScaLAPACK), or the norms failed */
                    tila_sl_finish(&cl, out, 2, 0, TILA_COMPLEX64, plain, 0,
                                   plain ? TILA_SL_OFF : TILA_SL_CASE);
                }
                else {
                    tila_sl_end(&cl, TILA_SL_OFF);
                }
            }
        }
    }
    real(trans, m, n, nrhs, a, ia, ja, desca, b, ib, jb, descb, work, lwork, info, trans_len);
}
