/**
 * @file core_z.h
 * @brief CPU tile kernels (no StarPU), double complex.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CORE_Z_H
#define CORE_Z_H

#include "tila_lan_tile.h"
#include "tila_types.h"

int tila_core_zgemm(tila_trans_t transa, tila_trans_t transb, int m, int n, int k,
                    tila_complex64_t alpha, const tila_complex64_t *A, int lda,
                    const tila_complex64_t *B, int ldb, tila_complex64_t beta, tila_complex64_t *C,
                    int ldc);
int tila_core_zgemm2(int m, int n, int k, const tila_complex64_t *A, int lda,
                     tila_complex64_t alpha1, const tila_complex64_t *B1, int ldb1,
                     tila_complex64_t beta1, tila_complex64_t *C1, int ldc1,
                     tila_complex64_t alpha2, const tila_complex64_t *B2, int ldb2,
                     tila_complex64_t beta2, tila_complex64_t *C2, int ldc2);
int tila_core_zlacpy(tila_uplo_t uplo, int m, int n, const tila_complex64_t *A, int lda,
                     tila_complex64_t *B, int ldb);
int tila_core_zlaset(tila_uplo_t uplo, int m, int n, tila_complex64_t alpha, tila_complex64_t beta,
                     tila_complex64_t *A, int lda);
int tila_core_zlascal(int m, int n, tila_complex64_t alpha, tila_complex64_t *A, int lda);
int tila_core_zgeadd(int m, int n, tila_complex64_t alpha, const tila_complex64_t *A, int lda,
                     tila_complex64_t beta, tila_complex64_t *B, int ldb);
int tila_core_zplrnt(int m, int n, tila_complex64_t *A, int lda, int i0, int j0,
                     unsigned long long seed);
int tila_core_zplghe(double bump, int m, int n, tila_complex64_t *A, int lda, int i0, int j0,
                     unsigned long long seed);

int tila_core_zpotrf(tila_uplo_t uplo, int n, tila_complex64_t *A, int lda);
int tila_core_ztrsm(tila_side_t side, tila_uplo_t uplo, tila_trans_t trans, tila_diag_t diag, int m,
                    int n, tila_complex64_t alpha, const tila_complex64_t *A, int lda,
                    tila_complex64_t *B, int ldb);
int tila_core_ztrmm(tila_side_t side, tila_uplo_t uplo, tila_trans_t trans, tila_diag_t diag, int m,
                    int n, tila_complex64_t alpha, const tila_complex64_t *A, int lda,
                    tila_complex64_t *B, int ldb);
int tila_core_zherk(tila_uplo_t uplo, tila_trans_t trans, int n, int k, double alpha,
                    const tila_complex64_t *A, int lda, double beta, tila_complex64_t *C, int ldc);
int tila_core_zhemm(tila_side_t side, tila_uplo_t uplo, int m, int n, tila_complex64_t alpha,
                    const tila_complex64_t *A, int lda, const tila_complex64_t *B, int ldb,
                    tila_complex64_t beta, tila_complex64_t *C, int ldc);
int tila_core_zcolamax(int m, int n, const tila_complex64_t *A, int lda, double *work);
/* A triangular solve by the triangle's inverse (potrf's panel on GPUs): TRTRI, its
 * cond_1 from the column sums it leaves, and the solve applied by GEMM. */
int tila_core_ztrtri(tila_uplo_t uplo, tila_diag_t diag, int n, const tila_complex64_t *A, int lda,
                     tila_complex64_t *T, int ldt, double *sums);
double tila_core_ztrtri_cond(tila_diag_t diag, int n, const double *sums);
int tila_core_ztrsm_inv(tila_side_t side, tila_trans_t trans, int m, int n, tila_complex64_t alpha,
                        const tila_complex64_t *T, int ldt, tila_complex64_t *B, int ldb,
                        tila_complex64_t *W, int ldw);
/* ---- QR ---- */
int tila_core_zgeqrt(int m, int n, int ib, tila_complex64_t *A, int lda, tila_complex64_t *T,
                     int ldt, tila_complex64_t *work);
int tila_core_zgeqrt_col(int m, int n, const int *mbs, tila_complex64_t *const *A, const int *lda,
                         tila_complex64_t *T, int ldt, tila_complex64_t *work);
size_t tila_core_zcholqr_col_work(int m, int n);
int tila_core_zunhr_col(int n, tila_complex64_t *Q, int ldq, tila_complex64_t *T, int ldt,
                        tila_complex64_t *D);
int tila_core_zcholqr_col(int m, int n, const int *mbs, tila_complex64_t *const *A, const int *lda,
                          tila_complex64_t *T, int ldt, tila_complex64_t *work, int inverse,
                          int *path, int *inverted);
double tila_core_zcholqr_rcond(int n, const tila_complex64_t *R, int ldr);
int tila_core_zcholqr_inverse_ok(double rcond, int n);
int tila_core_zlarft_ut(int m, int k, const tila_complex64_t *V, int ldv,
                        const tila_complex64_t *tau, tila_complex64_t *T, int ldt,
                        tila_complex64_t *W);
void tila_core_zlarft_ut_diag(int k, const tila_complex64_t *tau, tila_complex64_t *T, int ldt,
                              int after);
int tila_core_zlarft_col(int m, int k, const int *mbs, const tila_complex64_t *const *V,
                         const int *ldv, const tila_complex64_t *tau, tila_complex64_t *T, int ldt,
                         tila_complex64_t *work);
int tila_core_zunmqr(tila_side_t side, tila_trans_t trans, int m, int n, int k, int ib,
                     const tila_complex64_t *V, int ldv, const tila_complex64_t *T, int ldt,
                     tila_complex64_t *C, int ldc, tila_complex64_t *work);
int tila_core_ztpqrt(int m, int n, int l, int ib, tila_complex64_t *A, int lda, tila_complex64_t *B,
                     int ldb, tila_complex64_t *T, int ldt, tila_complex64_t *work);
int tila_core_ztpmqrt(tila_side_t side, tila_trans_t trans, int m, int n, int k, int l, int ib,
                      const tila_complex64_t *V, int ldv, const tila_complex64_t *T, int ldt,
                      tila_complex64_t *A, int lda, tila_complex64_t *B, int ldb,
                      tila_complex64_t *work);
/*
 * Norm tile kernels.  Each one reads its tile once and folds it into `work`, a partial
 * result (zeros: nothing yet), laid out by norm:
 *   TILA_NORM_MAX: work[0] = max |a_ij| so far (NaN once any entry is NaN);
 *   TILA_NORM_ONE: work[j] = sum of |a_ij| down column j so far (length n);
 *   TILA_NORM_INF: work[i] = sum of |a_ij| along row i so far (length m);
 *   TILA_NORM_FRO: work[0] = scale, work[1] = sumsq: sum |a_ij|^2 = scale^2 * sumsq
 *                  (LAPACK's lassq pair; (0, 0) is the empty sum).
 * Sums are taken in the order of tila_lan_order.h (lanes, then a tree), as on a GPU.
 */
int tila_core_zlange(tila_norm_t norm, int m, int n, const tila_complex64_t *A, int lda,
                     double *work);
int tila_core_zlantr(tila_norm_t norm, tila_uplo_t uplo, tila_diag_t diag, int m, int n,
                     const tila_complex64_t *A, int lda, double *work);
int tila_core_zlansy(tila_norm_t norm, tila_uplo_t uplo, int n, const tila_complex64_t *A, int lda,
                     double *work);
#if defined(COMPLEX)
int tila_core_zlanhe(tila_norm_t norm, tila_uplo_t uplo, int n, const tila_complex64_t *A, int lda,
                     double *work);
#endif
int tila_core_zlansy_offdiag(tila_norm_t norm, int m, int n, const tila_complex64_t *A, int lda,
                             double *colwork, double *rowwork);
/* Whole tiles (tila_core_zlange) and trapezoids (tila_core_zlantr) one after another, tile
 * t's partial at work + tiles[t].off: the CPU twin of tila_cuda_zlange_tiles. */
int tila_core_zlange_tiles(tila_norm_t norm, int count, const tila_lan_tile_t *tiles,
                           double *work);

#endif /* CORE_Z_H */
