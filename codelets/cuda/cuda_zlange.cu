/**
 * @file cuda_zlange.cu
 * @brief GPU norm tile kernels: fold a tile into a partial result (layout of
 * core_z.h), on the given stream, without synchronising.
 * @precisions normal z -> c d s
 *
 * After SLATE's GPU norms:
 *  - infinity: one thread per row, walking the columns in order (consecutive threads
 *    read consecutive addresses of a column: coalesced);
 *  - one: B x B blocks (B = 32, a warp) staged through shared memory, so that the
 *    warp reads columns coalesced and each thread then adds its column down the rows;
 *  - max: per-thread maxima over rows, then a shared-memory tree reduction that keeps
 *    NaN (isnan(y) || x < y ? y : x);
 *  - Frobenius: per-thread scaled sums of squares (LAPACK's lassq update: nothing
 *    overflows or underflows), reduced in shared memory by the same pair rule as the
 *    CPU kernels.
 * Sums of the one and infinity norms are taken in LAPACK's order, as on the CPU, so a
 * real tile gives the CPU's bits.  Entries outside the trapezoid or triangle are not
 * read.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include "cuda_kernel.h"
#include "cuda_z.h"

#define ZLAN_B 32        /* columns per block of the one norm, a warp */
#define ZLAN_THREADS 256 /* threads of the row and reduction kernels */

/* What the diagonal of a tile is for the max and Frobenius kernels. */
enum zlan_diag_e {
    ZLAN_DIAG_STORED, /* an ordinary entry of the trapezoid (or general tile) */
    ZLAN_DIAG_UNIT,   /* not read, counts as one */
    ZLAN_DIAG_SYM,    /* symmetric: off-diagonal entries count twice */
    ZLAN_DIAG_HERM    /* Hermitian: the same, and the diagonal's real part only */
};

__device__ static inline double zlan_abs(cuDoubleComplex a) { return cuCabs(a); }

/* Is (i, j) in the trapezoid `uplo` (TILA_GENERAL: everywhere); strict: off the diagonal. */
__device__ static inline int zlan_in(int uplo, int strict, int i, int j)
{
    if (uplo == TILA_UPPER) return strict ? i < j : i <= j;
    if (uplo == TILA_LOWER) return strict ? i > j : i >= j;
    return 1;
}

/* Largest of x and y; a NaN in either wins. */
__device__ static inline double zlan_nanmax(double x, double y)
{
    return isnan(y) || x < y ? y : x;
}

/* (scale, sumsq) += (s, q), keeping the larger scale (see core_zlange.c). */
__device__ static void zlan_fro_add(double *scale, double *sumsq, double s, double q)
{
    if (isnan(q) || isinf(q) || isnan(*sumsq) || isinf(*sumsq)) {
        *scale = 1;
        *sumsq += q;
        return;
    }
    if (q == 0) return;
    if (*sumsq == 0) {
        *scale = s;
        *sumsq = q;
        return;
    }
    if (s > *scale) {
        double r = *scale / s;
        *sumsq = q + *sumsq * r * r;
        *scale = s;
    }
    else {
        double r = s / *scale;
        *sumsq += q * r * r;
    }
}

/* weight x^2 folded into (scale, sumsq), as LAPACK's lassq does with one entry. */
__device__ static inline void zlan_fro_entry(double *scale, double *sumsq, double x, double weight)
{
    if (isnan(x) || isinf(x))
        zlan_fro_add(scale, sumsq, 1, x * x);
    else if (x > 0)
        zlan_fro_add(scale, sumsq, x, weight);
}

/* ---- Infinity norm (and row sums of a symmetric off-diagonal tile) ------------------ */

__global__ static void zlan_rowsum_kernel(int uplo, int strict, int m, int n,
                                          const cuDoubleComplex *A, int lda, double *work)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    double s = work[i];
    for (int j = 0; j < n; j++)
        if (zlan_in(uplo, strict, i, j)) s += zlan_abs(A[(size_t)j * lda + i]);
    work[i] = s;
}

/* ---- One norm ------------------------------------------------------------------------ */

/* Block (B, B) per B columns: the warp loads B x B coalesced, thread x of row 0 adds
 * column x down the block's rows; entries outside the trapezoid load as 0 (adding +0 to
 * a sum of magnitudes changes no bit). */
__global__ static void zlan_colsum_kernel(int uplo, int strict, int m, int n,
                                          const cuDoubleComplex *A, int lda, double *work)
{
    __shared__ double sh[ZLAN_B][ZLAN_B + 1];
    int tx = threadIdx.x, ty = threadIdx.y, j0 = blockIdx.x * ZLAN_B;
    int j = j0 + ty, col = j0 + tx;
    double s = ty == 0 && col < n ? work[col] : 0;
    for (int i0 = 0; i0 < m; i0 += ZLAN_B) {
        int i = i0 + tx;
        sh[ty][tx] =
            i < m && j < n && zlan_in(uplo, strict, i, j) ? zlan_abs(A[(size_t)j * lda + i]) : 0;
        __syncthreads();
        if (ty == 0)
            for (int r = 0; r < ZLAN_B && i0 + r < m; r++)
                s += sh[tx][r];
        __syncthreads();
    }
    if (ty == 0 && col < n) work[col] = s;
}

/* ---- Max and Frobenius: one block, per-thread rows, tree reduction ------------------- */

__global__ static void zlan_maxfro_kernel(int fro, int uplo, int diag, int m, int n,
                                          const cuDoubleComplex *A, int lda, double *work,
                                          double *work2)
{
    __shared__ double sh_a[ZLAN_THREADS], sh_b[ZLAN_THREADS];
    int t = threadIdx.x, strict = diag != ZLAN_DIAG_STORED;
    double offw = diag == ZLAN_DIAG_SYM || diag == ZLAN_DIAG_HERM ? 2 : 1;
    double a = 0, b = 0; /* max, or (scale, sumsq) */
    for (int i = t; i < m; i += blockDim.x) {
        for (int j = 0; j < n; j++) {
            double x;
            if (zlan_in(uplo, strict, i, j))
                x = zlan_abs(A[(size_t)j * lda + i]);
            else if (i != j || diag == ZLAN_DIAG_STORED)
                continue;
            else if (diag == ZLAN_DIAG_UNIT)
                x = 1;
#if defined(COMPLEX)
            else if (diag == ZLAN_DIAG_HERM)
                x = fabs(cuCreal(A[(size_t)j * lda + i]));
#endif
            else
                x = zlan_abs(A[(size_t)j * lda + i]);
            if (fro)
                zlan_fro_entry(&a, &b, x, i == j ? 1 : offw);
            else
                a = zlan_nanmax(a, x);
        }
    }
    sh_a[t] = a;
    sh_b[t] = b;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (t < half) {
            if (fro)
                zlan_fro_add(&sh_a[t], &sh_b[t], sh_a[t + half], sh_b[t + half]);
            else
                sh_a[t] = zlan_nanmax(sh_a[t], sh_a[t + half]);
        }
        __syncthreads();
    }
    if (t != 0) return;
    for (double *w = work; w; w = w == work ? work2 : NULL) {
        if (fro)
            zlan_fro_add(&w[0], &w[1], sh_a[0], sh_b[0]);
        else
            w[0] = zlan_nanmax(w[0], sh_a[0]);
    }
}

/* ---- Symmetric/Hermitian diagonal tile, one and infinity norms ----------------------- */

/* One thread per column j of the full symmetric tile, adding it in row order: the
 * entries above the diagonal come from row j (lower) or column j (upper). */
__global__ static void zlan_symsum_kernel(int uplo, int herm, int n, const cuDoubleComplex *A,
                                          int lda, double *work)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    (void)herm; /* real arithmetic: symmetric only */
    if (j >= n) return;
    double s = work[j];
    for (int i = 0; i < n; i++) {
        if (i == j) {
#if defined(COMPLEX)
            if (herm) {
                s += fabs(cuCreal(A[(size_t)j * lda + j]));
                continue;
            }
#endif
            s += zlan_abs(A[(size_t)j * lda + j]);
            continue;
        }
        int stored = uplo == TILA_LOWER ? i > j : i < j;
        s += zlan_abs(stored ? A[(size_t)j * lda + i] : A[(size_t)i * lda + j]);
    }
    work[j] = s;
}

/* ---- Entry points ------------------------------------------------------------------- */

static unsigned zlan_blocks(int count, int per) { return (unsigned)((count + per - 1) / per); }

/* The trapezoid `uplo` (TILA_GENERAL: the whole tile) with diagonal `diag`. */
static void zlan_trapezoid(cudaStream_t stream, tila_norm_t norm, tila_uplo_t uplo, int unit, int m,
                           int n, const cuDoubleComplex *A, int lda, double *work)
{
    switch (norm) {
    case TILA_NORM_ONE:
        zlan_colsum_kernel<<<zlan_blocks(n, ZLAN_B), dim3(ZLAN_B, ZLAN_B), 0, stream>>>(
            (int)uplo, unit, m, n, A, lda, work);
        break;
    case TILA_NORM_INF:
        zlan_rowsum_kernel<<<zlan_blocks(m, ZLAN_THREADS), ZLAN_THREADS, 0, stream>>>(
            (int)uplo, unit, m, n, A, lda, work);
        break;
    default:
        zlan_maxfro_kernel<<<1, ZLAN_THREADS, 0, stream>>>(norm == TILA_NORM_FRO, (int)uplo,
                                                           unit ? ZLAN_DIAG_UNIT : ZLAN_DIAG_STORED,
                                                           m, n, A, lda, work, NULL);
        break;
    }
    TILA_CUDA_CHECK(cudaGetLastError());
}

static int zlan_valid_norm(tila_norm_t norm)
{
    return norm == TILA_NORM_MAX || norm == TILA_NORM_ONE || norm == TILA_NORM_INF ||
           norm == TILA_NORM_FRO;
}

/** As tila_core_zlange, on `stream` (A and work in GPU memory). */
int tila_cuda_zlange(cudaStream_t stream, tila_norm_t norm, int m, int n, const cuDoubleComplex *A,
                     int lda, double *work)
{
    if (!zlan_valid_norm(norm)) return -2;
    if (m < 0) return -3;
    if (n < 0) return -4;
    if (lda < tila_cuda_max1(m)) return -6;
    if (m == 0 || n == 0) return 0;
    zlan_trapezoid(stream, norm, TILA_GENERAL, 0, m, n, A, lda, work);
    return 0;
}

/** As tila_core_zlantr, on `stream`. */
int tila_cuda_zlantr(cudaStream_t stream, tila_norm_t norm, tila_uplo_t uplo, tila_diag_t diag,
                     int m, int n, const cuDoubleComplex *A, int lda, double *work)
{
    if (!zlan_valid_norm(norm)) return -2;
    if (uplo != TILA_UPPER && uplo != TILA_LOWER) return -3;
    if (diag != TILA_UNIT && diag != TILA_NONUNIT) return -4;
    if (m < 0) return -5;
    if (n < 0) return -6;
    if (lda < tila_cuda_max1(m)) return -8;
    if (m == 0 || n == 0) return 0;
    zlan_trapezoid(stream, norm, uplo, diag == TILA_UNIT, m, n, A, lda, work);
    return 0;
}

/* Diagonal tile of a symmetric (herm = 0) or Hermitian matrix. */
static int zlan_symmetric(cudaStream_t stream, tila_norm_t norm, tila_uplo_t uplo, int herm, int n,
                          const cuDoubleComplex *A, int lda, double *work)
{
    if (!zlan_valid_norm(norm)) return -2;
    if (uplo != TILA_UPPER && uplo != TILA_LOWER) return -3;
    if (n < 0) return -4;
    if (lda < tila_cuda_max1(n)) return -6;
    if (n == 0) return 0;
    if (norm == TILA_NORM_ONE || norm == TILA_NORM_INF)
        zlan_symsum_kernel<<<zlan_blocks(n, ZLAN_THREADS), ZLAN_THREADS, 0, stream>>>(
            (int)uplo, herm, n, A, lda, work);
    else
        zlan_maxfro_kernel<<<1, ZLAN_THREADS, 0, stream>>>(norm == TILA_NORM_FRO, (int)uplo,
                                                           herm ? ZLAN_DIAG_HERM : ZLAN_DIAG_SYM, n,
                                                           n, A, lda, work, NULL);
    TILA_CUDA_CHECK(cudaGetLastError());
    return 0;
}

/** As tila_core_zlansy, on `stream`. */
int tila_cuda_zlansy(cudaStream_t stream, tila_norm_t norm, tila_uplo_t uplo, int n,
                     const cuDoubleComplex *A, int lda, double *work)
{
    return zlan_symmetric(stream, norm, uplo, 0, n, A, lda, work);
}

#if defined(COMPLEX)
/** As tila_core_zlanhe, on `stream`. */
int tila_cuda_zlanhe(cudaStream_t stream, tila_norm_t norm, tila_uplo_t uplo, int n,
                     const cuDoubleComplex *A, int lda, double *work)
{
    return zlan_symmetric(stream, norm, uplo, 1, n, A, lda, work);
}
#endif

/**
 * As tila_core_zlansy_offdiag, on `stream`: for the one/infinity norm the tile is read
 * twice from GPU memory, once per orientation, each coalesced and in LAPACK's order.
 */
int tila_cuda_zlansy_offdiag(cudaStream_t stream, tila_norm_t norm, int m, int n,
                             const cuDoubleComplex *A, int lda, double *colwork, double *rowwork)
{
    if (!zlan_valid_norm(norm)) return -2;
    if (m < 0) return -3;
    if (n < 0) return -4;
    if (lda < tila_cuda_max1(m)) return -6;
    if (m == 0 || n == 0) return 0;
    if (norm == TILA_NORM_ONE || norm == TILA_NORM_INF) {
        zlan_colsum_kernel<<<zlan_blocks(n, ZLAN_B), dim3(ZLAN_B, ZLAN_B), 0, stream>>>(
            (int)TILA_GENERAL, 0, m, n, A, lda, colwork);
        zlan_rowsum_kernel<<<zlan_blocks(m, ZLAN_THREADS), ZLAN_THREADS, 0, stream>>>(
            (int)TILA_GENERAL, 0, m, n, A, lda, rowwork);
    }
    else
        zlan_maxfro_kernel<<<1, ZLAN_THREADS, 0, stream>>>(norm == TILA_NORM_FRO, (int)TILA_GENERAL,
                                                           ZLAN_DIAG_STORED, m, n, A, lda, colwork,
                                                           rowwork);
    TILA_CUDA_CHECK(cudaGetLastError());
    return 0;
}
