/**
 * @file codelet_zcpotrs.c
 * @brief ZCPOTRS codelet: a refinement step's correction as one task, D = mu (L L^H)^-1 D
 * for a block column D of double tiles and the single-precision Cholesky factor of mu A
 * in tiles: D converted to single, both triangular solves over the factor's tiles, back to
 * double times mu (LAPACK's zlag2c, the single potrs and clag2z, which the tiled solve runs as
 * some n_t^2 tasks: on a GPU each a few microseconds of work behind a task's cost).
 * @precisions mixed zc -> ds
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <stdlib.h>
#include <string.h>

#include "codelets_zc.h"
#include "core_c.h"
#include "core_z.h"
#include "core_zc.h"
#ifdef TILA_USE_CUDA
#include "cuda_c.h"
#include "cuda_kernel.h"
#include "cuda_z.h"
#include "cuda_zc.h"
#endif

/*
 * Buffers: the factor's stored tiles of the pairs (i, k), i >= k, k by k and i down from k
 * (tila_cl_pair), each L(i, k) (lower) or U(k, i) (upper); then D's mt tiles top down;
 * then the scratch, the block column in single (n x cols, leading dimension n); then, to
 * add D to, X's mt tiles (add).
 */
struct zcpotrs_args {
    tila_cl_base_t base;
    tila_uplo_t uplo;
    int mt, add;
    double mu;
    int *info_host; /**< CUDA: pinned slot the overflow flag is copied to */
};

/* The worker's kernels: the CUDA ones on a CUDA worker (on its stream and cuBLAS handle). */
typedef struct zcpotrs_run_s {
    int cuda;
    int *overflow; /**< CUDA: one flag in device memory for every tile's conversion */
} zcpotrs_run_t;

static int run_lag2c(const zcpotrs_run_t *r, int m, int n, const tila_complex64_t *D, int ldd,
                     tila_complex32_t *Y, int ldy)
{
#ifdef TILA_USE_CUDA
    if (r->cuda)
        return tila_cuda_zlag2c_or(starpu_cuda_get_local_stream(), TILA_GENERAL, m, n,
                                   (const cuDoubleComplex *)D, ldd, (cuFloatComplex *)Y, ldy,
                                   r->overflow);
#endif
    (void)r;
    return tila_core_zlag2c(TILA_GENERAL, m, n, D, ldd, Y, ldy);
}

static int run_trsm(const zcpotrs_run_t *r, tila_uplo_t uplo, tila_trans_t trans, int m, int n,
                    const tila_complex32_t *T, int ldt, tila_complex32_t *Y, int ldy)
{
    tila_complex32_t one = 1;
#ifdef TILA_USE_CUDA
    if (r->cuda) {
        cuFloatComplex alpha;
        memcpy(&alpha, &one, sizeof alpha);
        return tila_cuda_ctrsm(tila_cublas_handle(), TILA_LEFT, uplo, trans, TILA_NONUNIT, m, n,
                               alpha, (const cuFloatComplex *)T, ldt, (cuFloatComplex *)Y, ldy);
    }
#endif
    (void)r;
    return tila_core_ctrsm(TILA_LEFT, uplo, trans, TILA_NONUNIT, m, n, one, T, ldt, Y, ldy);
}

/* Y1 -= op(T) Y2 (op(T) m x k). */
static int run_gemm(const zcpotrs_run_t *r, tila_trans_t trans, int m, int n, int k,
                    const tila_complex32_t *T, int ldt, const tila_complex32_t *Y2,
                    tila_complex32_t *Y1, int ldy)
{
    tila_complex32_t one = 1, minus = -1;
#ifdef TILA_USE_CUDA
    if (r->cuda) {
        cuFloatComplex alpha, beta;
        memcpy(&alpha, &minus, sizeof alpha);
        memcpy(&beta, &one, sizeof beta);
        return tila_cuda_cgemm(tila_cublas_handle(), trans, TILA_NOTRANS, m, n, k, alpha,
                               (const cuFloatComplex *)T, ldt, (const cuFloatComplex *)Y2, ldy,
                               beta, (cuFloatComplex *)Y1, ldy);
    }
#endif
    (void)r;
    return tila_core_cgemm(trans, TILA_NOTRANS, m, n, k, minus, T, ldt, Y2, ldy, one, Y1, ldy);
}

/* D = mu Y in double (mu a power of two: exact). */
static int run_lag2z(const zcpotrs_run_t *r, int m, int n, const tila_complex32_t *Y, int ldy,
                     double mu, tila_complex64_t *D, int ldd)
{
    tila_complex64_t alpha = mu;
#ifdef TILA_USE_CUDA
    if (r->cuda) {
        int rc = tila_cuda_clag2z(starpu_cuda_get_local_stream(), m, n, (const cuFloatComplex *)Y,
                                  ldy, (cuDoubleComplex *)D, ldd);
        if (!rc && mu != 1)
            rc = tila_cuda_zlascal(tila_cublas_handle(), m, n, tila_cuda_zscalar(alpha),
                                   (cuDoubleComplex *)D, ldd);
        return rc;
    }
#endif
    (void)r;
    int rc = tila_core_clag2z(m, n, Y, ldy, D, ldd);
    if (!rc && mu != 1) rc = tila_core_zlascal(m, n, alpha, D, ldd);
    return rc;
}

/* X += D. */
static int run_add(const zcpotrs_run_t *r, int m, int n, tila_cl_tile_t D, tila_cl_tile_t X)
{
    tila_complex64_t one = 1;
#ifdef TILA_USE_CUDA
    if (r->cuda)
        return tila_cuda_zgeadd(tila_cublas_handle(), m, n, tila_cuda_zscalar(one), D.ptr, D.ld,
                                tila_cuda_zscalar(one), X.ptr, X.ld);
#endif
    (void)r;
    return tila_core_zgeadd(m, n, one, D.ptr, D.ld, one, X.ptr, X.ld);
}

/*
 * The correction on the worker's kernels.  Lower: L y = d down the tiles, then L^H x = y up;
 * upper: U^H y = d, then U x = y.  The pair (i, k)'s tile is op(T) = L(i, k) or U(k, i)^H in
 * the first solve and its conjugate transpose in the second.  A conversion that overflows
 * single stops a CPU worker before D (and X) is written (info 1); a GPU's flag is read
 * after the task's calls are queued, and D and X are then unspecified (the call falls
 * back to the double solve from X = B, which does not read them).
 */
static int zcpotrs_solve(const zcpotrs_run_t *r, void *buffers[], const struct zcpotrs_args *a)
{
    int mt = a->mt, pairs = mt * (mt + 1) / 2, lower = a->uplo == TILA_LOWER, rc = 0;
    tila_trans_t down = lower ? TILA_NOTRANS : TILA_CONJTRANS;
    tila_trans_t up = lower ? TILA_CONJTRANS : TILA_NOTRANS;
    tila_complex32_t *Y = tila_cl_vector(buffers[pairs + mt]);
    int cols = (int)STARPU_MATRIX_GET_NY(buffers[pairs]), n = 0;
    for (int i = 0; i < mt; i++) n += (int)STARPU_MATRIX_GET_NX(buffers[pairs + i]);
#define ZCPOTRS_ROWS(i) ((int)STARPU_MATRIX_GET_NX(buffers[pairs + (i)]))
#define ZCPOTRS_T(i, k) tila_cl_tile(buffers[tila_cl_pair(mt, i, k)])
    for (int i = 0, off = 0; i < mt && !rc; off += ZCPOTRS_ROWS(i), i++) {
        tila_cl_tile_t D = tila_cl_tile(buffers[pairs + i]);
        rc = run_lag2c(r, ZCPOTRS_ROWS(i), cols, D.ptr, D.ld, Y + off, n);
    }
    for (int k = 0, ok = 0; k < mt && !rc; ok += ZCPOTRS_ROWS(k), k++) {
        tila_cl_tile_t T = ZCPOTRS_T(k, k);
        rc = run_trsm(r, a->uplo, down, ZCPOTRS_ROWS(k), cols, T.ptr, T.ld, Y + ok, n);
        for (int i = k + 1, oi = ok + ZCPOTRS_ROWS(k); i < mt && !rc; oi += ZCPOTRS_ROWS(i), i++) {
            T = ZCPOTRS_T(i, k);
            rc = run_gemm(r, down, ZCPOTRS_ROWS(i), cols, ZCPOTRS_ROWS(k), T.ptr, T.ld, Y + ok,
                          Y + oi, n);
        }
    }
    for (int k = mt - 1, ok = n; k >= 0 && !rc; k--) {
        ok -= ZCPOTRS_ROWS(k);
        for (int i = k + 1, oi = ok + ZCPOTRS_ROWS(k); i < mt && !rc; oi += ZCPOTRS_ROWS(i), i++) {
            tila_cl_tile_t T = ZCPOTRS_T(i, k);
            rc = run_gemm(r, up, ZCPOTRS_ROWS(k), cols, ZCPOTRS_ROWS(i), T.ptr, T.ld, Y + oi,
                          Y + ok, n);
        }
        tila_cl_tile_t T = ZCPOTRS_T(k, k);
        if (!rc) rc = run_trsm(r, a->uplo, up, ZCPOTRS_ROWS(k), cols, T.ptr, T.ld, Y + ok, n);
    }
    for (int i = 0, off = 0; i < mt && !rc; off += ZCPOTRS_ROWS(i), i++) {
        tila_cl_tile_t D = tila_cl_tile(buffers[pairs + i]);
        rc = run_lag2z(r, ZCPOTRS_ROWS(i), cols, Y + off, n, a->mu, D.ptr, D.ld);
        if (!rc && a->add)
            rc = run_add(r, ZCPOTRS_ROWS(i), cols, D, tila_cl_tile(buffers[pairs + mt + 1 + i]));
    }
#undef ZCPOTRS_ROWS
#undef ZCPOTRS_T
    return rc;
}

static void zcpotrs_cpu(void *buffers[], void *cl_arg)
{
    const struct zcpotrs_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    zcpotrs_run_t r = { .cuda = 0 };
    tila_cl_check(&a->base, "tila_core_zcpotrs (the correction's solves)",
                  zcpotrs_solve(&r, buffers, a), 0);
}

#ifdef TILA_USE_CUDA
static void CUDART_CB zcpotrs_cuda_status(void *cl_arg)
{
    const struct zcpotrs_args *a = cl_arg;
    if (*a->info_host > 0) tila_cl_fail(&a->base, *a->info_host);
}

static void zcpotrs_cuda(void *buffers[], void *cl_arg)
{
    struct zcpotrs_args *a = cl_arg;
    if (tila_cl_skip(&a->base)) return;
    cudaStream_t stream = starpu_cuda_get_local_stream();
    zcpotrs_run_t r = { .cuda = 1 };
    a->info_host = tila_cuda_info_slot();
    int info = tila_cuda_workspace(TILA_CUDA_INFO_BYTES, (void **)&r.overflow, 0, NULL);
    if (!info)
        info = TILA_CUDA_STATUS(cudaMemsetAsync(r.overflow, 0, sizeof(int), stream));
    if (!info) info = zcpotrs_solve(&r, buffers, a);
    if (!info)
        info = TILA_CUDA_STATUS(cudaMemcpyAsync(a->info_host, r.overflow, sizeof(int),
                                                cudaMemcpyDeviceToHost, stream));
    /* The args outlive this: StarPU frees them once the stream has passed this point. */
    if (!info) info = TILA_CUDA_STATUS(cudaLaunchHostFunc(stream, zcpotrs_cuda_status, a));
    tila_cl_check(&a->base, "tila_cuda_zcpotrs (the correction's solves)", info, 0);
}
#endif

static struct starpu_perfmodel zcpotrs_model = TILA_CL_HISTORY_MODEL("tila_zcpotrs");

struct starpu_codelet tila_cl_zcpotrs = {
    .name = "zcpotrs",
    .cpu_funcs = { zcpotrs_cpu },
    TILA_CL_CUDA(zcpotrs_cuda).nbuffers = STARPU_VARIABLE_NBUFFERS, /* L R, D RW, scratch */
    .model = &zcpotrs_model,
};

/**
 * D = mu (L L^H)^-1 D (lower; upper: (U^H U)^-1) in one task, then X += D unless X is NULL:
 * L the single-precision factor's stored tiles of the pairs (i, k), i >= k, of mt block
 * rows, in tila_cl_pair's order (L(i, k), or U(k, i)); D (and X) the mt double tiles of
 * one block column, n rows and cols columns in all; work a scratch vector of at least
 * n cols single elements.  An entry of D beyond single's range fails the task's request
 * with info 1.
 */
int tila_insert_zcpotrs(const tila_task_t *t, tila_uplo_t uplo, int mt, int n, int cols,
                        double mu, const starpu_data_handle_t *L, const starpu_data_handle_t *D,
                        starpu_data_handle_t work, const starpu_data_handle_t *X)
{
    int pairs = mt * (mt + 1) / 2, count = pairs + mt + 1 + (X ? mt : 0);
    struct starpu_data_descr *descr = malloc(sizeof *descr * (size_t)count);
    if (!descr) return TILA_ERR_NOMEM;
    for (int i = 0; i < pairs; i++)
        descr[i] = (struct starpu_data_descr){ .handle = L[i], .mode = STARPU_R };
    for (int i = 0; i < mt; i++)
        descr[pairs + i] = (struct starpu_data_descr){ .handle = D[i], .mode = STARPU_RW };
    descr[pairs + mt] = (struct starpu_data_descr){ .handle = work, .mode = STARPU_SCRATCH };
    for (int i = 0; X && i < mt; i++)
        descr[pairs + mt + 1 + i] = (struct starpu_data_descr){ .handle = X[i], .mode = STARPU_RW };
    struct zcpotrs_args args = { .uplo = uplo, .mt = mt, .add = X != NULL, .mu = mu }, *a;
    int rc = tila_cl_args(t, &args, sizeof args, (void **)&a);
    /* Two solves with the triangle: 2 n^2 cols multiply-adds. */
    double flops = tila_cl_gemm_flops(TILA_COMPLEX32, n, cols, n);
    if (!rc) {
        rc = starpu_mpi_task_insert(tila_starpu_comm(), &tila_cl_zcpotrs, STARPU_CL_ARGS, a,
                                    a ? sizeof *a : 0, STARPU_DATA_MODE_ARRAY, descr, count,
                                    TILA_TASK_OPTIONS(t, "zcpotrs", tila_task_gpu_flops(t, flops)),
                                    0);
        rc = tila_task_submitted(t, rc);
    }
    free(descr);
    return rc;
}
