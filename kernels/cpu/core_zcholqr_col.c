/**
 * @file core_zcholqr_col.c
 * @brief CPU kernel: QR factorization of a column of tiles by Cholesky QR (CholeskyQR2,
 *        shifted CholeskyQR3, Householder as the last resort) and Householder reconstruction.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <float.h>
#include <math.h>

#include "core_kernel.h"
#include "core_z.h"

/* The rounds of Cholesky QR tried before the Householder panel takes over. */
#define CHOLQR_ROUNDS 4

/* Round r >= 1 is the last when the Gram matrix of its input, W = Q^H Q, is this close to the
 * identity (||W - I||_F): then kappa(Q) <= sqrt(1.1 / 0.9) and one more Cholesky QR leaves Q
 * orthonormal to O(n eps) (Yamamoto et al., CholeskyQR2's analysis). */
#define CHOLQR_NEAR_IDENTITY 0.1

/* The panel's tiles, top down: tile i has mbs[i] rows. */
struct panel {
    int m, n;
    const int *mbs;
    tila_complex64_t *const *A;
    const int *lda;
};

/* W (upper triangle, n x n) = A^H A over the panel's tiles. */
static void panel_gram(const struct panel *p, tila_complex64_t *W)
{
    for (int i = 0, r = 0; r < p->m; r += p->mbs[i++])
        tila_core_zherk(TILA_UPPER, TILA_CONJTRANS, p->n, p->mbs[i], 1.0, p->A[i], p->lda[i],
                        i == 0 ? 0.0 : 1.0, W, p->n);
}

/*
 * A = A R^{-1} on every tile's rows from `first` of the panel (R upper, n x n): with Rinv
 * (n x n) R's inverse goes there and each tile's rows are copied to `copy` ((m - first) x n
 * elements) and multiplied by it (tila_core_ztrsm_inv, the GPU's way: one GEMM a tile at
 * GEMM's rate); else a TRSM a tile.
 */
static void panel_trsm(const struct panel *p, int first, const tila_complex64_t *R, int ldr,
                       tila_complex64_t *Rinv, tila_complex64_t *copy)
{
    int n = p->n;
    /* Nonsingular: its rcond passed tila_core_zcholqr_inverse_ok. */
    if (Rinv) tila_core_ztrtri(TILA_UPPER, TILA_NONUNIT, n, R, ldr, Rinv, n, NULL);
    for (int i = 0, r = 0; r < p->m; r += p->mbs[i++]) {
        int skip = first > r ? tila_min(first - r, p->mbs[i]) : 0, rows = p->mbs[i] - skip;
        if (rows <= 0) continue;
        if (Rinv)
            tila_core_ztrsm_inv(TILA_RIGHT, TILA_NOTRANS, rows, n, 1.0, Rinv, n, p->A[i] + skip,
                                p->lda[i], copy, tila_max1(p->m - first));
        else
            tila_core_ztrsm(TILA_RIGHT, TILA_UPPER, TILA_NOTRANS, TILA_NONUNIT, rows, n, 1.0, R,
                            ldr, p->A[i] + skip, p->lda[i]);
    }
}

/**
 * An estimate of 1 / kappa_1(R), R upper triangular n x n (LAPACK's ?trcon); 0 where it
 * fails or R is singular.
 */
double tila_core_zcholqr_rcond(int n, const tila_complex64_t *R, int ldr)
{
    double rcond = 0.0;
    if (n <= 0) return 1.0;
    if (LAPACKE_ztrcon(LAPACK_COL_MAJOR, '1', 'U', 'N', n, R, ldr, &rcond)) return 0.0;
    return rcond == rcond ? rcond : 0.0;
}

/**
 * Whether CHOLQR_COL may apply R^{-1} as a product with R's inverse, given rcond = 1 /
 * kappa_1(R) (an estimate): A times the computed inverse is A R^{-1} (I + E) with ||E|| up
 * to about kappa^2 n u, against TRSM's kappa n u; kappa^2 n u <= 1e-2 keeps E below the
 * orthogonality the next round or the reconstruction needs.  That takes every round after
 * the first (R near the identity), the reconstruction's solve, and a first round of kappa up
 * to about 4e5 at n = 512 in double (18 in single, where TRSM stays).
 */
int tila_core_zcholqr_inverse_ok(double rcond, int n)
{
    const double u = DBL_EPSILON / 2;
    return rcond > 0.0 && rcond * rcond >= 100.0 * tila_max1(n) * u;
}

/* Gather (to_panel) or scatter the tiles from or to the m x n matrix `panel`. */
static void panel_copy(const struct panel *p, tila_complex64_t *panel, int to_panel)
{
    for (int i = 0, r = 0; r < p->m; r += p->mbs[i++])
        if (to_panel)
            tila_core_zlacpy(TILA_GENERAL, p->mbs[i], p->n, p->A[i], p->lda[i], panel + r, p->m);
        else
            tila_core_zlacpy(TILA_GENERAL, p->mbs[i], p->n, panel + r, p->m, p->A[i], p->lda[i]);
}

/* ||W - I||_F from W's upper triangle (W Hermitian). */
static double gram_deviation(int n, const tila_complex64_t *W)
{
    double s = 0.0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i <= j; i++) {
            tila_complex64_t w = W[i + (size_t)j * n];
            if (i == j) w -= 1;
            double a = cabs(w);
            s += (i == j ? 1.0 : 2.0) * a * a;
        }
    return sqrt(s);
}

/* min |r_jj| / max |r_jj| of the Cholesky factor R: a lower bound of 1 / kappa(R). */
static double diagonal_ratio(int n, const tila_complex64_t *R)
{
    double lo = INFINITY, hi = 0.0;
    for (int j = 0; j < n; j++) {
        double a = cabs(R[j + (size_t)j * n]);
        lo = a < lo ? a : lo;
        hi = a > hi ? a : hi;
    }
    return hi > 0.0 ? lo / hi : 0.0;
}

/* Columns of a block of the reconstruction's LU (tila_core_zunhr_col): its rank-1 updates
 * stay within the block, the rest of the rows to its right by one TRSM and one GEMM
 * (n = 512, one core: 2.9 ms against 8.6 ms unblocked, bench/LOG.md, session 43). */
#define UNHR_BLOCK 32

/**
 * Householder reconstruction's small step, in place on the n x n top block Q1 of an m x n
 * matrix Q with orthonormal columns: Q1 - S = L U without pivoting, S = diag(D) with
 * D[j] = -sign(Re u_jj) chosen as column j is eliminated, so that |u_jj| >= 1 (LAPACK's
 * ?laorhr_col_getrfnp, here blocked right-looking: within a block of UNHR_BLOCK columns
 * the unblocked elimination, then the block's rows of U to its right by a TRSM and the
 * trailing matrix by a GEMM; LAPACKE does not offer it), and T = -U S L^{-H}, the
 * triangular factor of the block reflector I - V T V^H whose first n columns are Q S, with
 * V = [L; Q2 U^{-1}] (LAPACK's ?orhr_col with nb = n).  T's strictly lower part is zeroed.
 * With T NULL only L, U and D (the GPU kernel forms T on the device).
 * @param ldq >= max(1, n); @param ldt >= max(1, n) (where T is not NULL).
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_zunhr_col(int n, tila_complex64_t *Q, int ldq, tila_complex64_t *T, int ldt,
                        tila_complex64_t *D)
{
    if (n < 0) return -1;
    if (ldq < tila_max1(n)) return -3;
    if (T && ldt < tila_max1(n)) return -5;
    tila_complex64_t one = 1.0, mone = -1.0;
    for (int k = 0; k < n; k += UNHR_BLOCK) {
        int kb = tila_min(UNHR_BLOCK, n - k), right = n - k - kb;
        for (int j = k; j < k + kb; j++) {
            tila_complex64_t *qjj = Q + j + (size_t)j * ldq;
            D[j] = creal(*qjj) >= 0.0 ? -1.0 : 1.0;
            *qjj -= D[j];
            int rest = n - j - 1, cols = k + kb - j - 1;
            if (rest == 0) continue;
            tila_complex64_t inv = 1.0 / *qjj;
            cblas_zscal(rest, CBLAS_SADDR(inv), qjj + 1, 1);
            if (cols == 0) continue;
#if defined(COMPLEX)
            cblas_zgeru(CblasColMajor, rest, cols, CBLAS_SADDR(mone), qjj + 1, 1, qjj + ldq, ldq,
                        qjj + 1 + ldq, ldq);
#else
            /* cblas_zger: the real precisions' ?ger (zgeru above in complex). */
            cblas_zger(CblasColMajor, rest, cols, -1.0, qjj + 1, 1, qjj + ldq, ldq, qjj + 1 + ldq,
                       ldq);
#endif
        }
        if (right == 0) continue;
        tila_complex64_t *Q11 = Q + k + (size_t)k * ldq, *Q12 = Q11 + (size_t)kb * ldq;
        cblas_ztrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, kb, right,
                    CBLAS_SADDR(one), Q11, ldq, Q12, ldq);
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, right, right, kb, CBLAS_SADDR(mone),
                    Q11 + kb, ldq, Q12, ldq, CBLAS_SADDR(one), Q12 + kb, ldq);
    }
    if (!T) return 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            T[i + (size_t)j * ldt] = i <= j ? -D[j] * Q[i + (size_t)j * ldq] : 0.0;
    if (n > 0)
        cblas_ztrsm(CblasColMajor, CblasRight, CblasLower, CblasConjTrans, CblasUnit, n, n,
                    CBLAS_SADDR(one), Q, ldq, T, ldt);
    return 0;
}

/* The Householder panel on the current tiles (gathered into panel), its R then times the
 * R of the Cholesky rounds already applied (Racc, n x n upper): A = (Q_H R_H) Racc. */
static int householder_after(const struct panel *p, tila_complex64_t *T, int ldt,
                             tila_complex64_t *Racc, tila_complex64_t *panel)
{
    int rc = tila_core_zgeqrt_col(p->m, p->n, p->mbs, p->A, p->lda, T, ldt, panel);
    if (rc) return rc;
    tila_core_ztrmm(TILA_LEFT, TILA_UPPER, TILA_NOTRANS, TILA_NONUNIT, p->n, p->n, 1.0, p->A[0],
                    p->lda[0], Racc, p->n);
    return tila_core_zlacpy(TILA_UPPER, p->n, p->n, Racc, p->n, p->A[0], p->lda[0]);
}

/**
 * Size in elements of tila_core_zcholqr_col's work for an m x n panel: m n + 3 n n + n.
 */
size_t tila_core_zcholqr_col_work(int m, int n)
{
    return (size_t)m * n + 3 * (size_t)n * n + (size_t)n;
}

/**
 * The m x n panel made of the tiles A[0], A[1], ... (tile i: the next mbs[i] rows, leading
 * dimension lda[i]; the tiles' rows add up to m) = Q R, with the result of
 * tila_core_zgeqrt_col: R on and above the diagonal, V (unit lower trapezoidal) below, and
 * Q = I - V T V^H, T n x n upper triangular.
 *
 * Q and R come from Cholesky QR: W = A^H A, W = R^H R, A = A R^{-1}, repeated until the Gram
 * matrix of the last round's input is near the identity (CholeskyQR2: two rounds).  When the
 * first Cholesky factor fails or is too ill-conditioned (kappa(A) beyond about eps^{-1/2}),
 * the panel is saved and the first round shifts W by 11 (m n + n (n + 1)) u ||A||_F^2
 * (shifted CholeskyQR3); when a later round fails, or orthogonality is not reached in
 * CHOLQR_ROUNDS rounds, the Householder panel (tila_core_zgeqrt_col) factors the saved panel,
 * or the current Q times the R so far.  Then Householder reconstruction (LAPACK's
 * ?orhr_col): Q1 - S = L U on the top n x n block, V = [L; Q2 U^{-1}], T = -U S L^{-H}, and
 * R = S R.  Panels with m < n or a first tile of fewer than n rows take the Householder panel.
 * @param ldt  >= max(1, min(m, n)).
 * @param work tila_core_zcholqr_col_work(m, n) elements.
 * @param inverse  0: every A R^{-1} by TRSM; else by R's inverse and a GEMM a tile where
 *             tila_core_zcholqr_inverse_ok allows and the panel's room is free (not while it
 *             holds the saved panel): what the GPU kernel does, here to be tested.
 * @param path where not NULL: 0 CholeskyQR2 (or 3), 1 shifted CholeskyQR3, 2 Householder.
 * @param inverted where not NULL: how many of the solves went by the inverse.
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_zcholqr_col(int m, int n, const int *mbs, tila_complex64_t *const *A, const int *lda,
                          tila_complex64_t *T, int ldt, tila_complex64_t *work, int inverse,
                          int *path, int *inverted)
{
    int rc = tila_args_geqrt_col(m, n, mbs, ldt, 0);
    if (rc) return rc;
    if (path) *path = 2;
    if (inverted) *inverted = 0;
    if (m == 0 || n == 0) return 0;
    const struct panel p = { m, n, mbs, A, lda };
    size_t nn = (size_t)n * n;
    tila_complex64_t *W = work, *Racc = W + nn, *D = Racc + nn, *panel = D + n,
                     *hwork = panel + (size_t)m * n; /* also the copy of W to shift */
    if (m < n || mbs[0] < n) return tila_core_zgeqrt_col(m, n, mbs, A, lda, T, ldt, panel);

    const double u = DBL_EPSILON / 2;
    int shifted = 0, done = 0, by_inverse = 0;
    double rcond = 0.0; /* of the round's factor R */
    for (int r = 0; r < CHOLQR_ROUNDS && !done; r++) {
        panel_gram(&p, W);
        if (r > 0) {
            double dev = gram_deviation(n, W);
            if (!(dev == dev)) break;
            done = dev <= CHOLQR_NEAR_IDENTITY;
        }
        if (r == 0) tila_core_zlacpy(TILA_UPPER, n, n, W, n, hwork, n);
        int info = tila_core_zpotrf(TILA_UPPER, n, W, n);
        /* NaN ratios count as ill-conditioned. */
        if (r == 0 && (info || !(diagonal_ratio(n, W) >= sqrt(u)))) {
            /* Shifted CholeskyQR (Fukaya et al.): R^H R = A^H A + s I, with s large enough
             * for the factorization to exist and small enough for A R^{-1} to be well
             * conditioned; the panel is saved for the Householder panel, should it come to
             * that. */
            double fro2 = 0.0;
            for (int j = 0; j < n; j++)
                fro2 += creal(hwork[j + (size_t)j * n]);
            double s = 11.0 * ((double)m * n + (double)n * (n + 1)) * u * fro2;
            tila_core_zlacpy(TILA_UPPER, n, n, hwork, n, W, n);
            for (int j = 0; j < n; j++)
                W[j + (size_t)j * n] += s;
            panel_copy(&p, panel, 1);
            shifted = 1;
            info = tila_core_zpotrf(TILA_UPPER, n, W, n);
            if (info || !(s > 0.0)) break;
        }
        else if (info || !(diagonal_ratio(n, W) >= sqrt(u))) {
            done = 0;
            break;
        }
        rcond = inverse ? tila_core_zcholqr_rcond(n, W, n) : 0.0;
        if (done) break; /* the last round's solve joins the reconstruction's */
        /* R^{-1} in hwork, the tiles' rows copied to the panel's room. */
        int inv = !shifted && tila_core_zcholqr_inverse_ok(rcond, n);
        panel_trsm(&p, 0, W, n, inv ? hwork : NULL, panel);
        by_inverse += inv;
        if (r == 0) {
            tila_core_zlaset(TILA_LOWER, n, n, 0.0, 0.0, Racc, n);
            tila_core_zlacpy(TILA_UPPER, n, n, W, n, Racc, n);
        }
        else {
            tila_core_ztrmm(TILA_LEFT, TILA_UPPER, TILA_NOTRANS, TILA_NONUNIT, n, n, 1.0, W, n,
                            Racc, n);
        }
    }
    if (!done) {
        if (!shifted) return householder_after(&p, T, ldt, Racc, panel);
        /* The saved panel, factored where it lies, then scattered back. */
        int rc = tila_core_zgeqrt(m, n, n, panel, m, T, ldt, hwork);
        panel_copy(&p, panel, 0);
        return rc;
    }
    /*
     * Householder reconstruction of Q = A R^{-1}, A the tiles (the last round's input) and R
     * its factor (W): the top block Q1 = A1 R^{-1} alone, its L and U, then in one solve
     * over the tiles V2 = Q2 U^{-1} = A2 (U R)^{-1}; R = S (R Racc).
     */
    tila_core_ztrmm(TILA_LEFT, TILA_UPPER, TILA_NOTRANS, TILA_NONUNIT, n, n, 1.0, W, n, Racc, n);
    tila_core_zlacpy(TILA_GENERAL, n, n, A[0], lda[0], hwork, n);
    tila_core_ztrsm(TILA_RIGHT, TILA_UPPER, TILA_NOTRANS, TILA_NONUNIT, n, n, 1.0, W, n, hwork, n);
    tila_core_zunhr_col(n, hwork, n, T, ldt, D);
    /* U R as a product of triangles: R's strictly lower part (HERK's leftovers) zero. */
    if (n > 1) tila_core_zlaset(TILA_LOWER, n - 1, n - 1, 0.0, 0.0, W + 1, n);
    tila_core_ztrmm(TILA_LEFT, TILA_UPPER, TILA_NOTRANS, TILA_NONUNIT, n, n, 1.0, hwork, n, W, n);
    /* kappa(U R) <= kappa(U) kappa(R); the panel's room is free now (its first n x n for
     * the inverse). */
    int inv =
        inverse && tila_core_zcholqr_inverse_ok(tila_core_zcholqr_rcond(n, hwork, n) * rcond, n);
    panel_trsm(&p, n, W, n, inv ? panel : NULL, panel + nn);
    by_inverse += inv;
    tila_core_zlacpy(TILA_LOWER, n, n, hwork, n, A[0], lda[0]);
    for (int j = 0; j < n; j++)
        for (int i = 0; i <= j; i++)
            A[0][i + (size_t)j * lda[0]] = D[i] * Racc[i + (size_t)j * n];
    if (path) *path = shifted;
    if (inverted) *inverted = by_inverse;
    return 0;
}
