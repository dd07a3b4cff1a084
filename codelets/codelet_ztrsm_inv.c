/**
 * @file codelet_ztrsm_inv.c
 * @brief TRSM_INV tile codelet: B = alpha op(A)^-1 B or alpha B op(A)^-1 by a GEMM with T =
 *        A^-1 (TRTRI's), or by TRSM with A where TRTRI's record says the inverse is unsafe.
 * @precisions normal z -> c d s
 *
 * A GEMM with the inverse is as backward stable as the inverse is accurate: the residual
 * of the solve grows with cond(A) (Higham, "Accuracy and Stability of Numerical
 * Algorithms", 14.3 and 13.3.2), where TRSM's does not.  So each task reads TRTRI's record
 * on the host (it lives in main memory on every worker) and applies the inverse only where
 * the inversion succeeded and cond_1(A), exact from the column sums of A and A^-1, is at
 * most the task's bound; else it solves with A itself, as the TRSM codelet does.  Both
 * workers decide alike from the same record.  B is copied into the scratch W first, since
 * GEMM does not work in place.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <string.h>

#include "codelets_z.h"
#include "core_z.h"
#ifdef TILA_USE_CUDA
#include "cuda_z.h"
#endif

struct ztrsm_inv_args {
    tila_cl_base_t base;
    tila_side_t side;
    tila_uplo_t uplo;
    tila_trans_t trans;
    tila_diag_t diag;
    int m, n;
    tila_complex64_t alpha;
    double bound; /**< largest cond_1(A) whose inverse is applied */
};

/* Whether the task applies TRTRI's inverse (its record in main memory), or solves with A. */
static int ztrsm_inv_applies(const struct ztrsm_inv_args *a, void *buffer)
{
    const double *record = tila_cl_tile(buffer).ptr;
    int info;
    memcpy(&info, record, sizeof info);
    int order = a->side == TILA_LEFT ? a->m : a->n;
    return info == 0 && tila_core_ztrtri_cond(a->diag, order, record + 2) <= a->bound;
}

/* B = alpha op(A)^-1 B (or B op(A)^-1) by the worker's kernels (tila_cl_run): a GEMM with
 * TRTRI's inverse T where it applies, a TRSM with A otherwise. */
static int ztrsm_inv_kernel(void *buffers[], const void *cl_arg, const char **kernel)
{
    const struct ztrsm_inv_args *a = cl_arg;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]), T = tila_cl_tile(buffers[1]),
                   B = tila_cl_tile(buffers[3]);
    int inverse = ztrsm_inv_applies(a, buffers[2]);
#ifdef TILA_USE_CUDA
    if (tila_cl_on_cuda()) {
        *kernel = "tila_cuda_ztrsm_inv";
        if (inverse)
            return tila_cuda_ztrsm_inv(tila_cublas_handle(), starpu_cuda_get_local_stream(),
                                       a->side, a->trans, a->m, a->n, tila_cuda_zscalar(a->alpha),
                                       T.ptr, T.ld, B.ptr, B.ld, tila_cl_vector(buffers[4]),
                                       a->m > 1 ? a->m : 1);
        return tila_cuda_ztrsm(tila_cublas_handle(), a->side, a->uplo, a->trans, a->diag, a->m,
                               a->n, tila_cuda_zscalar(a->alpha), A.ptr, A.ld, B.ptr, B.ld);
    }
#endif
    *kernel = "tila_core_ztrsm_inv";
    if (inverse)
        return tila_core_ztrsm_inv(a->side, a->trans, a->m, a->n, a->alpha, T.ptr, T.ld, B.ptr,
                                   B.ld, tila_cl_vector(buffers[4]), a->m > 1 ? a->m : 1);
    return tila_core_ztrsm(a->side, a->uplo, a->trans, a->diag, a->m, a->n, a->alpha, A.ptr, A.ld,
                           B.ptr, B.ld);
}

static void ztrsm_inv_run(void *buffers[], void *cl_arg)
{
    tila_cl_run(buffers, cl_arg, ztrsm_inv_kernel);
}

/* m n k, k the triangle's order: the GEMM's three tiles (tila_cl_blas3_size). */
static size_t ztrsm_inv_size(struct starpu_task *task, unsigned nimpl)
{
    const struct ztrsm_inv_args *a = task->cl_arg;
    (void)nimpl;
    return tila_cl_blas3_size(sizeof(tila_complex64_t), 3, a->m, a->n,
                              a->side == TILA_LEFT ? a->m : a->n);
}

static struct starpu_perfmodel ztrsm_inv_model =
    TILA_CL_REGRESSION_MODEL("tila_ztrsm_inv", ztrsm_inv_size);

struct starpu_codelet tila_cl_ztrsm_inv = {
    .name = "ztrsm_inv",
    TILA_CL_FUNCS(ztrsm_inv_run),
    .nbuffers = 5,
    .modes = { STARPU_R, STARPU_R, STARPU_R, STARPU_RW, STARPU_SCRATCH },
    .specific_nodes = 1,
    .nodes = { STARPU_SPECIFIC_NODE_LOCAL, STARPU_SPECIFIC_NODE_LOCAL, STARPU_SPECIFIC_NODE_CPU,
               STARPU_SPECIFIC_NODE_LOCAL, STARPU_SPECIFIC_NODE_LOCAL },
    .model = &ztrsm_inv_model,
};

int tila_insert_ztrsm_inv(const tila_task_t *t, tila_side_t side, tila_uplo_t uplo,
                          tila_trans_t trans, tila_diag_t diag, int m, int n,
                          tila_complex64_t alpha, double bound, starpu_data_handle_t A,
                          starpu_data_handle_t T, starpu_data_handle_t record,
                          starpu_data_handle_t B, starpu_data_handle_t W)
{
    struct ztrsm_inv_args args = {
        .side = side, .uplo = uplo, .trans = trans, .diag = diag, .m = m, .n = n, .alpha = alpha
    };
    args.bound = bound;
    struct ztrsm_inv_args *a;
    int rc = tila_cl_args(t, &args, sizeof args, (void **)&a);
    if (rc) return rc;
    /* The GEMM's flops (the fallback's TRSM does half as many). */
    double flops = tila_cl_gemm_flops(TILA_COMPLEX64, side == TILA_LEFT ? m : n, m, n);
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_ztrsm_inv, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, STARPU_R, A, STARPU_R, T, STARPU_R, record,
                                STARPU_RW, B, STARPU_SCRATCH, W,
                                TILA_TASK_OPTIONS(t, "ztrsm_inv", flops), 0);
    return tila_task_submitted(t, rc);
}
