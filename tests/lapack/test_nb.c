/**
 * @file test_nb.c
 * @brief libtila_lapack preloaded in a plain LAPACK program, with TILA_LAPACK_NB at and far
 *        past the matrix order.
 *
 * What it proves (one line each: PASS|FAIL lapack-nb ...): dgeqrf of a 1030 x 1024 matrix
 * with TILA_LAPACK_NB = 1024 (the order), 1025, 40000 and 2147483647 returns, Tila takes it
 * (its path read back from the layer, tila_lapack_calls), and R and TAU are LAPACK's (the
 * real routine on the same matrix) within 30 n eps, relative to R's largest entry and to 1.
 * A tile size far past the matrix once sized the PANEL scheme's scratch by it (nb = 40000:
 * 12.8 GB, which StarPU waited for without end): the run's timeout catches a hang.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE /* dladdr, RTLD_DEFAULT */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../real_routine.h"

void dgeqrf_(const int *m, const int *n, double *a, const int *lda, double *tau, double *work,
             const int *lwork, int *info);

int main(void)
{
    static const char *const nbs[] = { "1024", "1025", "40000", "2147483647" };
    int m = 1030, n = 1024, lda = m, failures = 0;
    size_t size = (size_t)lda * n;
    double *a0 = malloc(sizeof(double) * size), *a = malloc(sizeof(double) * size),
           *r = malloc(sizeof(double) * size), *tau = malloc(sizeof(double) * n),
           *rtau = malloc(sizeof(double) * n), wq;
    srand(58);
    for (size_t i = 0; i < size; i++)
        a0[i] = (double)rand() / RAND_MAX - 0.5;
    typeof(dgeqrf_) *real = real_routine_beside("dgetrf_", "dgeqrf_");
    /* libtila_lapack's count of a routine's calls that took a path (0: Tila). */
    long (*calls)(const char *, int) = real_routine_beside("dgeqrf_", "tila_lapack_calls");
    if (!real || !calls) {
        printf("FAIL lapack-nb: %s\n", real ? "libtila_lapack is not preloaded" : "no real dgeqrf");
        return 1;
    }
    int lwork = -1, info;
    real(&m, &n, a0, &lda, tau, &wq, &lwork, &info);
    lwork = (int)wq;
    double *work = malloc(sizeof(double) * (size_t)lwork);
    memcpy(r, a0, sizeof(double) * size);
    real(&m, &n, r, &lda, rtau, work, &lwork, &info);
    double big = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i <= j; i++)
            big = fmax(big, fabs(r[(size_t)j * lda + i]));
    setenv("TILA_LAPACK_MIN_N", "0", 1);
    for (int k = 0; k < 4; k++) {
        setenv("TILA_LAPACK_NB", nbs[k], 1);
        memcpy(a, a0, sizeof(double) * size);
        long before = calls("dgeqrf_", 0);
        dgeqrf_(&m, &n, a, &lda, tau, work, &lwork, &info);
        double er = 0, et = 0;
        for (int j = 0; j < n; j++) {
            for (int i = 0; i <= j; i++)
                er = fmax(er, fabs(a[(size_t)j * lda + i] - r[(size_t)j * lda + i]));
            et = fmax(et, fabs(tau[j] - rtau[j]));
        }
        er /= big;
        int ok = info == 0 && calls("dgeqrf_", 0) == before + 1 && er <= 30 * n * DBL_EPSILON &&
                 et <= 30 * n * DBL_EPSILON;
        failures += !ok;
        printf("%s lapack-nb dgeqrf m=%d n=%d TILA_LAPACK_NB=%s on Tila: R, TAU against LAPACK "
               "%.3g %.3g\n",
               ok ? "PASS" : "FAIL", m, n, nbs[k], er, et);
        fflush(stdout);
    }
    free(a0);
    free(a);
    free(r);
    free(tau);
    free(rtau);
    free(work);
    return failures ? 1 : 0;
}
