/**
 * @file cblas_saddr.h
 * @brief CBLAS_SADDR: a scalar as CBLAS takes it, for the kernel tests and the driver tests.
 *
 * CBLAS takes complex scalars by address, real ones by value: the including z-file
 * defines COMPLEX or REAL first.  No include guard: a file generated for another
 * precision includes it under its own COMPLEX or REAL.
 *
 * SPDX-License-Identifier: BSD-3-Clause
 */
#undef CBLAS_SADDR
#if defined(COMPLEX)
#define CBLAS_SADDR(x) &(x)
#else
#define CBLAS_SADDR(x) (x)
#endif
