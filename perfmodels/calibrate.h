/**
 * @file calibrate.h
 * @brief tila-calibrate: workloads that run every codelet on one tile size.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CALIBRATE_H
#define CALIBRATE_H

#include "tila.h"

/* QR's inner block size in the workloads: the one tila-bench picks for square matrices
 * (nb/4 rounded down to a multiple of 8, at least 32, at most nb), so that the QR models
 * hold the T tiles (ib x nb) that square runs use (tall ones use 64). */
static inline int tila_calibrate_ib(int nb)
{
    int ib = nb / 4 / 8 * 8;
    ib = ib < 32 ? 32 : ib;
    return ib < nb ? ib : nb;
}

int tila_calibrate_sworkload(int nb, int panel_tiles, unsigned long long seed);
int tila_calibrate_dworkload(int nb, int panel_tiles, unsigned long long seed);
int tila_calibrate_cworkload(int nb, int panel_tiles, unsigned long long seed);
int tila_calibrate_zworkload(int nb, int panel_tiles, unsigned long long seed);

#endif /* CALIBRATE_H */
