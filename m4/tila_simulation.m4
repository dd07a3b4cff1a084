# SPDX-License-Identifier: BSD-3-Clause
# Simulation: Tila on a StarPU built with SimGrid (tools/build-starpu-simgrid.sh), every
# rank an SMPI process of one simulator (docs/SIMULATION.md).
#
# TILA_SIMULATION_CC, before AC_PROG_CC: --enable-simulation; CC defaults to smpicc, which
# compiles against SMPI's mpi.h and links programs as the shared objects that SMPI loads
# once per rank.  Configure's own test programs must run: smpicc then behaves as a plain
# compiler (SMPI_PRETEND_CC, for configure alone).
AC_DEFUN([TILA_SIMULATION_CC], [
  AC_ARG_ENABLE([simulation], [AS_HELP_STRING([--enable-simulation],
    [build libtila (static) and bench/tila-sim-run for a StarPU built with SimGrid
     (with --with-starpu=PREFIX --disable-shared)])], [], [enable_simulation=no])
  AS_IF([test "x$enable_simulation" = xyes], [
    AS_IF([test -z "$CC"], [CC=smpicc])
    # libtool asks the compiler for its linker, and smpicc's pretend warning comes first
    AS_IF([test -z "$LD"], [LD=ld])
    SMPI_PRETEND_CC=1
    export SMPI_PRETEND_CC
  ])
])

# TILA_SIMULATION_STARPU, after TILA_CHECK_STARPU: the StarPU in use and the option must
# agree; StarPU is linked from its archives by path (smpicc puts the system's library
# directory first, where Debian's own shared StarPU would win a plain -lstarpu-1.3).
# Sets the TILA_SIMULATION conditional.
AC_DEFUN([TILA_SIMULATION_STARPU], [
  tila_save_CFLAGS=$CFLAGS
  CFLAGS="$CFLAGS $STARPU_CFLAGS"
  AC_MSG_CHECKING([whether StarPU was built with SimGrid])
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <starpu_config.h>
#ifndef STARPU_SIMGRID
#error no SimGrid
#endif]], [[]])], [tila_starpu_simgrid=yes], [tila_starpu_simgrid=no])
  AC_MSG_RESULT([$tila_starpu_simgrid])
  CFLAGS=$tila_save_CFLAGS
  AS_IF([test "x$enable_simulation" = xyes], [
    AS_IF([test "x$tila_starpu_simgrid" != xyes],
      [AC_MSG_ERROR([--enable-simulation: the StarPU in use ($STARPU_PKG) was built without SimGrid; build one with tools/build-starpu-simgrid.sh and pass --with-starpu=PREFIX])])
    AS_IF([test "x$enable_shared" != xno],
      [AC_MSG_ERROR([--enable-simulation: SMPI loads each program with all its libraries inside; pass --disable-shared])])
    tila_starpu_libdir=`$PKG_CONFIG --variable=libdir starpu-1.3`
    STARPU_LIBS="$tila_starpu_libdir/libstarpumpi-1.3.a $tila_starpu_libdir/libstarpu-1.3.a -lsimgrid -lstdc++ -lrt -lpthread -lm"
    tila_save_LIBS=$LIBS
    CFLAGS="$CFLAGS $STARPU_CFLAGS"; LIBS="$STARPU_LIBS $LIBS"
    AC_MSG_CHECKING([whether StarPU-MPI links from its archives])
    AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <starpu_mpi.h>]],
      [[return starpu_mpi_init_conf(0, 0, 0, MPI_COMM_WORLD, 0);]])],
      [AC_MSG_RESULT([yes])],
      [AC_MSG_RESULT([no]); AC_MSG_ERROR([cannot link StarPU-MPI from $tila_starpu_libdir ($STARPU_LIBS)])])
    CFLAGS=$tila_save_CFLAGS; LIBS=$tila_save_LIBS
    AC_DEFINE([TILA_SIMULATION], [1], [built for a StarPU with SimGrid])
  ], [test "x$tila_starpu_simgrid" = xyes], [
    AC_MSG_ERROR([the StarPU in use ($STARPU_PKG) was built with SimGrid: pass --enable-simulation --disable-shared, or use another StarPU])
  ])
  AM_CONDITIONAL([TILA_SIMULATION], [test "x$enable_simulation" = xyes])
])
