/**
 * @file core_z.h
 * @brief CPU tile kernels (no StarPU), double complex.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CORE_Z_H
#define CORE_Z_H

#include "tila_types.h"

int tila_core_zgemm(tila_trans_t transa, tila_trans_t transb, int m, int n, int k,
                    tila_complex64_t alpha, const tila_complex64_t *A, int lda,
                    const tila_complex64_t *B, int ldb, tila_complex64_t beta,
                    tila_complex64_t *C, int ldc);
int tila_core_zlacpy(tila_uplo_t uplo, int m, int n, const tila_complex64_t *A, int lda,
                     tila_complex64_t *B, int ldb);
int tila_core_zlaset(tila_uplo_t uplo, int m, int n, tila_complex64_t alpha,
                     tila_complex64_t beta, tila_complex64_t *A, int lda);
int tila_core_zlascal(int m, int n, tila_complex64_t alpha, tila_complex64_t *A, int lda);
int tila_core_zplrnt(int m, int n, tila_complex64_t *A, int lda, int i0, int j0,
                     unsigned long long seed);
int tila_core_zplghe(double bump, int m, int n, tila_complex64_t *A, int lda, int i0, int j0,
                     unsigned long long seed);

int tila_core_zpotrf(tila_uplo_t uplo, int n, tila_complex64_t *A, int lda);
int tila_core_ztrsm(tila_side_t side, tila_uplo_t uplo, tila_trans_t trans, tila_diag_t diag,
                    int m, int n, tila_complex64_t alpha, const tila_complex64_t *A, int lda,
                    tila_complex64_t *B, int ldb);
int tila_core_zherk(tila_uplo_t uplo, tila_trans_t trans, int n, int k, double alpha,
                    const tila_complex64_t *A, int lda, double beta, tila_complex64_t *C,
                    int ldc);
/* ---- QR ---- */
int tila_core_zgeqrt(int m, int n, int ib, tila_complex64_t *A, int lda, tila_complex64_t *T,
                     int ldt, tila_complex64_t *work);
int tila_core_zunmqr(tila_side_t side, tila_trans_t trans, int m, int n, int k, int ib,
                     const tila_complex64_t *V, int ldv, const tila_complex64_t *T, int ldt,
                     tila_complex64_t *C, int ldc, tila_complex64_t *work);
int tila_core_ztpqrt(int m, int n, int l, int ib, tila_complex64_t *A, int lda,
                     tila_complex64_t *B, int ldb, tila_complex64_t *T, int ldt,
                     tila_complex64_t *work);
int tila_core_ztpmqrt(tila_side_t side, tila_trans_t trans, int m, int n, int k, int l, int ib,
                      const tila_complex64_t *V, int ldv, const tila_complex64_t *T, int ldt,
                      tila_complex64_t *A, int lda, tila_complex64_t *B, int ldb,
                      tila_complex64_t *work);

#endif /* CORE_Z_H */
