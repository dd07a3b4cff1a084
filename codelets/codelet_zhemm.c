/**
 * @file codelet_zhemm.c
 * @brief HEMM tile codelet (SYMM in real precisions): C = alpha A B + beta C, A Hermitian.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "codelets_z.h"
#include "core_z.h"
#ifdef TILA_USE_CUDA
#include "cuda_z.h"
#endif

struct zhemm_args {
    tila_cl_base_t base;
    tila_side_t side;
    tila_uplo_t uplo;
    int m, n;
    tila_complex64_t alpha, beta;
};

/* C = alpha A B + beta C (or alpha B A + beta C), A Hermitian, by the worker's kernel
 * (tila_cl_run). */
static int zhemm_kernel(void *buffers[], const void *cl_arg, const char **kernel)
{
    const struct zhemm_args *a = cl_arg;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]), B = tila_cl_tile(buffers[1]),
                   C = tila_cl_tile(buffers[2]);
#ifdef TILA_USE_CUDA
    if (tila_cl_on_cuda()) {
        *kernel = "tila_cuda_zhemm";
        return tila_cuda_zhemm(tila_cublas_handle(), a->side, a->uplo, a->m, a->n,
                               tila_cuda_zscalar(a->alpha), A.ptr, A.ld, B.ptr, B.ld,
                               tila_cuda_zscalar(a->beta), C.ptr, C.ld);
    }
#endif
    *kernel = "tila_core_zhemm";
    return tila_core_zhemm(a->side, a->uplo, a->m, a->n, a->alpha, A.ptr, A.ld, B.ptr, B.ld,
                           a->beta, C.ptr, C.ld);
}

static void zhemm_run(void *buffers[], void *cl_arg) { tila_cl_run(buffers, cl_arg, zhemm_kernel); }

static struct starpu_perfmodel zhemm_model = TILA_CL_HISTORY_MODEL("tila_zhemm");

struct starpu_codelet tila_cl_zhemm = {
    .name = "zhemm",
    TILA_CL_FUNCS(zhemm_run),
    .nbuffers = STARPU_VARIABLE_NBUFFERS, /* A, B R; C RW, or W when beta = 0 */
    .model = &zhemm_model,
};

/** C = alpha A B + beta C (TILA_LEFT) or alpha B A + beta C (TILA_RIGHT), C m x n. */
int tila_insert_zhemm(const tila_task_t *t, tila_side_t side, tila_uplo_t uplo, int m, int n,
                      tila_complex64_t alpha, starpu_data_handle_t A, starpu_data_handle_t B,
                      tila_complex64_t beta, starpu_data_handle_t C)
{
    struct zhemm_args args = {
        .side = side, .uplo = uplo, .m = m, .n = n, .alpha = alpha, .beta = beta
    };
    double flops = tila_cl_gemm_flops(TILA_COMPLEX64, m, n, side == TILA_LEFT ? m : n);
    struct zhemm_args *a;
    int rc = tila_cl_args(t, &args, sizeof args, (void **)&a);
    if (rc) return rc;
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zhemm, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, STARPU_R, A, STARPU_R, B,
                                beta == (tila_complex64_t)0 ? tila_task_write(t, C) : STARPU_RW, C,
                                TILA_TASK_OPTIONS(t, "zhemm", flops), 0);
    return tila_task_submitted(t, rc);
}
