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

/* The panel kernels' tiles: each of at least one row, adding up to m rows (m = 0: none). */
static inline int tila_core_panel_rows(int m, const int *mbs)
{
    int r = 0;
    for (int i = 0; r < m; r += mbs[i++])
        if (mbs[i] < 1) return 0;
    return r == m;
}

/* Argument checks of the triangular kernels TRSM and TRMM (B = alpha op(A)^{-1 or 1} B,
 * or B times it on the right): 0, or -i for the first invalid argument i. */
static inline int tila_check_trxm(tila_side_t side, tila_uplo_t uplo, tila_trans_t trans,
                                  tila_diag_t diag, int m, int n, int lda, int ldb)
{
    if (side != TILA_LEFT && side != TILA_RIGHT) return -1;
    if (uplo != TILA_UPPER && uplo != TILA_LOWER) return -2;
    if (!tila_valid_trans(trans)) return -3;
    if (diag != TILA_UNIT && diag != TILA_NONUNIT) return -4;
    if (m < 0) return -5;
    if (n < 0) return -6;
    if (lda < tila_max1(side == TILA_LEFT ? m : n)) return -9;
    if (ldb < tila_max1(m)) return -11;
    return 0;
}

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
