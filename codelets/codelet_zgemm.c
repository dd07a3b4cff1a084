/**
 * @file codelet_zgemm.c
 * @brief GEMM tile codelets: C = alpha op(A) op(B) + beta C, and GEMM2: the two products of
 *        one tile, C1 = alpha1 A B1 + beta1 C1 and C2 = alpha2 A^H B2 + beta2 C2.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "codelets_z.h"
#include "core_z.h"
#ifdef TILA_USE_CUDA
#include "cuda_z.h"
#endif

struct zgemm_args {
    tila_cl_base_t base;
    tila_trans_t transa, transb;
    int m, n, k;
    tila_complex64_t alpha, beta;
};

/* C = alpha op(A) op(B) + beta C by the worker's kernel (tila_cl_run). */
static int zgemm_kernel(void *buffers[], const void *cl_arg, const char **kernel)
{
    const struct zgemm_args *a = cl_arg;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]), B = tila_cl_tile(buffers[1]),
                   C = tila_cl_tile(buffers[2]);
#ifdef TILA_USE_CUDA
    if (tila_cl_on_cuda()) {
        *kernel = "tila_cuda_zgemm";
        return tila_cuda_zgemm(tila_cublas_handle(), a->transa, a->transb, a->m, a->n, a->k,
                               tila_cuda_zscalar(a->alpha), A.ptr, A.ld, B.ptr, B.ld,
                               tila_cuda_zscalar(a->beta), C.ptr, C.ld);
    }
#endif
    *kernel = "tila_core_zgemm";
    return tila_core_zgemm(a->transa, a->transb, a->m, a->n, a->k, a->alpha, A.ptr, A.ld, B.ptr,
                           B.ld, a->beta, C.ptr, C.ld);
}

static void zgemm_run(void *buffers[], void *cl_arg) { tila_cl_run(buffers, cl_arg, zgemm_kernel); }

/* m n k: A, B and C as square tiles of that flop count (tila_cl_blas3_size). */
static size_t zgemm_size(struct starpu_task *task, unsigned nimpl)
{
    const struct zgemm_args *a = task->cl_arg;
    (void)nimpl;
    return tila_cl_blas3_size(sizeof(tila_complex64_t), 3, a->m, a->n, a->k);
}

static struct starpu_perfmodel zgemm_model = TILA_CL_REGRESSION_MODEL("tila_zgemm", zgemm_size);

struct starpu_codelet tila_cl_zgemm = {
    .name = "zgemm",
    TILA_CL_FUNCS(zgemm_run),
    /* A and B read; C written (beta = 0: never read, so a workspace tile that holds
     * nothing yet can be the target) or updated: the modes are given per task. */
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &zgemm_model,
};

int tila_insert_zgemm(const tila_task_t *t, tila_trans_t transa, tila_trans_t transb, int m, int n,
                      int k, tila_complex64_t alpha, starpu_data_handle_t A, starpu_data_handle_t B,
                      tila_complex64_t beta, starpu_data_handle_t C)
{
    struct zgemm_args args = {
        .transa = transa, .transb = transb, .m = m, .n = n, .k = k, .alpha = alpha, .beta = beta
    };
    double flops = tila_cl_gemm_flops(TILA_COMPLEX64, m, n, k);
    struct zgemm_args *a;
    int rc = tila_cl_args(t, &args, sizeof args, (void **)&a);
    if (rc) return rc;
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zgemm, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, STARPU_R, A, STARPU_R, B,
                                beta == (tila_complex64_t)0 ? tila_task_write(t, C) : STARPU_RW, C,
                                TILA_TASK_OPTIONS(t, "zgemm", flops), 0);
    return tila_task_submitted(t, rc);
}

struct zgemm2_args {
    tila_cl_base_t base;
    int m, n, k;
    tila_complex64_t alpha1, beta1, alpha2, beta2;
};

/* Buffers: A, B1, B2, C1, C2.  The two products by the worker's kernel (tila_cl_run). */
static int zgemm2_kernel(void *buffers[], const void *cl_arg, const char **kernel)
{
    const struct zgemm2_args *a = cl_arg;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]), B1 = tila_cl_tile(buffers[1]),
                   B2 = tila_cl_tile(buffers[2]), C1 = tila_cl_tile(buffers[3]),
                   C2 = tila_cl_tile(buffers[4]);
#ifdef TILA_USE_CUDA
    if (tila_cl_on_cuda()) {
        *kernel = "tila_cuda_zgemm2";
        return tila_cuda_zgemm2(tila_cublas_handle(), a->m, a->n, a->k, A.ptr, A.ld,
                                tila_cuda_zscalar(a->alpha1), B1.ptr, B1.ld,
                                tila_cuda_zscalar(a->beta1), C1.ptr, C1.ld,
                                tila_cuda_zscalar(a->alpha2), B2.ptr, B2.ld,
                                tila_cuda_zscalar(a->beta2), C2.ptr, C2.ld);
    }
#endif
    *kernel = "tila_core_zgemm2";
    return tila_core_zgemm2(a->m, a->n, a->k, A.ptr, A.ld, a->alpha1, B1.ptr, B1.ld, a->beta1,
                            C1.ptr, C1.ld, a->alpha2, B2.ptr, B2.ld, a->beta2, C2.ptr, C2.ld);
}

static void zgemm2_run(void *buffers[], void *cl_arg)
{
    tila_cl_run(buffers, cl_arg, zgemm2_kernel);
}

static struct starpu_perfmodel zgemm2_model = TILA_CL_HISTORY_MODEL("tila_zgemm2");

struct starpu_codelet tila_cl_zgemm2 = {
    .name = "zgemm2",
    TILA_CL_FUNCS(zgemm2_run),
    /* A, B1 and B2 read; C1 and C2 each written (its beta 0) or updated, per task. */
    .nbuffers = STARPU_VARIABLE_NBUFFERS,
    .model = &zgemm2_model,
};

int tila_insert_zgemm2(const tila_task_t *t, int m, int n, int k, starpu_data_handle_t A,
                       tila_complex64_t alpha1, starpu_data_handle_t B1, tila_complex64_t beta1,
                       starpu_data_handle_t C1, tila_complex64_t alpha2, starpu_data_handle_t B2,
                       tila_complex64_t beta2, starpu_data_handle_t C2)
{
    struct zgemm2_args args = { .m = m, .n = n, .k = k, .alpha1 = alpha1, .beta1 = beta1,
                                .alpha2 = alpha2, .beta2 = beta2 };
    double flops = 2 * tila_cl_gemm_flops(TILA_COMPLEX64, m, n, k);
    struct zgemm2_args *a;
    int rc = tila_cl_args(t, &args, sizeof args, (void **)&a);
    if (rc) return rc;
    rc = starpu_mpi_task_insert(
        tila_starpu_comm(), &tila_cl_zgemm2, STARPU_CL_ARGS, a, a ? sizeof *a : 0, STARPU_R, A,
        STARPU_R, B1, STARPU_R, B2,
        beta1 == (tila_complex64_t)0 ? tila_task_write(t, C1) : STARPU_RW, C1,
        beta2 == (tila_complex64_t)0 ? tila_task_write(t, C2) : STARPU_RW, C2,
        TILA_TASK_OPTIONS(t, "zgemm2", flops), 0);
    return tila_task_submitted(t, rc);
}
