/**
 * @file tiling.c
 * @brief Tilings to pass to tila_desc_create_tiled: tiles that shrink toward the end of a
 *        dimension.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include "tila_runtime_private.h"

int tila_tiling_shrink(int n, int nb, int nb_min, int ratio, int *sizes)
{
    static const char *func = "tila_tiling_shrink";
    if (n < 0) {
        tila_error(func, "n = %d < 0", n);
        return -1;
    }
    if (nb < 1) {
        tila_error(func, "nb = %d < 1", nb);
        return -2;
    }
    if (nb_min < 1 || nb_min > nb) {
        tila_error(func, "nb_min = %d, expected 1 <= nb_min <= nb = %d", nb_min, nb);
        return -3;
    }
    if (ratio < 1) {
        tila_error(func, "ratio = %d < 1", ratio);
        return -4;
    }
    int count = 0;
    for (int rest = n; rest > 0; count++) {
        /* A ratio-th of what is left, within [nb_min, nb], and never past the end. */
        int t = (int)(((long)rest + ratio - 1) / ratio);
        t = t > nb ? nb : t < nb_min ? nb_min : t;
        t = t < rest ? t : rest;
        if (sizes) sizes[count] = t;
        rest -= t;
    }
    return count;
}
