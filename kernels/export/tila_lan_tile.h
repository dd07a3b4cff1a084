/**
 * @file tila_lan_tile.h
 * @brief Internal: a tile of a norm over many tiles in one call (tila_core_zlange_tiles,
 * tila_cuda_zlange_tiles): what it is, where it lies and where its partial goes.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_LAN_TILE_H
#define TILA_LAN_TILE_H

#include <stddef.h>

#include "tila_types.h"

typedef struct tila_lan_tile_s {
    const void *A;    /**< the tile (GPU memory for the CUDA kernel); NULL until it runs */
    int lda, m, n;    /**< its leading dimension, rows and columns */
    int trapezoid;    /**< 0: the whole tile (zlange's); 1: the trapezoid uplo (zlantr's) */
    tila_uplo_t uplo; /**< trapezoid: TILA_UPPER or TILA_LOWER */
    tila_diag_t diag; /**< trapezoid: TILA_UNIT or TILA_NONUNIT */
    size_t off;       /**< where its partial starts in the work vector */
} tila_lan_tile_t;

#endif /* TILA_LAN_TILE_H */
