/**
 * @file core_zplghe.c
 * @brief Tile kernel: a tile of the seeded random Hermitian matrix, diagonal shifted.
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
 * A(i, j) = entry (gi, gj) = (i0 + i, j0 + j) of a Hermitian matrix: the random
 * matrix of `seed` below the diagonal, its conjugate above, and
 * Re(random(gi, gi)) + bump on the diagonal.  @param lda >= max(1, m).
 * @return 0, or -i if argument i is invalid.
 */
int tila_core_zplghe(double bump, int m, int n, tila_complex64_t *A, int lda, int i0, int j0,
                     unsigned long long seed)
{
    int rc = tila_args_plrnt(m, n, lda, i0, j0, 1);
    if (rc) return rc;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            uint64_t gi = (uint64_t)(i0 + i), gj = (uint64_t)(j0 + j);
            uint64_t r = gi > gj ? gi : gj, c = gi > gj ? gj : gi; /* lower-triangle entry */
            tila_complex64_t v = tila_rand_entry(seed, r, c, 0);
#if defined(COMPLEX)
            /* Upper triangle: conjugate; diagonal: real. */
            if (gi != gj) v += (gi > gj ? I : -I) * tila_rand_entry(seed, r, c, 1);
#endif
            A[(size_t)j * lda + i] = gi == gj ? v + bump : v;
        }
    return 0;
}
