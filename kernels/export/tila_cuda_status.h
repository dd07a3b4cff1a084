/**
 * @file tila_cuda_status.h
 * @brief Internal: a CUDA, cuBLAS or cuSOLVER status as Tila's, shared by the GPU tile
 * kernels and the runtime's CUDA workers (runtime/cuda_workers.c).
 *
 * The one piece of kernels/ the runtime sees: its build has kernels/export/ on its include
 * path, not kernels/cuda/ (docs/ARCHITECTURE.md).  Statuses are plain ints here, so this
 * header needs no CUDA header.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_CUDA_STATUS_H
#define TILA_CUDA_STATUS_H

#include <stdio.h>

#include "tila_types.h"

/*
 * A CUDA, cuBLAS or cuSOLVER call that fails inside a tile kernel (a workspace the device
 * cannot allocate, a call cuBLAS refuses): the kernel names the call and where it is on
 * stderr and returns TILA_ERR_DEVICE, and its task fails its sequence with that code
 * (tila_cl_check), which the routine returns: a library does not abort its caller.  What
 * CUDA calls a sticky error (a kernel's illegal address) leaves the device's context
 * unusable, and StarPU's own CUDA driver stops the program at its next call on it.
 */
static inline int tila_cuda_failed(const char *call, const char *file, int line, int status)
{
    fprintf(stderr, "[tila] %s failed with status %d (%s:%d)\n", call, status, file, line);
    return TILA_ERR_DEVICE;
}

/* `call`'s status as Tila's: 0, or TILA_ERR_DEVICE with the call named. */
#define TILA_CUDA_STATUS(call) tila_cuda_status((int)(call), #call, __FILE__, __LINE__)
static inline int tila_cuda_status(int status, const char *call, const char *file, int line)
{
    return status == 0 ? 0 : tila_cuda_failed(call, file, line, status);
}

/* In a function that returns a Tila status: return TILA_ERR_DEVICE if `call` fails. */
#define TILA_CUDA_CHECK(call)                                                                      \
    do {                                                                                           \
        if (TILA_CUDA_STATUS(call)) return TILA_ERR_DEVICE;                                        \
    } while (0)

/* A cuSOLVER call's devInfo sits at the start of its device workspace (a CUDA worker's,
 * runtime/cuda_workers.c); the workspace proper starts this many bytes further, aligned as
 * cudaMalloc aligns. */
#define TILA_CUDA_INFO_BYTES 256

#endif /* TILA_CUDA_STATUS_H */
