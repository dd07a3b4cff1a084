/**
 * @file tila_codelet.h
 * @brief Internal: what every codelet file shares: the runtime beneath it, tile access,
 * and how a kernel's return code is heard.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_CODELET_H
#define TILA_CODELET_H

#include "tila_runtime.h"

/** A matrix buffer of a task as a kernel takes it: its address and leading dimension. */
typedef struct tila_cl_tile_s {
    void *ptr;
    int ld;
} tila_cl_tile_t;

/** Buffer `buffer` of a codelet function (a StarPU matrix interface). */
static inline tila_cl_tile_t tila_cl_tile(void *buffer)
{
    return (tila_cl_tile_t){ .ptr = (void *)STARPU_MATRIX_GET_PTR(buffer),
                             .ld = (int)STARPU_MATRIX_GET_LD(buffer) };
}

/** Address of a vector buffer of a codelet function. */
static inline void *tila_cl_vector(void *buffer) { return (void *)STARPU_VECTOR_GET_PTR(buffer); }

/** Which tile kernel a norm's tile task runs. */
typedef enum tila_lan_kind_e {
    TILA_LAN_GE, /**< general tile */
    TILA_LAN_TR, /**< trapezoid (diagonal tile of a triangular matrix) */
    TILA_LAN_SY, /**< diagonal tile of a symmetric matrix */
    TILA_LAN_HE  /**< diagonal tile of a Hermitian matrix */
} tila_lan_kind_t;

/**
 * Elements of the QR codelets' scratch buffer (GEQRT, TPQRT, UNMQR, TPMQRT with T's
 * ib x nb tiles): LAPACK's ib x nb work on CPUs; the GPU kernels need more: the update
 * kernels a copy of V's block besides W, the panel kernels tau and the stacked triangle
 * and tile (see codelets/cuda).
 */
static inline size_t tila_qr_scratch_elems(int ib, int nb)
{
#ifdef TILA_USE_CUDA
    (void)ib;
    return (size_t)nb + 2 * (size_t)nb * nb;
#else
    return (size_t)ib * nb;
#endif
}

#endif /* TILA_CODELET_H */
