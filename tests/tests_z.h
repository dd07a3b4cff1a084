/**
 * @file tests_z.h
 * @brief Test suites in double complex precision.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TESTS_Z_H
#define TESTS_Z_H

#include "tila_test.h"

#include "core/cblas_saddr.h"

void tila_test_zgen(const tila_test_opts_t *opts);
void tila_test_zgemm(const tila_test_opts_t *opts);

void tila_test_zpotrf(const tila_test_opts_t *opts);
void tila_test_ztrsm(const tila_test_opts_t *opts);
/* ---- QR ---- */
void tila_test_zgeqrf(const tila_test_opts_t *opts);
void tila_test_zgels(const tila_test_opts_t *opts);
void tila_test_zcholqr(const tila_test_opts_t *opts);
/** A's entries on rank 0, column-major with ld max(1, m); every rank gets a buffer (of
 *  max(1, m) x max(1, n) entries, zero off rank 0) to free. */
tila_complex64_t *tila_test_zgather(tila_desc_t *A);
/** A QR factorization's two errors, on the calling rank: ||Q R - A0||_F / (scale eps) and
 *  ||I - Q^H Q||_F / (scale eps), for A0 m x n, Q m x k (ld m) and R the upper trapezoid of
 *  r's first k rows (ld m; r's part below it is zeroed here); both 0 when m or n is 0. */
void tila_test_zqr_errors(int m, int n, int k, const tila_complex64_t *a0,
                          tila_complex64_t *r, const tila_complex64_t *q, double scale,
                          double *err_qr, double *err_orth);
/** ||A||_F of the m x n column-major array a (0 when empty), on the calling rank. */
double tila_test_zfro(int m, int n, const tila_complex64_t *a, int lda);
void tila_test_zlange(const tila_test_opts_t *opts);

#endif /* TESTS_Z_H */
