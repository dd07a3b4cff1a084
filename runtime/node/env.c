/**
 * @file env.c
 * @brief The environment's registry: the variables Tila sets for StarPU, StarPU-MPI and MPI,
 *        and what they were, so that tila_finalize puts them back (the host program's
 *        environment as it was, and a later tila_init decides afresh instead of taking
 *        Tila's own settings for the user's).
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <stdlib.h>
#include <string.h>

#include "node.h"

int tila_env_put(const char *name, const char *value, int overwrite)
{
    const char *cur = getenv(name);
    if (cur && !overwrite) return 0;
    if (tila_node.nsaved == TILA_NODE_MAX_SAVED) return -1; /* never: Tila sets fewer */
    char *old = cur ? strdup(cur) : NULL;
    if (cur && !old) return -1;
    if (setenv(name, value, 1)) {
        free(old);
        return -1;
    }
    tila_node.saved[tila_node.nsaved].name = name;
    tila_node.saved[tila_node.nsaved++].old = old;
    return 0;
}

void tila_env_restore(void)
{
    while (tila_node.nsaved > 0) {
        int k = --tila_node.nsaved;
        if (tila_node.saved[k].old)
            setenv(tila_node.saved[k].name, tila_node.saved[k].old, 1);
        else
            unsetenv(tila_node.saved[k].name);
        free(tila_node.saved[k].old);
        tila_node.saved[k].old = NULL;
    }
}
