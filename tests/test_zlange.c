/**
 * @file test_zlange.c
 * @brief Norms of general, trapezoidal, symmetric and Hermitian matrices against LAPACKE.
 * @precisions normal z -> c d s
 *
 * What it proves, on every P x Q grid of the world (general matrices) or the squarest
 * one (the rest), for max/one/inf/Frobenius norms,
 * lange, lantr (upper/lower x unit/non-unit, any m and n), lansy and lanhe (upper and
 * lower), sizes with edge tiles, m != n, n < nb, 1 x 1 and empty matrices (or the m, n
 * and nb given, see main.c):
 *  - every rank gets the same bits, and the same bits as the same matrix and tile size
 *    under a user mapping (every tile on the last rank, as a 1 x 1 grid; or the tiles
 *    dealt to the ranks in turn): the value does not depend on the distribution;
 *  - LAPACKE's ?lange/?lantr/?lansy/?lanhe on the gathered matrix within tol eps
 *    relative (sums of tile sums; Frobenius by blocks), and in real arithmetic its max
 *    to the bit.  Trapezoids outside LAPACK's ?lantr contract (upper with m > n, lower
 *    with m < n) are checked against ?lange of the explicit trapezoid (zeros, unit
 *    diagonal);
 *  - what is not stored is not read: the other triangle, a unit diagonal and the
 *    imaginary parts of a Hermitian diagonal hold NaN, which would show;
 *  - a NaN planted in a tile of the last rank gives NaN everywhere; an Inf gives Inf
 *    (LAPACK does too), NaN and Inf give NaN;
 *  - entries scaled by 2^+-996 (2^+-120 in single precision), whose squares overflow
 *    or underflow, give the Frobenius norm of the unscaled matrix times the scale;
 *  - single precision: the Frobenius norm of a 16384 x 16384 matrix of equal entries c
 *    (the worst case for summation: a float running sum stalls at 2^24 ulps; tiles of
 *    1024, or the n and nb given) is 16384 |c| within the bound of blocked summation (see
 *    large_sum);
 *  - TILA_NORM_BATCH=on (a rank's tiles read by one task, the path of a GPU's tiles, here on
 *    the CPUs): general and trapezoidal matrices give the bits of a task per tile (off),
 *    in one task on each rank that holds a tile read, against one per tile;
 *  - the asynchronous forms (eight norms in flight in one sequence) deliver into the
 *    caller's variables at the wait, the synchronous ones before returning; bad
 *    arguments return -i.
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

#include <starpu.h>
#include <starpu_profiling.h>

#include "tests_z.h"

#define PREC TILA_COMPLEX64
#define NAME_LEN 48

enum kind { GE, TR, SY, HE };

static const tila_norm_t norms[4] = { TILA_NORM_MAX, TILA_NORM_ONE, TILA_NORM_INF, TILA_NORM_FRO };

static char prec_letter(void) { return tila_test_prec_letter(PREC); }

static int ld_of(int m) { return m > 1 ? m : 1; }

static char uplo_char(tila_uplo_t uplo) { return uplo == TILA_UPPER ? 'U' : 'L'; }

/* Name of the routine: "lange", "lantr U N", ... */
static void kind_name(char *s, enum kind k, tila_uplo_t uplo, tila_diag_t diag)
{
    static const char *base[] = { "lange", "lantr", "lansy", "lanhe" };
    if (k == GE)
        snprintf(s, NAME_LEN, "%s", base[k]);
    else if (k == TR)
        snprintf(s, NAME_LEN, "%s uplo=%c diag=%c", base[k], uplo_char(uplo),
                 diag == TILA_UNIT ? 'U' : 'N');
    else
        snprintf(s, NAME_LEN, "%s uplo=%c", base[k], uplo_char(uplo));
}

/* Is entry (i, j) read by the routine? */
static int stored(enum kind k, tila_uplo_t uplo, tila_diag_t diag, int i, int j)
{
    if (k == GE) return 1;
    if (i == j) return k != TR || diag == TILA_NONUNIT;
    return uplo == TILA_UPPER ? i < j : i > j;
}

/* Tila's norm, synchronous. */
static int tila_norm(enum kind k, tila_norm_t norm, tila_uplo_t uplo, tila_diag_t diag,
                     tila_desc_t *A, double *value)
{
    switch (k) {
    case GE: return tila_zlange(norm, A, value);
    case TR: return tila_zlantr(norm, uplo, diag, A, value);
#if defined(COMPLEX)
    case HE: return tila_zlanhe(norm, uplo, A, value);
#endif
    default: return tila_zlansy(norm, uplo, A, value);
    }
}

/* Tila's norm, asynchronous. */
static int tila_norm_async(enum kind k, tila_norm_t norm, tila_uplo_t uplo, tila_diag_t diag,
                           tila_desc_t *A, double *value, tila_sequence_t *seq, tila_request_t *req)
{
    switch (k) {
    case GE: return tila_zlange_async(norm, A, value, seq, req);
    case TR: return tila_zlantr_async(norm, uplo, diag, A, value, seq, req);
#if defined(COMPLEX)
    case HE: return tila_zlanhe_async(norm, uplo, A, value, seq, req);
#endif
    default: return tila_zlansy_async(norm, uplo, A, value, seq, req);
    }
}

/*
 * The four norms of A (and of B when not NULL: v2) in one sequence: every value is
 * written at the wait.  Returns the first nonzero code of a call or of the wait.
 */
static int four_norms(enum kind k, tila_uplo_t uplo, tila_diag_t diag, tila_desc_t *A,
                      tila_desc_t *B, double v[4], double v2[4])
{
    tila_sequence_t *seq;
    tila_request_t req[8];
    int rc = tila_sequence_create(&seq);
    if (rc) return rc;
    for (int t = 0; t < 4 && !rc; t++) {
        req[2 * t] = req[2 * t + 1] = (tila_request_t)TILA_REQUEST_INITIALIZER;
        rc = tila_norm_async(k, norms[t], uplo, diag, A, &v[t], seq, &req[2 * t]);
        if (!rc && B)
            rc = tila_norm_async(k, norms[t], uplo, diag, B, &v2[t], seq, &req[2 * t + 1]);
    }
    int status = tila_sequence_wait(seq);
    tila_sequence_destroy(&seq);
    return rc ? rc : status;
}

/* Does LAPACK's ?lantr take this shape? */
static int lantr_contract(tila_uplo_t uplo, int m, int n)
{
    return uplo == TILA_UPPER ? m <= n : m >= n;
}

/* LAPACKE's norm of the m x n column-major a (lda = ld_of(m)), on rank 0. */
static double ref_norm(enum kind k, tila_norm_t norm, tila_uplo_t uplo, tila_diag_t diag, int m,
                       int n, const tila_complex64_t *a)
{
    int lda = ld_of(m);
    if (m == 0 || n == 0) return 0;
    switch (k) {
    case GE: return LAPACKE_zlange(LAPACK_COL_MAJOR, (char)norm, m, n, a, lda);
#if defined(COMPLEX)
    case HE: return LAPACKE_zlanhe(LAPACK_COL_MAJOR, (char)norm, uplo_char(uplo), n, a, lda);
#endif
    case SY: return LAPACKE_zlansy(LAPACK_COL_MAJOR, (char)norm, uplo_char(uplo), n, a, lda);
    default: break;
    }
    if (lantr_contract(uplo, m, n))
        return LAPACKE_zlantr(LAPACK_COL_MAJOR, (char)norm, uplo_char(uplo),
                              diag == TILA_UNIT ? 'U' : 'N', m, n, a, lda);
    /* The explicit trapezoid. */
    tila_complex64_t *t = malloc(sizeof *t * (size_t)lda * n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            t[(size_t)j * lda + i] = stored(TR, uplo, diag, i, j) ? a[(size_t)j * lda + i]
                                     : i == j                     ? 1
                                                                  : 0;
    double v = LAPACKE_zlange(LAPACK_COL_MAJOR, (char)norm, m, n, t, lda);
    free(t);
    return v;
}

/* Uniform in [-0.5, 0.5) from (seed, k): SplitMix64. */
static double uniform(unsigned long long seed, unsigned long long k)
{
    unsigned long long x = seed * 0x9e3779b97f4a7c15ull + k;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return (double)((x ^ (x >> 31)) >> 11) * 0x1.0p-53 - 0.5;
}

/* A random m x n matrix on rank 0 (zeros elsewhere), NaN where not stored. */
static tila_complex64_t *make_matrix(enum kind k, tila_uplo_t uplo, tila_diag_t diag, int m, int n,
                                     unsigned long long seed)
{
    tila_complex64_t *a = calloc((size_t)ld_of(m) * (n > 1 ? n : 1), sizeof *a);
    if (tila_comm_rank() != 0) return a;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            size_t e = (size_t)j * ld_of(m) + i;
            tila_complex64_t *x = &a[e];
            *x = uniform(seed, 2 * e);
#if defined(COMPLEX)
            ((double *)x)[1] = uniform(seed, 2 * e + 1); /* the imaginary part */
#endif
            if (!stored(k, uplo, diag, i, j)) *x = NAN;
#if defined(COMPLEX)
            else if (k == HE && i == j)
                ((double *)x)[1] = NAN;
#endif
        }
    return a;
}

/* Scatter a into a new m x n descriptor with nb x nb tiles distributed by dist. */
static tila_desc_t *scatter_dist(const tila_complex64_t *a, int m, int n, int nb,
                                 const tila_dist_t *dist)
{
    tila_desc_t *A;
    tila_test_desc_create(&A, PREC, m, n, nb, nb, dist);
    tila_desc_scatter(A, 0, a, ld_of(m));
    return A;
}

/* The same on grid. */
static tila_desc_t *scatter(const tila_complex64_t *a, int m, int n, int nb, const int grid[2])
{
    return scatter_dist(a, m, n, nb, &(tila_dist_t){ .p = grid[0], .q = grid[1] });
}

/* User mappings: every tile on the last rank (as on a 1 x 1 grid), or the tiles dealt to
 * the ranks in turn, column by column from the last rank (arg: the tile row count). */
enum mapping { ON_LAST, DEALT };

static int on_last_rank(int m, int n, void *arg)
{
    (void)m, (void)n, (void)arg;
    return tila_comm_size() - 1;
}

static int dealt(int m, int n, void *arg)
{
    int size = tila_comm_size();
    return (size - 1 + n * *(const int *)arg + m) % size;
}

/* 1 when every rank holds the bits of rank 0's v. */
static int same_everywhere(double v)
{
    double v0 = v;
    MPI_Bcast(&v0, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    int ok = memcmp(&v0, &v, sizeof v) == 0, all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return all;
}

/* |v - ref| / ref in units of eps (0 when both are 0). */
static double rel_error(double v, double ref)
{
    double d = fabs(v - ref);
    return (ref > 0 ? d / ref : d) / DBL_EPSILON;
}

/*
 * One matrix, every norm, on grid and under a user mapping: the same bits on both (the
 * value depends on the tile size only), on every rank, and LAPACK's value within tol eps
 * (max: equal; the sums add the tiles' sums in another order than LAPACK's running sum).
 */
static void run_one(const tila_test_opts_t *o, enum kind k, tila_uplo_t uplo, tila_diag_t diag,
                    int m, int n, int nb, const int grid[2], enum mapping map)
{
    char name[NAME_LEN];
    kind_name(name, k, uplo, diag);
    tila_complex64_t *a = make_matrix(k, uplo, diag, m, n, o->seed);
    int mt = (m + nb - 1) / nb;
    tila_dist_t user = { .rank_of = map == ON_LAST ? on_last_rank : dealt, .rank_arg = &mt };
    tila_desc_t *A = scatter(a, m, n, nb, grid), *B = scatter_dist(a, m, n, nb, &user);
    double vs[4] = { -1, -1, -1, -1 }, v2s[4] = { -2, -2, -2, -2 };
    int rc = four_norms(k, uplo, diag, A, B, vs, v2s);
    for (int t = 0; t < 4; t++) {
        double v = vs[t], v2 = v2s[t], ref = 0, err = 0;
        int ok = rc == 0 && same_everywhere(v) && memcmp(&v, &v2, sizeof v) == 0;
        if (tila_comm_rank() == 0) {
            ref = ref_norm(k, norms[t], uplo, diag, m, n, a);
            err = rel_error(v, ref);
#if defined(COMPLEX)
            int exact = 0; /* |z| may differ from gfortran's by an ulp */
#else
            int exact = norms[t] == TILA_NORM_MAX && (k != TR || lantr_contract(uplo, m, n));
#endif
            ok = ok && (exact ? memcmp(&v, &ref, sizeof v) == 0 : err <= o->tol);
        }
        tila_test_check(ok, name, prec_letter(), err,
                        "norm=%c m=%d n=%d nb=%d grid=%dx%d and %s value=%.17g mapped=%.17g",
                        (char)norms[t], m, n, nb, grid[0], grid[1],
                        map == ON_LAST ? "all tiles on the last rank" : "tiles dealt in turn", v,
                        v2);
    }
    tila_desc_destroy(&A);
    tila_desc_destroy(&B);
    free(a);
}

/* ---- NaN, Inf, extreme scales --------------------------------------------------------- */

/* An entry read by the routine in a tile of the last rank: (*i, *j); 0 if none. */
static int planted_entry(const tila_desc_t *A, enum kind k, tila_uplo_t uplo, int *i, int *j)
{
    int last = tila_comm_size() - 1, nb = tila_desc_nb(A), mb = tila_desc_mb(A);
    for (int q = tila_desc_nt(A) - 1; q >= 0; q--)
        for (int p = tila_desc_mt(A) - 1; p >= 0; p--) {
            if (tila_desc_tile_rank(A, p, q) != last) continue;
            for (int jj = q * nb; jj < (q + 1) * nb && jj < tila_desc_n(A); jj++)
                for (int ii = p * mb; ii < (p + 1) * mb && ii < tila_desc_m(A); ii++)
                    if (stored(k, uplo, TILA_NONUNIT, ii, jj)) {
                        *i = ii;
                        *j = jj;
                        return 1;
                    }
        }
    return 0;
}

/* NaN, Inf and both planted in a tile of the last rank. */
static void run_special(const tila_test_opts_t *o, enum kind k, tila_uplo_t uplo, const int grid[2])
{
    static const char *what[] = { "NaN", "Inf", "NaN+Inf" };
    int m = 29, n = k == GE ? 23 : 29, nb = 6, i, j;
    char name[NAME_LEN];
    kind_name(name, k, uplo, TILA_NONUNIT);
    for (int w = 0; w < 3; w++) {
        tila_complex64_t *a = make_matrix(k, uplo, TILA_NONUNIT, m, n, o->seed + 7);
        tila_desc_t *A = scatter(a, m, n, nb, grid);
        if (!planted_entry(A, k, uplo, &i, &j)) {
            tila_desc_destroy(&A);
            free(a);
            return;
        }
        if (tila_comm_rank() == 0) {
            a[(size_t)j * m + i] = w == 1 ? -INFINITY : NAN;
            /* The Inf in another tile: top right (upper), bottom left (lower). */
            if (w == 2) a[uplo == TILA_LOWER ? (size_t)m - 1 : (size_t)(n - 1) * m] = INFINITY;
        }
        tila_desc_scatter(A, 0, a, m);
        double vs[4];
        int rc = four_norms(k, uplo, TILA_NONUNIT, A, NULL, vs, NULL);
        for (int t = 0; t < 4; t++) {
            double v = vs[t];
            int ok = rc == 0 && same_everywhere(v) && (w == 1 ? isinf(v) && v > 0 : isnan(v));
            tila_test_check(ok, name, prec_letter(), 0,
                            "norm=%c %s at (%d, %d) m=%d n=%d nb=%d grid=%dx%d value=%g",
                            (char)norms[t], what[w], i, j, m, n, nb, grid[0], grid[1], v);
        }
        tila_desc_destroy(&A);
        free(a);
    }
}

/*
 * Entries times 2^e (e = +-996 in double, whose squares overflow/underflow; +-120 in
 * single): every norm of the scaled matrix is 2^e times the norm of its entries
 * divided back by 2^e (exact: powers of two), computed by LAPACKE in a safe range.
 */
static void run_scaled(const tila_test_opts_t *o, enum kind k, tila_uplo_t uplo, int e,
                       const int grid[2])
{
    int m = 31, n = k == GE ? 26 : 31, nb = 7;
    char name[NAME_LEN];
    kind_name(name, k, uplo, TILA_NONUNIT);
    tila_complex64_t *a = make_matrix(k, uplo, TILA_NONUNIT, m, n, o->seed + 11);
    tila_complex64_t *back = malloc(sizeof *back * (size_t)m * n);
    for (size_t x = 0; x < (size_t)m * n; x++) {
        a[x] *= ldexp(1, e);
        back[x] = a[x] * ldexp(1, -e);
    }
    tila_desc_t *A = scatter(a, m, n, nb, grid);
    /* General: the synchronous calls; symmetric: the four in one sequence. */
    double vs[4] = { 0, 0, 0, 0 };
    int rc = k == GE ? 0 : four_norms(k, uplo, TILA_NONUNIT, A, NULL, vs, NULL);
    for (int t = 0; t < 4; t++) {
        double v = vs[t], err = 0;
        if (k == GE) rc = tila_norm(k, norms[t], uplo, TILA_NONUNIT, A, &v);
        int ok = rc == 0 && same_everywhere(v) && isfinite(v) && v > 0;
        if (tila_comm_rank() == 0) {
            double ref = ref_norm(k, norms[t], uplo, TILA_NONUNIT, m, n, back);
            err = rel_error(v * ldexp(1, -e), ref);
            ok = ok && err <= o->tol;
        }
        tila_test_check(ok, name, prec_letter(), err,
                        "norm=%c entries*2^%d m=%d n=%d nb=%d grid=%dx%d value=%g", (char)norms[t],
                        e, m, n, nb, grid[0], grid[1], v);
    }
    tila_desc_destroy(&A);
    free(a);
    free(back);
}

/*
 * One entry 2^(emax-1) (2^1023 in double, the largest power of two), zeros elsewhere:
 * every norm is that entry, finite, though a scale of 2^emax for it would not be.
 */
static void run_top_entry(const tila_test_opts_t *o, const int grid[2])
{
    int m = 9, n = 9, nb = 4, emax = PREC == TILA_REAL32 || PREC == TILA_COMPLEX32 ? 128 : 1024;
    tila_complex64_t *a = calloc((size_t)m * n, sizeof *a);
    a[(size_t)(n - 1) * m + m - 2] = ldexp(1, emax - 1);
    tila_desc_t *A = scatter(a, m, n, nb, grid);
    for (int t = 0; t < 4; t++) {
        double v = 0, err = 0;
        int rc = tila_norm(GE, norms[t], TILA_GENERAL, TILA_NONUNIT, A, &v);
        int ok = rc == 0 && same_everywhere(v);
        if (tila_comm_rank() == 0) {
            err = rel_error(v, ref_norm(GE, norms[t], TILA_GENERAL, TILA_NONUNIT, m, n, a));
            ok = ok && err <= o->tol;
        }
        tila_test_check(ok, "lange", prec_letter(), err,
                        "norm=%c one entry 2^%d m=%d n=%d nb=%d grid=%dx%d value=%g",
                        (char)norms[t], emax - 1, m, n, nb, grid[0], grid[1], v);
    }
    tila_desc_destroy(&A);
    free(a);
}

/*
 * Single precision: the Frobenius norm of n x n equal entries c is n |c|.  Each tile
 * sums groups of four columns in 4 L lanes (L = 4 floats per SIMD vector) of nb/L
 * terms, the lanes in order, then the groups pairwise; chains add the tiles of a tile
 * column (mt terms), the last chain the chains (nt); with positive terms the relative
 * error of the sum is below (nb/L + 4 L + log2(nb) + mt + nt + 2) eps, half that for
 * the square root, plus eps for the squares themselves.  A single running float sum would stall at 2^24 ulps
 * of its terms: about 6% of this sum.
 */
static void large_sum(int n, int nb)
{
    tila_desc_t *A;
    double v = 0, c = 0.1, err;
    if (tila_test_desc_create(&A, PREC, n, n, nb, nb, NULL)) {
        tila_test_report("SKIP", "lange", prec_letter(), 0, "norm=F n=%d: no memory", n);
        return;
    }
    tila_zlaset(TILA_GENERAL, c, c, A);
    int rc = tila_zlange(TILA_NORM_FRO, A, &v);
    int nt = (n + nb - 1) / nb;
    double lanes = 16.0 / sizeof(double);
    double bound = (nb / lanes + 4 * lanes + log2(nb) + 2 * nt + 2) / 2 + 1;
    tila_seconds_t exact = n * (tila_seconds_t)c;
    err = (v > exact ? v - exact : exact - v) / (exact > 0 ? exact : 1) / DBL_EPSILON;
    tila_test_check(rc == 0 && same_everywhere(v) && err <= bound, "lange", prec_letter(), err,
                    "norm=F equal entries m=%d n=%d nb=%d value=%.9g exact=%.9g bound=%.0f eps", n,
                    n, nb, v, (double)exact, bound);
    tila_desc_destroy(&A);
}

/* ---- Asynchronous forms and argument errors ------------------------------------------ */

static void run_errors(void)
{
    tila_desc_t *A, *R, *S;
    double v;
    tila_test_desc_create(&A, PREC, 8, 8, 4, 4, NULL);
    tila_test_desc_create(&R, PREC, 8, 6, 4, 4, NULL);
    tila_test_desc_create(&S, PREC, 8, 8, 4, 2, NULL);
    tila_prec_t other = PREC == TILA_REAL64 ? TILA_REAL32 : TILA_REAL64;
    tila_desc_t *W;
    tila_test_desc_create(&W, other, 8, 8, 4, 4, NULL);
    int ok = tila_zlange((tila_norm_t)'X', A, &v) == -1 &&
             tila_zlange(TILA_NORM_MAX, NULL, &v) == -2 &&
             tila_zlange(TILA_NORM_MAX, W, &v) == -2 && tila_zlange(TILA_NORM_MAX, A, NULL) == -3 &&
             tila_zlantr(TILA_NORM_ONE, TILA_GENERAL, TILA_UNIT, A, &v) == -2 &&
             tila_zlantr(TILA_NORM_ONE, TILA_UPPER, (tila_diag_t)0, A, &v) == -3 &&
             tila_zlantr(TILA_NORM_ONE, TILA_UPPER, TILA_UNIT, S, &v) == -4 &&
             tila_zlantr(TILA_NORM_ONE, TILA_UPPER, TILA_UNIT, A, NULL) == -5 &&
             tila_zlansy(TILA_NORM_INF, TILA_GENERAL, A, &v) == -2 &&
             tila_zlansy(TILA_NORM_INF, TILA_LOWER, R, &v) == -3 &&
             tila_zlansy(TILA_NORM_INF, TILA_LOWER, S, &v) == -3 &&
             tila_zlansy(TILA_NORM_INF, TILA_LOWER, A, NULL) == -4 &&
             tila_zlange_async(TILA_NORM_MAX, A, &v, NULL, NULL) == -4;
#if defined(COMPLEX)
    ok = ok && tila_zlanhe((tila_norm_t)0, TILA_LOWER, A, &v) == -1 &&
         tila_zlanhe(TILA_NORM_FRO, TILA_LOWER, R, &v) == -3;
#endif
    tila_test_check(ok, "lange_errors", prec_letter(), 0, "bad arguments return -i");
    tila_desc_destroy(&A);
    tila_desc_destroy(&R);
    tila_desc_destroy(&S);
    tila_desc_destroy(&W);
}

/* Tasks this rank's workers ran since the last call (StarPU's worker profiling, which
 * reading resets). */
static int tasks_run(void)
{
    int count = 0;
    for (int w = 0; w < (int)starpu_worker_get_count(); w++) {
        struct starpu_profiling_worker_info info;
        starpu_profiling_worker_get_info(w, &info);
        count += info.executed_tasks;
    }
    return count;
}

/* Set TILA_NORM_BATCH to v (NULL: unset). */
static void batch_env(const char *v) { tila_test_setenv("TILA_NORM_BATCH", v); }

/*
 * Every norm with a task per tile (TILA_NORM_BATCH=off) and with this rank's tiles in one
 * task (on): the same bits, on every rank; a task for each tile read here, then one.
 */
static void run_batched(enum kind k, tila_uplo_t uplo, tila_diag_t diag, int m, int n, int nb,
                        const int grid[2], unsigned long long seed)
{
    char name[NAME_LEN], *saved = getenv("TILA_NORM_BATCH");
    saved = saved ? strdup(saved) : NULL;
    kind_name(name, k, uplo, diag);
    tila_complex64_t *a = make_matrix(k, uplo, diag, m, n, seed);
    tila_desc_t *A = scatter(a, m, n, nb, grid);
    int own = 0;
    for (int j = 0; j < tila_desc_nt(A); j++)
        for (int i = 0; i < tila_desc_mt(A); i++)
            own += tila_desc_tile_rank(A, i, j) == tila_comm_rank() &&
                   (k == GE || (uplo == TILA_UPPER ? i <= j : i >= j));
    int profiling = starpu_profiling_status_get();
    starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
    for (int t = 0; t < 4; t++) {
        double v[2] = { -1, -2 };
        int tasks[2], rc = 0;
        for (int on = 0; on < 2; on++) {
            batch_env(on ? "on" : "off");
            tasks_run();
            rc |= tila_norm(k, norms[t], uplo, diag, A, &v[on]);
            tasks[on] = tasks_run();
        }
        int ok = rc == 0 && same_everywhere(v[1]) && memcmp(&v[0], &v[1], sizeof v[0]) == 0 &&
                 tasks[0] == own && tasks[1] == (own > 0);
        int all = ok;
        MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
        tila_test_check(all, name, prec_letter(), 0,
                        "batched: norm=%c m=%d n=%d nb=%d grid=%dx%d value=%.17g per-tile=%.17g "
                        "tasks here %d (per tile %d)",
                        (char)norms[t], m, n, nb, grid[0], grid[1], v[1], v[0], tasks[1],
                        tasks[0]);
    }
    starpu_profiling_status_set(profiling);
    batch_env(saved);
    free(saved);
    tila_desc_destroy(&A);
    free(a);
}

/* The sweep's case (m, n, nb): general on every grid, the other kinds on one; each
 * against one of the user mappings too. */
static void run_case(const tila_test_opts_t *o, int m, int n, int nb, int grids[][2], int ngrids,
                     const int square[2])
{
    static const tila_uplo_t uplos[] = { TILA_UPPER, TILA_LOWER };
    static const tila_diag_t diags[] = { TILA_NONUNIT, TILA_UNIT };
    for (int g = 0; g < ngrids; g++)
        run_one(o, GE, TILA_GENERAL, TILA_NONUNIT, m, n, nb, grids[g], g % 2 ? DEALT : ON_LAST);
    if (ngrids % 2) /* both mappings for general matrices */
        run_one(o, GE, TILA_GENERAL, TILA_NONUNIT, m, n, nb, square, DEALT);
    for (int u = 0; u < 2; u++)
        for (int d = 0; d < 2; d++)
            run_one(o, TR, uplos[u], diags[d], m, n, nb, square, (u + d) % 2 ? DEALT : ON_LAST);
    if (m != n) return;
    for (int u = 0; u < 2; u++) {
        run_one(o, SY, uplos[u], TILA_NONUNIT, m, n, nb, square, u ? DEALT : ON_LAST);
#if defined(COMPLEX)
        run_one(o, HE, uplos[u], TILA_NONUNIT, m, n, nb, square, u ? ON_LAST : DEALT);
#endif
    }
}

void tila_test_zlange(const tila_test_opts_t *o)
{
    /* m, n, nb: edge tiles, wide and tall, n < nb, one tile, 1 x 1, empty. */
    static const int sizes[][3] = {
        { 37, 29, 8 }, { 29, 37, 5 }, { 33, 33, 7 }, { 33, 33, 8 }, { 16, 16, 4 }, { 16, 16, 16 },
        { 5, 3, 8 },   { 5, 3, 2 },   { 1, 1, 4 },   { 0, 7, 4 },   { 7, 0, 3 },   { 0, 0, 4 },
    };
    tila_test_seen_t seen = { 0 };
    int grids[8][2], ngrids = tila_test_grids(grids, 8);
    /* General matrices on every grid; the structured kinds, whose partials are reduced
     * the same way, on the squarest grid (P and Q > 1 from 4 ranks on). */
    const int *square = grids[ngrids / 2];
    /* LAPACKE's NaN check would refuse the NaN this test plants where nothing reads. */
    LAPACKE_set_nancheck(0);
    tila_test_sizes_t z;
    for (int s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); s++)
        for (tila_test_sizes(&z, 3, (const tila_test_list_t *[]){ &o->m, &o->n, &o->nb }, sizes[s]);
             tila_test_sizes_next(&z);)
            if (tila_test_once(&seen, 3, z.v))
                run_case(o, z.v[0], z.v[1], z.v[2], grids, ngrids, square);
    tila_test_seen_free(&seen);
    /* e: squares overflow/underflow within a tile; mid: each tile's sum of squares fits,
     * the matrix's does not. */
    int e = PREC == TILA_REAL32 || PREC == TILA_COMPLEX32 ? 120 : 996;
    int mid = PREC == TILA_REAL32 || PREC == TILA_COMPLEX32 ? 62 : 510;
    for (int u = 0; u < 2; u++) {
        enum kind k = u == 0 ? GE : SY;
        run_special(o, k, TILA_LOWER, square);
        run_scaled(o, k, TILA_UPPER, e, square);
        run_scaled(o, k, TILA_UPPER, -e, square);
        run_scaled(o, k, TILA_UPPER, mid, square);
    }
    run_top_entry(o, square);
#if defined(COMPLEX)
    run_special(o, HE, TILA_UPPER, square);
#endif
    run_special(o, TR, TILA_UPPER, square);
    for (int g = 0; g < ngrids; g++)
        run_batched(GE, TILA_GENERAL, TILA_NONUNIT, 37, 29, 8, grids[g], o->seed + 1);
    for (int u = 0; u < 2; u++)
        for (int d = 0; d < 2; d++)
            run_batched(TR, u ? TILA_LOWER : TILA_UPPER, d ? TILA_UNIT : TILA_NONUNIT, 29, 33, 7,
                        square, o->seed + 2);
    run_errors();
    LAPACKE_set_nancheck(1);
    if (PREC == TILA_REAL32) {
        tila_test_list_t ns = tila_test_values(&o->n, 16384), nbs = tila_test_values(&o->nb, 1024);
        for (int i = 0; i < ns.n; i++)
            for (int j = 0; j < nbs.n; j++)
                large_sum(ns.v[i], nbs.v[j]);
    }
}
