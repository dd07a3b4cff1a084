/**
 * @file core_zplrnt.c
 * @brief Tile kernel: a tile of the seeded random matrix.
 * @precisions normal z -> c d s
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define COMPLEX
#include <complex.h>

#include "core_kernel.h"
#include "core_z.h"
#include "tila_rand.h"

/**
 * A(i, j) = entry (i0 + i, j0 + j) of the random matrix of `seed` (uniform in
 * [-0.5, 0.5), real and imaginary parts independent).  @param lda >= max(1, m).
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_zplrnt(int m, int n, tila_complex64_t *A, int lda, int i0, int j0,
                     unsigned long long seed)
{
    int rc = tila_args_plrnt(m, n, lda, i0, j0, 0);
    if (rc) return rc;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            tila_complex64_t v = tila_rand_entry(seed, (uint64_t)(i0 + i), (uint64_t)(j0 + j), 0);
#if defined(COMPLEX)
            v += I * tila_rand_entry(seed, (uint64_t)(i0 + i), (uint64_t)(j0 + j), 1);
#endif
            A[(size_t)j * lda + i] = v;
        }
    return 0;
}
