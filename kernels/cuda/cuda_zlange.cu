/**
 * @file cuda_zlange.cu
 * @brief GPU norm tile kernels: fold a tile into a partial result (layout of core_z.h),
 * on the given stream, without synchronising, to the same bits as the CPU kernels.
 * @precisions normal z -> c d s
 *
 * Both follow kernels/tila_lan_order.h: a column's sum in 32 interleaved lanes, which
 * here are the 32 threads of a warp reading 32 consecutive rows (coalesced), then the
 * warp's tree (shuffles, lane l += lane l + h); a row's sum in 32 lanes of consecutive
 * columns, a block of 32 rows x 32 lanes (a warp reads 32 rows of one column), the lanes
 * pairwise in shared memory.  Every SM is busy
 * on one tile: a warp per column (one norm, Frobenius, max) or 32 rows a block (infinity
 * norm), each thread with 8 loads in flight.  Max is exact in any order: each block's
 * maximum joins the partial by an atomic max on its bits (non-negative doubles order
 * as their bit patterns; a NaN is made the default quiet NaN, which orders above Inf).
 * Frobenius: the columns' sums are added pairwise, 8 columns a block and the blocks'
 * sums by one block of a second kernel, which also takes the CPU's decisions (scaled
 * second pass or not; the pair); the second pass runs only when that kernel asks for it.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <float.h>

#include "cuda_kernel.h"
#include "cuda_z.h"
#include "lan_z.h"
#include "tila_kernel_args.h"
#include "tila_lan_order.h"
#include "tila_lan_tile.h"

#define ZLAN_L TILA_LAN_LANES /* lanes: a warp */
#define ZLAN_COLS 8           /* columns (warps) per block of the column kernel */
#define ZLAN_UNROLL 8         /* loads in flight per thread */
#define ZLAN_FINISH 256       /* threads of the Frobenius finishing kernel */

/* What the column kernel computes. */
enum zlan_mode_e { ZLAN_SUM, ZLAN_MAX, ZLAN_SQUARES };

/* The diagonal, for the max and Frobenius kernels (as core_zlange.c). */
enum zlan_diag_e {
    ZLAN_DIAG_STORED, /* an ordinary entry of the trapezoid (or general tile) */
    ZLAN_DIAG_UNIT,   /* not read, counts as one */
    ZLAN_DIAG_SYM,    /* symmetric: off-diagonal entries count twice */
    ZLAN_DIAG_HERM    /* Hermitian: the same, and the diagonal's real part only */
};

/* Scratch (tila_cuda_zlan_scratch_elems): [0] the largest |part| (bits, atomic max),
 * [1] 1 when a scaled second pass is needed, [2] its exponent (ints), then the blocks'
 * sums. */
#define ZLAN_AMAX 0
#define ZLAN_FLAG 1
#define ZLAN_EXP 2
#define ZLAN_NODES 3

/* |a| and the square a Frobenius pass adds, as on the CPU (lan_z.h). */
__device__ static inline double zlan_abs(cuDoubleComplex a)
{
#if defined(COMPLEX)
    return zlan_abs_parts(cuCreal(a), cuCimag(a));
#else
    return fabs(a);
#endif
}

__device__ static inline double zlan_square(cuDoubleComplex a, const double *scale, double *amax)
{
#if defined(COMPLEX)
    return zlan_square_parts(cuCreal(a), cuCimag(a), scale, amax);
#else
    return zlan_square_parts(a, 0, scale, amax);
#endif
}

/* Is (i, j) in the trapezoid `uplo` (TILA_GENERAL: everywhere); strict: off the diagonal. */
__device__ static inline int zlan_in(int uplo, int strict, int i, int j)
{
    if (uplo == TILA_UPPER) return strict ? i < j : i <= j;
    if (uplo == TILA_LOWER) return strict ? i > j : i >= j;
    return 1;
}

/* *p = max(*p, v) for v >= 0 or NaN (made NAN), *p likewise: on the bit patterns. */
__device__ static inline void zlan_atomic_max(double *p, double v)
{
    if (isnan(v)) v = NAN;
    if (sizeof v == 8)
        atomicMax((unsigned long long *)p, (unsigned long long)__double_as_longlong(v));
    else
        atomicMax((unsigned int *)p, (unsigned int)__float_as_int(v));
}

/* The warp's tree: lane 0 gets the sum (lane l += lane l + h, h = 16 ... 1). */
__device__ static inline double zlan_warp_tree(double s)
{
    for (int h = ZLAN_L / 2; h > 0; h /= 2)
        s = s + __shfl_down_sync(0xffffffffu, s, h);
    return s;
}

/* |full (i, j)| of a symmetric/Hermitian diagonal tile of which triangle uplo is stored. */
__device__ static inline double zlan_full(const cuDoubleComplex *A, int lda, int uplo, int herm,
                                          int i, int j)
{
#if defined(COMPLEX)
    if (i == j && herm) return fabs(cuCreal(A[(size_t)j * lda + j]));
#endif
    (void)herm;
    int stored = i == j || (uplo == TILA_LOWER ? i > j : i < j);
    return zlan_abs(stored ? A[(size_t)j * lda + i] : A[(size_t)i * lda + j]);
}

/*
 * Warp y of block b takes column j = 8 b + y; lane x rows x, x + 32, ...
 *  ZLAN_SUM: work[j] += the column's sum of |a| over the region (full: the column of the
 *            full symmetric tile, herm as zlan_full);
 *  ZLAN_MAX: the block's max over the region (and the diagonal `diag`) into work[0] (and
 *            work2[0]);
 *  ZLAN_SQUARES: the sums of squares of the block's 8 columns, added pairwise, into
 *            scratch[ZLAN_NODES + b]; the largest |part| into scratch[ZLAN_AMAX].  The
 *            second pass (scaled) runs only if scratch[ZLAN_FLAG] says so.
 */
__device__ static void zlan_cols(int bx, int mode, int uplo, int strict, int diag, int full, int m,
                                 int n, const cuDoubleComplex *A, int lda, double *work,
                                 double *work2, double *scratch, int pass)
{
    __shared__ double sh[ZLAN_COLS];
    int x = threadIdx.x, y = threadIdx.y, j = bx * ZLAN_COLS + y;
    double scale[2], *sp = NULL;
    if (mode == ZLAN_SQUARES && pass == 2) {
        const int *flag = (const int *)(scratch + ZLAN_FLAG),
                  *ep = (const int *)(scratch + ZLAN_EXP);
        if (!*flag) return;
        zlan_fro_scales(*ep, scale);
        sp = scale;
    }
    double s = 0, big = 0;
    if (j < n) {
        const cuDoubleComplex *a = A + (size_t)j * lda;
        for (int i0 = x; i0 < m; i0 += ZLAN_L * ZLAN_UNROLL) {
            double v[ZLAN_UNROLL];
#pragma unroll
            for (int u = 0; u < ZLAN_UNROLL; u++) {
                int i = i0 + u * ZLAN_L;
                v[u] = 0;
                if (i >= m) continue;
                if (full)
                    v[u] = zlan_full(A, lda, uplo, full == 2, i, j);
                else if (zlan_in(uplo, strict, i, j))
                    v[u] = mode == ZLAN_SQUARES ? zlan_square(a[i], sp, &big) : zlan_abs(a[i]);
                else if (mode == ZLAN_MAX && i == j &&
                         (diag == ZLAN_DIAG_SYM || diag == ZLAN_DIAG_HERM))
                    v[u] = zlan_full(A, lda, uplo, diag == ZLAN_DIAG_HERM, i, j);
            }
#pragma unroll
            for (int u = 0; u < ZLAN_UNROLL; u++)
                s = mode == ZLAN_MAX ? zlan_nanmax(s, v[u]) : s + v[u];
        }
    }
    if (mode == ZLAN_SUM) {
        s = zlan_warp_tree(s);
        if (x == 0 && j < n) work[j] = work[j] + s;
        return;
    }
    if (mode == ZLAN_MAX) {
        for (int h = ZLAN_L / 2; h > 0; h /= 2)
            s = zlan_nanmax(s, __shfl_down_sync(0xffffffffu, s, h));
        if (x == 0) sh[y] = s;
        __syncthreads();
        if (x != 0 || y != 0) return;
        for (int k = 1; k < ZLAN_COLS; k++)
            s = zlan_nanmax(s, sh[k]);
        if (diag == ZLAN_DIAG_UNIT && bx == 0 && m > 0 && n > 0) s = zlan_nanmax(s, 1);
        zlan_atomic_max(work, s);
        if (work2) zlan_atomic_max(work2, s);
        return;
    }
    /* Squares: the column's sum, then the block's 8 columns pairwise (levels 0-2 of the
     * tile's tree); the largest |part| (NaN skipped, as on the CPU). */
    s = zlan_warp_tree(s);
    for (int h = ZLAN_L / 2; h > 0; h /= 2) {
        double o = __shfl_down_sync(0xffffffffu, big, h);
        big = o > big ? o : big;
    }
    if (x == 0) sh[y] = s;
    __syncthreads();
    if (x == 0 && big > 0) zlan_atomic_max(scratch + ZLAN_AMAX, big);
    if (x != 0 || y != 0) return;
    int j0 = bx * ZLAN_COLS;
    for (int h = 1; h < ZLAN_COLS; h *= 2)
        for (int k = 0; k + h < ZLAN_COLS; k += 2 * h)
            if (j0 + k + h < n) sh[k] = sh[k] + sh[k + h];
    scratch[ZLAN_NODES + bx] = sh[0];
}

/* One tile: zlan_cols with block b taking columns 8 b ... */
__global__ static void zlan_cols_kernel(int mode, int uplo, int strict, int diag, int full, int m,
                                        int n, const cuDoubleComplex *A, int lda, double *work,
                                        double *work2, double *scratch, int pass)
{
    zlan_cols(blockIdx.x, mode, uplo, strict, diag, full, m, n, A, lda, work, work2, scratch,
              pass);
}

/* Rows: block b takes rows 32 b ...; thread (x, y) adds row 32 b + x over lane y's
 * columns y c ... (y + 1) c - 1 of the region (c = ceil(n / 32)), in order; the lanes
 * pairwise in shared memory; work[i] += sum. */
__device__ static void zlan_rows(int bx, int uplo, int strict, int m, int n,
                                 const cuDoubleComplex *A, int lda, double *work)
{
    __shared__ double sh[ZLAN_L][ZLAN_L + 1];
    int x = threadIdx.x, y = threadIdx.y, i = bx * ZLAN_L + x;
    int per = (n + ZLAN_L - 1) / ZLAN_L, first = y * per, end = first + per < n ? first + per : n;
    double s = 0;
    if (i < m)
        for (int j0 = first; j0 < end; j0 += ZLAN_UNROLL) {
            double v[ZLAN_UNROLL];
#pragma unroll
            for (int u = 0; u < ZLAN_UNROLL; u++) {
                int j = j0 + u;
                v[u] =
                    j < end && zlan_in(uplo, strict, i, j) ? zlan_abs(A[(size_t)j * lda + i]) : 0;
            }
#pragma unroll
            for (int u = 0; u < ZLAN_UNROLL; u++)
                s = s + v[u];
        }
    sh[y][x] = s;
    __syncthreads();
    for (int h = 1; h < ZLAN_L; h *= 2) {
        if (y % (2 * h) == 0) sh[y][x] = sh[y][x] + sh[y + h][x];
        __syncthreads();
    }
    if (y == 0 && i < m) work[i] = work[i] + sh[0][x];
}

__global__ static void __launch_bounds__(ZLAN_L *ZLAN_L)
    zlan_rows_kernel(int uplo, int strict, int m, int n, const cuDoubleComplex *A, int lda,
                     double *work)
{
    zlan_rows(blockIdx.x, uplo, strict, m, n, A, lda, work);
}

/*
 * One block: the blocks' sums pairwise (levels 3 ... of the tile's tree), then thread 0
 * takes core_zlange.c's zlan_region_fro decisions on the sum and the largest |part| and
 * folds the pair into work (and work2), as zlan_trapezoid, zlan_symmetric and
 * tila_core_zlansy_offdiag do: a unit diagonal's ones, or a symmetric tile's off-diagonal
 * pair twice and then its diagonal entry by entry.  Pass 1 asks for the scaled pass
 * instead of folding when the plain sum cannot be used; pass 2 runs only then.
 */
__device__ static void zlan_fro_finish(int pass, int count, double *scratch, int diag, int ndiag,
                                       int uplo, int n, const cuDoubleComplex *A, int lda,
                                       double *work, double *work2)
{
    int t = threadIdx.x;
    int *flag = (int *)(scratch + ZLAN_FLAG), *ep = (int *)(scratch + ZLAN_EXP);
    if (pass == 2 && !*flag) return;
    double *nodes = scratch + ZLAN_NODES;
    for (int h = 1; h < count; h *= 2) {
        for (int k = 2 * h * t; k + h < count; k += 2 * h * ZLAN_FINISH)
            nodes[k] = nodes[k] + nodes[k + h];
        __syncthreads();
    }
    if (t != 0) return;
    double ssq = count > 0 ? nodes[0] : 0, pair[2] = { ldexp(1.0, *ep), ssq };
    if (pass == 1 && zlan_fro_pair(ssq, scratch[ZLAN_AMAX], pair, ep)) {
        *flag = 1; /* the scaled pass, then pass 2 of this kernel, fold */
        return;
    }
    if (diag == ZLAN_DIAG_SYM || diag == ZLAN_DIAG_HERM) {
        zlan_fro_add(work, pair[0], 2 * pair[1]);
        for (int j = 0; j < n; j++)
            zlan_fro_add_value(work, zlan_full(A, lda, uplo, diag == ZLAN_DIAG_HERM, j, j));
        return;
    }
    zlan_fro_add(work, pair[0], pair[1]);
    if (ndiag > 0) zlan_fro_add(work, 1, ndiag);
    if (work2) zlan_fro_add(work2, pair[0], pair[1]);
}

__global__ static void zlan_fro_finish_kernel(int pass, int count, double *scratch, int diag,
                                              int ndiag, int uplo, int n, const cuDoubleComplex *A,
                                              int lda, double *work, double *work2)
{
    zlan_fro_finish(pass, count, scratch, diag, ndiag, uplo, n, A, lda, work, work2);
}

/* ---- Many tiles in one launch ---------------------------------------------------------- */

/* A tile of tila_cuda_zlange_tiles as its kernels read it (blockIdx.y: the tile). */
typedef struct zlan_tile_s {
    const cuDoubleComplex *A;
    double *work, *scratch;
    int m, n, lda, uplo, strict, diag, ndiag;
} zlan_tile_t;

/* The column kernel over the tiles: block (b, t) is block b of tile t, if it has one. */
__global__ static void zlan_cols_tiles_kernel(int mode, const zlan_tile_t *tiles, int pass)
{
    const zlan_tile_t *t = &tiles[blockIdx.y];
    if (t->m == 0 || (int)blockIdx.x * ZLAN_COLS >= t->n) return;
    zlan_cols(blockIdx.x, mode, t->uplo, t->strict, t->diag, 0, t->m, t->n, t->A, t->lda, t->work,
              NULL, t->scratch, pass);
}

__global__ static void __launch_bounds__(ZLAN_L *ZLAN_L)
    zlan_rows_tiles_kernel(const zlan_tile_t *tiles)
{
    const zlan_tile_t *t = &tiles[blockIdx.y];
    if (t->n == 0 || (int)blockIdx.x * ZLAN_L >= t->m) return;
    zlan_rows(blockIdx.x, t->uplo, t->strict, t->m, t->n, t->A, t->lda, t->work);
}

/* Block t finishes tile t's Frobenius pair. */
__global__ static void zlan_fro_finish_tiles_kernel(int pass, const zlan_tile_t *tiles)
{
    const zlan_tile_t *t = &tiles[blockIdx.x];
    if (t->m == 0 || t->n == 0) return;
    zlan_fro_finish(pass, (t->n + ZLAN_COLS - 1) / ZLAN_COLS, t->scratch, t->diag, t->ndiag,
                    t->uplo, t->n, t->A, t->lda, t->work, NULL);
}

/* ---- Entry points ------------------------------------------------------------------- */

static unsigned zlan_blocks(int count, int per) { return (unsigned)((count + per - 1) / per); }

/** Elements (of the partials' real type) of the scratch a norm of tiles of up to n
 * columns needs. */
size_t tila_cuda_zlan_scratch_elems(int n) { return ZLAN_NODES + zlan_blocks(n, ZLAN_COLS); }

/* Frobenius of the region (strict: without the diagonal; diag as zlan_diag_e), folded. */
static int zlan_fro(cudaStream_t stream, int uplo, int strict, int diag, int ndiag, int m, int n,
                    const cuDoubleComplex *A, int lda, double *work, double *work2, double *scratch)
{
    unsigned blocks = zlan_blocks(n, ZLAN_COLS);
    dim3 threads(ZLAN_L, ZLAN_COLS);
    TILA_CUDA_CHECK(cudaMemsetAsync(scratch, 0, sizeof(double) * ZLAN_NODES, stream));
    for (int pass = 1; pass <= 2; pass++) {
        zlan_cols_kernel<<<blocks, threads, 0, stream>>>(ZLAN_SQUARES, uplo, strict, diag, 0, m, n,
                                                         A, lda, work, work2, scratch, pass);
        zlan_fro_finish_kernel<<<1, ZLAN_FINISH, 0, stream>>>(pass, (int)blocks, scratch, diag,
                                                              ndiag, uplo, n, A, lda, work, work2);
    }
    return 0;
}

/* The trapezoid `uplo` (TILA_GENERAL: the whole tile); unit: the diagonal is ones. */
static int zlan_trapezoid(cudaStream_t stream, tila_norm_t norm, tila_uplo_t uplo, int unit, int m,
                          int n, const cuDoubleComplex *A, int lda, double *work, double *scratch)
{
    dim3 cols(ZLAN_L, ZLAN_COLS), rows(ZLAN_L, ZLAN_L);
    int diag = unit ? ZLAN_DIAG_UNIT : ZLAN_DIAG_STORED;
    switch (norm) {
    case TILA_NORM_ONE:
        zlan_cols_kernel<<<zlan_blocks(n, ZLAN_COLS), cols, 0, stream>>>(
            ZLAN_SUM, (int)uplo, unit, diag, 0, m, n, A, lda, work, NULL, NULL, 1);
        break;
    case TILA_NORM_INF:
        zlan_rows_kernel<<<zlan_blocks(m, ZLAN_L), rows, 0, stream>>>((int)uplo, unit, m, n, A, lda,
                                                                      work);
        break;
    case TILA_NORM_MAX:
        zlan_cols_kernel<<<zlan_blocks(n, ZLAN_COLS), cols, 0, stream>>>(
            ZLAN_MAX, (int)uplo, unit, diag, 0, m, n, A, lda, work, NULL, NULL, 1);
        break;
    default:
        TILA_CUDA_PASS(zlan_fro(stream, (int)uplo, unit, diag, unit ? tila_min(m, n) : 0, m, n,
                                A, lda, work, NULL, scratch));
        break;
    }
    TILA_CUDA_LAUNCHED();
    return 0;
}

/** As tila_core_zlange, on `stream` (A, work and scratch in GPU memory). */
int tila_cuda_zlange(cudaStream_t stream, tila_norm_t norm, int m, int n, const cuDoubleComplex *A,
                     int lda, double *work, double *scratch)
{
    int rc = tila_args_lange(norm, m, n, lda, 1);
    if (rc || m == 0 || n == 0) return rc;
    return zlan_trapezoid(stream, norm, TILA_GENERAL, 0, m, n, A, lda, work, scratch);
}

/** As tila_core_zlantr, on `stream`. */
int tila_cuda_zlantr(cudaStream_t stream, tila_norm_t norm, tila_uplo_t uplo, tila_diag_t diag,
                     int m, int n, const cuDoubleComplex *A, int lda, double *work, double *scratch)
{
    int rc = tila_args_lantr(norm, uplo, diag, m, n, lda, 1);
    if (rc || m == 0 || n == 0) return rc;
    return zlan_trapezoid(stream, norm, uplo, diag == TILA_UNIT, m, n, A, lda, work, scratch);
}

/* Diagonal tile of a symmetric (herm = 0) or Hermitian matrix. */
static int zlan_symmetric(cudaStream_t stream, tila_norm_t norm, tila_uplo_t uplo, int herm, int n,
                          const cuDoubleComplex *A, int lda, double *work, double *scratch)
{
    int rc = tila_args_lansy(norm, uplo, n, lda, 1);
    if (rc) return rc;
    if (n == 0) return 0;
    int diag = herm ? ZLAN_DIAG_HERM : ZLAN_DIAG_SYM;
    dim3 cols(ZLAN_L, ZLAN_COLS);
    if (norm == TILA_NORM_ONE || norm == TILA_NORM_INF)
        zlan_cols_kernel<<<zlan_blocks(n, ZLAN_COLS), cols, 0, stream>>>(
            ZLAN_SUM, (int)uplo, 0, diag, herm ? 2 : 1, n, n, A, lda, work, NULL, NULL, 1);
    else if (norm == TILA_NORM_MAX)
        zlan_cols_kernel<<<zlan_blocks(n, ZLAN_COLS), cols, 0, stream>>>(
            ZLAN_MAX, (int)uplo, 1, diag, 0, n, n, A, lda, work, NULL, NULL, 1);
    else
        TILA_CUDA_PASS(zlan_fro(stream, (int)uplo, 1, diag, 0, n, n, A, lda, work, NULL, scratch));
    TILA_CUDA_LAUNCHED();
    return 0;
}

/** As tila_core_zlansy, on `stream`. */
int tila_cuda_zlansy(cudaStream_t stream, tila_norm_t norm, tila_uplo_t uplo, int n,
                     const cuDoubleComplex *A, int lda, double *work, double *scratch)
{
    return zlan_symmetric(stream, norm, uplo, 0, n, A, lda, work, scratch);
}

#if defined(COMPLEX)
/** As tila_core_zlanhe, on `stream`. */
int tila_cuda_zlanhe(cudaStream_t stream, tila_norm_t norm, tila_uplo_t uplo, int n,
                     const cuDoubleComplex *A, int lda, double *work, double *scratch)
{
    return zlan_symmetric(stream, norm, uplo, 1, n, A, lda, work, scratch);
}
#endif

/** As tila_core_zlansy_offdiag, on `stream`: the one/infinity norms read the tile twice,
 * once per orientation, each coalesced. */
int tila_cuda_zlansy_offdiag(cudaStream_t stream, tila_norm_t norm, int m, int n,
                             const cuDoubleComplex *A, int lda, double *colwork, double *rowwork,
                             double *scratch)
{
    int rc = tila_args_lange(norm, m, n, lda, 1);
    if (rc || m == 0 || n == 0) return rc;
    dim3 cols(ZLAN_L, ZLAN_COLS), rows(ZLAN_L, ZLAN_L);
    if (norm == TILA_NORM_ONE || norm == TILA_NORM_INF) {
        zlan_cols_kernel<<<zlan_blocks(n, ZLAN_COLS), cols, 0, stream>>>(
            ZLAN_SUM, (int)TILA_GENERAL, 0, ZLAN_DIAG_STORED, 0, m, n, A, lda, colwork, NULL, NULL,
            1);
        zlan_rows_kernel<<<zlan_blocks(m, ZLAN_L), rows, 0, stream>>>((int)TILA_GENERAL, 0, m, n, A,
                                                                      lda, rowwork);
    }
    else if (norm == TILA_NORM_MAX)
        zlan_cols_kernel<<<zlan_blocks(n, ZLAN_COLS), cols, 0, stream>>>(
            ZLAN_MAX, (int)TILA_GENERAL, 0, ZLAN_DIAG_STORED, 0, m, n, A, lda, colwork, rowwork,
            NULL, 1);
    else
        TILA_CUDA_PASS(zlan_fro(stream, (int)TILA_GENERAL, 0, ZLAN_DIAG_STORED, 0, m, n, A, lda,
                                colwork, rowwork, scratch));
    TILA_CUDA_LAUNCHED();
    return 0;
}

/* ---- Many tiles in one launch: the entry point ------------------------------------------ */

/* Bytes of the tile table, then (Frobenius) each tile's scratch of `stride` reals. */
static size_t zlan_table_bytes(int count)
{
    return ((sizeof(zlan_tile_t) * (size_t)count + 255) / 256) * 256;
}

/* Bytes of GPU memory for `count` tiles of at most maxn columns. */
static size_t zlan_tiles_bytes(tila_norm_t norm, int count, int maxn)
{
    size_t stride = tila_cuda_zlan_scratch_elems(maxn);
    return zlan_table_bytes(count) +
           (norm == TILA_NORM_FRO ? sizeof(double) * stride * (size_t)count : 0);
}

/** Bytes of GPU memory tila_cuda_zlange_tiles needs for these `count` tiles. */
size_t tila_cuda_zlange_tiles_scratch(tila_norm_t norm, int count, const tila_lan_tile_t *tiles)
{
    int maxn = 0;
    for (int t = 0; t < count; t++)
        maxn = tiles[t].n > maxn ? tiles[t].n : maxn;
    return zlan_tiles_bytes(norm, count, maxn);
}

/**
 * The partials of `count` tiles in one launch per kernel (a grid over every tile's blocks):
 * tile t's partial at work + tiles[t].off, with the bits tila_cuda_zlange (a whole tile) or
 * tila_cuda_zlantr (a trapezoid) give it one tile at a time; work is not zeroed here.
 * dwork: tila_cuda_zlange_tiles_scratch(norm, count, tiles) bytes of GPU memory;
 * the tile table goes there from host memory (a copy on `stream` that returns once the
 * table is staged).  Returns -i for argument i, or -(100 + t) for tile t's bad field.
 */
int tila_cuda_zlange_tiles(cudaStream_t stream, tila_norm_t norm, int count,
                           const tila_lan_tile_t *tiles, double *work, void *dwork,
                           size_t dwork_bytes)
{
    if (!tila_valid_norm(norm)) return -2;
    if (count < 0) return -3;
    if (count == 0) return 0;
    int maxn = 0, maxm = 0;
    for (int t = 0; t < count; t++) {
        const tila_lan_tile_t *x = &tiles[t];
        /* tila_core_zlange_tiles's test: the tile's kernel would refuse it. */
        int bad = x->trapezoid ? tila_args_lantr(norm, x->uplo, x->diag, x->m, x->n, x->lda, 0)
                               : tila_args_lange(norm, x->m, x->n, x->lda, 0);
        if (bad) return -(100 + t);
        maxn = x->n > maxn ? x->n : maxn;
        maxm = x->m > maxm ? x->m : maxm;
    }
    if (dwork_bytes < zlan_tiles_bytes(norm, count, maxn)) return -7;
    zlan_tile_t *table = (zlan_tile_t *)malloc(sizeof *table * (size_t)count);
    if (!table) return TILA_ERR_NOMEM;
    size_t stride = tila_cuda_zlan_scratch_elems(maxn);
    double *nodes = (double *)((char *)dwork + zlan_table_bytes(count));
    for (int t = 0; t < count; t++) {
        const tila_lan_tile_t *x = &tiles[t];
        int unit = x->trapezoid && x->diag == TILA_UNIT;
        table[t] = (zlan_tile_t){ .A = (const cuDoubleComplex *)x->A,
                                  .work = work + x->off,
                                  .scratch = nodes + stride * (size_t)t,
                                  .m = x->m,
                                  .n = x->n,
                                  .lda = x->lda,
                                  .uplo = x->trapezoid ? (int)x->uplo : (int)TILA_GENERAL,
                                  .strict = unit,
                                  .diag = unit ? ZLAN_DIAG_UNIT : ZLAN_DIAG_STORED,
                                  .ndiag = unit ? tila_min(x->m, x->n) : 0 };
    }
    /* From pageable memory the copy returns once the table is staged: it can go. */
    int rc = TILA_CUDA_STATUS(cudaMemcpyAsync(dwork, table, sizeof *table * (size_t)count,
                                              cudaMemcpyHostToDevice, stream));
    free(table);
    if (rc) return rc;
    const zlan_tile_t *dt = (const zlan_tile_t *)dwork;
    dim3 cols(ZLAN_L, ZLAN_COLS), rows(ZLAN_L, ZLAN_L);
    dim3 gcols(zlan_blocks(maxn, ZLAN_COLS), (unsigned)count),
        grows(zlan_blocks(maxm, ZLAN_L), (unsigned)count);
    if (maxn == 0 || maxm == 0) return 0;
    switch (norm) {
    case TILA_NORM_ONE: zlan_cols_tiles_kernel<<<gcols, cols, 0, stream>>>(ZLAN_SUM, dt, 1); break;
    case TILA_NORM_INF: zlan_rows_tiles_kernel<<<grows, rows, 0, stream>>>(dt); break;
    case TILA_NORM_MAX: zlan_cols_tiles_kernel<<<gcols, cols, 0, stream>>>(ZLAN_MAX, dt, 1); break;
    default:
        /* Each tile's scratch header zeroed: its largest |part|, flag and exponent. */
        TILA_CUDA_CHECK(cudaMemset2DAsync(nodes, sizeof(double) * stride, 0,
                                          sizeof(double) * ZLAN_NODES, (size_t)count, stream));
        for (int pass = 1; pass <= 2; pass++) {
            zlan_cols_tiles_kernel<<<gcols, cols, 0, stream>>>(ZLAN_SQUARES, dt, pass);
            zlan_fro_finish_tiles_kernel<<<(unsigned)count, ZLAN_FINISH, 0, stream>>>(pass, dt);
        }
        break;
    }
    TILA_CUDA_LAUNCHED();
    return 0;
}
