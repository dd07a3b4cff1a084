/**
 * @file error.c
 * @brief Messages and error codes: what a user reads when a call fails.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdarg.h>
#include <stdio.h>

#include "tila_runtime_private.h"

void tila_error(const char *func, const char *fmt, ...)
{
    va_list ap;
    char msg[512];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (tila_rt.initialized && tila_rt.size > 1)
        fprintf(stderr, "[tila rank %d] %s: %s\n", tila_rt.rank, func, msg);
    else
        fprintf(stderr, "[tila] %s: %s\n", func, msg);
}

int tila_check_init(const char *func)
{
    if (tila_rt.initialized && tila_watch_stuck()) {
        /* tasks of that call stay in StarPU: a new one could wait on them for ever */
        tila_error(func, "an earlier call could not finish (TILA_ERR_STUCK): Tila takes no "
                         "more calls in this process");
        return TILA_ERR_STUCK;
    }
    if (tila_rt.initialized) return TILA_SUCCESS;
    tila_error(func, "Tila is not initialised: call tila_init() first");
    return TILA_ERR_NOT_INITIALIZED;
}

const char *tila_strerror(int code)
{
    switch (code) {
    case TILA_SUCCESS: return "success";
    case TILA_ERR_NOT_INITIALIZED: return "Tila is not initialised (call tila_init)";
    case TILA_ERR_NOMEM: return "out of memory";
    case TILA_ERR_STARPU: return "StarPU refused the operation";
    case TILA_ERR_MPI: return "an MPI call failed";
    case TILA_ERR_GRID: return "the P x Q grid does not match the number of MPI ranks";
    case TILA_ERR_NO_WORKER: return "no StarPU worker can run the task";
    case TILA_ERR_DEVICE: return "a CUDA, cuBLAS or cuSOLVER call failed";
    case TILA_ERR_STUCK:
        return "a call could not finish: nothing ran on any rank for TILA_STUCK_TIMEOUT seconds";
    case TILA_ERR_INTERNAL:
        return "a tile kernel refused an argument Tila gave it (a bug in Tila: please report it)";
    default:
        return code < 0 ? "illegal value of an argument (-i: argument i)"
                        : "numerical failure (+k: at global index k)";
    }
}
