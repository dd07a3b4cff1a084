/**
 * @file cuda_z.h
 * @brief GPU tile kernels (no StarPU), double complex: they run on the given cuBLAS
 * handle / CUDA stream and return without synchronising.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CUDA_Z_H
#define CUDA_Z_H

#include <string.h>

#include <cublas_v2.h>
#include <cuComplex.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include "tila_lan_tile.h"
#include "tila_types.h"

#ifdef __cplusplus
extern "C" {
#else

/** A scalar of Tila's element type as CUDA's (the layouts are the same). */
static inline cuDoubleComplex tila_cuda_zscalar(tila_complex64_t x)
{
    cuDoubleComplex r;
    memcpy(&r, &x, sizeof r);
    return r;
}
#endif

int tila_cuda_zgemm(cublasHandle_t handle, tila_trans_t transa, tila_trans_t transb, int m, int n,
                    int k, cuDoubleComplex alpha, const cuDoubleComplex *A, int lda,
                    const cuDoubleComplex *B, int ldb, cuDoubleComplex beta, cuDoubleComplex *C,
                    int ldc);
int tila_cuda_zgemm2(cublasHandle_t handle, int m, int n, int k, const cuDoubleComplex *A, int lda,
                     cuDoubleComplex alpha1, const cuDoubleComplex *B1, int ldb1,
                     cuDoubleComplex beta1, cuDoubleComplex *C1, int ldc1,
                     cuDoubleComplex alpha2, const cuDoubleComplex *B2, int ldb2,
                     cuDoubleComplex beta2, cuDoubleComplex *C2, int ldc2);
int tila_cuda_zlascal(cublasHandle_t handle, int m, int n, cuDoubleComplex alpha,
                      cuDoubleComplex *A, int lda);
int tila_cuda_zgeadd(cublasHandle_t handle, int m, int n, cuDoubleComplex alpha,
                     const cuDoubleComplex *A, int lda, cuDoubleComplex beta, cuDoubleComplex *B,
                     int ldb);
int tila_cuda_zlacpy(cudaStream_t stream, tila_uplo_t uplo, int m, int n, const cuDoubleComplex *A,
                     int lda, cuDoubleComplex *B, int ldb);
int tila_cuda_zlaset(cudaStream_t stream, tila_uplo_t uplo, int m, int n, cuDoubleComplex alpha,
                     cuDoubleComplex beta, cuDoubleComplex *A, int lda);
int tila_cuda_zplrnt(cudaStream_t stream, int m, int n, cuDoubleComplex *A, int lda, int i0, int j0,
                     unsigned long long seed);
int tila_cuda_zplghe(cudaStream_t stream, double bump, int m, int n, cuDoubleComplex *A, int lda,
                     int i0, int j0, unsigned long long seed);

int tila_cuda_zpotrf_lwork(cusolverDnHandle_t handle, tila_uplo_t uplo, int n, cuDoubleComplex *A,
                           int lda, int *lwork);
int tila_cuda_zpotrf(cusolverDnHandle_t handle, tila_uplo_t uplo, int n, cuDoubleComplex *A,
                     int lda, cuDoubleComplex *work, int lwork, int *devinfo);
int tila_cuda_ztrsm(cublasHandle_t handle, tila_side_t side, tila_uplo_t uplo, tila_trans_t trans,
                    tila_diag_t diag, int m, int n, cuDoubleComplex alpha, const cuDoubleComplex *A,
                    int lda, cuDoubleComplex *B, int ldb);
int tila_cuda_ztrsm_rec(cublasHandle_t handle, tila_side_t side, tila_uplo_t uplo,
                        tila_trans_t trans, tila_diag_t diag, int m, int n, cuDoubleComplex alpha,
                        const cuDoubleComplex *A, int lda, cuDoubleComplex *B, int ldb, int leaf);
int tila_cuda_ztrmm(cublasHandle_t handle, tila_side_t side, tila_uplo_t uplo, tila_trans_t trans,
                    tila_diag_t diag, int m, int n, cuDoubleComplex alpha, const cuDoubleComplex *A,
                    int lda, cuDoubleComplex *B, int ldb);
size_t tila_cuda_ztrmm_gemm_work(tila_side_t side, int m, int n);
int tila_cuda_ztrmm_gemm(cublasHandle_t handle, tila_side_t side, tila_uplo_t uplo,
                         tila_trans_t trans, tila_diag_t diag, int m, int n, cuDoubleComplex alpha,
                         const cuDoubleComplex *A, int lda, cuDoubleComplex *B, int ldb,
                         cuDoubleComplex *work);
int tila_cuda_zherk(cublasHandle_t handle, tila_uplo_t uplo, tila_trans_t trans, int n, int k,
                    double alpha, const cuDoubleComplex *A, int lda, double beta,
                    cuDoubleComplex *C, int ldc);
int tila_cuda_zhemm(cublasHandle_t handle, tila_side_t side, tila_uplo_t uplo, int m, int n,
                    cuDoubleComplex alpha, const cuDoubleComplex *A, int lda,
                    const cuDoubleComplex *B, int ldb, cuDoubleComplex beta, cuDoubleComplex *C,
                    int ldc);
int tila_cuda_zcolamax(cudaStream_t stream, int m, int n, const cuDoubleComplex *A, int lda,
                       double *work);
/* A triangular solve by the triangle's inverse (tila_core_ztrtri, tila_core_ztrsm_inv). */
int tila_cuda_ztrtri_worksize(cusolverDnHandle_t solver, tila_uplo_t uplo, tila_diag_t diag, int n,
                              cuDoubleComplex *T, int ldt, size_t *dbytes, size_t *hbytes);
int tila_cuda_ztrtri(cusolverDnHandle_t solver, cudaStream_t stream, tila_uplo_t uplo,
                     tila_diag_t diag, int n, const cuDoubleComplex *A, int lda, cuDoubleComplex *T,
                     int ldt, double *sums, double *scratch, int *devinfo, void *dwork,
                     size_t dbytes, void *hwork, size_t hbytes);
int tila_cuda_ztrsm_inv(cublasHandle_t handle, cudaStream_t stream, tila_side_t side,
                        tila_trans_t trans, int m, int n, cuDoubleComplex alpha,
                        const cuDoubleComplex *T, int ldt, cuDoubleComplex *B, int ldb,
                        cuDoubleComplex *W, int ldw);
/* ---- QR ---- */

int tila_cuda_zlarft_blocks_worksize(cusolverDnHandle_t solver, cusolverDnParams_t params, int m,
                                     int k, int ib, const cuDoubleComplex *V, int ldv,
                                     const cuDoubleComplex *tau, cuDoubleComplex *T, int ldt,
                                     size_t *dbytes, size_t *hbytes);
int tila_cuda_zlarft_blocks(cublasHandle_t blas, int ut_min, cusolverDnHandle_t solver,
                            cusolverDnParams_t params, int m, int k, int ib,
                            const cuDoubleComplex *V, int ldv, const cuDoubleComplex *tau,
                            cuDoubleComplex *T, int ldt, void *dwork, size_t dbytes, void *hwork,
                            size_t hbytes);
int tila_cuda_zlarft_ut_diag(cudaStream_t stream, int k, const cuDoubleComplex *tau,
                             cuDoubleComplex *T, int ldt, int after);
int tila_cuda_zgeqrt_worksize(cusolverDnHandle_t solver, cusolverDnParams_t params, int m, int n,
                              int ib, cuDoubleComplex *A, int lda, const cuDoubleComplex *tau,
                              cuDoubleComplex *T, int ldt, size_t *dbytes, size_t *hbytes);
int tila_cuda_zgeqrt(cublasHandle_t blas, int ut_min, cusolverDnHandle_t solver,
                     cusolverDnParams_t params, int m, int n, int ib, cuDoubleComplex *A, int lda,
                     cuDoubleComplex *T, int ldt, cuDoubleComplex *tau, void *dwork, size_t dbytes,
                     void *hwork, size_t hbytes);
int tila_cuda_zgeqrt_col(cublasHandle_t blas, int ut_min, cusolverDnHandle_t solver,
                         cusolverDnParams_t params, cudaStream_t stream, int m, int n,
                         const int *mbs, cuDoubleComplex *const *A, const int *lda,
                         cuDoubleComplex *T, int ldt, cuDoubleComplex *panel, cuDoubleComplex *tau,
                         void *dwork, size_t dbytes, void *hwork, size_t hbytes);
int tila_cuda_zcholqr_col_worksize(cusolverDnHandle_t solver, cusolverDnParams_t params, int m,
                                   int n, cuDoubleComplex *panel, cuDoubleComplex *tau,
                                   cuDoubleComplex *T, int ldt, size_t *dbytes, size_t *hsolver,
                                   size_t *hown);
int tila_cuda_zcholqr_col(cublasHandle_t blas, cusolverDnHandle_t solver, cusolverDnParams_t params,
                          cudaStream_t stream, int m, int n, const int *mbs,
                          cuDoubleComplex *const *A, const int *lda, cuDoubleComplex *T, int ldt,
                          cuDoubleComplex *work, void *dwork, size_t dbytes, void *hsolver,
                          size_t hsbytes, void *hown, int batch, int inverse, int ut_min, int *done,
                          int *path, double *rcond);
int tila_cuda_zcholqr_col_finish(cublasHandle_t blas, cusolverDnHandle_t solver,
                                 cudaStream_t stream, int m, int n, const int *mbs,
                                 cuDoubleComplex *const *A, const int *lda, cuDoubleComplex *T,
                                 int ldt, cuDoubleComplex *work, void *dwork, size_t dbytes,
                                 void *hsolver, size_t hsbytes, void *hown, int inverse);
void tila_cuda_zcholqr_col_host(void *hown, int n, cuDoubleComplex **Q, cuDoubleComplex **D);
int tila_cuda_zlarft_col(cublasHandle_t blas, int ut_min, cusolverDnHandle_t solver,
                         cusolverDnParams_t params, cudaStream_t stream, int m, int k,
                         const int *mbs, const cuDoubleComplex *const *V, const int *ldv,
                         const cuDoubleComplex *tau_host, cuDoubleComplex *T, int ldt,
                         cuDoubleComplex *panel, cuDoubleComplex *tau, void *dwork, size_t dbytes,
                         void *hwork, size_t hbytes);
int tila_cuda_ztpqrt_worksize(cusolverDnHandle_t solver, cusolverDnParams_t params, int m, int n,
                              int ib, cuDoubleComplex *T, int ldt, cuDoubleComplex *work,
                              size_t *dbytes, size_t *hbytes);
int tila_cuda_ztpqrt(cusolverDnHandle_t solver, cusolverDnParams_t params, int m, int n, int l,
                     int ib, cuDoubleComplex *A, int lda, cuDoubleComplex *B, int ldb,
                     cuDoubleComplex *T, int ldt, cuDoubleComplex *work, void *dwork, size_t dbytes,
                     void *hwork, size_t hbytes);
int tila_cuda_zunmqr(cublasHandle_t handle, tila_side_t side, tila_trans_t trans, int m, int n,
                     int k, int ib, const cuDoubleComplex *V, int ldv, const cuDoubleComplex *T,
                     int ldt, cuDoubleComplex *C, int ldc, cuDoubleComplex *work);
int tila_cuda_ztpmqrt(cublasHandle_t handle, tila_side_t side, tila_trans_t trans, int m, int n,
                      int k, int l, int ib, const cuDoubleComplex *V, int ldv,
                      const cuDoubleComplex *T, int ldt, cuDoubleComplex *A, int lda,
                      cuDoubleComplex *B, int ldb, cuDoubleComplex *work);
/* Norm tile kernels: fold the tile into `work` (GPU memory, layout of core_z.h), to the
 * CPU kernels' bits; `scratch`: tila_cuda_zlan_scratch_elems(n) reals of GPU memory. */
size_t tila_cuda_zlan_scratch_elems(int n);
int tila_cuda_zlange(cudaStream_t stream, tila_norm_t norm, int m, int n, const cuDoubleComplex *A,
                     int lda, double *work, double *scratch);
int tila_cuda_zlantr(cudaStream_t stream, tila_norm_t norm, tila_uplo_t uplo, tila_diag_t diag,
                     int m, int n, const cuDoubleComplex *A, int lda, double *work,
                     double *scratch);
int tila_cuda_zlansy(cudaStream_t stream, tila_norm_t norm, tila_uplo_t uplo, int n,
                     const cuDoubleComplex *A, int lda, double *work, double *scratch);
#if defined(COMPLEX)
int tila_cuda_zlanhe(cudaStream_t stream, tila_norm_t norm, tila_uplo_t uplo, int n,
                     const cuDoubleComplex *A, int lda, double *work, double *scratch);
#endif
int tila_cuda_zlansy_offdiag(cudaStream_t stream, tila_norm_t norm, int m, int n,
                             const cuDoubleComplex *A, int lda, double *colwork, double *rowwork,
                             double *scratch);
/* Whole tiles and trapezoids, many in one launch per kernel, each tile's partial at
 * work + its off, to the bits of the one-tile kernels (cuda_zlange.cu). */
size_t tila_cuda_zlange_tiles_scratch(tila_norm_t norm, int count, const tila_lan_tile_t *tiles);
int tila_cuda_zlange_tiles(cudaStream_t stream, tila_norm_t norm, int count,
                           const tila_lan_tile_t *tiles, double *work, void *dwork,
                           size_t dwork_bytes);

#ifdef __cplusplus
}
#endif

#endif /* CUDA_Z_H */
