#!/bin/bash
# Session 37's third device call: the GEMM-based TRSM and TRMM kernels (tests, rates, potrf
# and geqrf against cuSOLVER, TRSM's A/B by TILA_CUDA_TRSM_LEAF=0), the tall-skinny QR.
T0=$SECONDS
W=$(mktemp -d); xz -T0 -dc gpu-bundle.tar.xz | tar -C "$W" -xf -
B=$W/gpu-bundle
eval "$(bash tools/gpu-run --bundle "$B" --print-env)"
export STARPU_HOME=$W/sh; mkdir -p $STARPU_HOME $W/csv
L=$OUT/diag.log
say() { echo "[diag $((SECONDS - T0))s] $*" | tee -a $L; }
lim() { local t=$1; shift; say "$*"; timeout "$t" "$@" >> $L 2>&1; say "exit $?"; }
R="orterun --oversubscribe --bind-to none -np 1"
G="env TILA_BENCH_PHASES=1 STARPU_NCPU=0 STARPU_NCUDA=1"
n=0
tb() { local t=$1; shift; n=$((n + 1)); lim "$t" "$@" --csv $W/csv/$n.csv; [[ -f $W/csv/$n.csv ]] && tail -n +2 $W/csv/$n.csv | sed "s|\$|,run$n|" >> $OUT/bench.csv; }
echo "routine,variant,prec,impl,m,n,nb,ib,p,q,ranks,workers,seconds,rate,unit,check,first_seconds,run" > $OUT/bench.csv
say "kernels"; timeout 60 tila-cuda-kernel-tests > $OUT/cuda-kernels.log 2>&1; say "kernels exit $? $(tail -1 $OUT/cuda-kernels.log)"
grep -v '^PASS' $OUT/cuda-kernels.log | head -40 >> $L
lim 60 $G tila-tests potrf geqrf gels cholqr posv_mixed --prec dz
lim 45 tila-cuda-rates --nb 2048 --reps 5
tb 40 $R cusolver-ref potrf --reps 3 --warmup 1 --n 20000,30000
tb 40 $G tila-bench potrf --peers '' --reps 3 --warmup 1 --check device --uplo L --n 20000 --nb 2048
tb 40 $G TILA_CUDA_TRSM_LEAF=0 tila-bench potrf --peers '' --reps 3 --warmup 1 --check device --uplo L --n 20000 --nb 2048
tb 40 $R cusolver-ref geqrf --reps 3 --warmup 1 --n 20000
tb 40 $G tila-bench geqrf --peers '' --reps 3 --warmup 1 --check device --n 20000 --nb 2048
tb 40 $R cusolver-ref geqrf --reps 3 --warmup 1 --m 1000000 --n 256
tb 40 $G tila-bench geqrf --peers '' --reps 3 --warmup 1 --check device --m 1000000 --n 256 --tree cholqr
tb 40 $R cusolver-ref geqrf --reps 3 --warmup 1 --m 1000000 --n 512
tb 40 $G tila-bench geqrf --peers '' --reps 3 --warmup 1 --check device --m 1000000 --n 512 --tree cholqr
tb 40 $G tila-bench geqrf --peers '' --reps 3 --warmup 1 --check device --m 1000000 --n 512 --tree panel
tb 50 $G tila-bench potrf --peers '' --reps 3 --warmup 1 --check device --uplo L --n 30000 --nb 2048
tb 40 $R cusolver-ref geqrf --reps 3 --warmup 1 --n 30000
tb 60 $G tila-bench geqrf --peers '' --reps 3 --warmup 1 --check device --n 30000 --nb 2048
tb 30 $R cusolver-ref bandwidth --reps 3 --warmup 1 --n 20000
tb 30 $G tila-bench lange --peers '' --reps 3 --warmup 1 --norm M --n 20000 --nb 2048
tb 30 $G STARPU_SCHED=eager tila-bench lange --peers '' --reps 3 --warmup 1 --norm M --n 20000 --nb 2048
say done
