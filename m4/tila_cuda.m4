# SPDX-License-Identifier: BSD-3-Clause
# TILA_CHECK_CUDA: --enable-cuda[=DIR].  Default "auto": on when nvcc is found
# and StarPU was built with CUDA.  Sets NVCC, NVCCFLAGS, CUDA_CFLAGS, CUDA_LIBS,
# the TILA_USE_CUDA define and conditional.
AC_DEFUN([TILA_CHECK_CUDA], [
  AC_ARG_ENABLE([cuda], [AS_HELP_STRING([--enable-cuda@<:@=DIR@:>@],
    [CUDA codelets (default: auto, on when nvcc is found and StarPU has CUDA)])],
    [], [enable_cuda=auto])
  AC_ARG_VAR([NVCC], [CUDA compiler])
  AC_ARG_VAR([NVCCFLAGS], [flags for nvcc])
  AC_ARG_VAR([CUDA_ARCHS], [GPU architectures to build (default: 80 90)])
  tila_cuda_dir=
  AS_CASE([$enable_cuda], [yes|no|auto], [], [tila_cuda_dir=$enable_cuda; enable_cuda=yes])
  AS_IF([test -z "$tila_cuda_dir"], [tila_cuda_dir=${CUDA_HOME:-/usr/local/cuda}])
  tila_use_cuda=no
  AS_IF([test "x$enable_cuda" != xno], [
    AC_PATH_PROG([NVCC], [nvcc], [], [$tila_cuda_dir/bin$PATH_SEPARATOR$PATH])
    AS_IF([test -n "$NVCC" && test "x$tila_starpu_cuda" = xyes], [tila_use_cuda=yes])
    AS_IF([test "x$enable_cuda" = xyes && test "x$tila_use_cuda" = xno],
      [AS_IF([test -z "$NVCC"],
        [AC_MSG_ERROR([--enable-cuda: nvcc not found under $tila_cuda_dir/bin or in PATH (install the CUDA toolkit)])],
        [AC_MSG_ERROR([--enable-cuda: the StarPU in use ($STARPU_PKG) was built without CUDA; build one with tools/build-starpu-cuda.sh and pass --with-starpu=PREFIX])])])
  ])
  AS_IF([test "x$tila_use_cuda" = xyes], [
    tila_cuda_root=`AS_DIRNAME(["$NVCC"])`; tila_cuda_root=`AS_DIRNAME(["$tila_cuda_root"])`
    # -isystem: CUDA's headers (pulled in by starpu.h too) must not flood -Werror builds
    # with their deprecation warnings.
    CUDA_CFLAGS="-isystem $tila_cuda_root/include"
    CUDA_LIBS="-L$tila_cuda_root/lib64 -Wl,-rpath,$tila_cuda_root/lib64 -lcusolver -lcublas -lcudart -lstdc++"
    tila_gencode=
    for a in ${CUDA_ARCHS:-80 90}; do
      tila_gencode="$tila_gencode -gencode arch=compute_$a,code=sm_$a"
    done
    tila_last=`echo ${CUDA_ARCHS:-80 90} | awk '{print $NF}'`
    tila_gencode="$tila_gencode -gencode arch=compute_$tila_last,code=compute_$tila_last"
    NVCCFLAGS="${NVCCFLAGS:--O3} $tila_gencode"
    AC_DEFINE([TILA_USE_CUDA], [1], [CUDA codelets are built])
  ])
  AC_SUBST([CUDA_CFLAGS])
  AC_SUBST([CUDA_LIBS])
  AM_CONDITIONAL([TILA_USE_CUDA], [test "x$tila_use_cuda" = xyes])
])
