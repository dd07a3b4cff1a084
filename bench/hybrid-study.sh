#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# hybrid-study.sh: Song and Dongarra's hybrid tiles against uniform tiles, simulated on nodes
# of 4 GPUs and 64 cores (bench/tila-sim; the node h100x4-model-any: a model, not a
# calibration, docs/SIMULATION.md), for potrf on 1, 4 and 16 nodes, n = 65536 sqrt(nodes)
# (the same memory a node): uniform tiles of 1024, 2048 and 4096 (the CPU workers free to
# take any task), and top-level tiles of B = 4096 cut into one GPU slice and s - 1 CPU
# slices of b (b swept, and b chosen from the node's models: tila_hybrid_balance_models).
#
#   sh bench/hybrid-study.sh [OUT.csv] [NODES...]      (default bench/results/hybrid-sim.csv; 1 4 16)
#
# One CSV (tila-sim's columns); the table and plot in bench/README.md come from it
# (bench/hybrid-study.gp).  Simulated time does not depend on the host: runs may overlap
# other work.  About 25 minutes on a 2-core host.
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/results/hybrid-sim.csv}
[ $# -gt 0 ] && shift
nodes=${*:-1 4 16}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sim() {
    python3 "$here/tila-sim" potrf --node h100x4-model-any --cores 64 --pin-cost off \
        --csv "$tmp/run.csv" "$@" | grep '^\['
    if [ -s "$out.part" ]; then tail -n +2 "$tmp/run.csv" >> "$out.part"
    else cat "$tmp/run.csv" > "$out.part"; fi
}
rm -f "$out.part"
for p in $nodes; do
    n=$(python3 -c "import math; print(int(65536 * math.sqrt($p)))")
    for nb in 1024 2048 4096; do
        # 16 nodes of 1024-tiles: 2.8 million tasks, too many to simulate here
        [ "$p" -ge 16 ] && [ "$nb" = 1024 ] && continue
        sim --n "$n" --nodes "$p" --nb "$nb"
    done
    for b in 32 64 128 256 auto; do
        sim --n "$n" --nodes "$p" --hybrid "4096:2:$b"
    done
    sim --n "$n" --nodes "$p" --hybrid 4096:3:auto
done
mv "$out.part" "$out"
echo "hybrid-study: $out"
