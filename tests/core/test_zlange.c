/**
 * @file test_zlange.c
 * @brief The norm tile kernels (lange, lantr, lansy, lanhe, lansy_offdiag, lan_init,
 *        lan_combine, lan_value) against LAPACKE.
 * @precisions normal z -> c d s
 *
 * What it proves, for the max, one, infinity and Frobenius norms, each computed as a
 * driver does (lan_init, the kernel folding the tile into the partial result, lan_combine,
 * lan_value):
 *  - one tile: lange, lantr (upper and lower, unit and non-unit, m <= n and m > n),
 *    lansy and lanhe (upper and lower), and lansy_offdiag (the tile counted for its own
 *    block column and for its transpose's) on empty, 1 x n, m x 1, sizes around the SIMD
 *    widths (2, 3, 4, 5, 8, 9, 16, 17) and groups of four columns with tails, m != n,
 *    lda = m and lda > m, agree with LAPACKE's ?lange/?lantr/?lansy/?lanhe (lantr's shapes
 *    outside LAPACK's contract against ?lange of the explicit trapezoid; offdiag against
 *    max(?lange one, inf), sqrt(2) ?lange Frobenius, ?lange max);
 *  - several tiles: a 23 x 19 matrix as 2 x 2 tiles (one norm: chains down tile columns,
 *    infinity norm: along tile rows, max and Frobenius: per-tile results combined), and a
 *    symmetric/Hermitian 24 x 24 one as two diagonal tiles and one off-diagonal tile
 *    (lansy/lanhe, lansy_offdiag, lansy/lanhe, in LAPACK's order), upper and lower, against
 *    LAPACKE on the whole matrix;
 *  - what is not stored is not read: the other triangle, a unit diagonal and the imaginary
 *    parts of a Hermitian diagonal hold NaN, which would show;
 *  - LAPACK's NaN policy: a NaN anywhere (first entry, inside the SIMD groups, in tail
 *    columns, on a diagonal, in any tile) makes every norm NaN; an Inf makes it +Inf; NaN
 *    and Inf make it NaN;
 *  - entries scaled by 2^+-996 (2^+-120 in single precision), whose squares overflow or
 *    underflow, and a single entry 2^(emax - 1), give the norms of the unscaled matrix times
 *    the scale, finite;
 *  - lan_init, lan_combine (NaN wins, Frobenius pairs with different scales, empty pairs)
 *    and lan_value on hand-made partial results; bad arguments return -i.
 *
 *  - the order of the sums (kernels/tila_lan_order.h, which the GPU kernels follow too):
 *    in real arithmetic the one and infinity partials of general, trapezoidal and
 *    off-diagonal tiles equal, to the bit, a plain reference of that order (32 lanes by
 *    row or column index, then the lanes' tree), on tiles of up to 3 strips of rows.
 *
 * Why it suffices, and the tolerances: in real arithmetic the max norm must equal
 * LAPACK's to the bit (the maximum is exact, |x| is exact); in complex arithmetic |z| may
 * differ from gfortran's by an ulp, so the max is within 2 eps.  Sums are taken in
 * lanes, not in LAPACK's running order: within (max(m, n) + 2) eps relative.  The Frobenius norm
 * sums the same squares in another order (blocks), within (max(m, n) + 2) eps relative:
 * the worst-case bound is m n u, but errors of sums of positive terms grow like sqrt(m n) u
 * (Higham, 4.2), and one lost entry of a 100 x 100 matrix is already 400 eps in single
 * precision.  Every code path of core_zlange.c (the SIMD lanes and tails, four-column
 * groups, the scaled second pass, the pair arithmetic) is reached by these shapes.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <complex.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core_z.h"
#include "kerneltests_z.h"

#define PREC TILA_COMPLEX64

enum kind { GE, TR, SY, HE, OFF };

static const char *kind_name[] = { "core_lange", "core_lantr", "core_lansy", "core_lanhe",
                                   "core_lansy_offdiag" };
static const tila_norm_t norms[4] = { TILA_NORM_MAX, TILA_NORM_ONE, TILA_NORM_INF, TILA_NORM_FRO };

static char prec_letter(void) { return kernel_prec_letter(PREC); }

static int is_complex(void)
{
#if defined(COMPLEX)
    return 1;
#else
    return 0;
#endif
}

/* Is entry (i, j) read by the kernel? */
static int stored(enum kind k, tila_uplo_t uplo, tila_diag_t diag, int i, int j)
{
    if (k == GE || k == OFF) return 1;
    if (i == j) return k != TR || diag == TILA_NONUNIT;
    return uplo == TILA_UPPER ? i < j : i > j;
}

/* The real part of *a = v (the part a Hermitian diagonal is read by). */
static void set_real_part(tila_complex64_t *a, double v)
{
#if defined(COMPLEX)
    ((double *)a)[0] = v;
#else
    *a = v;
#endif
}

/* The largest binary exponent e of the precision: 2^(e - 1) is finite, 2^e is not. */
static int max_exponent(void) { return ilogb(DBL_MAX) + 1; }

/* Random entries where stored, NaN elsewhere and in the imaginary parts of a Hermitian
 * diagonal; lda x n. */
static tila_complex64_t *make(enum kind k, tila_uplo_t uplo, tila_diag_t diag, int m, int n,
                              int lda, unsigned long long seed)
{
    tila_complex64_t *A = kernel_alloc(PREC, lda, n);
    kernel_fill(PREC, m, n, A, lda, seed);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            tila_complex64_t *a = &A[(size_t)j * lda + i];
            if (!stored(k, uplo, diag, i, j)) kernel_set(PREC, 1, 1, a, 1, NAN, NAN);
#if defined(COMPLEX)
            else if (k == HE && i == j)
                ((double *)a)[1] = NAN;
#endif
        }
    return A;
}

/* Length of the partial result of a norm: of a general tile (rows m), of the column
 * block (len_col) or of the row block (len_row) of a symmetric one. */
static int work_len(tila_norm_t norm, int len)
{
    return norm == TILA_NORM_MAX ? 1 : norm == TILA_NORM_FRO ? 2 : len;
}

/* Long double, written so that the precision generator leaves it alone. */
typedef __typeof__(1.0L) wide_t;

/* A partial started as the drivers start it: ones in the first `nones` (a unit diagonal's,
 * which the one and infinity kernels leave out), zeros after. */
static void part_init(int len, int nones, double *work)
{
    for (int k = 0; k < len; k++)
        work[k] = k < nones ? 1 : 0;
}

/*
 * *acc (+) part, as the reduction across ranks combines partials, in long double (no
 * overflow at the test's scales): the largest of max/one/inf partials' `len` entries, NaN
 * winning; Frobenius pairs as scale^2 sumsq, summed.
 */
static void part_combine(tila_norm_t norm, int len, const double *part, wide_t *acc)
{
    if (norm == TILA_NORM_FRO) {
        *acc += (wide_t)part[0] * part[0] * part[1];
        return;
    }
    for (int k = 0; k < len; k++)
        *acc = isnan(part[k]) || part[k] > *acc ? part[k] : *acc;
}

static double part_value(tila_norm_t norm, wide_t acc)
{
    return (double)(norm == TILA_NORM_FRO ? sqrtl(acc) : acc);
}

/* Fold one tile into work (and work2 for the off-diagonal kernel). */
static int fold(enum kind k, tila_norm_t norm, tila_uplo_t uplo, tila_diag_t diag, int m, int n,
                const tila_complex64_t *A, int lda, double *work, double *work2)
{
    switch (k) {
    case GE: return tila_core_zlange(norm, m, n, A, lda, work);
    case TR: return tila_core_zlantr(norm, uplo, diag, m, n, A, lda, work);
#if defined(COMPLEX)
    case HE: return tila_core_zlanhe(norm, uplo, n, A, lda, work);
#endif
    case OFF: return tila_core_zlansy_offdiag(norm, m, n, A, lda, work, work2);
    default: return tila_core_zlansy(norm, uplo, n, A, lda, work);
    }
}

/*
 * The norm of one tile as a driver computes it: the partial result started at zero
 * (with the ones of a unit diagonal first for the one and infinity norms), the tile
 * folded in, combined.
 */
static double tile_norm(enum kind k, tila_norm_t norm, tila_uplo_t uplo, tila_diag_t diag, int m,
                        int n, const tila_complex64_t *A, int lda, int *rc)
{
    int general = k == GE || k == TR;
    int len1 = work_len(norm, norm == TILA_NORM_INF && general ? m : n), len2 = 0;
    int nones = k == TR && diag == TILA_UNIT && (norm == TILA_NORM_ONE || norm == TILA_NORM_INF)
                    ? (m < n ? m : n)
                    : 0;
    double *w1 = malloc(sizeof *w1 * (size_t)(m + n + 2));
    double *w2 = malloc(sizeof *w2 * (size_t)(m + n + 2));
    wide_t acc = 0;
    if (k == OFF) len2 = work_len(norm, m);
    part_init(len1, nones, w1);
    part_init(len2, 0, w2);
    *rc = fold(k, norm, uplo, diag, m, n, A, lda, w1, w2);
    part_combine(norm, len1, w1, &acc);
    if (k == OFF) part_combine(norm, len2, w2, &acc);
    free(w1);
    free(w2);
    return part_value(norm, acc);
}

/* Does LAPACK's ?lantr take this shape? */
static int lantr_contract(tila_uplo_t uplo, int m, int n)
{
    return uplo == TILA_UPPER ? m <= n : m >= n;
}

static double lange(char norm, int m, int n, const tila_complex64_t *A, int lda)
{
    return LAPACKE_zlange(LAPACK_COL_MAJOR, norm, m, n, A, lda);
}

/* LAPACKE's norm of the same tile. */
static double ref_norm(enum kind k, tila_norm_t norm, tila_uplo_t uplo, tila_diag_t diag, int m,
                       int n, const tila_complex64_t *A, int lda)
{
    char u = kernel_letter(uplo), c = (char)norm;
    if (m == 0 || n == 0) return 0;
    switch (k) {
    case GE: return lange(c, m, n, A, lda);
#if defined(COMPLEX)
    case HE: return LAPACKE_zlanhe(LAPACK_COL_MAJOR, c, u, n, A, lda);
#endif
    case SY: return LAPACKE_zlansy(LAPACK_COL_MAJOR, c, u, n, A, lda);
    case OFF:
        if (norm == TILA_NORM_FRO) return sqrt(2.0) * lange('F', m, n, A, lda);
        if (norm == TILA_NORM_MAX)
            return lange('M', m, n, A, lda);
        else {
            double one = lange('O', m, n, A, lda), inf = lange('I', m, n, A, lda);
            return isnan(one) || one > inf ? one : inf;
        }
    default: break;
    }
    if (lantr_contract(uplo, m, n))
        return LAPACKE_zlantr(LAPACK_COL_MAJOR, c, u, kernel_letter(diag), m, n, A, lda);
    /* The explicit trapezoid: zeros outside, ones on a unit diagonal. */
    tila_complex64_t *X = kernel_alloc(PREC, m, n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            X[(size_t)j * m + i] = stored(TR, uplo, diag, i, j) ? A[(size_t)j * lda + i]
                                   : i == j                     ? 1
                                                                : 0;
    double v = lange(c, m, n, X, m);
    free(X);
    return v;
}

/* |v - ref| / ref in units of eps (0 when both are 0). */
static double rel_error(double v, double ref)
{
    double d = fabs(v - ref);
    return (ref > 0 ? d / ref : d) / DBL_EPSILON;
}

/* Bit equality of the values in real arithmetic for the max, else the tolerance of the
 * header comment. */
static int agrees(enum kind k, tila_norm_t norm, tila_uplo_t uplo, int m, int n, double v,
                  double ref, double *err)
{
    int exact = !is_complex() && norm == TILA_NORM_MAX && (k != TR || lantr_contract(uplo, m, n));
    double tol = norm == TILA_NORM_MAX ? 2 : (m > n ? m : n) + 2;
    *err = rel_error(v, ref);
    return exact ? memcmp(&v, &ref, sizeof v) == 0 : *err <= tol;
}

/* ---- One tile ------------------------------------------------------------------------- */

static void run_one(enum kind k, tila_uplo_t uplo, tila_diag_t diag, int m, int n, int lda,
                    unsigned long long seed)
{
    tila_complex64_t *A = make(k, uplo, diag, m, n, lda, seed);
    tila_complex64_t *A0 = kernel_dup(PREC, lda, n, A);
    for (int t = 0; t < 4; t++) {
        int rc;
        double v = tile_norm(k, norms[t], uplo, diag, m, n, A, lda, &rc), err = 0;
        double ref = ref_norm(k, norms[t], uplo, diag, m, n, A, lda);
        int ok = rc == 0 && agrees(k, norms[t], uplo, m, n, v, ref, &err) &&
                 kernel_equal(PREC, lda, n, A, lda, A0, lda);
        if (k == TR)
            kernel_check(ok, kind_name[k], prec_letter(), err,
                         "norm=%c uplo=%c diag=%c m=%d n=%d lda=%d value=%.17g ref=%.17g rc=%d",
                         (char)norms[t], kernel_letter(uplo), kernel_letter(diag), m, n, lda, v,
                         ref, rc);
        else if (k == SY || k == HE)
            kernel_check(ok, kind_name[k], prec_letter(), err,
                         "norm=%c uplo=%c n=%d lda=%d value=%.17g ref=%.17g rc=%d", (char)norms[t],
                         kernel_letter(uplo), n, lda, v, ref, rc);
        else
            kernel_check(ok, kind_name[k], prec_letter(), err,
                         "norm=%c m=%d n=%d lda=%d value=%.17g ref=%.17g rc=%d", (char)norms[t], m,
                         n, lda, v, ref, rc);
    }
    free(A);
    free(A0);
}

/* ---- NaN and Inf ---------------------------------------------------------------------- */

/*
 * A NaN (what 0), a -Inf (what 1), or a NaN and an Inf (what 2) planted at (pi, pj) (and
 * the Inf at (qi, qj)) of an m x n tile: every norm NaN, +Inf, NaN.  On a Hermitian
 * diagonal the planted value goes in the real part, the one that is read.
 */
static void run_special(enum kind k, tila_uplo_t uplo, tila_diag_t diag, int m, int n, int what,
                        int pi, int pj, int qi, int qj, unsigned long long seed)
{
    static const char *what_name[] = { "NaN", "-Inf", "NaN+Inf" };
    int lda = m + 1;
    tila_complex64_t *A = make(k, uplo, diag, m, n, lda, seed);
    set_real_part(&A[(size_t)pj * lda + pi], what == 1 ? -INFINITY : NAN);
    if (what == 2) set_real_part(&A[(size_t)qj * lda + qi], INFINITY);
    for (int t = 0; t < 4; t++) {
        int rc;
        double v = tile_norm(k, norms[t], uplo, diag, m, n, A, lda, &rc);
        int ok = rc == 0 && (what == 1 ? isinf(v) && v > 0 : isnan(v));
        kernel_check(ok, kind_name[k], prec_letter(), 0,
                     "norm=%c uplo=%c diag=%c m=%d n=%d %s at (%d,%d)%s value=%g", (char)norms[t],
                     kernel_letter(uplo), kernel_letter(diag), m, n, what_name[what], pi, pj,
                     what == 2 ? " Inf elsewhere" : "", v);
    }
    free(A);
}

/* Three stored positions of each kind, and the NaN/Inf cases there. */
static void run_specials(unsigned long long seed)
{
    /* Candidates: corners, inside the four-column groups, tail columns, a diagonal. */
    static const int cand[][2] = { { 0, 0 }, { 6, 5 }, { 12, 10 }, { 3, 9 },  { 10, 2 },
                                   { 5, 5 }, { 1, 0 }, { 0, 1 },   { 12, 0 }, { 0, 10 } };
    static const struct {
        enum kind k;
        tila_uplo_t uplo;
        tila_diag_t diag;
    } cases[] = {
        { GE, TILA_GENERAL, TILA_NONUNIT },  { TR, TILA_UPPER, TILA_NONUNIT },
        { TR, TILA_UPPER, TILA_UNIT },       { TR, TILA_LOWER, TILA_UNIT },
        { SY, TILA_UPPER, TILA_NONUNIT },    { SY, TILA_LOWER, TILA_NONUNIT },
        { HE, TILA_UPPER, TILA_NONUNIT },    { HE, TILA_LOWER, TILA_NONUNIT },
        { OFF, TILA_GENERAL, TILA_NONUNIT },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        enum kind k = cases[c].k;
        if (k == HE && !is_complex()) continue;
        int m = k == SY || k == HE ? 11 : 13, n = 11, found = 0, pos[3];
        for (size_t x = 0; x < sizeof cand / sizeof cand[0] && found < 3; x++)
            if (cand[x][0] < m && cand[x][1] < n &&
                stored(k, cases[c].uplo, cases[c].diag, cand[x][0], cand[x][1]))
                pos[found++] = (int)x;
        for (int f = 0; f < found; f++)
            for (int what = 0; what < 3; what++) {
                int o = pos[(f + 1) % found]; /* where the Inf goes */
                run_special(k, cases[c].uplo, cases[c].diag, m, n, what, cand[pos[f]][0],
                            cand[pos[f]][1], cand[o][0], cand[o][1], seed++);
            }
    }
}

/* ---- Several tiles -------------------------------------------------------------------- */

/*
 * A 23 x 19 matrix as 2 x 2 tiles (rows split at 10, columns at 8), the norm as a driver
 * chains them: one norm down each tile column into the column sums, infinity norm along
 * each tile row into the row sums, max and Frobenius per tile, combined.  what: 0 clean,
 * 1 NaN in tile (1, 1), 2 -Inf in tile (0, 1).
 */
static void run_tiled_general(tila_norm_t norm, int what, unsigned long long seed)
{
    enum { M = 23, N = 19, R = 10, C = 8, LDA = M + 1 };
    static const int r0[3] = { 0, R, M }, c0[3] = { 0, C, N };
    tila_complex64_t *A = make(GE, TILA_GENERAL, TILA_NONUNIT, M, N, LDA, seed);
    if (what == 1) A[(size_t)(C + 3) * LDA + R + 4] = NAN;
    if (what == 2) A[(size_t)(C + 5) * LDA + 2] = -INFINITY;
    double sums[M + N], part[2];
    wide_t acc = 0;
    int rc = 0;
    if (norm == TILA_NORM_ONE || norm == TILA_NORM_INF) {
        part_init(M + N, 0, sums);
        for (int p = 0; p < 2; p++)
            for (int q = 0; q < 2; q++)
                rc |= tila_core_zlange(norm, r0[p + 1] - r0[p], c0[q + 1] - c0[q],
                                       A + r0[p] + (size_t)c0[q] * LDA, LDA,
                                       norm == TILA_NORM_ONE ? sums + c0[q] : sums + r0[p]);
        part_combine(norm, norm == TILA_NORM_ONE ? N : M, sums, &acc);
    }
    else
        for (int q = 0; q < 2; q++)
            for (int p = 0; p < 2; p++) {
                part_init(2, 0, part);
                rc |= tila_core_zlange(norm, r0[p + 1] - r0[p], c0[q + 1] - c0[q],
                                       A + r0[p] + (size_t)c0[q] * LDA, LDA, part);
                part_combine(norm, 1, part, &acc);
            }
    double v = part_value(norm, acc), ref = lange((char)norm, M, N, A, LDA), err = 0;
    int ok = rc == 0 && (what == 0   ? agrees(GE, norm, TILA_GENERAL, M, N, v, ref, &err)
                         : what == 1 ? isnan(v)
                                     : isinf(v) && v > 0);
    kernel_check(ok, "core_lange", prec_letter(), err,
                 "norm=%c %dx%d as 2x2 tiles split at (%d,%d)%s value=%.17g ref=%.17g", (char)norm,
                 M, N, R, C,
                 what == 1   ? " NaN in tile (1,1)"
                 : what == 2 ? " -Inf in tile (0,1)"
                             : "",
                 v, ref);
    free(A);
}

/*
 * A 24 x 24 symmetric (Hermitian: herm) matrix, triangle uplo stored, as diagonal tiles
 * of 11 and 13 and one off-diagonal tile, in LAPACK's order: lansy/lanhe of the first
 * diagonal tile into the first block column's partial, lansy_offdiag of the off-diagonal
 * tile into both, lansy/lanhe of the second.  what: 0 clean, 1 NaN in the off-diagonal
 * tile, 2 -Inf in the second diagonal tile.
 */
static void run_tiled_symmetric(enum kind k, tila_uplo_t uplo, tila_norm_t norm, int what,
                                unsigned long long seed)
{
    enum { N1 = 11, N2 = 13, N = N1 + N2, LDA = N + 2 };
    tila_complex64_t *A = make(k, uplo, TILA_NONUNIT, N, N, LDA, seed);
    tila_complex64_t *D1 = A, *D2 = A + N1 + (size_t)N1 * LDA;
    /* Lower: X = A(N1:, 0:N1) is N2 x N1; upper: A(0:N1, N1:) is N1 x N2. */
    tila_complex64_t *X = uplo == TILA_LOWER ? A + N1 : A + (size_t)N1 * LDA;
    if (what == 1) X[(size_t)4 * LDA + 7] = NAN;
    if (what == 2) D2[(size_t)6 * LDA + 6] = -INFINITY;
    double w0[N1], w1[N2];
    wide_t acc = 0;
    part_init(work_len(norm, N1), 0, w0);
    part_init(work_len(norm, N2), 0, w1);
    int rc = fold(k, norm, uplo, TILA_NONUNIT, N1, N1, D1, LDA, w0, NULL);
    if (uplo == TILA_LOWER)
        rc |= tila_core_zlansy_offdiag(norm, N2, N1, X, LDA, w0, w1);
    else
        rc |= tila_core_zlansy_offdiag(norm, N1, N2, X, LDA, w1, w0);
    rc |= fold(k, norm, uplo, TILA_NONUNIT, N2, N2, D2, LDA, w1, NULL);
    part_combine(norm, work_len(norm, N1), w0, &acc);
    part_combine(norm, work_len(norm, N2), w1, &acc);
    double v = part_value(norm, acc), err = 0;
    double ref = ref_norm(k, norm, uplo, TILA_NONUNIT, N, N, A, LDA);
    int ok = rc == 0 && (what == 0   ? agrees(k, norm, uplo, N, N, v, ref, &err)
                         : what == 1 ? isnan(v)
                                     : isinf(v) && v > 0);
    kernel_check(ok, "core_lansy_offdiag", prec_letter(), err,
                 "norm=%c %s uplo=%c n=%d as tiles of %d and %d%s value=%.17g ref=%.17g",
                 (char)norm, k == HE ? "hermitian" : "symmetric", kernel_letter(uplo), N, N1, N2,
                 what == 1   ? " NaN off the diagonal"
                 : what == 2 ? " -Inf in a diagonal tile"
                             : "",
                 v, ref);
    free(A);
}

/* ---- Extreme scales --------------------------------------------------------------------- */

/*
 * Entries times 2^e: every norm is 2^e times the norm of the unscaled entries (powers of
 * two scale exactly), computed by LAPACKE in a safe range; the kernel's result must be
 * finite and within the tolerance after dividing the scale back.
 */
static void run_scaled(enum kind k, tila_uplo_t uplo, int e, unsigned long long seed)
{
    int m = 31, n = k == GE ? 26 : 31, lda = m;
    tila_complex64_t *A = make(k, uplo, TILA_NONUNIT, m, n, lda, seed);
    tila_complex64_t *S = kernel_dup(PREC, lda, n, A);
    for (size_t x = 0; x < (size_t)lda * n; x++)
        S[x] *= ldexp(1, e);
    for (int t = 0; t < 4; t++) {
        int rc;
        double v = tile_norm(k, norms[t], uplo, TILA_NONUNIT, m, n, S, lda, &rc);
        double ref = ref_norm(k, norms[t], uplo, TILA_NONUNIT, m, n, A, lda);
        double err = rel_error(v * ldexp(1, -e), ref);
        int ok = rc == 0 && isfinite(v) && v > 0 && err <= (norms[t] == TILA_NORM_FRO ? m + 2 : 2);
        kernel_check(ok, kind_name[k], prec_letter(), err,
                     "norm=%c uplo=%c m=%d n=%d entries*2^%d value=%g", (char)norms[t],
                     kernel_letter(uplo), m, n, e, v);
    }
    free(A);
    free(S);
}

/* One entry 2^(emax - 1), zeros elsewhere: every norm is that entry, finite. */
static void run_top_entry(void)
{
    int m = 9, n = 9, emax = max_exponent();
    tila_complex64_t *A = kernel_alloc(PREC, m, n);
    kernel_set(PREC, m, n, A, m, 0, 0);
    double top = ldexp(1, emax - 1);
    A[(size_t)(n - 1) * m + m - 2] = top;
    for (int t = 0; t < 4; t++) {
        int rc;
        double v = tile_norm(GE, norms[t], TILA_GENERAL, TILA_NONUNIT, m, n, A, m, &rc);
        kernel_check(rc == 0 && v == top, "core_lange", prec_letter(), rel_error(v, top),
                     "norm=%c one entry 2^%d m=%d n=%d value=%g", (char)norms[t], emax - 1, m, n,
                     v);
    }
    free(A);
}

/* ---- Bad arguments --------------------------------------------------------------------- */

static void run_errors(void)
{
    tila_complex64_t a[4] = { 0 };
    double w[8] = { 0 }, w2[8] = { 0 };
    tila_norm_t M = TILA_NORM_MAX, bad = (tila_norm_t)0;
    int ge[] = {
        tila_core_zlange(bad, 1, 1, a, 1, w), tila_core_zlange(M, -1, 1, a, 1, w),
        tila_core_zlange(M, 1, -1, a, 1, w),  tila_core_zlange(M, 2, 1, a, 1, w),
        tila_core_zlange(M, 0, 1, a, 1, w),
    };
    static const int ge_want[] = { -1, -2, -3, -5, 0 };
    KERNEL_CHECK_CODES("core_lange", prec_letter(), ge, ge_want);
    int tr[] = {
        tila_core_zlantr(bad, TILA_UPPER, TILA_UNIT, 1, 1, a, 1, w),
        tila_core_zlantr(M, TILA_GENERAL, TILA_UNIT, 1, 1, a, 1, w),
        tila_core_zlantr(M, TILA_UPPER, (tila_diag_t)0, 1, 1, a, 1, w),
        tila_core_zlantr(M, TILA_UPPER, TILA_UNIT, -1, 1, a, 1, w),
        tila_core_zlantr(M, TILA_UPPER, TILA_UNIT, 1, -1, a, 1, w),
        tila_core_zlantr(M, TILA_UPPER, TILA_UNIT, 2, 1, a, 1, w),
        tila_core_zlantr(M, TILA_LOWER, TILA_UNIT, 1, 0, a, 1, w),
    };
    static const int tr_want[] = { -1, -2, -3, -4, -5, -7, 0 };
    KERNEL_CHECK_CODES("core_lantr", prec_letter(), tr, tr_want);
    int sy[] = {
        tila_core_zlansy(bad, TILA_UPPER, 1, a, 1, w),
        tila_core_zlansy(M, TILA_GENERAL, 1, a, 1, w),
        tila_core_zlansy(M, TILA_UPPER, -1, a, 1, w),
        tila_core_zlansy(M, TILA_UPPER, 2, a, 1, w),
        tila_core_zlansy(M, TILA_UPPER, 0, a, 1, w),
    };
    static const int sy_want[] = { -1, -2, -3, -5, 0 };
    KERNEL_CHECK_CODES("core_lansy", prec_letter(), sy, sy_want);
#if defined(COMPLEX)
    int he[] = {
        tila_core_zlanhe(bad, TILA_LOWER, 1, a, 1, w),
        tila_core_zlanhe(M, (tila_uplo_t)0, 1, a, 1, w),
        tila_core_zlanhe(M, TILA_LOWER, -1, a, 1, w),
        tila_core_zlanhe(M, TILA_LOWER, 2, a, 1, w),
        tila_core_zlanhe(M, TILA_LOWER, 0, a, 1, w),
    };
    KERNEL_CHECK_CODES("core_lanhe", prec_letter(), he, sy_want);
#endif
    int off[] = {
        tila_core_zlansy_offdiag(bad, 1, 1, a, 1, w, w2),
        tila_core_zlansy_offdiag(M, -1, 1, a, 1, w, w2),
        tila_core_zlansy_offdiag(M, 1, -1, a, 1, w, w2),
        tila_core_zlansy_offdiag(M, 2, 1, a, 1, w, w2),
        tila_core_zlansy_offdiag(M, 0, 2, a, 1, w, w2),
    };
    KERNEL_CHECK_CODES("core_lansy_offdiag", prec_letter(), off, ge_want);
}

/*
 * The one/infinity partial of tila_lan_order.h, plainly.  Column j: lane l adds the
 * region's entries of rows i = l mod 32 in order, then the lanes' tree (l += l + h, h = 16
 * ... 1).  Row i: lane l adds the columns l c ... (l + 1) c - 1 (c = ceil(n / 32)) in order,
 * then the lanes pairwise (l += l + h for l a multiple of 2h, h = 1 ... 16).  One addition
 * into the partial.  Real arithmetic (|x| exact).
 */
static void lanes_reference(tila_norm_t norm, tila_uplo_t uplo, int strict, int m, int n,
                            const tila_complex64_t *A, int lda, double *work)
{
    int one = norm == TILA_NORM_ONE, outer = one ? n : m, inner = one ? m : n;
    int per = (n + 31) / 32;
    for (int p = 0; p < outer; p++) {
        double s[32] = { 0 };
        for (int q = 0; q < inner; q++) {
            int i = one ? q : p, j = one ? p : q;
            int in = uplo == TILA_UPPER   ? (strict ? i < j : i <= j)
                     : uplo == TILA_LOWER ? (strict ? i > j : i >= j)
                                          : 1;
            if (in) s[one ? q % 32 : q / per] += cabs(A[(size_t)j * lda + i]);
        }
        if (one)
            for (int h = 16; h > 0; h /= 2)
                for (int l = 0; l < h; l++)
                    s[l] = s[l] + s[l + h];
        else
            for (int h = 1; h < 32; h *= 2)
                for (int l = 0; l + h < 32; l += 2 * h)
                    s[l] = s[l] + s[l + h];
        work[p] = work[p] + s[0];
    }
}

/*
 * The Frobenius pair of a general real tile of moderate entries, plainly: each column's
 * squares in the 32 interleaved lanes and their tree, the columns pairwise (stride
 * doubling), then the sum as (2^(k/2), sum 2^-2(k/2)), k its binary exponent.
 */
static void fro_reference(int m, int n, const tila_complex64_t *A, int lda, double pair[2])
{
    double *col = calloc((size_t)(n > 0 ? n : 1), sizeof *col);
    for (int j = 0; j < n; j++) {
        double s[32] = { 0 };
        for (int i = 0; i < m; i++) {
            double x = cabs(A[(size_t)j * lda + i]);
            s[i % 32] += x * x;
        }
        for (int h = 16; h > 0; h /= 2)
            for (int l = 0; l < h; l++)
                s[l] = s[l] + s[l + h];
        col[j] = s[0];
    }
    for (int h = 1; h < n; h *= 2)
        for (int j = 0; j + h < n; j += 2 * h)
            col[j] = col[j] + col[j + h];
    int k;
    frexp(col[0], &k);
    pair[0] = ldexp(1, k / 2);
    pair[1] = ldexp(col[0], -2 * (k / 2));
    free(col);
}

/* The order of the sums, in real arithmetic: general, trapezoidal (strict and not) and
 * off-diagonal tiles, one and infinity norms, and general tiles' Frobenius pairs, to the
 * bit. */
static void run_lanes_order(unsigned long long seed)
{
    static const int shapes[][2] = { { 1, 40 },   { 40, 1 },   { 33, 70 },
                                     { 150, 37 }, { 65, 65 },  { 1100, 131 } };
    static const tila_uplo_t uplos[] = { TILA_GENERAL, TILA_UPPER, TILA_LOWER };
    if (is_complex()) return;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int t = 1; t <= 2; t++)
            for (int u = 0; u < 3; u++)
                for (int strict = 0; strict < (u ? 2 : 1); strict++) {
                    int m = shapes[s][0], n = shapes[s][1], lda = m + 3, len = m > n ? m : n;
                    tila_norm_t norm = norms[t];
                    tila_complex64_t *A = kernel_alloc(PREC, lda, n);
                    double *got = calloc((size_t)len, sizeof *got);
                    double *want = calloc((size_t)len, sizeof *want);
                    double *row = calloc((size_t)len, sizeof *row);
                    kernel_fill(PREC, m, n, A, lda, seed++);
                    for (int k = 0; k < len; k++)
                        got[k] = want[k] = k % 3; /* a running partial, not only zeros */
                    int rc = u == 0 ? tila_core_zlange(norm, m, n, A, lda, got)
                                    : tila_core_zlantr(norm, uplos[u],
                                                       strict ? TILA_UNIT : TILA_NONUNIT, m, n,
                                                       A, lda, got);
                    lanes_reference(norm, uplos[u], strict, m, n, A, lda, want);
                    int outer = norm == TILA_NORM_ONE ? n : m;
                    int ok = rc == 0 && memcmp(got, want, sizeof *got * (size_t)outer) == 0;
                    kernel_check(ok, kind_name[u == 0 ? GE : TR], prec_letter(), 0,
                                 "lanes order norm=%c uplo=%c strict=%d m=%d n=%d",
                                 "MOIF"[t], kernel_letter(uplos[u]), strict, m, n);
                    if (u == 0) { /* the off-diagonal kernel: both orientations */
                        memset(got, 0, sizeof *got * (size_t)len);
                        rc = tila_core_zlansy_offdiag(norm, m, n, A, lda,
                                                      norm == TILA_NORM_ONE ? got : row,
                                                      norm == TILA_NORM_ONE ? row : got);
                        memset(want, 0, sizeof *want * (size_t)len);
                        lanes_reference(norm, TILA_GENERAL, 0, m, n, A, lda, want);
                        ok = rc == 0 && memcmp(got, want, sizeof *got * (size_t)outer) == 0;
                        kernel_check(ok, kind_name[OFF], prec_letter(), 0,
                                     "lanes order norm=%c m=%d n=%d", "MOIF"[t], m, n);
                    }
                    if (u == 0 && t == 1) { /* once a shape: the Frobenius pair */
                        double fg[2] = { 0, 0 }, fw[2];
                        rc = tila_core_zlange(TILA_NORM_FRO, m, n, A, lda, fg);
                        fro_reference(m, n, A, lda, fw);
                        kernel_check(rc == 0 && memcmp(fg, fw, sizeof fg) == 0, kind_name[GE],
                                     prec_letter(), 0, "lanes order norm=F m=%d n=%d", m, n);
                    }
                    free(A);
                    free(got);
                    free(want);
                    free(row);
                }
}

void tila_test_zlange_core(const kernel_opts_t *o)
{
    /* m, n: empty, vectors, around the SIMD widths, groups of four columns and tails. */
    static const int sizes[][2] = {
        { 0, 0 },   { 0, 5 },   { 5, 0 },  { 1, 1 },  { 1, 7 },     { 7, 1 },   { 2, 3 },
        { 3, 2 },   { 4, 4 },   { 5, 9 },  { 9, 5 },  { 8, 8 },     { 16, 16 }, { 17, 13 },
        { 13, 17 }, { 33, 31 }, { 64, 5 }, { 5, 64 }, { 100, 100 },
    };
    static const int orders[] = { 0, 1, 2, 3, 4, 5, 7, 8, 9, 13, 16, 17, 31, 33, 64 };
    static const tila_uplo_t uplos[] = { TILA_UPPER, TILA_LOWER };
    static const tila_diag_t diags[] = { TILA_NONUNIT, TILA_UNIT };
    unsigned long long seed = o->seed;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int m = sizes[s][0], n = sizes[s][1], lda = (m > 1 ? m : 1) + (s % 2 ? 3 : 0);
        run_one(GE, TILA_GENERAL, TILA_NONUNIT, m, n, lda, seed++);
        run_one(OFF, TILA_GENERAL, TILA_NONUNIT, m, n, lda, seed++);
        for (int u = 0; u < 2; u++)
            for (int d = 0; d < 2; d++)
                run_one(TR, uplos[u], diags[d], m, n, lda, seed++);
    }
    for (size_t s = 0; s < sizeof orders / sizeof orders[0]; s++) {
        int n = orders[s], lda = (n > 1 ? n : 1) + (s % 2 ? 2 : 0);
        for (int u = 0; u < 2; u++) {
            run_one(SY, uplos[u], TILA_NONUNIT, n, n, lda, seed++);
            if (is_complex()) run_one(HE, uplos[u], TILA_NONUNIT, n, n, lda, seed++);
        }
    }
    for (int t = 0; t < 4; t++)
        for (int what = 0; what < 3; what++) {
            run_tiled_general(norms[t], what, seed++);
            for (int u = 0; u < 2; u++) {
                run_tiled_symmetric(SY, uplos[u], norms[t], what, seed++);
                if (is_complex()) run_tiled_symmetric(HE, uplos[u], norms[t], what, seed++);
            }
        }
    run_specials(seed);
    run_lanes_order(seed + 1000);
    /* e: squares overflow or underflow within the tile; mid: the sum of squares
     * overflows, no single square does. */
    int e = max_exponent() == 128 ? 120 : 996, mid = max_exponent() == 128 ? 62 : 510;
    for (int u = 0; u < 2; u++) {
        enum kind k = u == 0 ? GE : SY;
        tila_uplo_t uplo = u == 0 ? TILA_GENERAL : TILA_UPPER;
        run_scaled(k, uplo, e, seed + 1);
        run_scaled(k, uplo, -e, seed + 2);
        run_scaled(k, uplo, mid, seed + 3);
    }
    run_top_entry();
    run_errors();
}
