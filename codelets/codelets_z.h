/**
 * @file codelets_z.h
 * @brief Internal: insert helpers of the tile codelets, double complex.
 * @precisions normal z -> c d s
 *
 * Each helper submits one task through StarPU-MPI on the rank and device level set
 * in `t` (see tila_task_on) and returns 0, TILA_ERR_NOMEM or TILA_ERR_STARPU.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CODELETS_Z_H
#define CODELETS_Z_H

#include "tila_codelet.h"

int tila_insert_zgemm(const tila_task_t *t, tila_trans_t transa, tila_trans_t transb, int m, int n,
                      int k, tila_complex64_t alpha, starpu_data_handle_t A, starpu_data_handle_t B,
                      tila_complex64_t beta, starpu_data_handle_t C);
int tila_insert_zgemm2(const tila_task_t *t, int m, int n, int k, starpu_data_handle_t A,
                       tila_complex64_t alpha1, starpu_data_handle_t B1, tila_complex64_t beta1,
                       starpu_data_handle_t C1, tila_complex64_t alpha2, starpu_data_handle_t B2,
                       tila_complex64_t beta2, starpu_data_handle_t C2);
int tila_insert_zlacpy(const tila_task_t *t, tila_uplo_t uplo, int m, int n, starpu_data_handle_t A,
                       starpu_data_handle_t B);
int tila_insert_zlacpy_at(const tila_task_t *t, int m, int n, starpu_data_handle_t A, int ai,
                          int aj, starpu_data_handle_t B, int bi, int bj, int whole);
int tila_insert_zlaset(const tila_task_t *t, tila_uplo_t uplo, int m, int n, tila_complex64_t alpha,
                       tila_complex64_t beta, starpu_data_handle_t A);
int tila_insert_zlascal(const tila_task_t *t, int m, int n, tila_complex64_t alpha,
                        starpu_data_handle_t A);
int tila_insert_zgeadd(const tila_task_t *t, int m, int n, tila_complex64_t alpha,
                       starpu_data_handle_t A, tila_complex64_t beta, starpu_data_handle_t B);
int tila_insert_zplrnt(const tila_task_t *t, int m, int n, starpu_data_handle_t A, int i0, int j0,
                       unsigned long long seed);
int tila_insert_zplghe(const tila_task_t *t, double bump, int m, int n, starpu_data_handle_t A,
                       int i0, int j0, unsigned long long seed);

/* Cholesky. */
int tila_insert_zpotrf(const tila_task_t *t, tila_uplo_t uplo, int n, starpu_data_handle_t A,
                       int iinfo);
int tila_insert_ztrsm(const tila_task_t *t, tila_side_t side, tila_uplo_t uplo, tila_trans_t trans,
                      tila_diag_t diag, int m, int n, tila_complex64_t alpha,
                      starpu_data_handle_t A, starpu_data_handle_t B);
int tila_insert_ztrmm(const tila_task_t *t, tila_side_t side, tila_uplo_t uplo, tila_trans_t trans,
                      tila_diag_t diag, int m, int n, tila_complex64_t alpha,
                      starpu_data_handle_t A, starpu_data_handle_t B);
/*
 * A triangular solve by the triangle's inverse (codelet_ztrtri.c, codelet_ztrsm_inv.c):
 * TRTRI writes T = A^-1 (a full tile, zeros in the other triangle) and a record beside it
 * in main memory, read on the host by each solve: tila_ztrtri_record_elems(n) reals,
 * LAPACK's info of the inversion (an int in the first bytes), then the column sums of A's
 * and T's triangles.  A solve applies T by GEMM where the inversion succeeded and cond_1(A)
 * from those sums is at most `bound`, else solves with A (TRSM).  W: a scratch (STARPU_SCRATCH)
 * of at least m n elements.
 */
static inline size_t tila_ztrtri_record_elems(int n) { return 2 + 2 * (size_t)n; }
int tila_insert_ztrtri(const tila_task_t *t, tila_uplo_t uplo, tila_diag_t diag, int n,
                       starpu_data_handle_t A, starpu_data_handle_t T, starpu_data_handle_t record);
int tila_insert_ztrsm_inv(const tila_task_t *t, tila_side_t side, tila_uplo_t uplo,
                          tila_trans_t trans, tila_diag_t diag, int m, int n,
                          tila_complex64_t alpha, double bound, starpu_data_handle_t A,
                          starpu_data_handle_t T, starpu_data_handle_t record,
                          starpu_data_handle_t B, starpu_data_handle_t W);
int tila_insert_zherk(const tila_task_t *t, tila_uplo_t uplo, tila_trans_t trans, int n, int k,
                      double alpha, starpu_data_handle_t A, double beta, starpu_data_handle_t C);
int tila_insert_zhemm(const tila_task_t *t, tila_side_t side, tila_uplo_t uplo, int m, int n,
                      tila_complex64_t alpha, starpu_data_handle_t A, starpu_data_handle_t B,
                      tila_complex64_t beta, starpu_data_handle_t C);
/** R = B - A X for one block column in one task (codelet_zhemm_col.c): A Hermitian, its
 * stored tiles of the pairs (i, k), i >= k, of mt block rows in tila_cl_pair's order
 * (A(i, k), or A(k, i) when uplo is upper); B, X, R the block column's mt tiles, n x cols. */
int tila_insert_zhemm_col(const tila_task_t *t, tila_uplo_t uplo, int mt, int n, int cols,
                          const starpu_data_handle_t *A, const starpu_data_handle_t *B,
                          const starpu_data_handle_t *X, const starpu_data_handle_t *R);
int tila_insert_zcolamax(const tila_task_t *t, int m, int n, starpu_data_handle_t A,
                         starpu_data_handle_t work);
/** tila_insert_zcolamax for `count` tiles (m rows in all, n columns) in one task: tile i's
 * column maxima into entries i n .. i n + n - 1 of work. */
int tila_insert_zcolamax_tiles(const tila_task_t *t, int count, int m, int n,
                               const starpu_data_handle_t *A, starpu_data_handle_t work);
/* ---- QR (and the triangular solve it shares with the other factorizations) ---- */
int tila_insert_zgeqrt(const tila_task_t *t, int m, int n, int ib, starpu_data_handle_t A,
                       starpu_data_handle_t T, starpu_data_handle_t work);
int tila_insert_zpanel_col(const tila_task_t *t, struct starpu_codelet *cl, const char *name,
                           int m, int n, int count, const starpu_data_handle_t *A,
                           starpu_data_handle_t T, starpu_data_handle_t work);
size_t tila_zgeqrt_col_scratch(int m, int n, int count);
int tila_insert_zgeqrt_col(const tila_task_t *t, int m, int n, int count,
                           const starpu_data_handle_t *A, starpu_data_handle_t T,
                           starpu_data_handle_t work);
size_t tila_zcholqr_col_scratch(int m, int n, int count);
int tila_insert_zcholqr_col(const tila_task_t *t, int m, int n, int count,
                            const starpu_data_handle_t *A, starpu_data_handle_t T,
                            starpu_data_handle_t work);
size_t tila_zlarft_col_scratch(int m, int k, int count);
int tila_insert_zlarft_col(const tila_task_t *t, int m, int k, int count,
                           const starpu_data_handle_t *A, const tila_complex64_t *tau,
                           starpu_data_handle_t T, starpu_data_handle_t work);
int tila_insert_zunmqr(const tila_task_t *t, tila_side_t side, tila_trans_t trans, int m, int n,
                       int k, int ib, starpu_data_handle_t V, starpu_data_handle_t T,
                       starpu_data_handle_t C, starpu_data_handle_t work);
int tila_insert_ztsqrt(const tila_task_t *t, int m, int n, int ib, starpu_data_handle_t A,
                       starpu_data_handle_t B, starpu_data_handle_t T, starpu_data_handle_t work);
int tila_insert_zttqrt(const tila_task_t *t, int m, int n, int ib, starpu_data_handle_t A,
                       starpu_data_handle_t B, starpu_data_handle_t T, starpu_data_handle_t work);
int tila_insert_ztsmqr(const tila_task_t *t, tila_side_t side, tila_trans_t trans, int m, int n,
                       int k, int ib, starpu_data_handle_t A, starpu_data_handle_t B,
                       starpu_data_handle_t V, starpu_data_handle_t T, starpu_data_handle_t work);
int tila_insert_zttmqr(const tila_task_t *t, tila_side_t side, tila_trans_t trans, int m, int n,
                       int k, int l, int ib, starpu_data_handle_t A, starpu_data_handle_t B,
                       starpu_data_handle_t V, starpu_data_handle_t T, starpu_data_handle_t work);
/** Flops of an m x n QR factorization (LAPACK's leading terms). */
double tila_zgeqrf_flops(int m, int n);
/* Norms: tile tasks fold a tile into its partial (work: read and written, a vector of
 * reals; the off-diagonal tile of a symmetric matrix into two); see drivers/zlange.c. */
int tila_insert_zlange(const tila_task_t *t, tila_norm_t norm, tila_lan_kind_t kind,
                       tila_uplo_t uplo, tila_diag_t diag, int m, int n, starpu_data_handle_t A,
                       starpu_data_handle_t work);
int tila_insert_zlansy_offdiag(const tila_task_t *t, tila_norm_t norm, int m, int n,
                               starpu_data_handle_t A, starpu_data_handle_t colwork,
                               starpu_data_handle_t rowwork);
/* `count` tiles of one rank and device (A[i], described by tiles[i]: whole or trapezoid,
 * sizes, where its partial starts in work) in one task: one launch per kernel on a GPU. */
int tila_insert_zlange_tiles(const tila_task_t *t, tila_norm_t norm, int count,
                             const tila_cl_lan_tile_t *tiles, const starpu_data_handle_t *A,
                             starpu_data_handle_t work);

#endif /* CODELETS_Z_H */
