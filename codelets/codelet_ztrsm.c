/**
 * @file codelet_ztrsm.c
 * @brief TRSM tile codelet: B = alpha op(A)^-1 B or alpha B op(A)^-1.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "codelets_z.h"
#include "core/core_z.h"
#ifdef TILA_USE_CUDA
#include <starpu_cublas_v2.h>
#include "cuda/cuda_z.h"
#endif

struct ztrsm_args {
    tila_cl_base_t base;
    tila_side_t side;
    tila_uplo_t uplo;
    tila_trans_t trans;
    tila_diag_t diag;
    int m, n;
    tila_complex64_t alpha;
};

static void ztrsm_cpu(void *buffers[], void *cl_arg)
{
    const struct ztrsm_args *a = cl_arg;
    if (tila_cl_skip(&a->base))
        return;
    tila_core_ztrsm(a->side, a->uplo, a->trans, a->diag, a->m, a->n, a->alpha,
                    (const tila_complex64_t *)STARPU_MATRIX_GET_PTR(buffers[0]),
                    (int)STARPU_MATRIX_GET_LD(buffers[0]),
                    (tila_complex64_t *)STARPU_MATRIX_GET_PTR(buffers[1]),
                    (int)STARPU_MATRIX_GET_LD(buffers[1]));
}

#ifdef TILA_USE_CUDA
static void ztrsm_cuda(void *buffers[], void *cl_arg)
{
    const struct ztrsm_args *a = cl_arg;
    if (tila_cl_skip(&a->base))
        return;
    tila_cuda_ztrsm(starpu_cublas_get_local_handle(), a->side, a->uplo, a->trans, a->diag, a->m,
                    a->n, tila_cuda_zscalar(a->alpha),
                    (const cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[0]),
                    (int)STARPU_MATRIX_GET_LD(buffers[0]),
                    (cuDoubleComplex *)STARPU_MATRIX_GET_PTR(buffers[1]),
                    (int)STARPU_MATRIX_GET_LD(buffers[1]));
}
#endif

/*
 * Left and right solves share the functions but not the model: the recursive kernel runs
 * them at different speeds (left solves 25-40 % slower on 512-1024 tiles, where BLAS's
 * own left TRSM on the small leaves is slow), and a regression model predicts from every
 * measurement of its symbol whatever the footprint.
 */
static struct starpu_perfmodel ztrsm_left_model = {
    .type = STARPU_NL_REGRESSION_BASED, /* a n^b + c over the sizes measured */
    .symbol = "tila_ztrsm_left",
};

static struct starpu_perfmodel ztrsm_right_model = {
    .type = STARPU_NL_REGRESSION_BASED,
    .symbol = "tila_ztrsm_right",
};

static struct starpu_codelet ztrsm_left_cl = {
    .name = "ztrsm",
    .cpu_funcs = { ztrsm_cpu },
#ifdef TILA_USE_CUDA
    .cuda_funcs = { ztrsm_cuda },
    .cuda_flags = { STARPU_CUDA_ASYNC },
#endif
    .nbuffers = 2,
    .modes = { STARPU_R, STARPU_RW },
    .model = &ztrsm_left_model,
};

static struct starpu_codelet ztrsm_right_cl = {
    .name = "ztrsm",
    .cpu_funcs = { ztrsm_cpu },
#ifdef TILA_USE_CUDA
    .cuda_funcs = { ztrsm_cuda },
    .cuda_flags = { STARPU_CUDA_ASYNC },
#endif
    .nbuffers = 2,
    .modes = { STARPU_R, STARPU_RW },
    .model = &ztrsm_right_model,
};

int tila_insert_ztrsm(const tila_task_t *t, tila_side_t side, tila_uplo_t uplo,
                      tila_trans_t trans, tila_diag_t diag, int m, int n,
                      tila_complex64_t alpha, starpu_data_handle_t A, starpu_data_handle_t B)
{
    struct ztrsm_args *a;
    int rc = tila_task_args(t, sizeof *a, (void **)&a);
    if (rc)
        return rc;
    if (a)
        *a = (struct ztrsm_args){ a->base, side, uplo, trans, diag, m, n, alpha };
    double order = side == TILA_LEFT ? m : n;
#if defined(COMPLEX)
    double flops = 4.0 * order * m * n;
#else
    double flops = 1.0 * order * m * n;
#endif
    rc = starpu_mpi_task_insert(tila_starpu_comm(),
                                side == TILA_LEFT ? &ztrsm_left_cl : &ztrsm_right_cl,
                                STARPU_CL_ARGS, a, a ? sizeof *a : 0,
                                STARPU_R, A, STARPU_RW, B,
                                TILA_TASK_OPTIONS(t, "ztrsm", flops), 0);
    return tila_task_submitted(t, rc);
}
