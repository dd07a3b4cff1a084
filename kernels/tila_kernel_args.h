/**
 * @file tila_kernel_args.h
 * @brief Internal: the tile kernels' argument contracts, written once for a CPU kernel and
 * its GPU twin.
 *
 * A kernel checks its arguments in order and returns -i for the first invalid one, i
 * (LAPACK's contract, docs/CONTRIBUTING.md "Kernels").  A GPU kernel takes its device
 * arguments first (a cuBLAS or cuSOLVER handle, a stream) and then the CPU kernel's
 * arguments, in the CPU kernel's order: every check here takes `shift`, the number of
 * arguments before the contract's first (0 on the CPU), and returns -(i + shift).  Where a
 * GPU kernel leaves some of its twin's checks out (the enums that cuBLAS maps itself), it
 * calls the `_sizes` part of the contract, the same code as its twin's.
 *
 * A z-source includes this after defining COMPLEX or REAL (tila_valid_trans_h).  The same
 * code is compiled by the C compiler and by nvcc.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_KERNEL_ARGS_H
#define TILA_KERNEL_ARGS_H

#include "tila_types.h"

static inline int tila_max1(int x) { return x > 1 ? x : 1; }
static inline int tila_min(int x, int y) { return x < y ? x : y; }

static inline int tila_valid_side(tila_side_t side)
{
    return side == TILA_LEFT || side == TILA_RIGHT;
}

/* A triangle: TILA_UPPER or TILA_LOWER (tila_valid_uplo also takes TILA_GENERAL). */
static inline int tila_valid_triangle(tila_uplo_t uplo)
{
    return uplo == TILA_UPPER || uplo == TILA_LOWER;
}

static inline int tila_valid_uplo(tila_uplo_t uplo)
{
    return tila_valid_triangle(uplo) || uplo == TILA_GENERAL;
}

static inline int tila_valid_diag(tila_diag_t diag)
{
    return diag == TILA_UNIT || diag == TILA_NONUNIT;
}

static inline int tila_valid_trans(tila_trans_t t)
{
    return t == TILA_NOTRANS || t == TILA_TRANS || t == TILA_CONJTRANS;
}

/* op(X) is X or X^H (HERK's op(A), QR's op(Q)): TILA_NOTRANS or TILA_CONJTRANS, and
 * TILA_TRANS in real arithmetic, where X^H is X^T. */
static inline int tila_valid_trans_h(tila_trans_t t)
{
#if defined(COMPLEX)
    return t == TILA_NOTRANS || t == TILA_CONJTRANS;
#else
    return tila_valid_trans(t);
#endif
}

static inline int tila_valid_norm(tila_norm_t norm)
{
    return norm == TILA_NORM_MAX || norm == TILA_NORM_ONE || norm == TILA_NORM_INF ||
           norm == TILA_NORM_FRO;
}

/* The panel kernels' tiles: each of at least one row, adding up to m rows (m = 0: none). */
static inline int tila_panel_rows(int m, const int *mbs)
{
    int r = 0;
    for (int i = 0; r < m; r += mbs[i++])
        if (mbs[i] < 1) return 0;
    return r == m;
}

/* ---- One m x n matrix ---------------------------------------------------------------- */

/* (m, n, A, lda): colamax, plrnt, and after their leading enums lacpy, lange, lantr. */
static inline int tila_args_mat(int m, int n, int lda, int shift)
{
    if (m < 0) return -(1 + shift);
    if (n < 0) return -(2 + shift);
    if (lda < tila_max1(m)) return -(4 + shift);
    return 0;
}

/* (uplo, n, A, lda), A n x n with its triangle uplo: potrf, and after the norm lansy. */
static inline int tila_args_triangle(tila_uplo_t uplo, int n, int lda, int shift)
{
    if (!tila_valid_triangle(uplo)) return -(1 + shift);
    if (n < 0) return -(2 + shift);
    if (lda < tila_max1(n)) return -(4 + shift);
    return 0;
}

/* plrnt (m, n, A, lda, i0, j0, seed); plghe has bump first (shift 1). */
static inline int tila_args_plrnt(int m, int n, int lda, int i0, int j0, int shift)
{
    int rc = tila_args_mat(m, n, lda, shift);
    if (rc) return rc;
    if (i0 < 0) return -(5 + shift);
    return j0 < 0 ? -(6 + shift) : 0;
}

/* lascal (m, n, alpha, A, lda). */
static inline int tila_args_lascal(int m, int n, int lda, int shift)
{
    if (m < 0) return -(1 + shift);
    if (n < 0) return -(2 + shift);
    return lda < tila_max1(m) ? -(5 + shift) : 0;
}

/* geadd (m, n, alpha, A, lda, beta, B, ldb). */
static inline int tila_args_geadd(int m, int n, int lda, int ldb, int shift)
{
    int rc = tila_args_lascal(m, n, lda, shift);
    return rc ? rc : ldb < tila_max1(m) ? -(8 + shift) : 0;
}

/* lacpy (uplo, m, n, A, lda, B, ldb) after uplo. */
static inline int tila_args_lacpy_sizes(int m, int n, int lda, int ldb, int shift)
{
    int rc = tila_args_mat(m, n, lda, shift + 1);
    return rc ? rc : ldb < tila_max1(m) ? -(7 + shift) : 0;
}

/* laset (uplo, m, n, alpha, beta, A, lda) after uplo. */
static inline int tila_args_laset_sizes(int m, int n, int lda, int shift)
{
    if (m < 0) return -(2 + shift);
    if (n < 0) return -(3 + shift);
    return lda < tila_max1(m) ? -(7 + shift) : 0;
}

/* lag2c, to the lower precision (uplo, m, n, A, lda, SA, ldsa): a triangle uplo is square. */
static inline int tila_args_lag2_narrow(tila_uplo_t uplo, int m, int n, int lda, int ldsa,
                                        int shift)
{
    if (!tila_valid_uplo(uplo)) return -(1 + shift);
    if (m < 0) return -(2 + shift);
    if (n < 0 || (uplo != TILA_GENERAL && n != m)) return -(3 + shift);
    if (lda < tila_max1(m)) return -(5 + shift);
    return ldsa < tila_max1(m) ? -(7 + shift) : 0;
}

/* clag2z, to the higher precision (m, n, SA, ldsa, A, lda). */
static inline int tila_args_lag2_widen(int m, int n, int ldsa, int lda, int shift)
{
    int rc = tila_args_mat(m, n, ldsa, shift);
    return rc ? rc : lda < tila_max1(m) ? -(6 + shift) : 0;
}

/* ---- Norms --------------------------------------------------------------------------- */

/* lange and lansy_offdiag (norm, m, n, A, lda). */
static inline int tila_args_lange(tila_norm_t norm, int m, int n, int lda, int shift)
{
    if (!tila_valid_norm(norm)) return -(1 + shift);
    return tila_args_mat(m, n, lda, shift + 1);
}

/* lantr (norm, uplo, diag, m, n, A, lda). */
static inline int tila_args_lantr(tila_norm_t norm, tila_uplo_t uplo, tila_diag_t diag, int m,
                                  int n, int lda, int shift)
{
    if (!tila_valid_norm(norm)) return -(1 + shift);
    if (!tila_valid_triangle(uplo)) return -(2 + shift);
    if (!tila_valid_diag(diag)) return -(3 + shift);
    return tila_args_mat(m, n, lda, shift + 3);
}

/* lansy and lanhe (norm, uplo, n, A, lda). */
static inline int tila_args_lansy(tila_norm_t norm, tila_uplo_t uplo, int n, int lda, int shift)
{
    if (!tila_valid_norm(norm)) return -(1 + shift);
    return tila_args_triangle(uplo, n, lda, shift + 1);
}

/* ---- Level 3 BLAS -------------------------------------------------------------------- */

/* gemm (transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc) after the two ops. */
static inline int tila_args_gemm_sizes(tila_trans_t transa, tila_trans_t transb, int m, int n,
                                       int k, int lda, int ldb, int ldc, int shift)
{
    if (m < 0) return -(3 + shift);
    if (n < 0) return -(4 + shift);
    if (k < 0) return -(5 + shift);
    if (lda < tila_max1(transa == TILA_NOTRANS ? m : k)) return -(8 + shift);
    if (ldb < tila_max1(transb == TILA_NOTRANS ? k : n)) return -(10 + shift);
    return ldc < tila_max1(m) ? -(13 + shift) : 0;
}

static inline int tila_args_gemm(tila_trans_t transa, tila_trans_t transb, int m, int n, int k,
                                 int lda, int ldb, int ldc, int shift)
{
    if (!tila_valid_trans(transa)) return -(1 + shift);
    if (!tila_valid_trans(transb)) return -(2 + shift);
    return tila_args_gemm_sizes(transa, transb, m, n, k, lda, ldb, ldc, shift);
}

/* gemm2 (m, n, k, A, lda, alpha1, B1, ldb1, beta1, C1, ldc1, alpha2, B2, ldb2, beta2, C2,
 * ldc2): C1 = alpha1 A B1 + beta1 C1 (m x n), C2 = alpha2 A^H B2 + beta2 C2 (k x n). */
static inline int tila_args_gemm2(int m, int n, int k, int lda, int ldb1, int ldc1, int ldb2,
                                  int ldc2, int shift)
{
    if (m < 0) return -(1 + shift);
    if (n < 0) return -(2 + shift);
    if (k < 0) return -(3 + shift);
    if (lda < tila_max1(m)) return -(5 + shift);
    if (ldb1 < tila_max1(k)) return -(8 + shift);
    if (ldc1 < tila_max1(m)) return -(11 + shift);
    if (ldb2 < tila_max1(m)) return -(14 + shift);
    return ldc2 < tila_max1(k) ? -(17 + shift) : 0;
}

/* herk (uplo, trans, n, k, alpha, A, lda, beta, C, ldc) after uplo and trans. */
static inline int tila_args_herk_sizes(tila_trans_t trans, int n, int k, int lda, int ldc,
                                       int shift)
{
    if (n < 0) return -(3 + shift);
    if (k < 0) return -(4 + shift);
    if (lda < tila_max1(trans == TILA_NOTRANS ? n : k)) return -(7 + shift);
    return ldc < tila_max1(n) ? -(10 + shift) : 0;
}

/* herk with op(A) = A or A^H (trans_ok: whether trans is one the kernel takes). */
static inline int tila_args_herk(tila_uplo_t uplo, int trans_ok, tila_trans_t trans, int n, int k,
                                 int lda, int ldc, int shift)
{
    if (!tila_valid_triangle(uplo)) return -(1 + shift);
    if (!trans_ok) return -(2 + shift);
    return tila_args_herk_sizes(trans, n, k, lda, ldc, shift);
}

/* The sizes of (side, x, m, n, alpha, A, lda, B, ldb): A of order m (left) or n (right),
 * B m x n; hemm, trsm_inv, and two arguments on (shift + 2) trsm and trmm. */
static inline int tila_args_side_sizes(tila_side_t side, int m, int n, int lda, int ldb, int shift)
{
    if (m < 0) return -(3 + shift);
    if (n < 0) return -(4 + shift);
    if (lda < tila_max1(side == TILA_LEFT ? m : n)) return -(7 + shift);
    return ldb < tila_max1(m) ? -(9 + shift) : 0;
}

/* hemm (side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc). */
static inline int tila_args_hemm(tila_side_t side, tila_uplo_t uplo, int m, int n, int lda, int ldb,
                                 int ldc, int shift)
{
    if (!tila_valid_side(side)) return -(1 + shift);
    if (!tila_valid_triangle(uplo)) return -(2 + shift);
    int rc = tila_args_side_sizes(side, m, n, lda, ldb, shift);
    return rc ? rc : ldc < tila_max1(m) ? -(12 + shift) : 0;
}

/* trsm_inv (side, trans, m, n, alpha, T, ldt, B, ldb, W, ldw). */
static inline int tila_args_trsm_inv(tila_side_t side, tila_trans_t trans, int m, int n, int ldt,
                                     int ldb, int ldw, int shift)
{
    if (!tila_valid_side(side)) return -(1 + shift);
    if (!tila_valid_trans(trans)) return -(2 + shift);
    int rc = tila_args_side_sizes(side, m, n, ldt, ldb, shift);
    return rc ? rc : ldw < tila_max1(m) ? -(11 + shift) : 0;
}

/* trsm and trmm (side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb) after the enums. */
static inline int tila_args_trxm_sizes(tila_side_t side, int m, int n, int lda, int ldb, int shift)
{
    return tila_args_side_sizes(side, m, n, lda, ldb, shift + 2);
}

static inline int tila_args_trxm(tila_side_t side, tila_uplo_t uplo, tila_trans_t trans,
                                 tila_diag_t diag, int m, int n, int lda, int ldb, int shift)
{
    if (!tila_valid_side(side)) return -(1 + shift);
    if (!tila_valid_triangle(uplo)) return -(2 + shift);
    if (!tila_valid_trans(trans)) return -(3 + shift);
    if (!tila_valid_diag(diag)) return -(4 + shift);
    return tila_args_trxm_sizes(side, m, n, lda, ldb, shift);
}

/* trtri (uplo, diag, n, A, lda, T, ldt). */
static inline int tila_args_trtri(tila_uplo_t uplo, tila_diag_t diag, int n, int lda, int ldt,
                                  int shift)
{
    if (!tila_valid_triangle(uplo)) return -(1 + shift);
    if (!tila_valid_diag(diag)) return -(2 + shift);
    if (n < 0) return -(3 + shift);
    if (lda < tila_max1(n)) return -(5 + shift);
    return ldt < tila_max1(n) ? -(7 + shift) : 0;
}

/* ---- QR ------------------------------------------------------------------------------ */

/* geqrt (m, n, ib, A, lda, T, ldt): T holds blocks of min(ib, m, n) reflectors. */
static inline int tila_args_geqrt(int m, int n, int ib, int lda, int ldt, int shift)
{
    if (m < 0) return -(1 + shift);
    if (n < 0) return -(2 + shift);
    if (ib < 1) return -(3 + shift);
    if (lda < tila_max1(m)) return -(5 + shift);
    return ldt < tila_max1(tila_min(ib, tila_min(m, n))) ? -(7 + shift) : 0;
}

/* The panel kernels geqrt_col and cholqr_col (m, n, mbs, A, lda, T, ldt): the tiles' rows
 * add up to m, T is min(m, n) square. */
static inline int tila_args_geqrt_col(int m, int n, const int *mbs, int ldt, int shift)
{
    if (m < 0) return -(1 + shift);
    if (n < 0) return -(2 + shift);
    if (!tila_panel_rows(m, mbs)) return -(3 + shift);
    return ldt < tila_max1(tila_min(m, n)) ? -(7 + shift) : 0;
}

/* larft_col (m, k, mbs, V, ldv, tau, T, ldt): k <= m reflectors. */
static inline int tila_args_larft_col(int m, int k, const int *mbs, int ldt, int shift)
{
    if (m < 0) return -(1 + shift);
    if (k < 0 || k > m) return -(2 + shift);
    if (!tila_panel_rows(m, mbs)) return -(3 + shift);
    return ldt < tila_max1(k) ? -(8 + shift) : 0;
}

/* tpqrt (m, n, l, ib, A, lda, B, ldb, T, ldt): B m x n pentagonal, its last l rows a
 * trapezoid. */
static inline int tila_args_tpqrt(int m, int n, int l, int ib, int lda, int ldb, int ldt, int shift)
{
    if (m < 0) return -(1 + shift);
    if (n < 0) return -(2 + shift);
    if (l < 0 || l > tila_min(m, n)) return -(3 + shift);
    if (ib < 1) return -(4 + shift);
    if (lda < tila_max1(n)) return -(6 + shift);
    if (ldb < tila_max1(m)) return -(8 + shift);
    return ldt < tila_max1(tila_min(ib, n)) ? -(10 + shift) : 0;
}

/* An application of op(Q) (side, trans, m, n, k, ...): its first four arguments. */
static inline int tila_args_apply_q(tila_side_t side, tila_trans_t trans, int m, int n, int shift)
{
    if (!tila_valid_side(side)) return -(1 + shift);
    if (!tila_valid_trans_h(trans)) return -(2 + shift);
    if (m < 0) return -(3 + shift);
    return n < 0 ? -(4 + shift) : 0;
}

/* ... and its reflectors (ib, V, ldv, T, ldt) at arguments 6 to 10 (unmqr; one more
 * argument before them in tpmqrt): V with Q's order of rows, T blocks of min(ib, k). */
static inline int tila_args_apply_v(tila_side_t side, int m, int n, int k, int ib, int ldv, int ldt,
                                    int shift)
{
    if (ib < 1) return -(6 + shift);
    if (ldv < tila_max1(side == TILA_LEFT ? m : n)) return -(8 + shift);
    return ldt < tila_max1(tila_min(ib, k)) ? -(10 + shift) : 0;
}

/* unmqr (side, trans, m, n, k, ib, V, ldv, T, ldt, C, ldc): k <= Q's order. */
static inline int tila_args_unmqr(tila_side_t side, tila_trans_t trans, int m, int n, int k, int ib,
                                  int ldv, int ldt, int ldc, int shift)
{
    int rc = tila_args_apply_q(side, trans, m, n, shift);
    if (rc) return rc;
    if (k < 0 || k > (side == TILA_LEFT ? m : n)) return -(5 + shift);
    rc = tila_args_apply_v(side, m, n, k, ib, ldv, ldt, shift);
    return rc ? rc : ldc < tila_max1(m) ? -(12 + shift) : 0;
}

/* tpmqrt (side, trans, m, n, k, l, ib, V, ldv, T, ldt, A, lda, B, ldb): V's last l rows
 * a trapezoid; A k x n (left) or m x k (right), B m x n. */
static inline int tila_args_tpmqrt(tila_side_t side, tila_trans_t trans, int m, int n, int k, int l,
                                   int ib, int ldv, int ldt, int lda, int ldb, int shift)
{
    int rc = tila_args_apply_q(side, trans, m, n, shift);
    if (rc) return rc;
    if (k < 0) return -(5 + shift);
    if (l < 0 || l > k || l > (side == TILA_LEFT ? m : n)) return -(6 + shift);
    rc = tila_args_apply_v(side, m, n, k, ib, ldv, ldt, shift + 1);
    if (rc) return rc;
    if (lda < tila_max1(side == TILA_LEFT ? k : m)) return -(13 + shift);
    return ldb < tila_max1(m) ? -(15 + shift) : 0;
}

#endif /* TILA_KERNEL_ARGS_H */
