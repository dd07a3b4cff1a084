/**
 * @file core_zlange.c
 * @brief Norm tile kernels: max, one, infinity and Frobenius norms of general,
 * trapezoidal and symmetric/Hermitian tiles, folded into a running partial result.
 * @precisions normal z -> c d s
 *
 * Not LAPACK's ?lange per tile (far slower a tile: bench/LOG.md): one pass over the tile
 * with loops the compiler turns into SIMD code at -O2.  Sums follow the order of
 * tila_lan_order.h (32 interleaved lanes, then a tree), which a GPU kernel follows too,
 * so a partial's bits do not depend on the worker: 32 independent chains of additions
 * are also what a CPU's SIMD units need.  Max reduces contiguous columns in vectors of
 * the real type (GCC/Clang vector extension, lowered to the target's SIMD, SSE2 at
 * least): a maximum is exact in any order.
 *
 * NaN policy: a NaN anywhere makes the norm NaN.  Maxima are taken with the SIMD max
 * (which may drop a NaN), so the max kernel also sums the entries it compares: a sum of
 * non-negative numbers is NaN only when one of them is NaN (Inf + Inf is Inf), and
 * the kernel returns NaN then.  A NaN partial is the default quiet NaN (NAN), whatever
 * NaN the tile held.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <float.h>
#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core_kernel.h"
#include "core_z.h"
#include "lan_z.h"
#include "tila_lan_order.h"

/* ---- Elements ----------------------------------------------------------------------- */

/* |a|, as tila_lan_order.h defines it (lan_z.h). */
static inline double zlan_abs(tila_complex64_t a)
{
#if defined(COMPLEX)
    return zlan_abs_parts(creal(a), cimag(a));
#else
    return fabs(a);
#endif
}

/* ---- SIMD reductions over contiguous reals ------------------------------------------ */

typedef double core_zvec_t __attribute__((vector_size(16)));
#define ZVEC_LEN ((int)(sizeof(core_zvec_t) / sizeof(double)))

static inline core_zvec_t zvec_load(const double *p)
{
    core_zvec_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void zvec_store(double *p, core_zvec_t v) { memcpy(p, &v, sizeof v); }

/* |x|: clear the sign bits. */
static inline core_zvec_t zvec_abs(core_zvec_t x)
{
    __typeof__(x < x) sign = (__typeof__(x < x))(-(core_zvec_t){ 0 });
    return (core_zvec_t)((__typeof__(x < x))x & ~sign);
}

/* Lane-wise max (for non-NaN lanes; NaN is caught by the sums).  x86's max
 * instruction is one operation where the portable select takes four. */
static inline core_zvec_t zvec_max(core_zvec_t a, core_zvec_t b)
{
#if defined(__SSE2__)
    return _mm_max_pd(a, b);
#else
    __typeof__(a < a) k = a > b;
    return (core_zvec_t)((k & (__typeof__(k))a) | (~k & (__typeof__(k))b));
#endif
}

/*
 * Max of |x| over the columns of a tile, and the sum of the same |x| (only to see a NaN:
 * the SIMD max may drop one): each column in 4 x ZVEC_LEN lanes (so that the operations
 * do not wait on one another), the columns' sums pairwise (a binary counter).
 */
typedef struct zlan_acc_s {
    core_zvec_t m[4], s[4];
    double mt, st;    /**< segment tails */
    double stack[64]; /**< pairwise sums of 1, 2, 4 ... columns */
    int top;
    unsigned long ncols;
} zlan_acc_t;

static void zlan_acc_init(zlan_acc_t *c) { memset(c, 0, sizeof *c); }

/*
 * Four lane vectors, vector k at x + k ldx + i for i = 0, step, ... (iters of them):
 * four independent chains of additions.  With ldx = ZVEC_LEN, step = 4 ZVEC_LEN they
 * walk one column; with ldx = lda, step = ZVEC_LEN four columns at once, four streams
 * from memory in flight (a column of a tile is one page: one stream alone leaves the
 * memory idle while the prefetcher starts on the next page).
 */
static inline void zlan_acc_lanes(zlan_acc_t *c, const double *x, size_t ldx, int step, int iters)
{
    /* Local copies: the compiler keeps them in registers (x may alias *c). */
    const double *x0 = x, *x1 = x + ldx, *x2 = x + 2 * ldx, *x3 = x + 3 * ldx;
    core_zvec_t m0 = c->m[0], m1 = c->m[1], m2 = c->m[2], m3 = c->m[3];
    core_zvec_t s0 = c->s[0], s1 = c->s[1], s2 = c->s[2], s3 = c->s[3];
    for (int it = 0, i = 0; it < iters; it++, i += step) {
        core_zvec_t u0 = zvec_abs(zvec_load(x0 + i)), u1 = zvec_abs(zvec_load(x1 + i)),
                    u2 = zvec_abs(zvec_load(x2 + i)), u3 = zvec_abs(zvec_load(x3 + i));
        m0 = zvec_max(m0, u0);
        m1 = zvec_max(m1, u1);
        m2 = zvec_max(m2, u2);
        m3 = zvec_max(m3, u3);
        s0 += u0;
        s1 += u1;
        s2 += u2;
        s3 += u3;
    }
    c->m[0] = m0;
    c->m[1] = m1;
    c->m[2] = m2;
    c->m[3] = m3;
    c->s[0] = s0;
    c->s[1] = s1;
    c->s[2] = s2;
    c->s[3] = s3;
}

/* The len reals at x, one at a time. */
static inline void zlan_acc_tail(zlan_acc_t *c, const double *x, int len)
{
    for (int i = 0; i < len; i++) {
        double t = fabs(x[i]);
        c->mt = t > c->mt ? t : c->mt;
        c->st += t;
    }
}

/* One column of len reals. */
static inline void zlan_acc_seg(zlan_acc_t *c, const double *x, int len)
{
    int iters = len / (4 * ZVEC_LEN), done = iters * 4 * ZVEC_LEN;
    zlan_acc_lanes(c, x, ZVEC_LEN, 4 * ZVEC_LEN, iters);
    zlan_acc_tail(c, x + done, len - done);
}

/* Four columns of len reals, ldx apart. */
static inline void zlan_acc_seg4(zlan_acc_t *c, const double *x, size_t ldx, int len)
{
    int iters = len / ZVEC_LEN, done = iters * ZVEC_LEN;
    zlan_acc_lanes(c, x, ldx, ZVEC_LEN, iters);
    for (int k = 0; k < 4; k++)
        zlan_acc_tail(c, x + k * ldx + done, len - done);
}

/* The pairwise sum of values taken in order (a binary counter: the sum of 2^k values is
 * added to one of as many; tila_lan_order.h's tree): the count-th value s joins it. */
static inline void zlan_pairwise_push(double *stack, int *top, unsigned long count, double s)
{
    for (unsigned long k = count; !(k & 1); k >>= 1)
        s = stack[--*top] + s;
    stack[(*top)++] = s;
}

/* The pairwise sum of the values pushed so far. */
static inline double zlan_pairwise_sum(const double *stack, int top)
{
    double s = 0;
    for (int k = top - 1; k >= 0; k--)
        s = s + stack[k];
    return s;
}

/* End of a column (or group of four): its lanes' sum joins the pairwise sum. */
static void zlan_acc_column(zlan_acc_t *c)
{
    double s = c->st;
    for (int k = 0; k < 4; k++)
        for (int l = 0; l < ZVEC_LEN; l++)
            s += c->s[k][l];
    memset(c->s, 0, sizeof c->s);
    c->st = 0;
    zlan_pairwise_push(c->stack, &c->top, ++c->ncols, s);
}

/* *max and the sum of the columns ended so far. */
static double zlan_acc_result(const zlan_acc_t *c, double *max)
{
    double m = c->mt;
    for (int k = 0; k < 4; k++)
        for (int l = 0; l < ZVEC_LEN; l++)
            m = c->m[k][l] > m ? c->m[k][l] : m;
    *max = m;
    return zlan_pairwise_sum(c->stack, c->top);
}

/* ---- Regions of a tile --------------------------------------------------------------- */

/*
 * Rows [*lo, *hi) of column j in the trapezoid `uplo` (TILA_GENERAL: all m rows);
 * strict: without the diagonal.
 */
static inline void zlan_rows(tila_uplo_t uplo, int strict, int m, int j, int *lo, int *hi)
{
    int d = j + (strict ? 0 : 1); /* end of the upper part, start of the lower part */
    *lo = 0;
    *hi = m;
    if (uplo == TILA_UPPER)
        *hi = d < m ? d : m;
    else if (uplo == TILA_LOWER)
        *lo = j + (strict ? 1 : 0) < m ? j + (strict ? 1 : 0) : m;
}

/* Max over the region; NaN if an entry is NaN. */
static double zlan_region_max(tila_uplo_t uplo, int strict, int m, int n, const tila_complex64_t *A,
                              int lda)
{
    zlan_acc_t c;
    double max;
    zlan_acc_init(&c);
    int j = 0;
#if !defined(COMPLEX)
    if (uplo == TILA_GENERAL)
        for (; j + 4 <= n; j += 4) {
            zlan_acc_seg4(&c, A + (size_t)j * lda, (size_t)lda, m);
            zlan_acc_column(&c);
        }
#endif
    for (; j < n; j++) {
        int lo, hi;
        zlan_rows(uplo, strict, m, j, &lo, &hi);
        const tila_complex64_t *a = A + (size_t)j * lda;
#if defined(COMPLEX)
        for (int i = lo; i < hi; i++) {
            double t = zlan_abs(a[i]);
            c.mt = t > c.mt ? t : c.mt;
            c.st += t;
        }
#else
        zlan_acc_seg(&c, a + lo, hi - lo);
#endif
        zlan_acc_column(&c);
    }
    double sum = zlan_acc_result(&c, &max);
    return isnan(sum) ? NAN : max;
}

/* ---- Sums in lanes (tila_lan_order.h) ------------------------------------------------ */

#define ZLAN_L TILA_LAN_LANES
#define ZLAN_STRIP 1024 /* rows of a strip of the row sums: 6 arrays of them, 48 KB */

/*
 * Ask for the lanes' worth of `next` at row i (a later column's, while this one is summed):
 * a tile inside a larger array (ld far above its rows: a ScaLAPACK local array wrapped in
 * place) is a few kilobytes a column, far apart, and one column at a time is one short
 * stream the hardware prefetcher restarts at every column; with a column some 8 KB ahead
 * in flight the column kernels read such tiles as fast as contiguous ones.  Bits are
 * unchanged.
 */
static inline void zlan_prefetch_lanes(const tila_complex64_t *next, int i)
{
    if (!next) return;
    for (size_t b = 0; b < ZLAN_L * sizeof *next; b += 64)
        __builtin_prefetch((const char *)(next + i) + b);
}

/* The column zlan_prefetch_lanes asks for while column j of the region is summed: some
 * 8 KB of rows ahead, NULL past the last. */
static inline const tila_complex64_t *zlan_ahead(const tila_complex64_t *A, int lda, int m, int n,
                                                 int j)
{
    int d = (int)((8192 + (size_t)m * sizeof *A - 1) / ((size_t)(m > 0 ? m : 1) * sizeof *A));
    return j + d < n ? A + (size_t)(j + d) * lda : NULL;
}

/* The lanes' tree: lane l += lane l + h for h = 16 ... 1; the sum. */
static inline double zlan_tree(double *s)
{
    for (int h = ZLAN_L / 2; h > 0; h /= 2)
        for (int l = 0; l < h; l++)
            s[l] = s[l] + s[l + h];
    return s[0];
}

/* Sum of |a_i|, i in [lo, hi), in lanes; `next` (or NULL) prefetched meanwhile. */
static inline double zlan_colsum(const tila_complex64_t *a, int lo, int hi,
                                 const tila_complex64_t *next)
{
    double s[ZLAN_L] = { 0 };
    int i = lo;
    for (; i < hi && i % ZLAN_L; i++)
        s[i % ZLAN_L] += zlan_abs(a[i]);
    for (; i + ZLAN_L <= hi; i += ZLAN_L) {
        zlan_prefetch_lanes(next, i);
        for (int l = 0; l < ZLAN_L; l++)
            s[l] += zlan_abs(a[i + l]);
    }
    for (; i < hi; i++)
        s[i % ZLAN_L] += zlan_abs(a[i]);
    return zlan_tree(s);
}

/* The square a Frobenius pass adds for a (lan_z.h). */
static inline double zlan_square(tila_complex64_t a, const double *scale, double *amax)
{
#if defined(COMPLEX)
    return zlan_square_parts(creal(a), cimag(a), scale, amax);
#else
    return zlan_square_parts(a, 0, scale, amax);
#endif
}

/* Sum of squares of a_i, i in [lo, hi), in lanes; *amax as zlan_square, kept per lane
 * (a maximum is exact in any order) so that the lanes' loop is SIMD code.  Always inlined
 * (here and zlan_region_squares): as a call, its lanes live in memory, not in registers,
 * and the Frobenius norm reads 20 % slower. */
static inline __attribute__((always_inline)) double zlan_colsum_squares(
    const tila_complex64_t *a, int lo, int hi, const double *scale, double *amax,
    const tila_complex64_t *next)
{
    double s[ZLAN_L] = { 0 }, big[ZLAN_L] = { 0 };
    int i = lo;
    for (; i < hi && i % ZLAN_L; i++)
        s[i % ZLAN_L] += zlan_square(a[i], scale, &big[0]);
#if defined(COMPLEX)
    for (; i + ZLAN_L <= hi; i += ZLAN_L) {
        zlan_prefetch_lanes(next, i);
        for (int l = 0; l < ZLAN_L; l++)
            s[l] += zlan_square(a[i + l], scale, &big[l]);
    }
#else
    /* The lanes as vectors (lane l in vector l / ZVEC_LEN): the same operations as
     * zlan_square's, lane by lane; the SIMD max is x > big ? x : big. */
    core_zvec_t vs[ZLAN_L / ZVEC_LEN], vb[ZLAN_L / ZVEC_LEN];
    for (int k = 0; k < ZLAN_L / ZVEC_LEN; k++) {
        vs[k] = zvec_load(s + k * ZVEC_LEN);
        vb[k] = zvec_load(big + k * ZVEC_LEN);
    }
    /* Without scale, times 1 and 1: the same bits (a product with 1 is exact), and no
     * branch in the loop. */
    double s0 = scale ? scale[0] : 1, s1 = scale ? scale[1] : 1;
    for (; i + ZLAN_L <= hi; i += ZLAN_L) {
        zlan_prefetch_lanes(next, i);
        for (int k = 0; k < ZLAN_L / ZVEC_LEN; k++) {
            core_zvec_t u = zvec_abs(zvec_load(a + i + k * ZVEC_LEN));
            vb[k] = zvec_max(u, vb[k]);
            u = u * s0 * s1;
            vs[k] += u * u;
        }
    }
    for (int k = 0; k < ZLAN_L / ZVEC_LEN; k++) {
        zvec_store(s + k * ZVEC_LEN, vs[k]);
        zvec_store(big + k * ZVEC_LEN, vb[k]);
    }
#endif
    for (; i < hi; i++)
        s[i % ZLAN_L] += zlan_square(a[i], scale, &big[0]);
    for (int l = 0; l < ZLAN_L; l++)
        *amax = big[l] > *amax ? big[l] : *amax;
    return zlan_tree(s);
}

/* work[j] += sum down column j of the region. */
static void zlan_colsums(tila_uplo_t uplo, int strict, int m, int n, const tila_complex64_t *A,
                         int lda, double *work)
{
    for (int j = 0; j < n; j++) {
        int lo, hi;
        zlan_rows(uplo, strict, m, j, &lo, &hi);
        work[j] += zlan_colsum(A + (size_t)j * lda, lo, hi, zlan_ahead(A, lda, m, n, j));
    }
}

/* s[q] += |a_q|, q in [lo, hi): in blocks of 8, which GCC vectorizes at -O2 (a loop of
 * unknown count it does not), restrict: without a check for overlap. */
static inline void zlan_addabs(double *restrict s, const tila_complex64_t *restrict a, int lo,
                               int hi)
{
    int q = lo;
    for (; q + 8 <= hi; q += 8)
        for (int k = 0; k < 8; k++)
            s[q + k] += zlan_abs(a[q + k]);
    for (; q < hi; q++)
        s[q] += zlan_abs(a[q]);
}

/* s[q] = (s[q] if add) + |a_q| + |b_q| + |c_q| + |d_q|, added in that order: four columns
 * in one pass over s; q in [0, r), every entry in the region.  Without add, s starts at
 * |a_q| (= +0 + |a_q|, the same bits). */
static inline void zlan_abs4(double *restrict s, int add, const tila_complex64_t *restrict a,
                             size_t lda, int r)
{
    const tila_complex64_t *restrict b = a + lda, *restrict c = b + lda, *restrict d = c + lda;
    int q = 0;
    if (add)
        for (; q + 8 <= r; q += 8)
            for (int k = 0; k < 8; k++)
                s[q + k] = s[q + k] + zlan_abs(a[q + k]) + zlan_abs(b[q + k]) + zlan_abs(c[q + k]) +
                           zlan_abs(d[q + k]);
    else
        for (; q + 8 <= r; q += 8)
            for (int k = 0; k < 8; k++)
                s[q + k] = zlan_abs(a[q + k]) + zlan_abs(b[q + k]) + zlan_abs(c[q + k]) +
                           zlan_abs(d[q + k]);
    for (; q < r; q++)
        s[q] = (add ? s[q] + zlan_abs(a[q]) : zlan_abs(a[q])) + zlan_abs(b[q]) + zlan_abs(c[q]) +
               zlan_abs(d[q]);
}

/* s[q] += t[q], q in [0, r), in blocks of 8 as zlan_addabs. */
static inline void zlan_addto(double *restrict s, const double *restrict t, int r)
{
    int q = 0;
    for (; q + 8 <= r; q += 8)
        for (int k = 0; k < 8; k++)
            s[q + k] = s[q + k] + t[q + k];
    for (; q < r; q++)
        s[q] = s[q] + t[q];
}

/*
 * work[i] += sum along row i of the region, in tila_lan_order.h's row lanes (32 blocks of
 * ceil(n / 32) consecutive columns, each added in column order, the blocks pairwise), in
 * strips of rows so that the partial sums stay in the L1 cache: the lanes' sums in a
 * binary counter (the sum of 2^k lanes is added to one of as many), which is the pairwise
 * tree.  Whole columns of a strip are read in order, four at a time where the lane and
 * the region allow.
 */
static void zlan_rowsums(tila_uplo_t uplo, int strict, int m, int n, const tila_complex64_t *A,
                         int lda, double *work)
{
    double stack[6][ZLAN_STRIP];
    int per = (n + ZLAN_L - 1) / ZLAN_L; /* columns per lane */
    for (int i0 = 0; i0 < m; i0 += ZLAN_STRIP) {
        int r = m - i0 < ZLAN_STRIP ? m - i0 : ZLAN_STRIP, top = 0;
        for (int l = 0; l < ZLAN_L; l++) {
            double *cur = stack[top]; /* the lane's sum, in place on the counter's stack */
            int j = l * per, end = j + per < n ? j + per : n, started = 0;
            for (; uplo == TILA_GENERAL && j + 4 <= end; j += 4, started = 1)
                zlan_abs4(cur, started, A + (size_t)j * lda + i0, (size_t)lda, r);
            if (!started) memset(cur, 0, sizeof(double) * (size_t)r);
            for (; j < end; j++) {
                int lo, hi;
                zlan_rows(uplo, strict, m, j, &lo, &hi);
                lo = lo > i0 ? lo - i0 : 0;
                hi = hi < i0 + r ? hi - i0 : r;
                zlan_addabs(cur, A + (size_t)j * lda + i0, lo, hi);
            }
            for (unsigned k = (unsigned)l + 1; !(k & 1); k >>= 1, top--)
                zlan_addto(stack[top - 1], stack[top], r);
            top++;
        }
        zlan_addto(work + i0, stack[0], r); /* 32 lanes: one sum left */
    }
}

/* Sum of squares over the region: the columns' sums in lanes, added pairwise; *amax the
 * largest |part| read. */
static inline __attribute__((always_inline)) double zlan_region_squares(
    tila_uplo_t uplo, int strict, int m, int n, const tila_complex64_t *A, int lda,
    const double *scale, double *amax)
{
    double stack[64];
    int top = 0;
    *amax = 0;
    for (int j = 0; j < n; j++) {
        int lo, hi;
        zlan_rows(uplo, strict, m, j, &lo, &hi);
        zlan_pairwise_push(stack, &top, (unsigned long)j + 1,
                           zlan_colsum_squares(A + (size_t)j * lda, lo, hi, scale, amax,
                                               zlan_ahead(A, lda, m, n, j)));
    }
    return zlan_pairwise_sum(stack, top);
}

/*
 * Sum of |a|^2 over the region as a (scale, sumsq) pair.  One pass in plain
 * arithmetic, which is exact enough unless the largest entry is so large that the
 * sum overflowed or so small that its square lost bits to underflow; then a second
 * pass over the (cached) tile with the entries scaled by a power of two, exactly.
 */
static void zlan_region_fro(tila_uplo_t uplo, int strict, int m, int n, const tila_complex64_t *A,
                            int lda, double pair[2])
{
    double amax, scale[2];
    int e;
    double ssq = zlan_region_squares(uplo, strict, m, n, A, lda, NULL, &amax);
    if (!zlan_fro_pair(ssq, amax, pair, &e)) return;
    zlan_fro_scales(e, scale);
    pair[0] = ldexp(1, e);
    pair[1] = zlan_region_squares(uplo, strict, m, n, A, lda, scale, &amax);
}

/* ---- Kernels ------------------------------------------------------------------------ */

/* The trapezoid `uplo` (TILA_GENERAL: all) of the m x n tile; unit: ones on the diagonal. */
static void zlan_trapezoid(tila_norm_t norm, tila_uplo_t uplo, int unit, int m, int n,
                           const tila_complex64_t *A, int lda, double *work)
{
    int ndiag = unit ? (m < n ? m : n) : 0; /* ones not stored */
    double pair[2];
    switch (norm) {
    case TILA_NORM_MAX:
        work[0] = zlan_nanmax(work[0], zlan_region_max(uplo, unit, m, n, A, lda));
        if (ndiag > 0) work[0] = zlan_nanmax(work[0], 1);
        break;
    case TILA_NORM_ONE:
        /* Unit diagonal: the ones are not added here but once per column by the
         * reduction (drivers/lan_reduce.c). */
        zlan_colsums(uplo, unit, m, n, A, lda, work);
        break;
    case TILA_NORM_INF: zlan_rowsums(uplo, unit, m, n, A, lda, work); break;
    default:
        zlan_region_fro(uplo, unit, m, n, A, lda, pair);
        zlan_fro_add(work, pair[0], pair[1]);
        if (ndiag > 0) zlan_fro_add(work, 1, ndiag);
        break;
    }
}

/**
 * Fold the m x n tile A into the norm's partial result `work` (layout in core_z.h).
 * @param lda >= max(1, m).
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_zlange(tila_norm_t norm, int m, int n, const tila_complex64_t *A, int lda,
                     double *work)
{
    int rc = tila_args_lange(norm, m, n, lda, 0);
    if (rc || m == 0 || n == 0) return rc;
    zlan_trapezoid(norm, TILA_GENERAL, 0, m, n, A, lda, work);
    return 0;
}

/**
 * Fold the trapezoid `uplo` of the m x n tile A (entries i <= j, or i >= j) into
 * `work`; diag = TILA_UNIT: the diagonal is ones, not read.  For the one and infinity
 * norms the ones are not added here but once per row or column by the reduction
 * (drivers/lan_reduce.c).
 * @param lda >= max(1, m).
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_zlantr(tila_norm_t norm, tila_uplo_t uplo, tila_diag_t diag, int m, int n,
                     const tila_complex64_t *A, int lda, double *work)
{
    int rc = tila_args_lantr(norm, uplo, diag, m, n, lda, 0);
    if (rc || m == 0 || n == 0) return rc;
    zlan_trapezoid(norm, uplo, diag == TILA_UNIT, m, n, A, lda, work);
    return 0;
}

/* |a_jj| of a symmetric (herm = 0) or Hermitian (herm = 1: real part only) diagonal. */
static inline double zlan_diag(const tila_complex64_t *A, int lda, int j, int herm)
{
#if defined(COMPLEX)
    if (herm) return fabs(creal(A[(size_t)j * lda + j]));
#endif
    (void)herm;
    return zlan_abs(A[(size_t)j * lda + j]);
}

/*
 * Diagonal tile of a symmetric or Hermitian matrix, triangle `uplo` stored.  The one
 * (= infinity) norm: work[j] gets the sum of column j of the full tile.
 */
static int zlan_symmetric(tila_norm_t norm, tila_uplo_t uplo, int herm, int n,
                          const tila_complex64_t *A, int lda, double *work)
{
    double pair[2], dmax = 0, dsum = 0;
    int rc = tila_args_lansy(norm, uplo, n, lda, 0);
    if (rc) return rc;
    switch (norm) {
    case TILA_NORM_MAX:
        for (int j = 0; j < n; j++) {
            double t = zlan_diag(A, lda, j, herm);
            dmax = t > dmax ? t : dmax;
            dsum += t;
        }
        work[0] = zlan_nanmax(work[0], isnan(dsum) ? NAN : dmax);
        work[0] = zlan_nanmax(work[0], zlan_region_max(uplo, 1, n, n, A, lda));
        break;
    case TILA_NORM_ONE:
    case TILA_NORM_INF:
        /* Column j of the full tile in lanes: rows of the other triangle from row j. */
        for (int j = 0; j < n; j++) {
            double s[ZLAN_L] = { 0 };
            for (int i = 0; i < n; i++) {
                int stored = uplo == TILA_LOWER ? i > j : i < j;
                s[i % ZLAN_L] += i == j   ? zlan_diag(A, lda, j, herm)
                                 : stored ? zlan_abs(A[(size_t)j * lda + i])
                                          : zlan_abs(A[(size_t)i * lda + j]);
            }
            work[j] += zlan_tree(s);
        }
        break;
    default:
        /* Off-diagonal entries count twice, the diagonal once. */
        zlan_region_fro(uplo, 1, n, n, A, lda, pair);
        zlan_fro_add(work, pair[0], 2 * pair[1]);
        for (int j = 0; j < n; j++)
            zlan_fro_add_value(work, zlan_diag(A, lda, j, herm));
        break;
    }
    return 0;
}

/**
 * Fold the n x n diagonal tile of a symmetric matrix, of which A holds the triangle
 * `uplo`, into `work` (the other triangle is not read).  One/infinity: work[j] gets the
 * sum of column j of the full symmetric tile.
 * @param lda >= max(1, n).
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_zlansy(tila_norm_t norm, tila_uplo_t uplo, int n, const tila_complex64_t *A, int lda,
                     double *work)
{
    return zlan_symmetric(norm, uplo, 0, n, A, lda, work);
}

#if defined(COMPLEX)
/**
 * As tila_core_zlansy for a Hermitian tile: the diagonal's imaginary parts are not read.
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_zlanhe(tila_norm_t norm, tila_uplo_t uplo, int n, const tila_complex64_t *A, int lda,
                     double *work)
{
    return zlan_symmetric(norm, uplo, 1, n, A, lda, work);
}
#endif

/**
 * Fold an off-diagonal m x n tile of a symmetric or Hermitian matrix, read once, into
 * the partials of the two block columns it belongs to: `colwork` for its own block
 * column and `rowwork` for the block column of its transpose.  One/infinity:
 * colwork[j] += sum down column j, rowwork[i] += sum along row i (in lanes, a pass each);
 * max: both get the tile's max; Frobenius: both get the tile's pair, so the tile
 * counts twice in the total.
 * @param lda >= max(1, m).
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_zlansy_offdiag(tila_norm_t norm, int m, int n, const tila_complex64_t *A, int lda,
                             double *colwork, double *rowwork)
{
    int rc = tila_args_lange(norm, m, n, lda, 0);
    if (rc || m == 0 || n == 0) return rc;
    double pair[2], max;
    switch (norm) {
    case TILA_NORM_MAX:
        max = zlan_region_max(TILA_GENERAL, 0, m, n, A, lda);
        colwork[0] = zlan_nanmax(colwork[0], max);
        rowwork[0] = zlan_nanmax(rowwork[0], max);
        break;
    case TILA_NORM_ONE:
    case TILA_NORM_INF:
        zlan_colsums(TILA_GENERAL, 0, m, n, A, lda, colwork);
        zlan_rowsums(TILA_GENERAL, 0, m, n, A, lda, rowwork);
        break;
    default:
        zlan_region_fro(TILA_GENERAL, 0, m, n, A, lda, pair);
        zlan_fro_add(colwork, pair[0], pair[1]);
        zlan_fro_add(rowwork, pair[0], pair[1]);
        break;
    }
    return 0;
}

/**
 * The partials of `count` tiles, tile t's at work + tiles[t].off: a whole tile as
 * tila_core_zlange, a trapezoid as tila_core_zlantr, in order (what one task on a CPU
 * computes for a batch of tiles; tila_cuda_zlange_tiles on a GPU gives the same bits).
 * @return 0, -1 (norm), -2 (count), or -(100 + t) for tile t's bad field.
 */
int tila_core_zlange_tiles(tila_norm_t norm, int count, const tila_lan_tile_t *tiles,
                           double *work)
{
    if (!tila_valid_norm(norm)) return -1;
    if (count < 0) return -2;
    for (int t = 0; t < count; t++) {
        const tila_lan_tile_t *x = &tiles[t];
        int info = x->trapezoid ? tila_core_zlantr(norm, x->uplo, x->diag, x->m, x->n, x->A,
                                                   x->lda, work + x->off)
                                : tila_core_zlange(norm, x->m, x->n, x->A, x->lda, work + x->off);
        if (info) return -(100 + t);
    }
    return 0;
}
