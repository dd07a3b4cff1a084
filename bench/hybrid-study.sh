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
#   NODE=h100x4-measured-any sh bench/hybrid-study.sh ...   (another node description)
#   ROUTINE=geqrf NODE=h100x4-measured-qr N=65536 sh bench/hybrid-study.sh ...
#       (geqrf, flat tree; hybrid tiles at ib = 32, which the node's QR entries are for:
#       tools/sim-node-model.py --hybrid, docs/SIMULATION.md); N: one n for every node
#       count (geqrf at n = 131072 on 4 nodes takes over 6 minutes a run here)
#   REPORT=1 sh bench/hybrid-study.sh OUT.csv     (no runs: the table and the plot of OUT.csv,
#       say the rows of several sessions' runs put together)
#
# One CSV (tila-sim's columns), then the table of bench/README.md (printed) and a plot
# (OUT.png) from it.  Simulated time does not depend on the host: runs may overlap
# other work.  About an hour on a 2-core host (16 nodes: 5-14 minutes a run).
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/results/hybrid-sim.csv}
[ $# -gt 0 ] && shift
nodes=${*:-1 4 16}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
routine=${ROUTINE:-potrf}
qr=""; qr_hybrid=""
[ "$routine" = geqrf ] && qr="--tree flat" && qr_hybrid="--ib 32"
sim() {
    # shellcheck disable=SC2086
    python3 "$here/tila-sim" "$routine" $qr --node "${NODE:-h100x4-model-any}" --cores 64 --pin-cost off \
        --csv "$tmp/run.csv" "$@" | grep '^\['
    if [ -s "$out.part" ]; then tail -n +2 "$tmp/run.csv" >> "$out.part"
    else cat "$tmp/run.csv" > "$out.part"; fi
}
rm -f "$out.part"
[ -n "${REPORT:-}" ] && nodes="" && cp "$out" "$out.part"
for p in $nodes; do
    n=${N:-$(python3 -c "import math; print(int(65536 * math.sqrt($p)))")}
    for nb in 1024 2048 4096; do
        # 16 nodes of 1024-tiles: 2.8 million tasks, too many to simulate here; geqrf's
        # from 4 nodes on (over 8 minutes a run here)
        [ "$p" -ge 16 ] && [ "$nb" = 1024 ] && continue
        [ "$routine" = geqrf ] && [ "$p" -ge 4 ] && [ "$nb" = 1024 ] && continue
        sim --n "$n" --nodes "$p" --nb "$nb"
    done
    for b in 32 64 128 256 auto; do
        sim --n "$n" --nodes "$p" --hybrid "4096:2:$b" $qr_hybrid
    done
    sim --n "$n" --nodes "$p" --hybrid 4096:3:auto $qr_hybrid
done
mv "$out.part" "$out"
echo "hybrid-study: $out"
# The table (markdown) and a plot beside the CSV: rate against b, one curve a node count,
# the best uniform tile as a dashed line.
python3 - "$out" "$tmp" "$routine" <<'PY'
import csv, os, subprocess, sys
out, tmp, routine = sys.argv[1], sys.argv[2], sys.argv[3]
rows = list(csv.DictReader(open(out)))
nodes = sorted({int(r["nodes"]) for r in rows})
print("| nodes | n | best uniform (nb) | hybrid B = 4096, s = 2: b = 32 / 64 / 128 / 256 (TFLOP/s) "
      "| b from the models | s = 3, b from the models | cores' share of the flops (b from the models) |")
print("|---|---|---|---|---|---|---|")
plot = []
for p in nodes:
    mine = [r for r in rows if int(r["nodes"]) == p]
    uni = max((r for r in mine if r["tiles"] == "uniform"), key=lambda r: float(r["rate"]))
    hyb = {r["tiles"]: r for r in mine if r["tiles"].startswith("hybrid")}
    sweep = [hyb.get("hybrid:4096:2:%d" % b) for b in (32, 64, 128, 256)]
    tf = lambda r: "%.0f" % (float(r["rate"]) / 1000) if r else "-"
    # tila-sim's last s = 2 row is the auto one (the script runs it after the sweep)
    a2 = [r for r in mine if r["tiles"].startswith("hybrid:4096:2:")][-1]
    a3 = [r for r in mine if r["tiles"].startswith("hybrid:4096:3:")]
    a3 = a3[-1] if a3 else None
    best = float(uni["rate"])
    print("| %d | %s | %.0f (%s) | %s | %s: %s (%.2fx) | %s | %s |" % (
        p, uni["n"], best / 1000, uni["nb"], " / ".join(tf(r) for r in sweep),
        a2["tiles"].split(":")[3], tf(a2), float(a2["rate"]) / best,
        "%s: %s (%.2fx)" % (a3["tiles"].split(":")[3], tf(a3), float(a3["rate"]) / best) if a3 else "-",
        a2["cpu_flops"]))
    with open(os.path.join(tmp, "n%d.dat" % p), "w") as f:
        for b, r in zip((32, 64, 128, 256), sweep):
            if r:
                f.write("%d %s\n" % (b, float(r["rate"]) / 1000))
    plot.append((p, best / 1000, (a2["tiles"].split(":")[3], float(a2["rate"]) / 1000)))
png = os.path.splitext(out)[0] + ".png"
cmds = ["set terminal pngcairo size 1040,560", "set output '%s'" % png, "set logscale xy 2",
        "set xlabel 'b, the CPU slices width (B = 4096, s = 2); o: b from the models'",
        "set ylabel 'TFLOP/s'",
        "set title 'd%s, n = %s, simulated on nodes of 4 H100 + 64 cores (%s)'" % (
            routine, ", ".join("%s on %d" % (next(r["n"] for r in rows if int(r["nodes"]) == p), p)
                               for p in nodes), rows[0]["node"]),
        "set key bottom left", "set xrange [24:340]"]
series = []
for i, (p, best, auto) in enumerate(plot):
    series.append("'%s/n%d.dat' with linespoints lt %d pt 7 title '%d node(s), hybrid'" % (tmp, p, i + 1, p))
    series.append("%f with lines dt 2 lt %d title '%d node(s), best uniform tile'" % (best, i + 1, p))
    series.append("'-' with points lt %d pt 6 ps 3 notitle" % (i + 1))
cmds.append("plot " + ", ".join(series))
for p, best, auto in plot:
    cmds += ["%s %s" % auto, "e"]
subprocess.run(["gnuplot"], input="\n".join(cmds), text=True, check=True)
print("\nplot: %s" % png)
PY
