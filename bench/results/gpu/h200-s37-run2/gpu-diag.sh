#!/bin/bash
# Session 37's second device call: the fixed kernel tests, the tall-skinny QR's NaN
# (scratch sized for square tiles), potrf 30000 panel paths, the GPU beside the cores.
T0=$SECONDS
W=$(mktemp -d); xz -T0 -dc gpu-bundle.tar.xz | tar -C "$W" -xf -
B=$W/gpu-bundle
eval "$(bash tools/gpu-run --bundle "$B" --print-env)"
export STARPU_HOME=$W/sh; mkdir -p $STARPU_HOME
L=$OUT/diag.log
say() { echo "[diag $((SECONDS - T0))s] $*" | tee -a $L; }
lim() { local t=$1; shift; say "$*"; timeout "$t" "$@" >> $L 2>&1; say "exit $?"; }
R="orterun --oversubscribe --bind-to none -np 1"
G="env TILA_BENCH_PHASES=1 STARPU_NCPU=0 STARPU_NCUDA=1"
say "kernels"; timeout 120 tila-cuda-kernel-tests > $OUT/cuda-kernels.log 2>&1; say "kernels exit $? $(tail -1 $OUT/cuda-kernels.log)"
lim 90 $G tila-tests geqrf --prec d --m 100000 --n 256 --nb 8192 --ib 64
lim 60 $G tila-bench geqrf --peers '' --reps 3 --warmup 1 --check device --m 1000000 --n 256 --csv $OUT/ts.csv
lim 60 $G STARPU_NWORKER_PER_CUDA=1 tila-bench geqrf --peers '' --reps 3 --warmup 1 --check device --m 1000000 --n 256 --csv $OUT/ts-s1.csv
lim 60 $G tila-bench geqrf --peers '' --reps 3 --warmup 1 --check device --m 1000000 --n 256 --tree flat --csv $OUT/ts-flat.csv
lim 60 $R cusolver-ref geqrf --reps 3 --warmup 1 --m 1000000 --n 256 --csv $OUT/ref-ts.csv
lim 60 $R cusolver-ref potrf --reps 3 --warmup 1 --n 20000,30000 --csv $OUT/ref-potrf.csv
lim 60 $G TILA_POTRF_TRSM=trsm tila-bench potrf --peers '' --reps 3 --warmup 1 --check device --uplo L --n 30000 --nb 2048 --csv $OUT/p30-trsm.csv
lim 60 $G TILA_POTRF_TRSM=inv tila-bench potrf --peers '' --reps 3 --warmup 1 --check device --uplo L --n 30000 --nb 2048 --csv $OUT/p30-inv.csv
lim 60 $G TILA_POTRF_TRSM=trsm STARPU_NCPU=15 tila-bench potrf --peers '' --reps 3 --warmup 1 --check device --uplo L --n 20000 --nb 2048 --csv $OUT/p20-trsm-cpu.csv
lim 60 $G TILA_POTRF_TRSM=trsm tila-bench potrf --peers '' --reps 3 --warmup 1 --check device --uplo L --n 20000 --nb 2048 --csv $OUT/p20-trsm.csv
lim 60 $G TILA_POTRF_TRSM=trsm tila-bench posv_mixed --peers '' --reps 3 --warmup 1 --check device --n 20000 --nb 2048 --csv $OUT/mixed-trsm.csv
say done
