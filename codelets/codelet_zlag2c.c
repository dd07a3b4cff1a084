/**
 * @file codelet_zlag2c.c
 * @brief LAG2C and LAG2Z tile codelets: a tile to the other precision of its pair (double
 * complex and single complex; double and single in real).
 * @precisions mixed zc -> ds
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "codelets_zc.h"
#include "core_zc.h"
#ifdef TILA_USE_CUDA
#include "cuda_kernel.h"
#include "cuda_zc.h"
#endif

/* Buffers: the double tile first, the single one second, whichever is written. */
struct zlag2c_args {
    tila_cl_base_t base;
    tila_uplo_t uplo;
    int m, n;
    int *info_host; /**< CUDA, to single: pinned slot the overflow flag is copied to */
};

static void zlag2c_cpu(void *buffers[], void *cl_arg)
{
    const struct zlag2c_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]), SA = tila_cl_tile(buffers[1]);
    int info = tila_core_zlag2c(a->uplo, a->m, a->n, A.ptr, A.ld, SA.ptr, SA.ld);
    tila_cl_check(&a->base, "tila_core_zlag2c", info, 0);
}

#ifdef TILA_USE_CUDA
static void CUDART_CB zlag2c_cuda_status(void *cl_arg)
{
    const struct zlag2c_args *a = cl_arg;
    if (*a->info_host > 0) tila_cl_fail(&a->base, *a->info_host);
}

static void zlag2c_cuda(void *buffers[], void *cl_arg)
{
    struct zlag2c_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]), SA = tila_cl_tile(buffers[1]);
    cudaStream_t stream = starpu_cuda_get_local_stream();
    void *overflow = NULL;
    a->info_host = tila_cuda_info_slot();
    int info = tila_cuda_workspace(TILA_CUDA_INFO_BYTES, &overflow, 0, NULL);
    if (!info)
        info = tila_cuda_zlag2c(stream, a->uplo, a->m, a->n, A.ptr, A.ld, SA.ptr, SA.ld, overflow);
    if (!info)
        info = TILA_CUDA_STATUS(
            cudaMemcpyAsync(a->info_host, overflow, sizeof(int), cudaMemcpyDeviceToHost, stream));
    /* The args outlive this: StarPU frees them once the stream has passed this point. */
    if (!info) info = TILA_CUDA_STATUS(cudaLaunchHostFunc(stream, zlag2c_cuda_status, a));
    tila_cl_check(&a->base, "tila_cuda_zlag2c", info, 0);
}
#endif

/* A = SA in double precision by the worker's kernel (tila_cl_run). */
static int clag2z_kernel(void *buffers[], const void *cl_arg, const char **kernel)
{
    const struct zlag2c_args *a = cl_arg;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]), SA = tila_cl_tile(buffers[1]);
#ifdef TILA_USE_CUDA
    if (tila_cl_on_cuda()) {
        *kernel = "tila_cuda_clag2z";
        return tila_cuda_clag2z(starpu_cuda_get_local_stream(), a->m, a->n, SA.ptr, SA.ld, A.ptr,
                                A.ld);
    }
#endif
    *kernel = "tila_core_clag2z";
    return tila_core_clag2z(a->m, a->n, SA.ptr, SA.ld, A.ptr, A.ld);
}

static void clag2z_run(void *buffers[], void *cl_arg)
{
    tila_cl_run(buffers, cl_arg, clag2z_kernel);
}

static struct starpu_perfmodel zlag2c_model = TILA_CL_HISTORY_MODEL("tila_zlag2c");

static struct starpu_perfmodel clag2z_model = TILA_CL_HISTORY_MODEL("tila_clag2z");

struct starpu_codelet tila_cl_zlag2c = {
    .name = "zlag2c",
    .cpu_funcs = { zlag2c_cpu },
    TILA_CL_CUDA(zlag2c_cuda).nbuffers = STARPU_VARIABLE_NBUFFERS, /* A R, SA W (tila_task_write) */
    .model = &zlag2c_model,
};

struct starpu_codelet tila_cl_clag2z = {
    .name = "clag2z",
    TILA_CL_FUNCS(clag2z_run),
    .nbuffers = STARPU_VARIABLE_NBUFFERS, /* A W (tila_task_write), SA R */
    .model = &clag2z_model,
};

static int insert(const tila_task_t *t, struct starpu_codelet *cl, const char *name,
                  tila_uplo_t uplo, int m, int n, starpu_data_handle_t A,
                  enum starpu_data_access_mode amode, starpu_data_handle_t SA,
                  enum starpu_data_access_mode samode)
{
    struct zlag2c_args args = { .uplo = uplo, .m = m, .n = n };
    struct zlag2c_args *a;
    int rc = tila_cl_args(t, &args, sizeof args, (void **)&a);
    if (rc) return rc;
    rc = starpu_mpi_task_insert(tila_starpu_comm(), cl, STARPU_CL_ARGS, a, a ? sizeof *a : 0, amode,
                                A, samode, SA, TILA_TASK_OPTIONS(t, name, 0), 0);
    return tila_task_submitted(t, rc);
}

int tila_insert_zlag2c(const tila_task_t *t, tila_uplo_t uplo, int m, int n, starpu_data_handle_t A,
                       starpu_data_handle_t SA)
{
    /* A triangle keeps SA's other one, except in a workspace (no home: nothing there
     * to keep, and nothing written yet to read). */
    int keep = uplo != TILA_GENERAL && starpu_data_get_home_node(SA) >= 0;
    return insert(t, &tila_cl_zlag2c, "zlag2c", uplo, m, n, A, STARPU_R, SA,
                  keep ? STARPU_RW : tila_task_write(t, SA));
}

int tila_insert_clag2z(const tila_task_t *t, int m, int n, starpu_data_handle_t SA,
                       starpu_data_handle_t A)
{
    return insert(t, &tila_cl_clag2z, "clag2z", TILA_GENERAL, m, n, A, tila_task_write(t, A), SA,
                  STARPU_R);
}
