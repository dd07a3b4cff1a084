/**
 * @file core_kernel.h
 * @brief Internal: conversions from Tila's enums to CBLAS/LAPACKE, shared by CPU kernels
 * (their argument checks: tila_kernel_args.h, shared with the GPU kernels).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CORE_KERNEL_H
#define CORE_KERNEL_H

#include <cblas.h>
#include <lapacke.h>

#include "tila_kernel_args.h"
#include "tila_types.h"

static inline enum CBLAS_TRANSPOSE tila_cblas_trans(tila_trans_t t)
{
    return (enum CBLAS_TRANSPOSE)t;
}

static inline char tila_lapack_uplo(tila_uplo_t uplo)
{
    return uplo == TILA_UPPER ? 'U' : uplo == TILA_LOWER ? 'L' : 'G';
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

#endif /* CORE_KERNEL_H */
