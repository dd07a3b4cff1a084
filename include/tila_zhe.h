/**
 * @file tila_zhe.h
 * @brief Tila's public routines that exist for Hermitian matrices alone (c and z):
 * in real arithmetic they are the symmetric ones of tila_z.h.
 * @precisions normal z -> c
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_HE_Z_H
#define TILA_HE_Z_H

#include "tila_types.h"

#pragma GCC visibility push(default)

/**
 * Norm of the n x n Hermitian matrix whose triangle `uplo` A holds (LAPACK's ?lanhe):
 * the other triangle is not read, nor the imaginary parts of the diagonal.  A is
 * square, its rows tiled as its columns.  Result and return as tila_zlange.
 */
int tila_zlanhe(tila_norm_t norm, tila_uplo_t uplo, tila_desc_t *A, double *value);
int tila_zlanhe_async(tila_norm_t norm, tila_uplo_t uplo, tila_desc_t *A, double *value,
                      tila_sequence_t *seq, tila_request_t *req);

#pragma GCC visibility pop

#endif /* TILA_HE_Z_H */
