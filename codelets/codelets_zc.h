/**
 * @file codelets_zc.h
 * @brief Internal: the codelets between double complex and single complex tiles.
 * @precisions mixed zc -> ds
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CODELETS_ZC_H
#define CODELETS_ZC_H

#include "tila_codelet.h"

/** SA = A in single precision (triangle uplo of a square tile, or TILA_GENERAL: all of the
 * m x n tile); an entry beyond single's range fails the task's request with info 1. */
int tila_insert_zlag2c(const tila_task_t *t, tila_uplo_t uplo, int m, int n, starpu_data_handle_t A,
                       starpu_data_handle_t SA);
/** A = SA in double precision (the m x n tile, exactly). */
int tila_insert_clag2z(const tila_task_t *t, int m, int n, starpu_data_handle_t SA,
                       starpu_data_handle_t A);

#endif /* CODELETS_ZC_H */
