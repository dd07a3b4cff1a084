#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Usage: tools/mpirun-env.sh NP PROGRAM [ARGS...]
# mpirun with the environment that makes Tila fast here (see shared BENCH notes):
# OpenBLAS's right kernels and one OpenBLAS thread per StarPU worker, and one
# worker per rank bound to its own core when ranks fit the cores (else unbound),
# and Open MPI yielding when idle: StarPU-MPI's progress thread polls MPI while
# receives are posted, on the core of its rank's worker (2 ranks x 1 core, Cholesky
# n = 8192: 38 -> 62 GFLOP/s).
set -e
np=$1
shift
cores=$(nproc)
if grep -qw avx512f /proc/cpuinfo; then core=SkylakeX; elif grep -qw avx2 /proc/cpuinfo; then core=Haswell; fi
export OPENBLAS_NUM_THREADS=1 ${core:+OPENBLAS_CORETYPE=$core}
export STARPU_SILENT=${STARPU_SILENT:-1} STARPU_MPI_NOBIND=1
opts="--oversubscribe"
[ "$(id -u)" = 0 ] && opts="$opts --allow-run-as-root"
if [ "$np" -eq 1 ]; then
    # One rank uses every core.
    export STARPU_NCPU=${STARPU_NCPU:-$cores}
    opts="$opts --bind-to none"
elif [ "$np" -le "$cores" ]; then
    export STARPU_NCPU=${STARPU_NCPU:-$((cores / np))} STARPU_WORKERS_GETBIND=1
    export OMPI_MCA_mpi_yield_when_idle=${OMPI_MCA_mpi_yield_when_idle:-1}
    opts="$opts --bind-to core --map-by slot:PE=$((cores / np))"
else
    export STARPU_NCPU=1 STARPU_WORKERS_NOBIND=1
    opts="$opts --bind-to none"
fi
exec mpirun $opts -np "$np" "$@"
