#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# A ScaLAPACK program's pdlange (four norms), pdgeqrf and pdgemm on a submatrix that starts
# inside a block (IA = JA), timed as it is (ScaLAPACK) and with libtila_scalapack preloaded:
# this build's, and, given, another build's (to compare with the path it took), launches
# alternating, at each rank count.  Prints CSV (impl first), then a table of each
# implementation's median against ScaLAPACK's in the same run.
#
# Usage: layer-offsets.sh PATH/TO/tila-bench-offsets PATH/TO/libtila_scalapack.so
#                         [PATH/TO/other/libtila_scalapack.so]
# Environment: RANKS (default "1 2"), REPS (5), IA (37), NB (256), N_LANGE (8192),
# N_GEQRF (4096), N_GEMM (4096).
set -u
prog=${1:?usage: layer-offsets.sh PROGRAM LIB [OTHER_LIB]}
new=${2:?usage: layer-offsets.sh PROGRAM LIB [OTHER_LIB]}
old=${3:-}
ranks=${RANKS:-1 2}
reps=${REPS:-5}
ia=${IA:-37}
nb=${NB:-256}
opts="--oversubscribe"
[ "$(id -u)" = 0 ] && opts="$opts --allow-run-as-root"
# OpenBLAS's kernels for this CPU, as tila-bench sets them; every rank's BLAS on its cores.
if [ -z "${OPENBLAS_CORETYPE:-}" ]; then
    if grep -qw avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE=SkylakeX
    elif grep -qw avx2 /proc/cpuinfo; then export OPENBLAS_CORETYPE=Haswell; fi
fi
export STARPU_SILENT=1 STARPU_HOME="${TMPDIR:-/tmp}/tila-layer-offsets-home"
export TILA_SCALAPACK_MIN_N=0
cores=$(nproc)
csv=$(mktemp)
echo "impl,routine,n,nb,ia,ranks,path,median_s,rate"
for np in $ranks; do
    threads=$((cores / np)); [ "$threads" -lt 1 ] && threads=1
    for routine in lange geqrf gemm; do
        case $routine in
        lange) n=${N_LANGE:-8192} ;;
        geqrf) n=${N_GEQRF:-4096} ;;
        *) n=${N_GEMM:-4096} ;;
        esac
        for impl in scalapack ${old:+before} tila; do
            case $impl in
            scalapack) pre= ;;
            before) pre=$old ;;
            *) pre=$new ;;
            esac
            env ${pre:+LD_PRELOAD=$pre} OPENBLAS_NUM_THREADS=$threads \
                mpiexec $opts -x OPENBLAS_NUM_THREADS -x OPENBLAS_CORETYPE -np "$np" \
                "$prog" "$routine" "$n" "$nb" "$ia" "$reps" 2>/dev/null |
                sed "s/^/$impl,/" | tee -a "$csv"
        done
    done
done
echo
echo "| ranks | routine | n | ScaLAPACK s | ${old:+before (path) / }Tila (path) against ScaLAPACK |"
echo "|---|---|---|---|---|"
awk -F, '
    { key = $6 "|" $2 "|" $3; t[$1, key] = $8; p[$1, key] = $7; keys[key] = 1 }
    END {
        for (k in keys) {
            split(k, f, "|"); s = t["scalapack", k]
            line = "| " f[1] " | " f[2] " | " f[3] " | " s " |"
            if (("before", k) in t)
                line = line sprintf(" %.2fx (%s) /", s / t["before", k], p["before", k])
            line = line sprintf(" %.2fx (%s) |", s / t["tila", k], p["tila", k])
            print line
        }
    }' "$csv" | sort
rm -f "$csv"
