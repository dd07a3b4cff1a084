/**
 * @file codelet_zlange.c
 * @brief Norm tile codelets: fold a tile into its partial result (general, trapezoidal,
 * symmetric/Hermitian diagonal tiles; symmetric off-diagonal tiles into two partials),
 * which drivers/zlange.c reduces at the sequence's wait.  Each partial is one task's own:
 * the task starts it at zero and holds it in STARPU_W, so that no zeroed copy crosses to a
 * GPU before the task (tila_task_write).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <stdlib.h>
#include <string.h>

#include "codelets_z.h"
#include "core_z.h"
#ifdef TILA_USE_CUDA
#include "cuda_z.h"
#include "cuda_kernel.h"
#endif

struct zlange_args {
    tila_cl_base_t base;
    tila_norm_t norm;
    tila_lan_kind_t kind;
    tila_uplo_t uplo;
    tila_diag_t diag;
    int m, n;
};

static void zlange_cpu(void *buffers[], void *cl_arg)
{
    const struct zlange_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]);
    double *work = tila_cl_vector(buffers[1]);
    memset(work, 0, tila_cl_vector_bytes(buffers[1]));
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
    double *work = tila_cl_vector(buffers[1]);
    void *scratch = NULL;
    int info =
        tila_cuda_workspace(sizeof(double) * tila_cuda_zlan_scratch_elems(a->n), &scratch, 0, NULL);
    if (!info)
        info = TILA_CUDA_STATUS(cudaMemsetAsync(work, 0, tila_cl_vector_bytes(buffers[1]), stream));
    if (info) {
        tila_cl_check(&a->base, "tila_cuda_workspace", info, 0);
        return;
    }
    switch (a->kind) {
    case TILA_LAN_GE:
        info = tila_cuda_zlange(stream, a->norm, a->m, a->n, A.ptr, A.ld, work, scratch);
        break;
    case TILA_LAN_TR:
        info = tila_cuda_zlantr(stream, a->norm, a->uplo, a->diag, a->m, a->n, A.ptr, A.ld, work,
                                scratch);
        break;
#if defined(COMPLEX)
    case TILA_LAN_HE:
        info = tila_cuda_zlanhe(stream, a->norm, a->uplo, a->n, A.ptr, A.ld, work, scratch);
        break;
#endif
    default:
        info = tila_cuda_zlansy(stream, a->norm, a->uplo, a->n, A.ptr, A.ld, work, scratch);
        break;
    }
    tila_cl_check(&a->base, "tila_cuda_zlan* (norm of a tile)", info, 0);
}
#endif

static struct starpu_perfmodel zlange_model = TILA_CL_HISTORY_MODEL("tila_zlange");

struct starpu_codelet tila_cl_zlange = {
    .name = "zlange",
    .cpu_funcs = { zlange_cpu },
    TILA_CL_CUDA(zlange_cuda).nbuffers =
        STARPU_VARIABLE_NBUFFERS, /* A R, work W (tila_task_write) */
    .model = &zlange_model,
};

int tila_insert_zlange(const tila_task_t *t, tila_norm_t norm, tila_lan_kind_t kind,
                       tila_uplo_t uplo, tila_diag_t diag, int m, int n, starpu_data_handle_t A,
                       starpu_data_handle_t work)
{
    struct zlange_args args = {
        .norm = norm, .kind = kind, .uplo = uplo, .diag = diag, .m = m, .n = n
    };
    struct zlange_args *a;
    int rc = tila_cl_args(t, &args, sizeof args, (void **)&a);
    if (rc) return rc;
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zlange, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, STARPU_R, A, tila_task_write(t, work), work,
                                TILA_TASK_OPTIONS(t, "zlange", (double)m * n), 0);
    return tila_task_submitted(t, rc);
}

/* ---- Off-diagonal tile of a symmetric/Hermitian matrix ------------------------------- */

struct zlansy_offdiag_args {
    tila_cl_base_t base;
    tila_norm_t norm;
    int m, n;
};

static void zlansy_offdiag_cpu(void *buffers[], void *cl_arg)
{
    const struct zlansy_offdiag_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]);
    double *colwork = tila_cl_vector(buffers[1]);
    double *rowwork = tila_cl_vector(buffers[2]);
    memset(colwork, 0, tila_cl_vector_bytes(buffers[1]));
    memset(rowwork, 0, tila_cl_vector_bytes(buffers[2]));
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
    double *colwork = tila_cl_vector(buffers[1]);
    double *rowwork = tila_cl_vector(buffers[2]);
    void *scratch = NULL;
    int info =
        tila_cuda_workspace(sizeof(double) * tila_cuda_zlan_scratch_elems(a->n), &scratch, 0, NULL);
    if (!info)
        info =
            TILA_CUDA_STATUS(cudaMemsetAsync(colwork, 0, tila_cl_vector_bytes(buffers[1]), stream));
    if (!info)
        info =
            TILA_CUDA_STATUS(cudaMemsetAsync(rowwork, 0, tila_cl_vector_bytes(buffers[2]), stream));
    if (!info)
        info = tila_cuda_zlansy_offdiag(stream, a->norm, a->m, a->n, A.ptr, A.ld, colwork, rowwork,
                                        scratch);
    tila_cl_check(&a->base, "tila_cuda_zlansy_offdiag", info, 0);
}
#endif

static struct starpu_perfmodel zlansy_offdiag_model = TILA_CL_HISTORY_MODEL("tila_zlansy_offdiag");

struct starpu_codelet tila_cl_zlansy_offdiag = {
    .name = "zlansy_offdiag",
    .cpu_funcs = { zlansy_offdiag_cpu },
    TILA_CL_CUDA(zlansy_offdiag_cuda).nbuffers =
        STARPU_VARIABLE_NBUFFERS, /* A R, colwork and rowwork W (tila_task_write) */
    .model = &zlansy_offdiag_model,
};

int tila_insert_zlansy_offdiag(const tila_task_t *t, tila_norm_t norm, int m, int n,
                               starpu_data_handle_t A, starpu_data_handle_t colwork,
                               starpu_data_handle_t rowwork)
{
    struct zlansy_offdiag_args args = { .norm = norm, .m = m, .n = n };
    struct zlansy_offdiag_args *a;
    int rc = tila_cl_args(t, &args, sizeof args, (void **)&a);
    if (rc) return rc;
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zlansy_offdiag, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, STARPU_R, A, tila_task_write(t, colwork),
                                colwork, tila_task_write(t, rowwork), rowwork,
                                TILA_TASK_OPTIONS(t, "zlansy_offdiag", (double)m * n), 0);
    return tila_task_submitted(t, rc);
}

/* ---- Many tiles of one rank and device in one task ----------------------------------- */

/* The tiles' descriptions after the arguments. */
struct zlange_tiles_args {
    tila_cl_base_t base;
    tila_norm_t norm;
    int count;
    tila_cl_lan_tile_t tile[];
};

/* The task's tiles where it runs (buffers 0 .. count - 1) as the kernels take them. */
static tila_lan_tile_t *zlange_tiles_here(void *buffers[], const struct zlange_tiles_args *a)
{
    tila_lan_tile_t *t = malloc(sizeof *t * (size_t)a->count);
    for (int i = 0; t && i < a->count; i++) {
        tila_cl_tile_t A = tila_cl_tile(buffers[i]);
        const tila_cl_lan_tile_t *d = &a->tile[i];
        t[i] = (tila_lan_tile_t){ .A = A.ptr,
                                  .lda = A.ld,
                                  .m = d->m,
                                  .n = d->n,
                                  .trapezoid = d->kind == TILA_LAN_TR,
                                  .uplo = d->uplo,
                                  .diag = d->diag,
                                  .off = d->off };
    }
    return t;
}

static void zlange_tiles_cpu(void *buffers[], void *cl_arg)
{
    const struct zlange_tiles_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    double *work = tila_cl_vector(buffers[a->count]);
    memset(work, 0, tila_cl_vector_bytes(buffers[a->count]));
    tila_lan_tile_t *t = zlange_tiles_here(buffers, a);
    int info = t ? tila_core_zlange_tiles(a->norm, a->count, t, work) : TILA_ERR_NOMEM;
    free(t);
    tila_cl_check(&a->base, "tila_core_zlange_tiles (norm of tiles)", info, 0);
}

#ifdef TILA_USE_CUDA
static void zlange_tiles_cuda(void *buffers[], void *cl_arg)
{
    const struct zlange_tiles_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    cudaStream_t stream = starpu_cuda_get_local_stream();
    double *work = tila_cl_vector(buffers[a->count]);
    void *scratch = NULL;
    tila_lan_tile_t *t = zlange_tiles_here(buffers, a);
    size_t bytes = t ? tila_cuda_zlange_tiles_scratch(a->norm, a->count, t) : 0;
    int info = t ? tila_cuda_workspace(bytes, &scratch, 0, NULL) : TILA_ERR_NOMEM;
    if (!info)
        info = TILA_CUDA_STATUS(
            cudaMemsetAsync(work, 0, tila_cl_vector_bytes(buffers[a->count]), stream));
    if (!info) info = tila_cuda_zlange_tiles(stream, a->norm, a->count, t, work, scratch, bytes);
    free(t);
    tila_cl_check(&a->base, "tila_cuda_zlange_tiles (norm of tiles)", info, 0);
}
#endif

/* c + a size (StarPU's a size^b + c), size the tiles' bytes: a batch's tiles vary from call
 * to call, which a history (one time a footprint) would not predict, nor simulate. */
static struct starpu_perfmodel zlange_tiles_model = { .type = STARPU_NL_REGRESSION_BASED,
                                                      .symbol = "tila_zlange_tiles" };

struct starpu_codelet tila_cl_zlange_tiles = {
    .name = "zlange_tiles",
    .cpu_funcs = { zlange_tiles_cpu },
    TILA_CL_CUDA(zlange_tiles_cuda).nbuffers =
        STARPU_VARIABLE_NBUFFERS, /* the tiles R, work W (tila_task_write) */
    .model = &zlange_tiles_model,
};

int tila_insert_zlange_tiles(const tila_task_t *t, tila_norm_t norm, int count,
                             const tila_cl_lan_tile_t *tiles, const starpu_data_handle_t *A,
                             starpu_data_handle_t work)
{
    struct starpu_data_descr *descr = malloc(sizeof *descr * (size_t)(count + 1));
    if (!descr) return TILA_ERR_NOMEM;
    double elems = 0;
    for (int i = 0; i < count; i++) {
        descr[i] = (struct starpu_data_descr){ .handle = A[i], .mode = STARPU_R };
        elems += (double)tiles[i].m * tiles[i].n;
    }
    descr[count] = (struct starpu_data_descr){ .handle = work, .mode = tila_task_write(t, work) };
    double place = tila_task_gpu_flops(t, elems); /* a GPU's tiles read on the GPU */
    struct zlange_tiles_args *a;
    size_t size = sizeof *a + sizeof *a->tile * (size_t)count;
    int rc = tila_task_args(t, size, (void **)&a);
    if (!rc) {
        if (a) {
            a->norm = norm;
            a->count = count;
            memcpy(a->tile, tiles, sizeof *tiles * (size_t)count);
        }
        rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zlange_tiles, STARPU_CL_ARGS, a,
                                    a ? size : 0, STARPU_DATA_MODE_ARRAY, descr, count + 1,
                                    TILA_TASK_OPTIONS(t, "zlange_tiles", place), 0);
        rc = tila_task_submitted(t, rc);
    }
    free(descr);
    return rc;
}
