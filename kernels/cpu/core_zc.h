/**
 * @file core_zc.h
 * @brief CPU tile kernels between double complex and single complex (no StarPU).
 * @precisions mixed zc -> ds
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CORE_ZC_H
#define CORE_ZC_H

#include "tila_types.h"

int tila_core_zlag2c(tila_uplo_t uplo, int m, int n, const tila_complex64_t *A, int lda,
                     tila_complex32_t *SA, int ldsa);
int tila_core_clag2z(int m, int n, const tila_complex32_t *SA, int ldsa, tila_complex64_t *A,
                     int lda);

#endif /* CORE_ZC_H */
