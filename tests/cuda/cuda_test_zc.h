/**
 * @file cuda_test_zc.h
 * @brief The CUDA kernel tests between precisions (zlag2c and clag2z; dlag2s, slag2d).
 * @precisions mixed zc -> ds
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#ifndef CUDA_TEST_ZC_H
#define CUDA_TEST_ZC_H

#include "kernel_test.h"

void tila_test_zcuda_lag2c(const kernel_opts_t *o);
void tila_test_zcgemm_lp_cuda(const kernel_opts_t *o);

#endif /* CUDA_TEST_ZC_H */
