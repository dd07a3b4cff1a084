/**
 * @file core_zc.h
 * @brief CPU tile kernels between double complex and single complex (no StarPU).
 * @precisions mixed zc -> ds
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CORE_ZC_H
#define CORE_ZC_H

#include <stddef.h>

#include "tila_types.h"

int tila_core_zlag2c(tila_uplo_t uplo, int m, int n, const tila_complex64_t *A, int lda,
                     tila_complex32_t *SA, int ldsa);
int tila_core_clag2z(int m, int n, const tila_complex32_t *SA, int ldsa, tila_complex64_t *A,
                     int lda);

int tila_core_cgemm_lp(tila_factor_t factor, tila_trans_t transa, tila_trans_t transb, int m,
                       int n, int k, tila_complex32_t alpha, const tila_complex32_t *A, int lda,
                       const tila_complex32_t *B, int ldb, tila_complex32_t beta,
                       tila_complex32_t *C, int ldc, tila_complex32_t *work, size_t lwork);
int tila_core_cherk_lp(tila_factor_t factor, tila_uplo_t uplo, tila_trans_t trans, int n, int k,
                       float alpha, const tila_complex32_t *A, int lda, float beta,
                       tila_complex32_t *C, int ldc, tila_complex32_t *work, size_t lwork);

#endif /* CORE_ZC_H */
