/**
 * @file pzgeqrf.c
 * @brief ScaLAPACK's pzgeqrf on Tila: the QR factorization, leaving the reflectors and TAU
 *        where ScaLAPACK leaves them.
 *
 * Tila's PANEL scheme factors each tile column as one panel with LAPACK's blocked
 * Householder QR and updates the columns to its right with the panel's block reflector:
 * the same reflectors as PZGEQRF's (one ?larfg per column, up to rounding), stored the
 * same way, R on and above the diagonal of sub(A) and v(i+1:m) below it.  Their scalar
 * factors are the diagonal of each panel's triangular factor; they go to TAU as ScaLAPACK
 * distributes it.  So the real PZUNMQR, PZUNGQR, ... work on what this routine leaves.
 * In place when sub(A) has square blocks of at least TILA_SCALAPACK_MIN_NB and starts as far
 * into its first block row as into its first block column (on a block boundary, or a first
 * tile of its own size), else on a copy in Tila's tiles (tila_sl_open).
 *
 * @precisions normal z -> c d s
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "tila_scalapack.h"

/**
 * PZGEQRF( M, N, A, IA, JA, DESCA, TAU, WORK, LWORK, INFO ), as ScaLAPACK defines it:
 * sub(A) = A(IA:IA+M-1, JA:JA+N-1) = Q R; LWORK = -1 is a workspace query (ScaLAPACK's
 * answer); WORK is not used otherwise, but WORK(1) says the smallest LWORK, as ScaLAPACK's.
 */
TILA_SL_EXPORT void pzgeqrf_(const int *m, const int *n, tila_complex64_t *a, const int *ia,
                             const int *ja, const int *desca, tila_complex64_t *tau,
                             tila_complex64_t *work, const int *lwork, int *info)
{
    static tila_sl_routine_t routine = { .name = "PZGEQRF", .symbol = "pzgeqrf_" };
    tila_sl_mat_t A = { .a = a, .ia = *ia, .ja = *ja, .desc = desca, .m = *m, .n = *n };
    int size = *m > *n ? *m : *n;
    /* LWORK = -1 (global input) is a workspace query: ScaLAPACK's answer, no collective. */
    if (*lwork != -1) {
        int ok = tila_sl_desc_ok(&A), lwmin = ok ? tila_sl_geqrf_lwork(&A) : 0;
        tila_sl_call_t c;
        if (tila_sl_begin(&c, &routine, desca[TILA_SL_CTXT], size, ok && *lwork >= lwmin)) {
            int path = tila_sl_open_factor(&c, &A, NULL, size, 384, TILA_COMPLEX64);
            if (path < 0) {
                tila_sl_end(&c, TILA_SL_OFF);
            }
            else {
                tila_desc_t *T = NULL;
                tila_sl_tau_t room = { 0 };
                int rc = tila_sl_agree(
                    &c, tila_desc_create_qr_t(&T, A.A, tila_desc_nb(A.A), TILA_QR_TREE_PANEL));
                /* TAU's room before the factorization overwrites sub(A) */
                if (!rc) rc = tila_sl_tau_alloc(&c, &A, T, TILA_COMPLEX64, &room);
                int begun = !rc;
                if (!rc) rc = tila_sl_agree(&c, tila_zgeqrf(A.A, T));
                if (!rc) rc = tila_sl_put_tau(&c, &A, T, tau, TILA_COMPLEX64, &room);
                tila_sl_tau_free(&room);
                tila_desc_destroy(&T);
                tila_sl_mat_t *out[] = { &A };
                int how = tila_sl_finish(&c, out, 1, 1, TILA_COMPLEX64, rc, begun, path);
                if (how <= 0) {
                    work[0] = lwmin;
                    *info = how ? TILA_SL_LOST_INFO : 0;
                    return;
                }
            }
        }
    }
    typeof(pzgeqrf_) *real = tila_sl_real(&routine);
    real(m, n, a, ia, ja, desca, tau, work, lwork, info);
}
