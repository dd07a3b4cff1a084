/**
 * @file real_routine.h
 * @brief For the drop-in layers' tests: the real routine `symbol`, looked up in the library
 *        that defines `anchor` (a routine the layer leaves alone: numroc_ for ScaLAPACK,
 *        dgetrf_ for LAPACK), whatever the layer in front of it defines.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef TILA_TESTS_REAL_ROUTINE_H
#define TILA_TESTS_REAL_ROUTINE_H

#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* The routine, or NULL where no loaded library defines both. */
static inline void *real_routine_beside(const char *anchor, const char *symbol)
{
    Dl_info info;
    void *there = dlsym(RTLD_DEFAULT, anchor);
    void *lib = there && dladdr(there, &info) ? dlopen(info.dli_fname, RTLD_NOW) : NULL;
    return lib ? dlsym(lib, symbol) : NULL;
}

/* The real LAPACK routine: from the library that defines dgetrf_, which libtila_lapack
 * leaves alone; without it the test program `prog` cannot compare and exits 1. */
static inline void *real_lapack_routine(const char *prog, const char *symbol)
{
    void *fn = real_routine_beside("dgetrf_", symbol);
    if (!fn) {
        fprintf(stderr, "%s: no real %s\n", prog, symbol);
        exit(1);
    }
    return fn;
}

#endif /* TILA_TESTS_REAL_ROUTINE_H */
