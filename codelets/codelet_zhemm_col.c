/**
 * @file codelet_zhemm_col.c
 * @brief HEMM_COL codelet (SYMM_COL in real): R = B - A X for one block column, A Hermitian
 * in its stored triangle's tiles, in one task: the mixed solve's residual where its tile
 * tasks (a HEMM a diagonal tile, a GEMM2 a pair, copies: some n_t^2 / 2 a block column)
 * would each be a few microseconds of a GPU's work behind a task's cost.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>

#include "codelets_z.h"
#include "core_z.h"
#ifdef TILA_USE_CUDA
#include "cuda_z.h"
#endif

/*
 * Buffers: A's stored tiles of the pairs (i, k), i >= k, k by k and i down from k
 * (tila_cl_pair), each A(i, k) (lower) or A(k, i) (upper); then B's, X's and R's mt tiles
 * of the block column, top down.
 */
struct zhemm_col_args {
    tila_cl_base_t base;
    tila_uplo_t uplo;
    int mt;
};

/* The worker's kernels (the CUDA ones on a CUDA worker's stream and cuBLAS handle). */
static int run_lacpy(int cuda, int m, int n, tila_cl_tile_t B, tila_cl_tile_t R)
{
#ifdef TILA_USE_CUDA
    if (cuda)
        return tila_cuda_zlacpy(starpu_cuda_get_local_stream(), TILA_GENERAL, m, n, B.ptr, B.ld,
                                R.ptr, R.ld);
#endif
    (void)cuda;
    return tila_core_zlacpy(TILA_GENERAL, m, n, B.ptr, B.ld, R.ptr, R.ld);
}

/* R -= A X, A a Hermitian diagonal tile (triangle uplo). */
static int run_hemm(int cuda, tila_uplo_t uplo, int m, int n, tila_cl_tile_t A, tila_cl_tile_t X,
                    tila_cl_tile_t R)
{
    tila_complex64_t minus = -1, one = 1;
#ifdef TILA_USE_CUDA
    if (cuda)
        return tila_cuda_zhemm(tila_cublas_handle(), TILA_LEFT, uplo, m, n,
                               tila_cuda_zscalar(minus), A.ptr, A.ld, X.ptr, X.ld,
                               tila_cuda_zscalar(one), R.ptr, R.ld);
#endif
    (void)cuda;
    return tila_core_zhemm(TILA_LEFT, uplo, m, n, minus, A.ptr, A.ld, X.ptr, X.ld, one, R.ptr,
                           R.ld);
}

/* R1 -= T X1 and R2 -= T^H X2 (T m x k; R1 m x n, R2 k x n). */
static int run_gemm2(int cuda, int m, int n, int k, tila_cl_tile_t T, tila_cl_tile_t X1,
                     tila_cl_tile_t R1, tila_cl_tile_t X2, tila_cl_tile_t R2)
{
    tila_complex64_t minus = -1, one = 1;
#ifdef TILA_USE_CUDA
    if (cuda)
        return tila_cuda_zgemm2(tila_cublas_handle(), m, n, k, T.ptr, T.ld,
                                tila_cuda_zscalar(minus), X1.ptr, X1.ld, tila_cuda_zscalar(one),
                                R1.ptr, R1.ld, tila_cuda_zscalar(minus), X2.ptr, X2.ld,
                                tila_cuda_zscalar(one), R2.ptr, R2.ld);
#endif
    (void)cuda;
    return tila_core_zgemm2(m, n, k, T.ptr, T.ld, minus, X1.ptr, X1.ld, one, R1.ptr, R1.ld, minus,
                            X2.ptr, X2.ld, one, R2.ptr, R2.ld);
}

/* R = B - A X by the worker's kernels: B copied, each diagonal tile's HEMM, then each pair's
 * stored tile read once for both of its products (GEMM2). */
static int zhemm_col_kernel(void *buffers[], const void *cl_arg, const char **kernel)
{
    const struct zhemm_col_args *a = cl_arg;
    int mt = a->mt, pairs = mt * (mt + 1) / 2, rc = 0, cuda = 0;
#ifdef TILA_USE_CUDA
    cuda = tila_cl_on_cuda();
#endif
    *kernel = cuda ? "tila_cuda_zhemm_col (HEMM, GEMM2 and copies)"
                   : "tila_core_zhemm_col (HEMM, GEMM2 and copies)";
    void **B = buffers + pairs, **X = B + mt, **R = X + mt;
    int cols = (int)STARPU_MATRIX_GET_NY(R[0]);
#define ZHEMM_COL_ROWS(i) ((int)STARPU_MATRIX_GET_NX(R[i]))
    for (int i = 0; i < mt && !rc; i++) {
        rc = run_lacpy(cuda, ZHEMM_COL_ROWS(i), cols, tila_cl_tile(B[i]), tila_cl_tile(R[i]));
        if (!rc)
            rc = run_hemm(cuda, a->uplo, ZHEMM_COL_ROWS(i), cols,
                          tila_cl_tile(buffers[tila_cl_pair(mt, i, i)]), tila_cl_tile(X[i]),
                          tila_cl_tile(R[i]));
    }
    for (int k = 0; k < mt && !rc; k++)
        for (int i = k + 1; i < mt && !rc; i++) {
            tila_cl_tile_t T = tila_cl_tile(buffers[tila_cl_pair(mt, i, k)]);
            /* lower: T = A(i, k), R(i) -= T X(k), R(k) -= T^H X(i); upper: T = A(k, i). */
            int s = a->uplo == TILA_LOWER ? i : k, u = s == i ? k : i;
            rc = run_gemm2(cuda, ZHEMM_COL_ROWS(s), cols, ZHEMM_COL_ROWS(u), T,
                           tila_cl_tile(X[u]), tila_cl_tile(R[s]), tila_cl_tile(X[s]),
                           tila_cl_tile(R[u]));
        }
#undef ZHEMM_COL_ROWS
    return rc;
}

static void zhemm_col_run(void *buffers[], void *cl_arg)
{
    tila_cl_run(buffers, cl_arg, zhemm_col_kernel);
}

static struct starpu_perfmodel zhemm_col_model = TILA_CL_HISTORY_MODEL("tila_zhemm_col");

struct starpu_codelet tila_cl_zhemm_col = {
    .name = "zhemm_col",
    TILA_CL_FUNCS(zhemm_col_run),
    .nbuffers = STARPU_VARIABLE_NBUFFERS, /* A, B, X R; R W (tila_task_write) */
    .model = &zhemm_col_model,
};

/**
 * R = B - A X for one block column in one task: A Hermitian, its stored tiles of the pairs
 * (i, k), i >= k, of mt block rows in tila_cl_pair's order (A(i, k), or A(k, i) when uplo
 * is upper); B, X and R the mt tiles of the block column, n x cols in all.
 */
int tila_insert_zhemm_col(const tila_task_t *t, tila_uplo_t uplo, int mt, int n, int cols,
                          const starpu_data_handle_t *A, const starpu_data_handle_t *B,
                          const starpu_data_handle_t *X, const starpu_data_handle_t *R)
{
    int pairs = mt * (mt + 1) / 2, count = pairs + 3 * mt;
    struct starpu_data_descr *descr = malloc(sizeof *descr * (size_t)count);
    if (!descr) return TILA_ERR_NOMEM;
    for (int i = 0; i < pairs; i++)
        descr[i] = (struct starpu_data_descr){ .handle = A[i], .mode = STARPU_R };
    for (int i = 0; i < mt; i++) {
        descr[pairs + i] = (struct starpu_data_descr){ .handle = B[i], .mode = STARPU_R };
        descr[pairs + mt + i] = (struct starpu_data_descr){ .handle = X[i], .mode = STARPU_R };
        descr[pairs + 2 * mt + i] =
            (struct starpu_data_descr){ .handle = R[i], .mode = tila_task_write(t, R[i]) };
    }
    struct zhemm_col_args args = { .uplo = uplo, .mt = mt }, *a;
    int rc = tila_cl_args(t, &args, sizeof args, (void **)&a);
    double flops = tila_cl_gemm_flops(TILA_COMPLEX64, n, cols, n);
    if (!rc) {
        rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zhemm_col, STARPU_CL_ARGS, a,
                                    a ? sizeof *a : 0, STARPU_DATA_MODE_ARRAY, descr, count,
                                    TILA_TASK_OPTIONS(t, "zhemm_col",
                                                      tila_task_gpu_flops(t, flops)),
                                    0);
        rc = tila_task_submitted(t, rc);
    }
    free(descr);
    return rc;
}
