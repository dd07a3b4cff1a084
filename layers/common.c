/**
 * @file common.c
 * @brief What the drop-in libraries share: environment variables, option letters.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include <string.h>

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
