/**
 * @file state.c
 * @brief The node subsystem's one state object, and its one reset.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#include <string.h>

#include "node.h"

tila_node_state_t tila_node = { .alone = { 0, -1, -1 }, .idle_hook = -1, .driven_worker = -1 };

/*
 * As tila_init starts: the state of the previous start (one that failed leaves StarPU's
 * idle hook registered: StarPU keeps its hooks across starpu_shutdown and starpu_init) gone,
 * and each field as before any start.  Nothing of Tila's runs then: no task is pending, and
 * StarPU-MPI's thread of the previous start is gone.
 */
void tila_node_reset(void)
{
    tila_worker_naps_unhook();
    tila_node_restore();
    memset(&tila_node, 0, sizeof tila_node);
    tila_node.alone.local = tila_node.alone.nlocal = -1;
    tila_node.idle_hook = -1;
    tila_node.driven_worker = -1;
}
