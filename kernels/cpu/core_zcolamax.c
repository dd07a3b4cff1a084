/**
 * @file core_zcolamax.c
 * @brief Tile kernel: the largest entry of each column, measured as LAPACK's i?amax
 * measures (|Re| + |Im| in complex, |x| in real), NaN when the column holds one.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <math.h>

#include "core_kernel.h"
#include "core_z.h"

/**
 * work[j] = max over i of cabs1(A(i, j)) for the m x n A (0 when m = 0), NaN for a
 * column holding a NaN: what a convergence test must not take for small.
 * @param lda >= max(1, m).
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_zcolamax(int m, int n, const tila_complex64_t *A, int lda, double *work)
{
    int rc = tila_args_mat(m, n, lda, 0);
    if (rc) return rc;
    for (int j = 0; j < n; j++) {
        const tila_complex64_t *a = A + (size_t)j * lda;
        double big = 0;
        for (int i = 0; i < m && !isnan(big); i++) {
#if defined(COMPLEX)
            double v = fabs(creal(a[i])) + fabs(cimag(a[i]));
#else
            double v = fabs(a[i]);
#endif
            if (v > big || isnan(v)) big = v;
        }
        work[j] = big;
    }
    return 0;
}
