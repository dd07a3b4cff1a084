/**
 * @file codelet_ztrtri.c
 * @brief TRTRI tile codelet: the inverse of a triangular tile into a workspace tile, with
 *        the record its solves read (codelets_z.h, tila_ztrtri_record_elems).
 * @precisions normal z -> c d s
 *
 * The record lives in main memory whatever the worker (StarPU's specific nodes), so that
 * each solve decides on the host, without waiting for a GPU, whether it applies the
 * inverse or solves with the triangle.  A triangle that cannot be inverted (an exact zero
 * on its diagonal) is no failure of the routine: its record says so and the solves fall
 * back to TRSM, which then does what it does without the inverse.  On a CUDA worker the
 * inversion's status and the column sums are written in the worker's device workspace
 * and copied into the record on the worker's stream behind the kernels; StarPU ends the
 * task, and lets the solves read the record, once the stream has passed that copy.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <string.h>

#include "codelets_z.h"
#include "core_z.h"
#ifdef TILA_USE_CUDA
#include "cuda_kernel.h"
#include "cuda_z.h"
#endif

struct ztrtri_args {
    tila_cl_base_t base;
    tila_uplo_t uplo;
    tila_diag_t diag;
    int n;
};

static void ztrtri_cpu(void *buffers[], void *cl_arg)
{
    const struct ztrtri_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]), T = tila_cl_tile(buffers[1]);
    double *record = tila_cl_tile(buffers[2]).ptr;
    int info = tila_core_ztrtri(a->uplo, a->diag, a->n, A.ptr, A.ld, T.ptr, T.ld, record + 2);
    int status = info > 0 ? info : 0;
    memcpy(record, &status, sizeof status);
    tila_cl_check(&a->base, "tila_core_ztrtri", info < 0 ? info : 0, 0);
}

#ifdef TILA_USE_CUDA
/* Bytes rounded up to the next multiple of 256, where a part of the workspace may start. */
static size_t ztrtri_align(size_t bytes) { return (bytes + 255) / 256 * 256; }

static void ztrtri_cuda(void *buffers[], void *cl_arg)
{
    const struct ztrtri_args *a = cl_arg;
    if (tila_cl_skip(&a->base) || a->n == 0) return;
    tila_cl_tile_t A = tila_cl_tile(buffers[0]), T = tila_cl_tile(buffers[1]);
    void *record = tila_cl_tile(buffers[2]).ptr; /* in main memory */
    cudaStream_t stream = starpu_cuda_get_local_stream();
    cusolverDnHandle_t solver = tila_cusolver_handle();
    /* The device workspace: the record as the CPU writes it (devinfo in its first bytes,
     * the sums after), cuSOLVER's workspace, the norm kernels' scratch. */
    size_t rbytes = sizeof(double) * tila_ztrtri_record_elems(a->n), dbytes, hbytes;
    int info =
        tila_cuda_ztrtri_worksize(solver, a->uplo, a->diag, a->n, T.ptr, T.ld, &dbytes, &hbytes);
    size_t at = ztrtri_align(rbytes), scratch_at = at + ztrtri_align(dbytes);
    size_t total = scratch_at + sizeof(double) * tila_cuda_zlan_scratch_elems(a->n);
    void *dwork = NULL, *hwork = NULL;
    if (!info) info = tila_cuda_workspace(total, &dwork, hbytes, &hwork);
    if (!info)
        info = tila_cuda_ztrtri(solver, stream, a->uplo, a->diag, a->n, A.ptr, A.ld, T.ptr, T.ld,
                                (double *)dwork + 2, (double *)((char *)dwork + scratch_at),
                                (int *)dwork, (char *)dwork + at, dbytes, hwork, hbytes);
    if (!info) info = tila_cuda_host_workspace_queued();
    /* StarPU allocates the record's main-memory copy pinned on a node with GPUs, so that
     * this copy is queued like the kernels (pageable memory would make it wait). */
    if (!info)
        info = TILA_CUDA_STATUS(
            cudaMemcpyAsync(record, dwork, rbytes, cudaMemcpyDeviceToHost, stream));
    tila_cl_check(&a->base, "tila_cuda_ztrtri", info, 0);
}
#endif

/* One n x n tile (tila_cl_blas3_size), as POTRF's model counts its tile. */
static size_t ztrtri_size(struct starpu_task *task, unsigned nimpl)
{
    const struct ztrtri_args *a = task->cl_arg;
    (void)nimpl;
    return tila_cl_blas3_size(sizeof(tila_complex64_t), 1, a->n, a->n, a->n);
}

static struct starpu_perfmodel ztrtri_model = TILA_CL_REGRESSION_MODEL("tila_ztrtri", ztrtri_size);

struct starpu_codelet tila_cl_ztrtri = {
    .name = "ztrtri",
    .cpu_funcs = { ztrtri_cpu },
    TILA_CL_CUDA(ztrtri_cuda)
    .nbuffers = 3,
    .modes = { STARPU_R, STARPU_W, STARPU_W },
    .specific_nodes = 1,
    .nodes = { STARPU_SPECIFIC_NODE_LOCAL, STARPU_SPECIFIC_NODE_LOCAL, STARPU_SPECIFIC_NODE_CPU },
    .model = &ztrtri_model,
};

int tila_insert_ztrtri(const tila_task_t *t, tila_uplo_t uplo, tila_diag_t diag, int n,
                       starpu_data_handle_t A, starpu_data_handle_t T, starpu_data_handle_t record)
{
    struct ztrtri_args args = { .uplo = uplo, .diag = diag, .n = n };
    double flops = tila_cl_potrf_flops(TILA_COMPLEX64, n);
    struct ztrtri_args *a;
    int rc = tila_cl_args(t, &args, sizeof args, (void **)&a);
    if (rc) return rc;
    rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_ztrtri, STARPU_CL_ARGS, a,
                                a ? sizeof *a : 0, STARPU_R, A, STARPU_W, T, STARPU_W, record,
                                TILA_TASK_OPTIONS(t, "ztrtri", flops), 0);
    return tila_task_submitted(t, rc);
}
