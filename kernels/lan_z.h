/**
 * @file lan_z.h
 * @brief Internal: the arithmetic of the norm tile kernels that must give the same bits on
 * a CPU and a GPU (kernels/tila_lan_order.h), written once for both: |a| of an entry, the
 * square a Frobenius pass adds, and the overflow-safe (scale, sumsq) pairs.  Included by
 * kernels/cpu/core_zlange.c and kernels/cuda/cuda_zlange.cu (host and device functions
 * there); the including file says COMPLEX or REAL.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef LAN_Z_H
#define LAN_Z_H

#include <float.h>
#include <math.h>

#ifndef TILA_LAN_FN
#ifdef __CUDACC__
#define TILA_LAN_FN static inline __host__ __device__
#else
#define TILA_LAN_FN static inline
#endif
#endif

/* Largest of a and b; a NaN in either wins. */
TILA_LAN_FN double zlan_nanmax(double a, double b) { return isnan(b) || b > a ? b : a; }

/*
 * |re + i im| (im unused in real arithmetic): sqrt(re re + im im) when that sum lies in
 * [DBL_MIN / DBL_EPSILON, DBL_MAX / 4], else the same with both parts scaled by 2^-e (e the
 * exponent of the larger part) and the root scaled back: powers of two, exact but for
 * subnormals, which every IEEE machine rounds alike.
 */
TILA_LAN_FN double zlan_abs_parts(double re, double im)
{
#if defined(COMPLEX)
    double t = re * re + im * im;
    if (t >= DBL_MIN / DBL_EPSILON && t <= DBL_MAX / 4) return sqrt(t);
    if (isinf(re) || isinf(im)) return INFINITY;
    if (isnan(t)) return NAN;
    double big = fabs(re) > fabs(im) ? fabs(re) : fabs(im);
    if (big == 0) return 0;
    int e;
    frexp(big, &e);
    re = ldexp(re, -e);
    im = ldexp(im, -e);
    return ldexp(sqrt(re * re + im * im), e);
#else
    (void)im;
    return fabs(re);
#endif
}

/*
 * The square a Frobenius pass adds for re + i im: |re|^2 (real) or re^2 + im^2, the parts'
 * magnitudes multiplied by scale[0] then scale[1] first when scale is not NULL; *amax
 * becomes the largest |part| seen (a NaN part is skipped: the sum shows it).
 */
TILA_LAN_FN double zlan_square_parts(double re, double im, const double *scale, double *amax)
{
#if defined(COMPLEX)
    re = fabs(re);
    im = fabs(im);
    double big = re > im ? re : im;
    *amax = big > *amax ? big : *amax;
    if (scale) {
        re = re * scale[0] * scale[1];
        im = im * scale[0] * scale[1];
    }
    return re * re + im * im;
#else
    (void)im;
    double x = fabs(re);
    *amax = x > *amax ? x : *amax;
    if (scale) x = x * scale[0] * scale[1];
    return x * x;
#endif
}

/*
 * The (scale, sumsq) pair of a region whose plain sum of squares is ssq and largest |part|
 * amax: 0 with pair set; or 1 with *e set when the plain sum overflowed or lost bits to
 * underflow, so that the sum must be taken again with the parts times 2^-e
 * (zlan_fro_scales), and the pair is then (2^e, that sum).  (1, ssq) says NaN or Inf; a
 * usable sum is split exactly as (2^(k/2), ssq 2^-2(k/2)), ssq = f 2^k, so that sumsq stays
 * below 2 and adding such pairs cannot overflow.
 */
TILA_LAN_FN int zlan_fro_pair(double ssq, double amax, double pair[2], int *e)
{
    pair[0] = 1;
    pair[1] = isnan(ssq) ? NAN : ssq;
    if (amax == 0 && !isnan(ssq)) {
        pair[0] = pair[1] = 0;
        return 0;
    }
    if (isnan(ssq) || isinf(amax)) return 0;
    if (isfinite(ssq) && amax >= sqrt(DBL_MIN) / DBL_EPSILON) {
        int k;
        frexp(ssq, &k);
        pair[0] = ldexp(1.0, k / 2);
        pair[1] = ldexp(ssq, -2 * (k / 2));
        return 0;
    }
    /* amax = f 2^(e+1): every scaled part < 2, and 2^e finite even for amax >= 2^1023. */
    frexp(amax, e);
    *e -= 1;
    return 1;
}

/* 2^-e as two factors, each representable whatever e is. */
TILA_LAN_FN void zlan_fro_scales(int e, double scale[2])
{
    scale[0] = ldexp(1.0, -e / 2);
    scale[1] = ldexp(1.0, -e - (-e / 2));
}

/* acc = acc (+) (scale, sumsq), without overflow: the larger scale is kept. */
TILA_LAN_FN void zlan_fro_add(double *acc, double scale, double sumsq)
{
    if (isnan(sumsq) || isinf(sumsq) || isnan(acc[1]) || isinf(acc[1])) {
        acc[0] = 1;
        acc[1] += sumsq; /* NaN wins, else Inf */
        return;
    }
    if (sumsq == 0) return;
    if (acc[1] == 0) {
        acc[0] = scale;
        acc[1] = sumsq;
        return;
    }
    if (scale > acc[0]) {
        double r = acc[0] / scale;
        acc[1] = sumsq + acc[1] * r * r;
        acc[0] = scale;
    }
    else {
        double r = scale / acc[0];
        acc[1] += sumsq * r * r;
    }
}

/* acc = acc (+) t^2 for one value t >= 0 (or NaN, Inf), scaled exactly: t = 2f 2^(e-1)
 * with 2f < 2, and 2^(e-1) finite for every finite t. */
TILA_LAN_FN void zlan_fro_add_value(double *acc, double t)
{
    int e;
    if (!isfinite(t))
        zlan_fro_add(acc, 1, t * t);
    else if (t > 0) {
        double f = frexp(t, &e);
        zlan_fro_add(acc, ldexp(1.0, e - 1), 4 * f * f);
    }
}

#endif /* LAN_Z_H */
