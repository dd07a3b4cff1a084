/**
 * @file codelet_zlange.c
 * @brief Norm tile codelets: fold a tile into a partial result (general, trapezoidal,
 * symmetric/Hermitian diagonal tiles; symmetric off-diagonal tiles into two partials).
 * @precisions normal z -> c d s
 *
 * A tile task reads the partial of the tiles before it (in) and writes a new one (out),
 * so that chains of tasks add the tiles of a row or column in order; when the partial
 * is already on the task's rank it is folded in place (one read-write buffer).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <string.h>

#include "codelets_z.h"
#include "core/core_z.h"
#ifdef TILA_USE_CUDA
#include "cuda/cuda_z.h"
#include "cuda/cuda_kernel.h"
#endif

struct zlange_args {
    tila_cl_base_t base;
    tila_norm_t norm;
    tila_lan_kind_t kind;
    tila_uplo_t uplo;
    tila_diag_t diag;
    int m, n, len;
    int inplace; /**< buffers: A, work (RW); else A, in (R), out (W) */
};

static void zlange_cpu(void *buffers[], void *cl_arg)
{
    const struct zlange_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]);
    double *work = tila_cl_vector(buffers[a->inplace ? 1 : 2]);
    if (!a->inplace) memcpy(work, tila_cl_vector(buffers[1]), sizeof(double) * a->len);
    int info;
    switch (a->kind) {
    case TILA_LAN_GE: info = tila_core_zlange(a->norm, a->m, a->n, A.ptr, A.ld, work); break;
    case TILA_LAN_TR:
        info = tila_core_zlantr(a->norm, a->uplo, a->diag, a->m, a->n, A.ptr, A.ld, work);
        break;
#if defined(COMPLEX)
    case TILA_LAN_HE: info = tila_core_zlanhe(a->norm, a->uplo, a->n, A.ptr, A.ld, work); break;
#endif
    default: info = tila_core_zlansy(a->norm, a->uplo, a->n, A.ptr, A.ld, work); break;
    }
    tila_cl_check(&a->base, "tila_core_zlan* (norm of a tile)", info, 0);
}

#ifdef TILA_USE_CUDA
static void zlange_cuda(void *buffers[], void *cl_arg)
{
    const struct zlange_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]);
    cudaStream_t stream = starpu_cuda_get_local_stream();
    double *work = tila_cl_vector(buffers[a->inplace ? 1 : 2]);
    if (!a->inplace)
        TILA_CUDA_CHECK(cudaMemcpyAsync(work, tila_cl_vector(buffers[1]), sizeof(double) * a->len,
                                        cudaMemcpyDeviceToDevice, stream));
    int info;
    switch (a->kind) {
    case TILA_LAN_GE:
        info = tila_cuda_zlange(stream, a->norm, a->m, a->n, A.ptr, A.ld, work);
        break;
    case TILA_LAN_TR:
        info = tila_cuda_zlantr(stream, a->norm, a->uplo, a->diag, a->m, a->n, A.ptr, A.ld, work);
        break;
#if defined(COMPLEX)
    case TILA_LAN_HE:
        info = tila_cuda_zlanhe(stream, a->norm, a->uplo, a->n, A.ptr, A.ld, work);
        break;
#endif
    default: info = tila_cuda_zlansy(stream, a->norm, a->uplo, a->n, A.ptr, A.ld, work); break;
    }
    tila_cl_check(&a->base, "tila_cuda_zlan* (norm of a tile)", info, 0);
}
#endif

static struct starpu_perfmodel zlange_model = {
    .type = STARPU_HISTORY_BASED,
    .symbol = "tila_zlange",
};

struct starpu_codelet tila_cl_zlange = {
    .name = "zlange",
    .cpu_funcs = { zlange_cpu },
#ifdef TILA_USE_CUDA
    .cuda_funcs = { zlange_cuda },
    .cuda_flags = { STARPU_CUDA_ASYNC },
#endif
    .nbuffers = 3,
    .modes = { STARPU_R, STARPU_R, STARPU_W },
    .model = &zlange_model,
};

/* The same folding in place. */
struct starpu_codelet tila_cl_zlange_inplace = {
    .name = "zlange",
    .cpu_funcs = { zlange_cpu },
#ifdef TILA_USE_CUDA
    .cuda_funcs = { zlange_cuda },
    .cuda_flags = { STARPU_CUDA_ASYNC },
#endif
    .nbuffers = 2,
    .modes = { STARPU_R, STARPU_RW },
    .model = &zlange_model,
};

int tila_insert_zlange(const tila_task_t *t, tila_norm_t norm, tila_lan_kind_t kind,
                       tila_uplo_t uplo, tila_diag_t diag, int m, int n, starpu_data_handle_t A,
                       starpu_data_handle_t in, starpu_data_handle_t out, int len)
{
    struct zlange_args *a;
    int rc = tila_task_args(t, sizeof *a, (void **)&a);
    if (rc) return rc;
    if (a)
        *a = (struct zlange_args){ .base = a->base,
                                   .norm = norm,
                                   .kind = kind,
                                   .uplo = uplo,
                                   .diag = diag,
                                   .m = m,
                                   .n = n,
                                   .len = len,
                                   .inplace = in == NULL };
    if (in)
        rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zlange, STARPU_CL_ARGS, a,
                                    a ? sizeof *a : 0, STARPU_R, A, STARPU_R, in, STARPU_W, out,
                                    TILA_TASK_OPTIONS(t, "zlange", (double)m * n), 0);
    else
        rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zlange_inplace, STARPU_CL_ARGS, a,
                                    a ? sizeof *a : 0, STARPU_R, A, STARPU_RW, out,
                                    TILA_TASK_OPTIONS(t, "zlange", (double)m * n), 0);
    return tila_task_submitted(t, rc);
}

/* ---- Off-diagonal tile of a symmetric/Hermitian matrix ------------------------------- */

struct zlansy_offdiag_args {
    tila_cl_base_t base;
    tila_norm_t norm;
    int m, n, collen, rowlen;
};

static void zlansy_offdiag_cpu(void *buffers[], void *cl_arg)
{
    const struct zlansy_offdiag_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]);
    double *colwork = tila_cl_vector(buffers[3]);
    double *rowwork = tila_cl_vector(buffers[4]);
    memcpy(colwork, tila_cl_vector(buffers[1]), sizeof(double) * a->collen);
    memcpy(rowwork, tila_cl_vector(buffers[2]), sizeof(double) * a->rowlen);
    int info = tila_core_zlansy_offdiag(a->norm, a->m, a->n, A.ptr, A.ld, colwork, rowwork);
    tila_cl_check(&a->base, "tila_core_zlansy_offdiag", info, 0);
}

#ifdef TILA_USE_CUDA
static void zlansy_offdiag_cuda(void *buffers[], void *cl_arg)
{
    const struct zlansy_offdiag_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]);
    cudaStream_t stream = starpu_cuda_get_local_stream();
    double *colwork = tila_cl_vector(buffers[3]);
    double *rowwork = tila_cl_vector(buffers[4]);
    TILA_CUDA_CHECK(cudaMemcpyAsync(colwork, tila_cl_vector(buffers[1]), sizeof(double) * a->collen,
                                    cudaMemcpyDeviceToDevice, stream));
    TILA_CUDA_CHECK(cudaMemcpyAsync(rowwork, tila_cl_vector(buffers[2]), sizeof(double) * a->rowlen,
                                    cudaMemcpyDeviceToDevice, stream));
    int info = tila_cuda_zlansy_offdiag(stream, a->norm, a->m, a->n, A.ptr, A.ld, colwork, rowwork);
    tila_cl_check(&a->base, "tila_cuda_zlansy_offdiag", info, 0);
}
#endif

static struct starpu_perfmodel zlansy_offdiag_model = {
    .type = STARPU_HISTORY_BASED,
    .symbol = "tila_zlansy_offdiag",
};

struct starpu_codelet tila_cl_zlansy_offdiag = {
    .name = "zlansy_offdiag",
    .cpu_funcs = { zlansy_offdiag_cpu },
#ifdef TILA_USE_CUDA
    .cuda_funcs = { zlansy_offdiag_cuda },
    .cuda_flags = { STARPU_CUDA_ASYNC },
#endif
    .nbuffers = 5,
    .modes = { STARPU_R, STARPU_R, STARPU_R, STARPU_W, STARPU_W },
    .model = &zlansy_offdiag_model,
};

int tila_insert_zlansy_offdiag(const tila_task_t *t, tila_norm_t norm, int m, int n,
                               starpu_data_handle_t A, starpu_data_handle_t colin,
                               starpu_data_handle_t rowin, starpu_data_handle_t colout,
                               starpu_data_handle_t rowout, int collen, int rowlen)
{
    struct zlansy_offdiag_args *a;
    int rc = tila_task_args(t, sizeof *a, (void **)&a);
    if (rc) return rc;
    if (a)
        *a = (struct zlansy_offdiag_args){
            .base = a->base, .norm = norm, .m = m, .n = n, .collen = collen, .rowlen = rowlen
        };
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zlansy_offdiag, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, STARPU_R, A, STARPU_R, colin, STARPU_R, rowin,
                                STARPU_W, colout, STARPU_W, rowout,
                                TILA_TASK_OPTIONS(t, "zlansy_offdiag", (double)m * n), 0);
    return tila_task_submitted(t, rc);
}
