/**
 * @file test_zcholqr_col.c
 * @brief tila_core_zcholqr_col: Cholesky QR of a column of tiles with Householder
 *        reconstruction, its three paths, and tila_core_zunhr_col.
 * @precisions normal z -> c d s
 *
 * What it proves: on panels of several tiles (the last one shorter, or of irregular heights,
 * each tile with its own leading dimension) of A = U diag(s) V^H, s geometric from 1 to
 * 1 / kappa, the kernel returns 0 and leaves R, V and T as tila_core_zgeqrt_col does:
 * with Q applied by LAPACKE_zgemqrt from the gathered V and T,
 *   ||A - Q R||_F / (max(m, n) ||A||_F eps) <= 30  and  ||I - Q^H Q||_F / (m eps) <= 30,
 * and it takes the path its conditioning calls for:
 *  - kappa = 10: CholeskyQR2 (path 0);
 *  - kappa = eps^(-3/4) in double (the Gram matrix not positive definite): shifted
 *    CholeskyQR3 (path 1); in single precision the same matrix may end in the Householder
 *    panel (path 1 or 2, never 0);
 *  - a zero column and the zero matrix: the Householder panel (path 2); a NaN entry: the
 *    Householder panel too, the NaN in its result;
 *  - a repeated column: any path, the residual and orthogonality deciding: the Gram
 *    matrix's last pivot is rounding noise, whose sign and size depend on the BLAS's
 *    kernels (OpenBLAS's for Zen 3 leave a pivot of about sqrt(m u) that CholeskyQR2
 *    accepts and makes an orthonormal Q of, its AVX-512 kernels one that fails);
 *  - a first tile shorter than the panel is wide, and m < n: the Householder panel.
 * tila_core_zunhr_col on the Q of an orthonormal matrix gives |u_jj| >= 1 and T with
 * Q1 S = (I - V T V^H)'s top block.  Bad arguments return -i.
 *
 * Why it suffices: the residual and orthogonality prove the factorization whatever the path
 * (Cholesky QR alone loses orthogonality like kappa^2 eps, so the ill-conditioned cases
 * pass only through the fallbacks), and the path checks prove each fallback is taken where
 * it must be and not elsewhere: a kernel that always took the Householder panel, or never
 * shifted, fails them.
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

#include "core_z.h"
#include "kerneltests_z.h"

#define PREC TILA_COMPLEX64
#define NAME "core_cholqr_col"
#define TOL 30.0

/* Kinds of matrices: conditioned (kappa), a zero column, a repeated column, zero, a NaN. */
enum kind { CONDITIONED, ZERO_COLUMN, SAME_COLUMNS, ZERO, NAN_ENTRY };

/* G = U diag(s) V^H (m >= n), U and V from the QR of random matrices. */
static void fill(enum kind kind, int m, int n, double kappa, tila_complex64_t *G, int ldg,
                 unsigned long long seed)
{
    tila_complex64_t *U = kernel_alloc(PREC, m, n), *V = kernel_alloc(PREC, n, n);
    tila_complex64_t *tau = kernel_alloc(PREC, n, 1), one = 1, zero = 0;
    kernel_fill(PREC, m, n, U, m, seed);
    kernel_fill(PREC, n, n, V, n, seed + 1);
    LAPACKE_zgeqrf(LAPACK_COL_MAJOR, m, n, U, m, tau);
    LAPACKE_zungqr(LAPACK_COL_MAJOR, m, n, n, U, m, tau);
    LAPACKE_zgeqrf(LAPACK_COL_MAJOR, n, n, V, n, tau);
    LAPACKE_zungqr(LAPACK_COL_MAJOR, n, n, n, V, n, tau);
    for (int j = 0; j < n; j++) {
        double s = n > 1 ? pow(kappa, -(double)j / (n - 1)) : 1.0;
        for (int i = 0; i < m; i++)
            U[(size_t)j * m + i] *= s;
    }
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, m, n, n, CBLAS_SADDR(one), U, m, V, n,
                CBLAS_SADDR(zero), G, ldg);
    for (int i = 0; i < m; i++) {
        if (kind == ZERO_COLUMN) G[(size_t)(n / 2) * ldg + i] = 0;
        if (kind == SAME_COLUMNS) G[(size_t)(n - 1) * ldg + i] = G[i];
        if (kind == NAN_ENTRY && i == m / 2) G[(size_t)(n / 2) * ldg + i] = NAN;
        if (kind == ZERO)
            for (int j = 0; j < n; j++)
                G[(size_t)j * ldg + i] = 0;
    }
    free(U);
    free(V);
    free(tau);
}

/* want: the path expected, -1 for "1 or 2", or -2 for any.  inverse: as the kernel's;
 * first: whether CholeskyQR2's first solve is to take the inverse (kappa small enough). */
static void run_one(enum kind kind, int m, int n, int mb, double kappa, int want, int inverse,
                    int first, unsigned long long seed)
{
    int ldg = m, ldt = n + 2, path = -1, inverted = -1;
    tila_complex64_t *G = kernel_alloc(PREC, ldg, n);
    tila_complex64_t *T = kernel_alloc(PREC, ldt, n);
    tila_complex64_t *work = kernel_alloc(PREC, (int)tila_core_zcholqr_col_work(m, n), 1);
    tila_test_zpanel_t P;
    fill(kind, m, n, kappa, G, ldg, seed);
    tila_test_zpanel_cut(&P, m, n, mb, G, ldg);
    if (P.ntiles > 0 && P.mbs[0] < n) want = 2; /* irregular tiles: the Householder panel */
    int rc =
        tila_core_zcholqr_col(m, n, P.mbs, P.tiles, P.lds, T, ldt, work, inverse, &path, &inverted);
    double resid, orth;
    double err = tila_test_zpanel_check(&P, m, n, G, ldg, T, ldt, &resid, &orth);
    int path_ok = want >= 0    ? path == want
                  : want == -1 ? path == 1 || path == 2
                               : path >= 0 && path <= 2;
    /* A NaN: the Householder panel, whose result carries the NaN (as LAPACK's does). */
    int accurate = kind == NAN_ENTRY ? resid != resid : resid <= TOL && orth <= TOL;
    /* Solves by the inverse: none without `inverse` or on the Householder panel; with it,
     * CholeskyQR2 has two (the first round's, where kappa allows, and the reconstruction's)
     * and the shifted path one (the reconstruction's: its rounds' room holds the saved
     * panel). */
    int want_inv = !inverse || path == 2 ? 0 : kind != CONDITIONED ? -1 : path == 0 ? first + 1 : 1;
    int inv_ok = want_inv >= 0 ? inverted == want_inv : inverted >= 0;
    kernel_check(rc == 0 && accurate && path_ok && inv_ok, NAME, kernel_prec_letter(PREC), err,
                 "kind=%d m=%d n=%d mb=%d kappa=%.1e inverse=%d path=%d (want %d) inverted=%d "
                 "(want %d) resid=%.3g orth=%.3g",
                 (int)kind, m, n, mb, kappa, inverse, path, want, inverted, want_inv, resid, orth);
    tila_test_zpanel_free(&P);
    free(G);
    free(T);
    free(work);
}

/* The small step alone: |u_jj| >= 1, and I - V1 T V1^H = Q1 S on the top block with V1 unit
 * lower (the first n columns of the reflector, V2's term vanishing for Q1 alone only when
 * m = n: an n x n orthogonal Q). */
static void run_unhr(int n, unsigned long long seed)
{
    tila_complex64_t *Q = kernel_alloc(PREC, n, n), *L = kernel_alloc(PREC, n, n);
    tila_complex64_t *T = kernel_alloc(PREC, n, n), *D = kernel_alloc(PREC, n, 1);
    tila_complex64_t *H = kernel_alloc(PREC, n, n), *tau = kernel_alloc(PREC, n, 1);
    tila_complex64_t one = 1, zero = 0, mone = -1;
    kernel_fill(PREC, n, n, Q, n, seed);
    LAPACKE_zgeqrf(LAPACK_COL_MAJOR, n, n, Q, n, tau);
    LAPACKE_zungqr(LAPACK_COL_MAJOR, n, n, n, Q, n, tau);
    tila_complex64_t *Q0 = kernel_dup(PREC, n, n, Q), *Qn = kernel_dup(PREC, n, n, Q);
    tila_complex64_t *Dn = kernel_alloc(PREC, n, 1);
    int rc = tila_core_zunhr_col(n, Q, n, T, n, D), big = 1;
    /* Without T (the GPU's way): the same L, U and signs, to the bit. */
    int rcn = tila_core_zunhr_col(n, Qn, n, NULL, 1, Dn), same = 1;
    for (size_t i = 0; i < (size_t)n * n; i++)
        same &= Qn[i] == Q[i];
    for (int j = 0; j < n; j++)
        same &= Dn[j] == D[j];
    for (int j = 0; j < n; j++)
        big &= cabs(Q[(size_t)j * n + j]) >= 1 - 1e3 * DBL_EPSILON;
    /* H = I - V T V^H with V = L (unit lower), compared with Q0 S. */
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            L[(size_t)j * n + i] = i > j ? Q[(size_t)j * n + i] : i == j ? 1 : 0;
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, CBLAS_SADDR(one), L, n, T, n,
                CBLAS_SADDR(zero), H, n);
    tila_complex64_t *I_VTV = kernel_alloc(PREC, n, n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            I_VTV[(size_t)j * n + i] = (i == j ? 1 : 0) - Q0[(size_t)j * n + i] * D[j];
    /* I - L T L^H - Q0 S = 0, as (I - Q0 S) - (L T) L^H. */
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, n, n, n, CBLAS_SADDR(mone), H, n, L, n,
                CBLAS_SADDR(one), I_VTV, n);
    double err = 0;
    for (size_t i = 0; i < (size_t)n * n; i++)
        err += pow(cabs(I_VTV[i]), 2);
    err = sqrt(err) / (n * DBL_EPSILON);
    kernel_check(rc == 0 && rcn == 0 && big && same && err <= TOL, "core_unhr_col",
                 kernel_prec_letter(PREC), err, "n=%d |u_jj| >= 1: %d, same without T: %d", n, big,
                 same);
    free(Qn);
    free(Dn);
    free(Q);
    free(Q0);
    free(L);
    free(T);
    free(D);
    free(H);
    free(tau);
    free(I_VTV);
}

static void run_errors(void)
{
    tila_complex64_t a[16] = { 0 }, t[16] = { 0 }, w[64] = { 0 };
    tila_complex64_t *tiles[2] = { a, a + 8 };
    int lds[2] = { 2, 2 }, two[2] = { 2, 2 }, zero[1] = { 0 };
    int got[] = {
        tila_core_zcholqr_col(-1, 1, two, tiles, lds, t, 1, w, 0, NULL, NULL),
        tila_core_zcholqr_col(1, -1, two, tiles, lds, t, 1, w, 0, NULL, NULL),
        tila_core_zcholqr_col(1, 1, zero, tiles, lds, t, 1, w, 1, NULL, NULL),
        tila_core_zcholqr_col(4, 2, two, tiles, lds, t, 1, w, 1, NULL, NULL), /* ldt < min(m, n) */
        tila_core_zcholqr_col(0, 2, two, tiles, lds, t, 1, w, 1, NULL, NULL), /* valid, empty */
        tila_core_zunhr_col(-1, a, 1, t, 1, w),
        tila_core_zunhr_col(2, a, 1, t, 2, w),
        tila_core_zunhr_col(2, a, 2, t, 1, w),
    };
    static const int want[] = { -1, -2, -3, -7, 0, -1, -3, -5 };
    KERNEL_CHECK_CODES(NAME, kernel_prec_letter(PREC), got, want);
}

void tila_test_zcholqr_col_core(const kernel_opts_t *o)
{
    unsigned long long seed = o->seed;
    int dbl = DBL_EPSILON < 1e-10;
    double ill = pow(DBL_EPSILON, -0.75);
    /* m, n, mb (< 0: tiles of 1 to -mb rows) */
    static const int shapes[][3] = { { 100, 20, 32 }, { 97, 13, 20 }, { 120, 24, -30 } };
    /* Each case with TRSM's solves and with the inverse's (the GPU's), same matrices. */
    for (int inv = 0; inv < 2; inv++, seed = o->seed) {
        for (int s = 0; s < 3; s++) {
            int m = shapes[s][0], n = shapes[s][1], mb = shapes[s][2];
            run_one(CONDITIONED, m, n, mb, 10.0, 0, inv, 1, seed++);
            run_one(CONDITIONED, m, n, mb, ill, dbl ? 1 : -1, inv, 1, seed++);
            run_one(ZERO_COLUMN, m, n, mb, 10.0, 2, inv, 1, seed++);
            run_one(SAME_COLUMNS, m, n, mb, 10.0, -2, inv, 1, seed++);
        }
        run_one(ZERO, 50, 10, 16, 1.0, 2, inv, 1, seed++);
        run_one(NAN_ENTRY, 50, 10, 16, 10.0, 2, inv, 1, seed++);
        run_one(CONDITIONED, 50, 10, 6, 10.0, 2, inv, 1, seed++); /* first tile shorter than n */
        run_one(CONDITIONED, 10, 10, 10, 10.0, 0, inv, 1, seed++);
        run_one(CONDITIONED, 1, 1, 1, 1.0, 0, inv, 1, seed++);
        /* In double, either side of the inverse's bound for the first round (kappa about
         * 2e6 at n = 20): its solve by the inverse, then by TRSM. */
        if (dbl) {
            run_one(CONDITIONED, 100, 20, 32, 1e4, 0, inv, 1, seed++);
            run_one(CONDITIONED, 100, 20, 32, 1e7, 0, inv, 0, seed++);
        }
    }
    seed += 100;
    run_unhr(1, seed++);
    run_unhr(17, seed++);
    run_unhr(64, seed++); /* two blocks of the LU */
    run_unhr(75, seed++); /* three, the last of 11 columns */
    run_errors();
}
