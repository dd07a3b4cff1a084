/**
 * @file core_kernel.h
 * @brief Internal: conversions from Tila's enums to CBLAS/LAPACKE, shared by CPU kernels.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CORE_KERNEL_H
#define CORE_KERNEL_H

#include <cblas.h>
#include <lapacke.h>

#include "tila_types.h"

static inline enum CBLAS_TRANSPOSE tila_cblas_trans(tila_trans_t t)
{
    return (enum CBLAS_TRANSPOSE)t;
}

static inline char tila_lapack_uplo(tila_uplo_t uplo)
{
    return uplo == TILA_UPPER ? 'U' : uplo == TILA_LOWER ? 'L' : 'G';
}

static inline int tila_valid_trans(tila_trans_t t)
{
    return t == TILA_NOTRANS || t == TILA_TRANS || t == TILA_CONJTRANS;
}

static inline int tila_valid_uplo(tila_uplo_t u)
{
    return u == TILA_UPPER || u == TILA_LOWER || u == TILA_GENERAL;
}

static inline int tila_max1(int x) { return x > 1 ? x : 1; }

/* CBLAS takes complex scalars by address, real ones by value; the including
 * z-source defines COMPLEX or REAL first. */
#if defined(COMPLEX)
#define CBLAS_SADDR(x) &(x)
#else
#define CBLAS_SADDR(x) (x)
#endif

/* ---- QR (tiled QR kernels) ---- */

static inline char tila_lapack_side(tila_side_t side) { return side == TILA_LEFT ? 'L' : 'R'; }

/* LAPACK's letter for op(Q) = Q or Q^H.  In real arithmetic Q^H is Q^T, and ?ormqr,
 * ?gemqrt and ?tpmqrt accept only 'T' there; in complex arithmetic only 'C'. */
static inline char tila_lapack_trans_qr(tila_trans_t trans)
{
#if defined(COMPLEX)
    return trans == TILA_NOTRANS ? 'N' : 'C';
#else
    return trans == TILA_NOTRANS ? 'N' : 'T';
#endif
}

/* op(Q) is Q or Q^H: TILA_NOTRANS or TILA_CONJTRANS, and TILA_TRANS in real arithmetic. */
static inline int tila_valid_trans_qr(tila_trans_t trans)
{
#if defined(COMPLEX)
    return trans == TILA_NOTRANS || trans == TILA_CONJTRANS;
#else
    return tila_valid_trans(trans);
#endif
}

static inline int tila_min(int x, int y) { return x < y ? x : y; }

#endif /* CORE_KERNEL_H */
