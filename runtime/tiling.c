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

/* Is h a distribution tila_hybrid_tiling can cut: B >= 1, s >= 1, (s - 1) b < B, b >= 1
 * when s > 1, a grid? */
static int tila_hybrid_valid(const tila_hybrid_t *h)
{
    return h && h->B >= 1 && h->s >= 1 && h->p >= 1 && h->q >= 1 &&
           (h->s == 1 || (h->b >= 1 && (long)(h->s - 1) * h->b < h->B));
}

int tila_hybrid_tiling(const tila_hybrid_t *h, int n, int *sizes)
{
    static const char *func = "tila_hybrid_tiling";
    if (n < 0) {
        tila_error(func, "n = %d < 0", n);
        return -1;
    }
    if (!tila_hybrid_valid(h)) {
        tila_error(func, "h is NULL or not a distribution (B >= 1, s >= 1, 1 <= b, (s - 1) b < B, "
                         "P, Q >= 1)");
        return -2;
    }
    int count = 0;
    for (int at = 0; at < n; at += h->B)
        for (int k = 0, in = 0; k < h->s && at + in < n; k++) {
            /* slices of b, then the rest of the top-level tile */
            int t = k < h->s - 1 ? h->b : h->B - in;
            t = t < n - at - in ? t : n - at - in;
            if (sizes) sizes[count] = t;
            count++;
            in += t;
        }
    return count;
}

static int tila_hybrid_rank(int m, int n, void *arg)
{
    const tila_hybrid_t *h = arg;
    return (m / h->s % h->p) * h->q + n / h->s % h->q;
}

static int tila_hybrid_device(int m, int n, int ndevices, void *arg)
{
    const tila_hybrid_t *h = arg;
    (void)m;
    if (n % h->s != h->s - 1) return TILA_DEVICE_CPU;
    return n / h->s / h->q % ndevices; /* the node's own top-level tile columns, cycled */
}

tila_dist_t tila_hybrid_dist(const tila_hybrid_t *h)
{
    return (tila_dist_t){ .rank_of = tila_hybrid_rank,
                          .rank_arg = (void *)h,
                          .device_of = tila_hybrid_device,
                          .device_arg = (void *)h };
}

int tila_hybrid_balance(tila_hybrid_t *h, double cpu_rate, int cpus, double gpu_rate, int gpus,
                        int align)
{
    static const char *func = "tila_hybrid_balance";
    int rc = !h || h->B < h->s || h->s < 2 ? -1
             : !(cpu_rate > 0)             ? -2
             : cpus < 1                    ? -3
             : !(gpu_rate > 0)             ? -4
             : gpus < 0                    ? -5
             : align < 1                   ? -6
                                           : 0;
    if (rc) {
        tila_error(func,
                   "argument %d is invalid (h with s >= 2 and B >= s; rates > 0; cpus >= 1, "
                   "gpus >= 0; align >= 1)",
                   -rc);
        return rc;
    }
    double cpu = cpus * cpu_rate, share = cpu / (cpu + gpus * gpu_rate);
    double b = h->B * share / (h->s - 1);
    /* The GPU slice at least as wide as a CPU slice: b at most B / s (>= 1, as B >= s), a
     * multiple of align where B / s holds one. */
    int most = h->B / h->s, top = most >= align ? most / align * align : most;
    int r = (int)(b / align + 0.5) * align;
    h->b = r > top ? top : r < align ? (align < top ? align : top) : r;
    return 0;
}
