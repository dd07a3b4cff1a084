#!/bin/bash
# Session 38's first device call (diagnostic, with what was built): where dpotrf's last 10 %
# against cuSOLVER goes at n >= 30000 -- the tile size, tiles shrinking toward the end
# (the factorization's tail is its critical path), n = 40000, StarPU's dmda, and one traced
# warm call at n = 30000 for the critical-path report.
T0=$SECONDS
W=$(mktemp -d); xz -T0 -dc gpu-bundle.tar.xz | tar -C "$W" -xf -
B=$W/gpu-bundle
eval "$(bash tools/gpu-run --bundle "$B" --print-env)"
export STARPU_HOME=$W/sh; mkdir -p $STARPU_HOME $W/csv $W/traces
L=$OUT/diag.log
say() { echo "[diag $((SECONDS - T0))s] $*" | tee -a $L; }
lim() { local t=$1; shift; say "$*"; timeout "$t" "$@" >> $L 2>&1; say "exit $?"; }
R="orterun --oversubscribe --bind-to none -np 1"
G="env TILA_BENCH_PHASES=1 STARPU_NCPU=0 STARPU_NCUDA=1"
n=0
tb() { local t=$1; shift; n=$((n + 1)); lim "$t" "$@" --csv $W/csv/$n.csv; [[ -f $W/csv/$n.csv ]] && tail -n +2 $W/csv/$n.csv | sed "s|\$|,run$n|" >> $OUT/bench.csv; }
echo "routine,variant,prec,impl,m,n,nb,ib,p,q,ranks,workers,seconds,rate,unit,check,first_seconds,run" > $OUT/bench.csv
P="tila-bench potrf --peers '' --reps 3 --warmup 1 --check device --uplo L"
tb 40 $R cusolver-ref potrf --reps 3 --warmup 1 --n 30000,40000
tb 30 $G tila-bench potrf --peers '' --reps 3 --warmup 1 --check device --uplo L --n 30000 --nb 2048
tb 30 $G tila-bench potrf --peers '' --reps 3 --warmup 1 --check device --uplo L --n 30000 --nb 2048 --tiles shrink:512:4
tb 30 $G tila-bench potrf --peers '' --reps 3 --warmup 1 --check device --uplo L --n 30000 --nb 3072
lim 40 $G TILA_TRACE=$W/traces/potrf-30000.trace $R tila-bench-run potrf tila --variant L --n 30000 --nb 2048 --warmup 1 --reps 1 --check device
timeout 30 tila-trace $W/traces/potrf-30000.trace > $OUT/trace-potrf-30000.log 2>&1
tar -C $W/traces -czf $OUT/traces.tar.gz .
say "trace done"
tb 30 $G STARPU_SCHED=dmda tila-bench potrf --peers '' --reps 3 --warmup 1 --check device --uplo L --n 30000 --nb 2048
tb 30 $G tila-bench potrf --peers '' --reps 3 --warmup 1 --check device --uplo L --n 30000 --nb 3072 --tiles shrink:512:4
tb 45 $G tila-bench potrf --peers '' --reps 3 --warmup 1 --check device --uplo L --n 40000 --nb 2048,3072
say done
