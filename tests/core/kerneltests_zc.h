/**
 * @file kerneltests_zc.h
 * @brief Kernel tests between double complex and single complex (zlag2c, clag2z).
 * @precisions mixed zc -> ds
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef KERNELTESTS_ZC_H
#define KERNELTESTS_ZC_H

#include "kernel_test.h"

void tila_test_zlag2c_core(const kernel_opts_t *opts);
void tila_test_zcgemm_lp_core(const kernel_opts_t *opts);

#endif /* KERNELTESTS_ZC_H */
