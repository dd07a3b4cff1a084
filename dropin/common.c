/**
 * @file common.c
 * @brief What the drop-in libraries share: environment variables, option letters.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "tila.h"
#include "tila_layer.h"

int tila_layer_verbose(void)
{
    const char *v = getenv("TILA_VERBOSE");
    return v && *v && strcmp(v, "0") != 0;
}

int tila_layer_env_int(const char *name, int def)
{
    const char *v = getenv(name);
    char *end;
    long x = v ? strtol(v, &end, 10) : -1;
    return v && *v && !*end && x >= 0 && x <= 1L << 30 ? (int)x : def;
}

int tila_layer_tile(int n, int most)
{
    int t = (n / 8 + 32) / 64 * 64;
    return t < 192 ? 192 : t > most ? most : t;
}

int tila_letter_is(const char *c, char want)
{
    return c && (*c == want || *c == want + ('a' - 'A'));
}

int tila_letter_uplo(const char *c, tila_uplo_t *uplo)
{
    *uplo = tila_letter_is(c, 'U') ? TILA_UPPER : TILA_LOWER;
    return tila_letter_is(c, 'U') || tila_letter_is(c, 'L');
}

int tila_letter_norm(const char *c, tila_norm_t *norm)
{
    static const char letters[] = "MO1IFE";
    static const tila_norm_t norms[] = { TILA_NORM_MAX, TILA_NORM_ONE, TILA_NORM_ONE,
                                         TILA_NORM_INF, TILA_NORM_FRO, TILA_NORM_FRO };
    for (int k = 0; letters[k]; k++)
        if (c && (*c == letters[k] || (letters[k] > '9' && tila_letter_is(c, letters[k])))) {
            *norm = norms[k];
            return 1;
        }
    return 0;
}

int tila_letter_diag(const char *c, tila_diag_t *diag)
{
    *diag = tila_letter_is(c, 'U') ? TILA_UNIT : TILA_NONUNIT;
    return tila_letter_is(c, 'U') || tila_letter_is(c, 'N');
}

int tila_letter_trans(const char *c, tila_trans_t *trans, int complex)
{
    *trans = tila_letter_is(c, 'N')              ? TILA_NOTRANS
             : tila_letter_is(c, 'C') && complex ? TILA_CONJTRANS
                                                 : TILA_TRANS;
    return tila_letter_is(c, 'N') || tila_letter_is(c, 'T') || tila_letter_is(c, 'C');
}

int tila_letter_side(const char *c, tila_side_t *side)
{
    *side = tila_letter_is(c, 'R') ? TILA_RIGHT : TILA_LEFT;
    return tila_letter_is(c, 'L') || tila_letter_is(c, 'R');
}

int tila_layer_qr_tau_alloc(const tila_desc_t *T, int root, void **space)
{
    size_t es = tila_prec_size(tila_desc_prec(T));
    size_t elems = (size_t)tila_desc_m(T) * (size_t)tila_desc_n(T);
    *space = tila_comm_rank() == root && elems ? malloc(es * elems) : NULL;
    return tila_comm_rank() == root && elems && !*space ? TILA_ERR_NOMEM : 0;
}

int tila_layer_qr_tau(tila_desc_t *T, int k, void *tau, int root, void *space)
{
    size_t es = tila_prec_size(tila_desc_prec(T));
    int ldt = tila_desc_m(T), here = tila_comm_rank() == root;
    char *t = space;
    int rc = tila_desc_gather(T, root, t, ldt > 1 ? ldt : 1);
    for (int n = 0, j = 0; here && !rc && j < k; n++)
        for (int j0 = tila_desc_tile_col0(T, n); j < k && j < tila_desc_tile_col0(T, n + 1); j++)
            memcpy((char *)tau + (size_t)j * es, t + ((size_t)j * ldt + (size_t)(j - j0)) * es, es);
    return rc;
}
