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

#endif /* CORE_KERNEL_H */
