/**
 * @file codelet_ztrxm.c
 * @brief Triangular tile codelets: TRSM, B = alpha op(A)^-1 B or alpha B op(A)^-1, and
 *        TRMM, B = alpha op(A) B or alpha B op(A) (same arguments, same flops).
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

struct ztrxm_args {
    tila_cl_base_t base;
    tila_side_t side;
    tila_uplo_t uplo;
    tila_trans_t trans;
    tila_diag_t diag;
    int m, n;
    tila_complex64_t alpha;
};

/* TRSM by the worker's kernel (tila_cl_run); on a GPU by cuBLAS's trsm whole, or halved down
 * to triangles of TILA_CUDA_TRSM_LEAF rows with the couplings by GEMM (tila_cuda_ztrsm_rec;
 * on an H200 leaf 256 ran a 2048-tile no faster than cuBLAS's trsm, bench/LOG.md, so the
 * default is 0: whole). */
static int ztrsm_kernel(void *buffers[], const void *cl_arg, const char **kernel)
{
    const struct ztrxm_args *a = cl_arg;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]), B = tila_cl_tile(buffers[1]);
#ifdef TILA_USE_CUDA
    if (tila_cl_on_cuda()) {
        static int leaf = -1; /* read once; threads that race read the same value */
        if (leaf < 0) {
            const char *v = getenv("TILA_CUDA_TRSM_LEAF");
            leaf = v && *v ? atoi(v) : 0;
            if (leaf < 0) leaf = 0;
        }
        *kernel = "tila_cuda_ztrsm_rec";
        return tila_cuda_ztrsm_rec(tila_cublas_handle(), a->side, a->uplo, a->trans, a->diag, a->m,
                                   a->n, tila_cuda_zscalar(a->alpha), A.ptr, A.ld, B.ptr, B.ld,
                                   leaf);
    }
#endif
    *kernel = "tila_core_ztrsm";
    return tila_core_ztrsm(a->side, a->uplo, a->trans, a->diag, a->m, a->n, a->alpha, A.ptr, A.ld,
                           B.ptr, B.ld);
}

static void ztrsm_run(void *buffers[], void *cl_arg) { tila_cl_run(buffers, cl_arg, ztrsm_kernel); }

/* TRMM by the worker's kernel (tila_cl_run); on a GPU by GEMM on the triangle made full, in
 * the worker's device workspace (tila_cuda_ztrmm_gemm: cuBLAS's trmm is several times slower
 * than its gemm). */
static int ztrmm_kernel(void *buffers[], const void *cl_arg, const char **kernel)
{
    const struct ztrxm_args *a = cl_arg;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]), B = tila_cl_tile(buffers[1]);
#ifdef TILA_USE_CUDA
    if (tila_cl_on_cuda()) {
        void *work = NULL;
        size_t bytes = sizeof(cuDoubleComplex) * tila_cuda_ztrmm_gemm_work(a->side, a->m, a->n);
        *kernel = "tila_cuda_ztrmm_gemm";
        int info = tila_cuda_workspace(bytes, &work, 0, NULL);
        if (!info)
            info = tila_cuda_ztrmm_gemm(tila_cublas_handle(), a->side, a->uplo, a->trans, a->diag,
                                        a->m, a->n, tila_cuda_zscalar(a->alpha), A.ptr, A.ld, B.ptr,
                                        B.ld, work);
        return info;
    }
#endif
    *kernel = "tila_core_ztrmm";
    return tila_core_ztrmm(a->side, a->uplo, a->trans, a->diag, a->m, a->n, a->alpha, A.ptr, A.ld,
                           B.ptr, B.ld);
}

static void ztrmm_run(void *buffers[], void *cl_arg) { tila_cl_run(buffers, cl_arg, ztrmm_kernel); }

/* m m n (left) or m n n (right): A and B as square tiles of that flop count
 * (tila_cl_blas3_size). */
static size_t ztrxm_size(struct starpu_task *task, unsigned nimpl)
{
    const struct ztrxm_args *a = task->cl_arg;
    int k = a->side == TILA_LEFT ? a->m : a->n;
    (void)nimpl;
    return tila_cl_blas3_size(sizeof(tila_complex64_t), 2, a->m, a->n, k);
}

/*
 * Left and right solves share the functions but not the model: the recursive kernel runs
 * them at different speeds (left solves 25-40 % slower on 512-1024 tiles, where BLAS's
 * own left TRSM on the small leaves is slow), and a regression model predicts from every
 * measurement of its symbol whatever the footprint.
 */
static struct starpu_perfmodel ztrsm_left_model =
    TILA_CL_REGRESSION_MODEL("tila_ztrsm_left", ztrxm_size);

static struct starpu_perfmodel ztrsm_right_model =
    TILA_CL_REGRESSION_MODEL("tila_ztrsm_right", ztrxm_size);

static struct starpu_codelet ztrsm_left_cl = {
    .name = "ztrsm",
    TILA_CL_FUNCS(ztrsm_run),
    .nbuffers = 2,
    .modes = { STARPU_R, STARPU_RW },
    .model = &ztrsm_left_model,
};

static struct starpu_codelet ztrsm_right_cl = {
    .name = "ztrsm",
    TILA_CL_FUNCS(ztrsm_run),
    .nbuffers = 2,
    .modes = { STARPU_R, STARPU_RW },
    .model = &ztrsm_right_model,
};

static struct starpu_perfmodel ztrmm_model = TILA_CL_REGRESSION_MODEL("tila_ztrmm", ztrxm_size);

static struct starpu_codelet ztrmm_cl = {
    .name = "ztrmm",
    TILA_CL_FUNCS(ztrmm_run),
    .nbuffers = 2,
    .modes = { STARPU_R, STARPU_RW },
    .model = &ztrmm_model,
};

static int ztrxm_insert(struct starpu_codelet *cl, const tila_task_t *t, tila_side_t side,
                        tila_uplo_t uplo, tila_trans_t trans, tila_diag_t diag, int m, int n,
                        tila_complex64_t alpha, starpu_data_handle_t A, starpu_data_handle_t B)
{
    struct ztrxm_args args = {
        .side = side, .uplo = uplo, .trans = trans, .diag = diag, .m = m, .n = n, .alpha = alpha
    };
    struct ztrxm_args *a;
    int rc = tila_cl_args(t, &args, sizeof args, (void **)&a);
    if (rc) return rc;
    /* Half a GEMM's: a triangle's multiply-adds. */
    double flops = tila_cl_gemm_flops(TILA_COMPLEX64, side == TILA_LEFT ? m : n, m, n) / 2;
    rc =
        starpu_mpi_task_insert(tila_starpu_comm(), cl, STARPU_CL_ARGS, a, a ? sizeof *a : 0,
                               STARPU_R, A, STARPU_RW, B, TILA_TASK_OPTIONS(t, cl->name, flops), 0);
    return tila_task_submitted(t, rc);
}

int tila_insert_ztrsm(const tila_task_t *t, tila_side_t side, tila_uplo_t uplo, tila_trans_t trans,
                      tila_diag_t diag, int m, int n, tila_complex64_t alpha,
                      starpu_data_handle_t A, starpu_data_handle_t B)
{
    return ztrxm_insert(side == TILA_LEFT ? &ztrsm_left_cl : &ztrsm_right_cl, t, side, uplo, trans,
                        diag, m, n, alpha, A, B);
}

int tila_insert_ztrmm(const tila_task_t *t, tila_side_t side, tila_uplo_t uplo, tila_trans_t trans,
                      tila_diag_t diag, int m, int n, tila_complex64_t alpha,
                      starpu_data_handle_t A, starpu_data_handle_t B)
{
    return ztrxm_insert(&ztrmm_cl, t, side, uplo, trans, diag, m, n, alpha, A, B);
}
