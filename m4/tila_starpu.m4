# SPDX-License-Identifier: BSD-3-Clause
# TILA_CHECK_STARPU: StarPU and StarPU-MPI through pkg-config (1.3, else 1.4),
# or under --with-starpu=PREFIX.  Sets STARPU_CFLAGS, STARPU_LIBS, STARPU_PKG.
AC_DEFUN([TILA_CHECK_STARPU], [
  AC_ARG_WITH([starpu], [AS_HELP_STRING([--with-starpu=PREFIX],
    [StarPU installation prefix (default: found by pkg-config)])])
  AS_IF([test -n "$with_starpu" && test "x$with_starpu" != xyes],
    [export PKG_CONFIG_PATH="$with_starpu/lib/pkgconfig:$with_starpu/lib64/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"])
  PKG_PROG_PKG_CONFIG
  STARPU_PKG=
  for v in 1.3 1.4; do
    AS_IF([test -z "$STARPU_PKG" && $PKG_CONFIG --exists "starpu-$v starpumpi-$v"],
      [STARPU_PKG="starpu-$v starpumpi-$v"])
  done
  AS_IF([test -z "$STARPU_PKG"],
    [AC_MSG_ERROR([StarPU-MPI 1.3 or 1.4 not found by pkg-config: install it with
  'apt-get install libstarpu-dev libstarpumpi-1.3-3 starpu-tools', or pass --with-starpu=PREFIX])])
  STARPU_CFLAGS=`$PKG_CONFIG --cflags $STARPU_PKG`
  STARPU_LIBS=`$PKG_CONFIG --libs $STARPU_PKG`
  AS_IF([test -n "$with_starpu" && test "x$with_starpu" != xyes],
    [STARPU_LIBS="-Wl,-rpath,$with_starpu/lib $STARPU_LIBS"])
  AC_SUBST([STARPU_CFLAGS])
  AC_SUBST([STARPU_LIBS])
  AC_SUBST([STARPU_PKG])
  tila_save_CFLAGS=$CFLAGS; tila_save_LIBS=$LIBS
  CFLAGS="$CFLAGS $STARPU_CFLAGS"; LIBS="$STARPU_LIBS $LIBS"
  # (under simulation, TILA_SIMULATION_STARPU links it from its archives)
  AS_IF([test "x$enable_simulation" != xyes], [
    AC_MSG_CHECKING([whether StarPU-MPI links])
    AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <starpu_mpi.h>]],
      [[return starpu_mpi_init_conf(0, 0, 0, MPI_COMM_WORLD, 0);]])],
      [AC_MSG_RESULT([yes])],
      [AC_MSG_RESULT([no]); AC_MSG_ERROR([cannot link StarPU-MPI ($STARPU_LIBS): install libstarpumpi-1.3-3])])
  ])
  # The idle naps, the waking scheduler, Tila's MPI_Test and the progress worker
  # (runtime/nap*.c, progress_worker.c) rest on how StarPU 1.3 polls: its workers never
  # block, lws wakes no worker on a push, StarPU-MPI's progress thread ("MPI") blocks
  # only when it has no request.  On another StarPU they are left out.
  AC_MSG_CHECKING([whether StarPU is 1.3 (Tila's idle naps and progress worker)])
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <starpu_config.h>
#if STARPU_MAJOR_VERSION != 1 || STARPU_MINOR_VERSION != 3
#error not 1.3
#endif]], [[]])], [tila_starpu_13=yes], [tila_starpu_13=no])
  AC_MSG_RESULT([$tila_starpu_13])
  AS_IF([test "x$tila_starpu_13" = xyes],
    [AC_DEFINE([TILA_STARPU_NAPS], [1],
      [StarPU 1.3: Tila's idle naps, MPI_Test and progress worker are built])],
    [AC_MSG_WARN([StarPU is not 1.3: Tila's idle naps and progress worker, measured on 1.3, are left out; idle workers poll as StarPU makes them])])
  AC_MSG_CHECKING([whether StarPU was built with CUDA])
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <starpu_config.h>
#ifndef STARPU_USE_CUDA
#error no CUDA
#endif]], [[]])], [tila_starpu_cuda=yes], [tila_starpu_cuda=no])
  AC_MSG_RESULT([$tila_starpu_cuda])
  CFLAGS=$tila_save_CFLAGS; LIBS=$tila_save_LIBS
])
