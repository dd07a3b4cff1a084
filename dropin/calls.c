/**
 * @file calls.c
 * @brief The drop-in libraries' book of calls: which path each routine's calls took, said
 *        once per routine and path and summed up at the end (TILA_VERBOSE), counted for
 *        tests (tila_scalapack_calls, tila_lapack_calls); and the real routines behind.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tila_layer.h"

void tila_layer_name(const tila_layer_routine_t *r, char *name, size_t size)
{
    if (r->name) {
        snprintf(name, size, "%s", r->name);
        return;
    }
    /* LAPACK's way: the symbol in upper case, without its underscore */
    size_t k = 0;
    for (; r->symbol[k] && r->symbol[k] != '_' && k + 1 < size; k++)
        name[k] = (char)(r->symbol[k] - (r->symbol[k] >= 'a' && r->symbol[k] <= 'z' ? 32 : 0));
    name[k] = 0;
}

void tila_layer_count(tila_layer_book_t *b, tila_layer_routine_t *r, int path, int say)
{
    pthread_mutex_lock(&b->lock);
    if (!r->listed) {
        r->listed = 1;
        r->next = b->routines;
        b->routines = r;
    }
    if (r->count[path]++ == 0 && say && tila_layer_verbose()) {
        char name[32];
        tila_layer_name(r, name, sizeof name);
        fprintf(stderr, "[tila] %s: %s\n", name, b->path_text[path]);
    }
    pthread_mutex_unlock(&b->lock);
}

void tila_layer_summary(tila_layer_book_t *b, int say)
{
    pthread_mutex_lock(&b->lock);
    for (tila_layer_routine_t *r = b->routines; r; r = r->next) {
        r->listed = 0; /* listed again by its next call */
        if (!say || !tila_layer_verbose()) continue;
        char name[32];
        tila_layer_name(r, name, sizeof name);
        long total = 0;
        for (int p = 0; p < b->npaths; p++)
            total += r->count[p];
        fprintf(stderr, "[tila] %s: %ld call(s)", name, total);
        for (int p = 0; p < b->npaths; p++)
            if (r->count[p]) fprintf(stderr, "; %ld %s", r->count[p], b->path_text[p]);
        fprintf(stderr, "\n");
    }
    b->routines = NULL;
    pthread_mutex_unlock(&b->lock);
}

long tila_layer_calls(tila_layer_book_t *b, const char *name, int path)
{
    long n = 0;
    if (path < 0 || path >= b->npaths) return -1;
    pthread_mutex_lock(&b->lock);
    for (tila_layer_routine_t *r = b->routines; r; r = r->next)
        if ((r->name && !strcmp(r->name, name)) || !strcmp(r->symbol, name)) n = r->count[path];
    pthread_mutex_unlock(&b->lock);
    return n;
}

/* Test hook: TILA_TEST_NO_REAL, a comma-separated list of symbols ("dpotrf_,dlange_") the
 * layers find no real routine for. */
static int hidden_for_test(const char *symbol)
{
    const char *v = getenv("TILA_TEST_NO_REAL");
    size_t n = strlen(symbol);
    for (const char *p = v; p && (p = strstr(p, symbol)); p += n)
        if ((p == v || p[-1] == ',') && (p[n] == ',' || !p[n])) return 1;
    return 0;
}

void *tila_layer_real(tila_layer_routine_t *r, const char *library, const char *link)
{
    if (!r->real && !hidden_for_test(r->symbol)) r->real = dlsym(RTLD_NEXT, r->symbol);
    if (!r->real && !__atomic_exchange_n(&r->missing, 1, __ATOMIC_ACQ_REL)) {
        char name[32];
        tila_layer_name(r, name, sizeof name);
        fprintf(stderr, "[tila] %s: no %s routine %s after this library: link it after (%s)\n",
                name, library, r->symbol, link);
    }
    return r->real;
}
