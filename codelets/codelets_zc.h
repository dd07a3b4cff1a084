/**
 * @file codelets_zc.h
 * @brief Internal: the codelets between double complex and single complex tiles.
 * @precisions mixed zc -> ds
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CODELETS_ZC_H
#define CODELETS_ZC_H

#include "tila_codelet.h"

/** SA = A in single precision (triangle uplo of a square tile, or TILA_GENERAL: all of the
 * m x n tile); an entry beyond single's range fails the task's request with info 1. */
int tila_insert_zlag2c(const tila_task_t *t, tila_uplo_t uplo, int m, int n, starpu_data_handle_t A,
                       starpu_data_handle_t SA);
/** A = SA in double precision (the m x n tile, exactly). */
int tila_insert_clag2z(const tila_task_t *t, int m, int n, starpu_data_handle_t SA,
                       starpu_data_handle_t A);

/** D = mu (L L^H)^-1 D in one task, then X += D unless X is NULL (codelet_zcpotrs.c: L's
 * stored tiles of the pairs (i, k), i >= k, k by k; D and X the mt double tiles of a block
 * column, n x cols; work a scratch vector of n cols single elements); an entry of D beyond
 * single's range fails the task's request with info 1. */
int tila_insert_zcpotrs(const tila_task_t *t, tila_uplo_t uplo, int mt, int n, int cols,
                        double mu, const starpu_data_handle_t *L, const starpu_data_handle_t *D,
                        starpu_data_handle_t work, const starpu_data_handle_t *X);

/** Elements of the scratch buffer GEMM_LP and HERK_LP take (on CPUs: their rounded
 * inputs) for tiles of at most mb x nb. */
size_t tila_cgemm_lp_scratch(int mb, int nb);
/** C = alpha op(A) op(B) + beta C on single tiles, the products' inputs in `factor`'s
 * format (tila_core_cgemm_lp, tila_cuda_cgemm_lp); work: a scratch buffer of
 * tila_cgemm_lp_scratch elements. */
int tila_insert_cgemm_lp(const tila_task_t *t, tila_factor_t factor, tila_trans_t transa,
                         tila_trans_t transb, int m, int n, int k, tila_complex32_t alpha,
                         starpu_data_handle_t A, starpu_data_handle_t B, tila_complex32_t beta,
                         starpu_data_handle_t C, starpu_data_handle_t work);
/** C = alpha op(A) op(A)^H + beta C on C's triangle uplo (its other triangle unspecified),
 * the products' inputs in `factor`'s format (tila_core_cherk_lp, tila_cuda_cherk_lp). */
int tila_insert_cherk_lp(const tila_task_t *t, tila_factor_t factor, tila_uplo_t uplo,
                         tila_trans_t trans, int n, int k, float alpha, starpu_data_handle_t A,
                         float beta, starpu_data_handle_t C, starpu_data_handle_t work);

#endif /* CODELETS_ZC_H */
