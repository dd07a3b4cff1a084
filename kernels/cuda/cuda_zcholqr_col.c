/**
 * @file cuda_zcholqr_col.c
 * @brief GPU kernel: QR factorization of a column of tiles by Cholesky QR (cuBLAS HERK and
 *        TRSM, cuSOLVER potrf), with the shifted and Householder fallbacks; the Householder
 *        reconstruction around the host's small LU (tila_core_zunhr_col).
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include <cusolverDn.h>

#include "core_z.h"
#include "cuda_kernel.h"
#include "cuda_z.h"
#include "tila_kernel_args.h"

/* Same rounds and thresholds as the CPU kernel (core_zcholqr_col.c). */
#define CHOLQR_ROUNDS 4
#define CHOLQR_NEAR_IDENTITY 0.1

/* The panel's tiles on the device, its stream and handles, and the workspaces. */
struct panel {
    cublasHandle_t blas;
    cusolverDnHandle_t solver;
    cusolverDnParams_t params;
    cudaStream_t stream;
    int m, n;
    const int *mbs;
    cuDoubleComplex *const *A;
    const int *lda;
};

/* The host's arithmetic on the buffers: 1, 0, Re w, |w|^2, w + s (s real). */
#if defined(COMPLEX)
static cuDoubleComplex zone(void) { return make_cuDoubleComplex(1.0, 0.0); }
static cuDoubleComplex zzero(void) { return make_cuDoubleComplex(0.0, 0.0); }
static double re(cuDoubleComplex w) { return cuCreal(w); }
static double abs2(cuDoubleComplex w) { return cuCreal(w) * cuCreal(w) + cuCimag(w) * cuCimag(w); }
static cuDoubleComplex plus(cuDoubleComplex w, double s)
{
    return make_cuDoubleComplex(cuCreal(w) + s, cuCimag(w));
}
#else
static double zone(void) { return 1.0; }
static double zzero(void) { return 0.0; }
static double re(double w) { return w; }
static double abs2(double w) { return w * w; }
static double plus(double w, double s) { return w + s; }
#endif

/* The host buffers (pinned, after cuSOLVER's host workspace): the Gram matrix before its
 * Cholesky factorization, its factor (then Q's top block), the signs, potrf's status. */
struct host {
    cuDoubleComplex *W, *Q, *D;
    int *info;
};

static struct host host_buffers(void *own, int n)
{
    size_t nn = (size_t)n * n;
    cuDoubleComplex *h = own;
    return (struct host){ h, h + nn, h + 2 * nn, (int *)(h + 2 * nn + n) };
}

/**
 * Workspace of tila_cuda_zcholqr_col for an m x n panel (a query): the device bytes (potrf's
 * or the Householder panel's, after potrf's status), cuSOLVER's host bytes, and the host
 * bytes of the kernel's own buffers, which follow cuSOLVER's.  `panel` (m n elements) and
 * `tau` (n elements) are where the kernel will have them.  @return 0 or TILA_ERR_DEVICE.
 */
int tila_cuda_zcholqr_col_worksize(cusolverDnHandle_t solver, cusolverDnParams_t params, int m,
                                   int n, cuDoubleComplex *panel, cuDoubleComplex *tau,
                                   cuDoubleComplex *T, int ldt, size_t *dbytes, size_t *hsolver,
                                   size_t *hown)
{
    int lwork = 0;
    TILA_CUDA_PASS(tila_cuda_zgeqrt_worksize(solver, params, m, n, n, panel, tila_max1(m), tau, T,
                                             ldt, dbytes, hsolver));
    if (n > 0) TILA_CUDA_PASS(tila_cuda_zpotrf_lwork(solver, TILA_UPPER, n, panel, n, &lwork));
    size_t potrf = TILA_CUDA_INFO_BYTES + (size_t)lwork * sizeof(cuDoubleComplex);
    *dbytes = potrf > *dbytes ? potrf : *dbytes;
    /* R's inverse (panel_trsm): TRTRI's workspaces after the status, as potrf's. */
    size_t tdev = 0, thost = 0;
    TILA_CUDA_PASS(
        tila_cuda_ztrtri_worksize(solver, TILA_UPPER, TILA_NONUNIT, n, panel, n, &tdev, &thost));
    tdev += TILA_CUDA_INFO_BYTES;
    *dbytes = tdev > *dbytes ? tdev : *dbytes;
    *hsolver = thost > *hsolver ? thost : *hsolver;
    *hown = (2 * (size_t)n * n + (size_t)n) * sizeof(cuDoubleComplex) + 2 * sizeof(int);
    return 0;
}

/*
 * W (upper, n x n) = A^H A over the tiles.  A HERK on one tile has an n x n result: a few
 * thread blocks, a few of the GPU's multiprocessors, one tile after another.  With `room`
 * (nroom elements of the device, free during the call) for each tile's own product, a
 * vector of ones and the batch's pointers, the tiles of at least n rows are one batched
 * GEMM for each run of tiles of one shape (every tile's product at once) and W their sum,
 * one GEMV; the tiles of fewer rows, and all of them without room, HERKs into W.  The sum's
 * order is not the HERKs' (W differs in its last bits, as any two orders do).
 */
static int panel_gram(const struct panel *p, cuDoubleComplex *W, cuDoubleComplex *room,
                      size_t nroom)
{
    size_t nn = (size_t)p->n * p->n, elt = sizeof(cuDoubleComplex);
    int big = 0;
    for (int i = 0, r = 0; r < p->m; r += p->mbs[i++])
        big += p->mbs[i] >= p->n;
    size_t ptr_elts = (2 * (size_t)big * sizeof(void *) + elt - 1) / elt;
    int batched = room && big >= 2 && nn <= INT_MAX && (size_t)big * (nn + 1) + ptr_elts <= nroom;
    if (batched) {
        cuDoubleComplex *parts = room, *ones = parts + (size_t)big * nn;
        cuDoubleComplex **dptr = (cuDoubleComplex **)(ones + big);
        cuDoubleComplex **hptr = malloc(2 * (size_t)big * sizeof *hptr);
        if (!hptr) return TILA_ERR_NOMEM;
        for (int i = 0, b = 0, r = 0; r < p->m; r += p->mbs[i++])
            if (p->mbs[i] >= p->n) {
                hptr[b] = p->A[i];
                hptr[big + b] = parts + (size_t)b * nn;
                b++;
            }
        /* From pageable memory: the call returns once the pointers are staged. */
        cudaError_t copied = cudaMemcpyAsync(dptr, hptr, 2 * (size_t)big * sizeof *hptr,
                                             cudaMemcpyHostToDevice, p->stream);
        free(hptr);
        TILA_CUDA_CHECK(copied);
        const cuDoubleComplex one = zone(), zero = zzero();
        /* Runs of consecutive tiles of one shape (rows and leading dimension). */
        for (int i = 0, b = 0, r = 0; r < p->m;) {
            if (p->mbs[i] < p->n) {
                r += p->mbs[i++];
                continue;
            }
            int first = b, rows = p->mbs[i], ld = p->lda[i];
            while (r < p->m && p->mbs[i] == rows && p->lda[i] == ld) {
                r += p->mbs[i++];
                b++;
            }
            TILA_CUDA_CHECK(cublasZgemmBatched(
                p->blas, CUBLAS_OP_C, CUBLAS_OP_N, p->n, p->n, rows, &one,
                (const cuDoubleComplex *const *)(dptr + first), ld,
                (const cuDoubleComplex *const *)(dptr + first), ld, &zero, dptr + big + first,
                p->n, b - first));
        }
        TILA_CUDA_PASS(tila_cuda_zlaset(p->stream, TILA_GENERAL, big, 1, one, one, ones, big));
        TILA_CUDA_CHECK(cublasZgemv(p->blas, CUBLAS_OP_N, (int)nn, big, &one, parts, (int)nn,
                                    ones, 1, &zero, W, 1));
    }
    for (int i = 0, r = 0, first = !batched; r < p->m; r += p->mbs[i++]) {
        if (batched && p->mbs[i] >= p->n) continue;
        TILA_CUDA_PASS(tila_cuda_zherk(p->blas, TILA_UPPER, TILA_CONJTRANS, p->n, p->mbs[i], 1.0,
                                       p->A[i], p->lda[i], first ? 0.0 : 1.0, W, p->n));
        first = 0;
    }
    return 0;
}

/* cuSOLVER's workspaces for a call: device (the status first), then host. */
struct solver_work {
    void *dwork, *hwork;
    size_t dbytes, hbytes;
};

/*
 * A = A R^{-1} on every tile's rows from `first` of the panel (tila_core_zcholqr_col's
 * panel_trsm): with Rinv (n x n) R's inverse goes there (TRTRI) and each tile's rows are
 * copied to `copy` ((m - first) x n elements) and multiplied by it, one GEMM a tile at
 * GEMM's rate (tila_cuda_ztrsm_inv; the stream orders each tile's copy after the previous
 * tile's GEMM); else cuBLAS's TRSM a tile.
 */
static int panel_trsm(const struct panel *p, int first, const cuDoubleComplex *R, int ldr,
                      cuDoubleComplex *Rinv, cuDoubleComplex *copy, const struct solver_work *w)
{
    int n = p->n;
    /* Nonsingular: its rcond passed tila_core_zcholqr_inverse_ok. */
    if (Rinv)
        TILA_CUDA_PASS(tila_cuda_ztrtri(p->solver, p->stream, TILA_UPPER, TILA_NONUNIT, n, R, ldr,
                                        Rinv, n, NULL, NULL, (int *)w->dwork,
                                        (char *)w->dwork + TILA_CUDA_INFO_BYTES,
                                        w->dbytes - TILA_CUDA_INFO_BYTES, w->hwork, w->hbytes));
    for (int i = 0, r = 0; r < p->m; r += p->mbs[i++]) {
        int skip = first > r ? tila_min(first - r, p->mbs[i]) : 0, rows = p->mbs[i] - skip;
        if (rows <= 0) continue;
        if (Rinv)
            TILA_CUDA_PASS(tila_cuda_ztrsm_inv(p->blas, p->stream, TILA_RIGHT, TILA_NOTRANS, rows,
                                               n, zone(), Rinv, n, p->A[i] + skip, p->lda[i], copy,
                                               tila_max1(p->m - first)));
        else
            TILA_CUDA_PASS(tila_cuda_ztrsm(p->blas, TILA_RIGHT, TILA_UPPER, TILA_NOTRANS,
                                           TILA_NONUNIT, rows, n, zone(), R, ldr, p->A[i] + skip,
                                           p->lda[i]));
    }
    return 0;
}

/* Gather (to_panel) or scatter the tiles from or to the m x n device matrix `panel`. */
static int panel_copy(const struct panel *p, cuDoubleComplex *panel, int to_panel)
{
    for (int i = 0, r = 0; r < p->m; r += p->mbs[i++])
        TILA_CUDA_PASS(to_panel ? tila_cuda_zlacpy(p->stream, TILA_GENERAL, p->mbs[i], p->n,
                                                   p->A[i], p->lda[i], panel + r, p->m)
                                : tila_cuda_zlacpy(p->stream, TILA_GENERAL, p->mbs[i], p->n,
                                                   panel + r, p->m, p->A[i], p->lda[i]));
    return 0;
}

/* Cholesky factor of W on the device; W's factor and the status come to h.Q and h.info,
 * and with `gram` W itself first to h.W; then the stream is waited for: what the rounds
 * do next depends on these values. */
static int chol_to_host(const struct panel *p, cuDoubleComplex *W, void *dwork, size_t dbytes,
                        struct host h, int gram)
{
    size_t nbytes = (size_t)p->n * p->n * sizeof(cuDoubleComplex);
    int *devinfo = dwork;
    if (gram) TILA_CUDA_CHECK(cudaMemcpyAsync(h.W, W, nbytes, cudaMemcpyDeviceToHost, p->stream));
    TILA_CUDA_PASS(tila_cuda_zpotrf(
        p->solver, TILA_UPPER, p->n, W, p->n,
        (cuDoubleComplex *)((char *)dwork + TILA_CUDA_INFO_BYTES),
        (int)((dbytes - TILA_CUDA_INFO_BYTES) / sizeof(cuDoubleComplex)), devinfo));
    TILA_CUDA_CHECK(cudaMemcpyAsync(h.Q, W, nbytes, cudaMemcpyDeviceToHost, p->stream));
    TILA_CUDA_CHECK(
        cudaMemcpyAsync(h.info, devinfo, sizeof(int), cudaMemcpyDeviceToHost, p->stream));
    TILA_CUDA_CHECK(cudaStreamSynchronize(p->stream));
    return 0;
}

static double gram_deviation(int n, const cuDoubleComplex *W)
{
    double s = 0.0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i <= j; i++) {
            cuDoubleComplex w = W[i + (size_t)j * n];
            s += (i == j ? abs2(plus(w, -1.0)) : 2.0 * abs2(w));
        }
    return sqrt(s);
}

static double diagonal_ratio(int n, const cuDoubleComplex *R)
{
    double lo = INFINITY, hi = 0.0;
    for (int j = 0; j < n; j++) {
        double a = fabs(re(R[j + (size_t)j * n]));
        lo = a < lo ? a : lo;
        hi = a > hi ? a : hi;
    }
    return hi > 0.0 ? lo / hi : 0.0;
}

/**
 * The Cholesky QR rounds of tila_core_zcholqr_col on the device, with the same decisions,
 * taken on the host after each Cholesky factorization (the stream is waited for there);
 * the panel's Householder factorization where they fail (then *done = 0 and the panel is
 * factored: V, R and T in place).  With *done = 1 the tiles hold the last round's input A,
 * whose Q = A R^{-1} is orthonormal (R in work's Gram room, not applied: its solve joins the
 * reconstruction's), Racc the product of all the rounds' R factors, and h's Q buffer Q's top
 * n x n block (the stream waited for): tila_core_zunhr_col on it, then
 * tila_cuda_zcholqr_col_finish.
 * @param work   device: m n + 3 n n + n elements (Gram, Racc, signs, the saved panel or the
 *               Gram's partial products, and n n for tau or the top block).
 * @param dwork, dbytes, hsolver, hsbytes, hown  as tila_cuda_zcholqr_col_worksize gives.
 * @param batch  0: the Gram matrices by a HERK a tile; else by one batched GEMM where the
 *               room allows (panel_gram).
 * @param ut_min   the Householder panel's T by the UT transform from ut_min reflectors
 *               (tila_cuda_zlarft_blocks; 0: cuSOLVER's larft).
 * @param inverse  0: every round's A R^{-1} by TRSM; else by R's inverse where
 *               tila_core_zcholqr_inverse_ok allows and the panel's room is free
 *               (panel_trsm), as tila_core_zcholqr_col.
 * @param path   0 CholeskyQR2 (or 3), 1 shifted CholeskyQR3, 2 Householder.
 * @param rcond  with *done = 1 and `inverse`: an estimate of 1 / kappa_1 of the last round's
 *               R, for the reconstruction's choice (tila_cuda_zcholqr_col_finish).
 * @return 0, -i if argument i is invalid, or TILA_ERR_DEVICE.
 */
int tila_cuda_zcholqr_col(cublasHandle_t blas, cusolverDnHandle_t solver, cusolverDnParams_t params,
                          cudaStream_t stream, int m, int n, const int *mbs,
                          cuDoubleComplex *const *A, const int *lda, cuDoubleComplex *T, int ldt,
                          cuDoubleComplex *work, void *dwork, size_t dbytes, void *hsolver,
                          size_t hsbytes, void *hown, int batch, int inverse, int ut_min, int *done,
                          int *path, double *rcond)
{
    *done = 0;
    *path = 2;
    *rcond = 0.0;
    int rc = tila_args_geqrt_col(m, n, mbs, ldt, 4);
    if (rc) return rc;
    if (m == 0 || n == 0) return 0;
    const struct panel p = { blas, solver, params, stream, m, n, mbs, A, lda };
    size_t nn = (size_t)n * n;
    cuDoubleComplex *W = work, *Racc = W + nn, *D = Racc + nn, *panel = D + n,
                    *spare = panel + (size_t)m * n; /* tau */
    struct host h = host_buffers(hown, n);
    const struct solver_work sw = { dwork, hsolver, dbytes, hsbytes };
    if (m < n || mbs[0] < n)
        return tila_cuda_zgeqrt_col(blas, ut_min, solver, params, stream, m, n, mbs, A, lda, T, ldt,
                                    panel, spare, dwork, dbytes, hsolver, hsbytes);

    const double u = DBL_EPSILON / 2;
    int shifted = 0;
    for (int r = 0; r < CHOLQR_ROUNDS && !*done; r++) {
        /* The panel's room is free unless it holds the saved panel (shifted). */
        TILA_CUDA_PASS(panel_gram(&p, W, batch && !shifted ? panel : NULL, (size_t)m * n));
        TILA_CUDA_PASS(chol_to_host(&p, W, dwork, dbytes, h, 1));
        if (r > 0) {
            double dev = gram_deviation(n, h.W);
            if (!(dev == dev)) break;
            *done = dev <= CHOLQR_NEAR_IDENTITY;
        }
        if (r == 0 && (*h.info || !(diagonal_ratio(n, h.Q) >= sqrt(u)))) {
            double fro2 = 0.0;
            for (int j = 0; j < n; j++)
                fro2 += re(h.W[j + (size_t)j * n]);
            double s = 11.0 * ((double)m * n + (double)n * (n + 1)) * u * fro2;
            for (int j = 0; j < n; j++)
                h.W[j + (size_t)j * n] = plus(h.W[j + (size_t)j * n], s);
            TILA_CUDA_CHECK(cudaMemcpyAsync(W, h.W, nn * sizeof(cuDoubleComplex),
                                            cudaMemcpyHostToDevice, stream));
            TILA_CUDA_PASS(panel_copy(&p, panel, 1));
            shifted = 1;
            TILA_CUDA_PASS(chol_to_host(&p, W, dwork, dbytes, h, 0));
            if (*h.info || !(s > 0.0)) break;
        }
        else if (*h.info || !(diagonal_ratio(n, h.Q) >= sqrt(u))) {
            *done = 0;
            break;
        }
        /* R (h's Q: chol_to_host) is on the host. */
        *rcond = inverse ? tila_core_zcholqr_rcond(n, (tila_complex64_t *)h.Q, n) : 0.0;
        if (*done) break; /* the last round's solve joins the reconstruction's */
        /* R^{-1} in spare (tau's room, free in the rounds), the copies in the panel's. */
        int inv = !shifted && tila_core_zcholqr_inverse_ok(*rcond, n);
        TILA_CUDA_PASS(panel_trsm(&p, 0, W, n, inv ? spare : NULL, panel, &sw));
        if (r == 0)
            TILA_CUDA_PASS(tila_cuda_zlacpy(stream, TILA_UPPER, n, n, W, n, Racc, n));
        else
            TILA_CUDA_PASS(tila_cuda_ztrmm(blas, TILA_LEFT, TILA_UPPER, TILA_NOTRANS, TILA_NONUNIT,
                                           n, n, zone(), W, n, Racc, n));
    }
    if (!*done) {
        if (!shifted) {
            TILA_CUDA_PASS(tila_cuda_zgeqrt_col(blas, ut_min, solver, params, stream, m, n, mbs, A,
                                                lda, T, ldt, panel, spare, dwork, dbytes, hsolver,
                                                hsbytes));
            TILA_CUDA_PASS(tila_cuda_ztrmm(blas, TILA_LEFT, TILA_UPPER, TILA_NOTRANS, TILA_NONUNIT,
                                           n, n, zone(), A[0], lda[0], Racc, n));
            return tila_cuda_zlacpy(stream, TILA_UPPER, n, n, Racc, n, A[0], lda[0]);
        }
        TILA_CUDA_PASS(tila_cuda_zgeqrt(blas, ut_min, solver, params, m, n, n, panel, m, T, ldt,
                                        spare, dwork, dbytes, hsolver, hsbytes));
        return panel_copy(&p, panel, 0);
    }
    /* Racc = R Racc, and Q1 = A1 R^{-1} (R the last round's factor, in W) to the host. */
    TILA_CUDA_PASS(tila_cuda_ztrmm(blas, TILA_LEFT, TILA_UPPER, TILA_NOTRANS, TILA_NONUNIT, n, n,
                                   zone(), W, n, Racc, n));
    TILA_CUDA_PASS(tila_cuda_zlacpy(stream, TILA_GENERAL, n, n, A[0], lda[0], spare, n));
    TILA_CUDA_PASS(tila_cuda_ztrsm(blas, TILA_RIGHT, TILA_UPPER, TILA_NOTRANS, TILA_NONUNIT, n, n,
                                   zone(), W, n, spare, n));
    TILA_CUDA_CHECK(
        cudaMemcpyAsync(h.Q, spare, nn * sizeof(cuDoubleComplex), cudaMemcpyDeviceToHost, stream));
    TILA_CUDA_CHECK(cudaStreamSynchronize(stream));
    *path = shifted;
    return 0;
}

/**
 * The end of the Householder reconstruction after tila_cuda_zcholqr_col's *done = 1 and
 * tila_core_zunhr_col on the host buffers without T (h's Q: L and U of Q1 - S; D): L, U
 * and D go to the device, T = -U S L^{-H} is formed there, V2 = Q2 U^{-1} = A2 (U R)^{-1}
 * by one solve on every tile's rows below the top block (A the tiles, R the last round's
 * factor, still in the Gram matrix's room), and the top block becomes L below R = S Racc.  The host buffers are read by queued copies:
 * the caller marks its host workspace busy.  With `inverse` (the caller's choice from
 * tila_core_zcholqr_inverse_ok) that solve goes by (U R)'s inverse (panel_trsm).
 * @return 0 or TILA_ERR_DEVICE.
 */
int tila_cuda_zcholqr_col_finish(cublasHandle_t blas, cusolverDnHandle_t solver,
                                 cudaStream_t stream, int m, int n, const int *mbs,
                                 cuDoubleComplex *const *A, const int *lda, cuDoubleComplex *T,
                                 int ldt, cuDoubleComplex *work, void *dwork, size_t dbytes,
                                 void *hsolver, size_t hsbytes, void *hown, int inverse)
{
    const struct panel p = { blas, solver, NULL, stream, m, n, mbs, A, lda };
    const struct solver_work sw = { dwork, hsolver, dbytes, hsbytes };
    size_t nn = (size_t)n * n, elt = sizeof(cuDoubleComplex);
    cuDoubleComplex *W = work, *Racc = W + nn, *D = Racc + nn, *LU = D + n + (size_t)m * n;
    struct host h = host_buffers(hown, n);
    TILA_CUDA_CHECK(cudaMemcpyAsync(LU, h.Q, nn * elt, cudaMemcpyHostToDevice, stream));
    TILA_CUDA_CHECK(cudaMemcpyAsync(D, h.D, (size_t)n * elt, cudaMemcpyHostToDevice, stream));
    /* T = -U S L^{-H} (tila_core_zunhr_col's, here): U S, its strictly lower part zero, then
     * one TRSM with L (unit lower). */
    TILA_CUDA_CHECK(cublasZdgmm(blas, CUBLAS_SIDE_RIGHT, n, n, LU, n, D, 1, T, ldt));
    if (n > 1)
        TILA_CUDA_PASS(
            tila_cuda_zlaset(stream, TILA_LOWER, n - 1, n - 1, zzero(), zzero(), T + 1, ldt));
    TILA_CUDA_PASS(tila_cuda_ztrsm(blas, TILA_RIGHT, TILA_LOWER, TILA_CONJTRANS, TILA_UNIT, n, n,
                                   plus(zzero(), -1.0), LU, n, T, ldt));
    /* U R as a product of triangles: R's strictly lower part (HERK's leftovers) zero. */
    if (n > 1)
        TILA_CUDA_PASS(
            tila_cuda_zlaset(stream, TILA_LOWER, n - 1, n - 1, zzero(), zzero(), W + 1, n));
    TILA_CUDA_PASS(tila_cuda_ztrmm(blas, TILA_LEFT, TILA_UPPER, TILA_NOTRANS, TILA_NONUNIT, n, n,
                                   zone(), LU, n, W, n));
    /* The panel's room is free now: the inverse in its first n x n, the copies after it. */
    cuDoubleComplex *room = D + n;
    TILA_CUDA_PASS(panel_trsm(&p, n, W, n, inverse ? room : NULL, room + nn, &sw));
    TILA_CUDA_PASS(tila_cuda_zlacpy(stream, TILA_LOWER, n, n, LU, n, A[0], lda[0]));
    /* R = S Racc, out of place into the Gram matrix's room (stream order: after the solve). */
    TILA_CUDA_CHECK(cublasZdgmm(blas, CUBLAS_SIDE_LEFT, n, n, Racc, n, D, 1, W, n));
    return tila_cuda_zlacpy(stream, TILA_UPPER, n, n, W, n, A[0], lda[0]);
}

/** Where the kernel's host buffers keep Q's top block and the signs (host_buffers). */
void tila_cuda_zcholqr_col_host(void *hown, int n, cuDoubleComplex **Q, cuDoubleComplex **D)
{
    struct host h = host_buffers(hown, n);
    *Q = h.Q;
    *D = h.D;
}
