/**
 * @file codelet_zherk.c
 * @brief HERK tile codelet (SYRK in real precisions): C = alpha op(A) op(A)^H + beta C.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "codelets_z.h"
#include "core_z.h"
#ifdef TILA_USE_CUDA
#include "cuda_z.h"
#endif

struct zherk_args {
    tila_cl_base_t base;
    tila_uplo_t uplo;
    tila_trans_t trans;
    int n, k;
    double alpha, beta;
};

/* C = alpha op(A) op(A)^H + beta C by the worker's kernel (tila_cl_run). */
static int zherk_kernel(void *buffers[], const void *cl_arg, const char **kernel)
{
    const struct zherk_args *a = cl_arg;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]), C = tila_cl_tile(buffers[1]);
#ifdef TILA_USE_CUDA
    if (tila_cl_on_cuda()) {
        *kernel = "tila_cuda_zherk";
        return tila_cuda_zherk(tila_cublas_handle(), a->uplo, a->trans, a->n, a->k, a->alpha, A.ptr,
                               A.ld, a->beta, C.ptr, C.ld);
    }
#endif
    *kernel = "tila_core_zherk";
    return tila_core_zherk(a->uplo, a->trans, a->n, a->k, a->alpha, A.ptr, A.ld, a->beta, C.ptr,
                           C.ld);
}

static void zherk_run(void *buffers[], void *cl_arg) { tila_cl_run(buffers, cl_arg, zherk_kernel); }

/* n n k: A and C as square tiles of that flop count (tila_cl_blas3_size). */
static size_t zherk_size(struct starpu_task *task, unsigned nimpl)
{
    const struct zherk_args *a = task->cl_arg;
    (void)nimpl;
    return tila_cl_blas3_size(sizeof(tila_complex64_t), 2, a->n, a->n, a->k);
}

static struct starpu_perfmodel zherk_model = TILA_CL_REGRESSION_MODEL("tila_zherk", zherk_size);

struct starpu_codelet tila_cl_zherk = {
    .name = "zherk",
    TILA_CL_FUNCS(zherk_run),
    .nbuffers = 2,
    .modes = { STARPU_R, STARPU_RW },
    .model = &zherk_model,
};

int tila_insert_zherk(const tila_task_t *t, tila_uplo_t uplo, tila_trans_t trans, int n, int k,
                      double alpha, starpu_data_handle_t A, double beta, starpu_data_handle_t C)
{
    struct zherk_args args = {
        .uplo = uplo, .trans = trans, .n = n, .k = k, .alpha = alpha, .beta = beta
    };
    double flops = tila_cl_herk_flops(TILA_COMPLEX64, n, k);
    struct zherk_args *a;
    int rc = tila_cl_args(t, &args, sizeof args, (void **)&a);
    if (rc) return rc;
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zherk, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, STARPU_R, A, STARPU_RW, C,
                                TILA_TASK_OPTIONS(t, "zherk", flops), 0);
    return tila_task_submitted(t, rc);
}
