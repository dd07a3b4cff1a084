/**
 * @file codelet_zcgemm_lp.c
 * @brief GEMM_LP and HERK_LP tile codelets (SYRK_LP in real): single-precision tile
 * updates whose products take their inputs in TF32, BF16 or FP16 (the mixed-precision
 * solve's factorization in a lower precision, tila_factor_t).
 * @precisions mixed zc -> ds
 *
 * On a GPU they are cublasGemmEx on tensor cores (kernels/cuda/cuda_zcgemm_lp.c); on a CPU
 * the same rounding by hand into a scratch buffer (kernels/cpu/core_zcgemm_lp.c, 2 mb nb
 * elements: tila_cgemm_lp_scratch), then single precision's GEMM or HERK.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <string.h>

#include "codelets_zc.h"
#include "core_zc.h"
#ifdef TILA_USE_CUDA
#include "cuda_kernel.h"
#include "cuda_zc.h"
#endif

struct cgemm_lp_args {
    tila_cl_base_t base;
    tila_factor_t factor;
    tila_uplo_t uplo; /**< HERK_LP */
    tila_trans_t transa, transb;
    int m, n, k;
    tila_complex32_t alpha, beta; /**< GEMM_LP */
    float ralpha, rbeta;          /**< HERK_LP */
};

#ifdef TILA_USE_CUDA
static cuFloatComplex cuda_scalar(tila_complex32_t x)
{
    cuFloatComplex r;
    memcpy(&r, &x, sizeof r);
    return r;
}
#endif

/* GEMM_LP by the worker's kernel (tila_cl_run).  Buffers: A, B, C, work (the CPU's). */
static int cgemm_lp_kernel(void *buffers[], const void *cl_arg, const char **kernel)
{
    const struct cgemm_lp_args *a = cl_arg;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]), B = tila_cl_tile(buffers[1]),
                   C = tila_cl_tile(buffers[2]);
#ifdef TILA_USE_CUDA
    if (tila_cl_on_cuda()) {
        *kernel = "tila_cuda_cgemm_lp";
        return tila_cuda_cgemm_lp(tila_cublas_handle(), a->factor, a->transa, a->transb, a->m, a->n,
                                  a->k, cuda_scalar(a->alpha), A.ptr, A.ld, B.ptr, B.ld,
                                  cuda_scalar(a->beta), C.ptr, C.ld);
    }
#endif
    *kernel = "tila_core_cgemm_lp";
    return tila_core_cgemm_lp(a->factor, a->transa, a->transb, a->m, a->n, a->k, a->alpha, A.ptr,
                              A.ld, B.ptr, B.ld, a->beta, C.ptr, C.ld, tila_cl_vector(buffers[3]),
                              tila_cl_vector_bytes(buffers[3]) / sizeof(tila_complex32_t));
}

static void cgemm_lp_run(void *buffers[], void *cl_arg)
{
    tila_cl_run(buffers, cl_arg, cgemm_lp_kernel);
}

/* HERK_LP by the worker's kernel (tila_cl_run).  Buffers: A, C, work (the CPU's). */
static int cherk_lp_kernel(void *buffers[], const void *cl_arg, const char **kernel)
{
    const struct cgemm_lp_args *a = cl_arg;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]), C = tila_cl_tile(buffers[1]);
#ifdef TILA_USE_CUDA
    if (tila_cl_on_cuda()) {
        *kernel = "tila_cuda_cherk_lp";
        return tila_cuda_cherk_lp(tila_cublas_handle(), a->factor, a->uplo, a->transa, a->n, a->k,
                                  a->ralpha, A.ptr, A.ld, a->rbeta, C.ptr, C.ld);
    }
#endif
    *kernel = "tila_core_cherk_lp";
    return tila_core_cherk_lp(a->factor, a->uplo, a->transa, a->n, a->k, a->ralpha, A.ptr, A.ld,
                              a->rbeta, C.ptr, C.ld, tila_cl_vector(buffers[2]),
                              tila_cl_vector_bytes(buffers[2]) / sizeof(tila_complex32_t));
}

static void cherk_lp_run(void *buffers[], void *cl_arg)
{
    tila_cl_run(buffers, cl_arg, cherk_lp_kernel);
}

/* m n k (HERK_LP: n n k): the tiles as square tiles of that flop count. */
static size_t cgemm_lp_size(struct starpu_task *task, unsigned nimpl)
{
    const struct cgemm_lp_args *a = task->cl_arg;
    (void)nimpl;
    return tila_cl_blas3_size(sizeof(tila_complex32_t), 3, a->m, a->n, a->k);
}

/* One model per codelet, whatever the arithmetic (a run takes one). */
static struct starpu_perfmodel cgemm_lp_model =
    TILA_CL_REGRESSION_MODEL("tila_cgemm_lp", cgemm_lp_size);

static struct starpu_perfmodel cherk_lp_model =
    TILA_CL_REGRESSION_MODEL("tila_cherk_lp", cgemm_lp_size);

struct starpu_codelet tila_cl_cgemm_lp = {
    .name = "cgemm_lp",
    TILA_CL_FUNCS(cgemm_lp_run),
    .nbuffers = 4,
    .modes = { STARPU_R, STARPU_R, STARPU_RW, STARPU_SCRATCH },
    .model = &cgemm_lp_model,
};

struct starpu_codelet tila_cl_cherk_lp = {
    .name = "cherk_lp",
    TILA_CL_FUNCS(cherk_lp_run),
    .nbuffers = 3,
    .modes = { STARPU_R, STARPU_RW, STARPU_SCRATCH },
    .model = &cherk_lp_model,
};

size_t tila_cgemm_lp_scratch(int mb, int nb)
{
    int b = mb > nb ? mb : nb;
    return 2 * (size_t)b * b;
}

int tila_insert_cgemm_lp(const tila_task_t *t, tila_factor_t factor, tila_trans_t transa,
                         tila_trans_t transb, int m, int n, int k, tila_complex32_t alpha,
                         starpu_data_handle_t A, starpu_data_handle_t B, tila_complex32_t beta,
                         starpu_data_handle_t C, starpu_data_handle_t work)
{
    struct cgemm_lp_args args = {
        .transa = transa, .transb = transb, .m = m, .n = n, .k = k, .alpha = alpha, .beta = beta
    };
    args.factor = factor;
    double flops = tila_cl_gemm_flops(TILA_COMPLEX32, m, n, k);
    struct cgemm_lp_args *a;
    int rc = tila_cl_args(t, &args, sizeof args, (void **)&a);
    if (rc) return rc;
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_cgemm_lp, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, STARPU_R, A, STARPU_R, B, STARPU_RW, C,
                                STARPU_SCRATCH, work, TILA_TASK_OPTIONS(t, "cgemm_lp", flops), 0);
    return tila_task_submitted(t, rc);
}

int tila_insert_cherk_lp(const tila_task_t *t, tila_factor_t factor, tila_uplo_t uplo,
                         tila_trans_t trans, int n, int k, float alpha, starpu_data_handle_t A,
                         float beta, starpu_data_handle_t C, starpu_data_handle_t work)
{
    struct cgemm_lp_args args = {
        .uplo = uplo, .transa = trans, .m = n, .n = n, .k = k, .ralpha = alpha, .rbeta = beta
    };
    args.factor = factor;
    double flops = tila_cl_herk_flops(TILA_COMPLEX32, n, k);
    struct cgemm_lp_args *a;
    int rc = tila_cl_args(t, &args, sizeof args, (void **)&a);
    if (rc) return rc;
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_cherk_lp, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, STARPU_R, A, STARPU_RW, C, STARPU_SCRATCH, work,
                                TILA_TASK_OPTIONS(t, "cherk_lp", flops), 0);
    return tila_task_submitted(t, rc);
}
