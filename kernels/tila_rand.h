/**
 * @file tila_rand.h
 * @brief Internal: the counter-based generator behind plrnt/plghe, for CPU and CUDA.
 *
 * Entry (i, j) of the random matrix of `seed` is a hash of (seed, i, j) alone, so any
 * tile of any distribution, on any worker, computes the same bits.  The same code is
 * compiled by the C compiler and by nvcc.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_RAND_H
#define TILA_RAND_H

#include <stdint.h>

#ifdef __CUDACC__
#define TILA_HOSTDEV __host__ __device__
#else
#define TILA_HOSTDEV
#endif

/* SplitMix64's finaliser: a bijective 64-bit mixer. */
TILA_HOSTDEV static inline uint64_t tila_rand_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Part `part` (0: real, 1: imaginary) of entry (i, j), uniform in [-0.5, 0.5). */
TILA_HOSTDEV static inline double tila_rand_entry(uint64_t seed, uint64_t i, uint64_t j,
                                                  unsigned part)
{
    uint64_t h = tila_rand_mix(seed ^ tila_rand_mix((i << 1 | part) ^ tila_rand_mix(j)));
    return (double)(h >> 11) * 0x1.0p-53 - 0.5;
}

#endif /* TILA_RAND_H */
