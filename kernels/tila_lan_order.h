/**
 * @file tila_lan_order.h
 * @brief Internal: the order in which a norm's tile kernels add, the same on a CPU and a
 * GPU, so that a tile's partial result has the same bits whichever worker computes it.
 *
 * A sum over a tile column (one norm; the squares of a Frobenius column) is taken in
 * TILA_LAN_LANES interleaved lanes: lane l adds the entries of rows i = l (mod 32) in
 * increasing i, starting from +0; then the lanes are added as a tree, for h = 16, 8, 4,
 * 2, 1: lane l += lane l + h (l < h); lane 0 is the column's sum.  A sum over a tile row
 * (infinity norm) is taken in 32 lanes of consecutive columns: with c = ceil(n / 32),
 * lane l adds the columns l c ... (l + 1) c - 1 in order from +0 (a CPU streams whole
 * columns, a GPU's warp reads 32 rows of one column), then the lanes pairwise: for h = 1,
 * 2, 4, 8, 16, lane l += lane l + h for every l that is a multiple of 2h.  Entries outside
 * the tile's region (a trapezoid, a strict triangle) count as +0, which changes no bit of
 * a sum of non-negative numbers.  A one or infinity partial then gets the tile's sum in
 * one addition: work[j] = work[j] + sum.
 *
 * The Frobenius sums of the columns are added pairwise: level k adds column sum i + 2^k
 * into column sum i for every i that is a multiple of 2^(k+1) with i + 2^k < n; column
 * 0 ends with the tile's sum.  (A binary counter over the columns in order gives the same
 * tree: a CPU needs no array of n.)
 *
 * Every operation is an IEEE-754 addition, multiplication, division or square root of
 * doubles, rounded to nearest, never fused into a multiply-add: the C files are built
 * with -ffp-contract=off and the CUDA files with --fmad=false (configure.ac).
 * |a| of a complex a is sqrt(re re + im im) when re re + im im lies in
 * [DBL_MIN / DBL_EPSILON, DBL_MAX / 4], else the same with re and im scaled by 2^-e
 * (e: the exponent of the larger, frexp) and the root scaled back by 2^e (exact
 * power-of-two scalings but for subnormals, which both sides round the same way).
 *
 * The accuracy: a column sum of m terms is within about (m / 32 + 5) eps of the exact
 * sum, a row sum of n terms within (n / 32 + 5) eps, LAPACK's running sum within m eps.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_LAN_ORDER_H
#define TILA_LAN_ORDER_H

#define TILA_LAN_LANES 32

#endif /* TILA_LAN_ORDER_H */
