#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""stream-model: dpotrf on one GPU with several concurrent streams, as a fluid task-graph model.

  tools/stream-model.py [RATES.csv ...] [--node NAME] [--nb 2048] [--n 20000,30000]
                        [--streams 1,2,4] [--overhead 0,300] [--widths potrf=0.15,...]
                        [--variants trsm,trtri] [--csv FILE]

What StarPU-SimGrid cannot run: StarPU 1.3's simulated CUDA workers execute one kernel at a
time ("Simgrid mode does not support concurrent kernel execution yet", driver_cuda.c), so
bench/tila-sim cannot say what several streams on one GPU (STARPU_NWORKER_PER_CUDA) give.
This model can, roughly:

- Tasks: Tila's right-looking tiled Cholesky (drivers/zpotrf.c, lower), with its priorities
  (potrf 3 > trsm 2 > the next column's syrk and gemm 1 > the rest 0), on nt = ceil(n / nb)
  tile columns; an edge tile's task is scaled by its flops.  Variant "trtri": the panel's
  trsm tasks become one trtri of the diagonal tile (priority 3) and one gemm a tile, the
  candidate of issue 59 (MAGMA's trsm).
- Kernel times: each kernel's time alone on one tile, from tila-cuda-rates' CSV rows
  (BENCH.md's columns: routine, prec d, nb, seconds; the median of a kernel's rows at nb),
  or from a node's calibrated models (--node: the CUDA history means at nb, which
  tools/check-models.py checks against the regressions the simulator uses).  A kernel that
  neither gives is an assumption, printed as such (trtri: potrf's time, the same flop count
  and cuSOLVER's latency-bound kind).
- Streams: S streams, one task each at a time, the ready task of highest priority going to
  the first free stream.  Running kernels share the GPU as a fluid: kernel k alone needs a
  width w_k of it (1 for gemm and syrk, less for the latency-bound potrf, trtri and trsm);
  the GPU's capacity 1 is filled by water-filling (each gets min(w_k, its fair share)) and a
  kernel progresses at its share / w_k.  One stream is the in-order stream of today's
  runs.  --overhead adds a runtime cost per task on its stream before the kernel starts
  (the 300 us a task that session 34's cold runs suggest, gpu-one-node.md F1).
- The widths: measured where the rates CSV has tila-cuda-rates' "width" rows (each kernel's
  share of the GPU while gemms run beside it on another stream), else ASSUMPTIONS (potrf
  0.15, trtri 0.15, trsm 0.6); every table says which.

Prints, per n, variant, runtime cost and stream count: the tasks, their summed kernel
time, the critical path, the predicted time and TFLOP/s (n^3 / 3 flops); --csv writes the
same rows.
"""
import argparse
import csv
import heapq
import importlib.machinery
import importlib.util
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
KERNELS = ("gemm", "trsm", "syrk", "potrf", "trtri")
DEFAULT_WIDTHS = {"gemm": 1.0, "syrk": 1.0, "trsm": 0.6, "potrf": 0.15, "trtri": 0.15}
# The model files' symbols of the kernels (Tila's lower Cholesky runs trsm on the right).
SYMBOL = {"gemm": "tila_dgemm", "trsm": "tila_dtrsm_right", "syrk": "tila_dsyrk",
          "potrf": "tila_dpotrf"}
# Tiles in a task as the models count its size (codelets/tila_codelet.h, tila_cl_blas3_size).
NTILES = {"gemm": 3, "trsm": 2, "syrk": 2, "potrf": 1}


def rates_times(paths, nb):
    """kernel -> seconds alone on an nb-tile (median of its rows) from tila-cuda-rates' CSVs."""
    seen = {}
    for path in paths:
        for r in csv.DictReader(open(path)):
            if r["prec"] == "d" and r["routine"] in KERNELS and int(r["nb"]) == nb:
                seen.setdefault(r["routine"], []).append(float(r["seconds"]))
    return {k: statistics.median(v) for k, v in seen.items()}


def rates_widths(paths, nb):
    """kernel -> share of the GPU beside gemms (tila-cuda-rates' "width" rows at nb)."""
    seen = {}
    for path in paths:
        for r in csv.DictReader(open(path)):
            if r["routine"] == "width" and r["prec"] == "d" and int(r["nb"]) == nb:
                seen.setdefault(r["variant"], []).append(float(r["rate"]))
    return {k: min(1.0, max(0.01, statistics.median(v))) for k, v in seen.items()}


def node_times(node, nb, models):
    """kernel -> seconds from node NODE's CUDA history means on nb-tiles."""
    loader = importlib.machinery.SourceFileLoader("check_models",
                                                  os.path.join(HERE, "check-models.py"))
    cm = importlib.util.module_from_spec(importlib.util.spec_from_loader("check_models", loader))
    loader.exec_module(cm)
    out = {}
    for kernel, symbol in SYMBOL.items():
        path = os.path.join(models, "codelets", "45", "%s.%s" % (symbol, node))
        if not os.path.exists(path):
            continue
        size = 8 * NTILES[kernel] * nb * nb
        for model in cm.parse(path):
            if model["arch"].startswith("cuda0"):
                for e in model["entries"]:
                    # potrf's size counts its info word too (4 bytes)
                    if e["n"] > 0 and abs(e["size"] - size) <= 8:
                        out[kernel] = e["mean"] * 1e-6
    return out


def tasks_potrf(n, nb, t, w, variant):
    """The task graph: [(name, priority, seconds alone, width, [dependencies])]."""
    nt = -(-n // nb)
    last = n - (nt - 1) * nb

    def f(i):  # an edge tile's share of a full tile's edge
        return last / nb if i == nt - 1 else 1.0

    tasks, writer, readers = [], {}, {}

    def add(name, prio, seconds, width, reads, writes):
        deps = set(writer[r] for r in reads if r in writer)
        for x in writes:
            if x in writer:
                deps.add(writer[x])
            deps.update(readers.get(x, []))
        tid = len(tasks)
        tasks.append((name, prio, seconds, width, sorted(deps)))
        for r in reads:
            readers.setdefault(r, []).append(tid)
        for x in writes:
            writer[x], readers[x] = tid, []

    for k in range(nt):
        add("potrf", 3, t["potrf"] * f(k) ** 3, w["potrf"], [], [(k, k)])
        if variant == "trtri" and k < nt - 1:
            add("trtri", 3, t["trtri"], w["trtri"], [(k, k)], [("inv", k)])
        for m in range(k + 1, nt):
            if variant == "trtri":
                add("gemm", 2, t["gemm"] * f(m), w["gemm"], [("inv", k)], [(m, k)])
            else:
                add("trsm", 2, t["trsm"] * f(m), w["trsm"], [(k, k)], [(m, k)])
        for m in range(k + 1, nt):
            add("syrk", 1 if m == k + 1 else 0, t["syrk"] * f(m) ** 2, w["syrk"], [(m, k)], [(m, m)])
            for j in range(k + 1, m):
                add("gemm", 1 if j == k + 1 else 0, t["gemm"] * f(m) * f(j), w["gemm"],
                    [(m, k), (j, k)], [(m, j)])
    return tasks


def critical_path(tasks):
    finish = []
    for _, _, seconds, _, deps in tasks:
        finish.append(seconds + max((finish[j] for j in deps), default=0.0))
    return max(finish)


def simulate(tasks, streams, overhead):
    """The fluid model's time for the whole graph on `streams` streams."""
    n = len(tasks)
    waiting = [len(d) for *_, d in tasks]
    succ = [[] for _ in range(n)]
    for i, (*_, deps) in enumerate(tasks):
        for j in deps:
            succ[j].append(i)
    ready = [(-tasks[i][1], i) for i in range(n) if not waiting[i]]
    heapq.heapify(ready)
    now, done = 0.0, 0
    running = {}  # task -> [seconds of work left at full width, width, stream, start]
    stream_task = [None] * streams
    while done < n:
        for s in range(streams):
            if stream_task[s] is None and ready:
                _, i = heapq.heappop(ready)
                stream_task[s] = i
                running[i] = [tasks[i][2], tasks[i][3], s, now + overhead]
        active = [i for i, r in running.items() if r[3] <= now + 1e-15]
        shares, left, capacity = {}, sorted(active, key=lambda i: running[i][1]), 1.0
        while left:  # water-filling
            fair = capacity / len(left)
            if running[left[0]][1] <= fair:
                i = left.pop(0)
                shares[i] = running[i][1]
                capacity -= shares[i]
            else:
                shares.update((i, fair) for i in left)
                left = []
        dt = min([running[i][0] * running[i][1] / shares[i] for i in active] +
                 [r[3] - now for r in running.values() if r[3] > now + 1e-15] + [float("inf")])
        if dt == float("inf"):
            raise SystemExit("stream-model: no task can run (a cycle in the graph)")
        for i in active:
            running[i][0] -= dt * shares[i] / running[i][1]
        now += dt
        for i in [i for i in active if running[i][0] <= 1e-15]:
            stream_task[running.pop(i)[2]] = None
            done += 1
            for j in succ[i]:
                waiting[j] -= 1
                if not waiting[j]:
                    heapq.heappush(ready, (-tasks[j][1], j))
    return now


def main():
    ap = argparse.ArgumentParser(prog="stream-model", description=__doc__.split("\n")[0])
    ap.add_argument("rates", nargs="*", help="tila-cuda-rates CSV files (BENCH.md's columns)")
    ap.add_argument("--node", help="take the kernels' times from this node's CUDA history "
                                   "means instead (e.g. h100)")
    ap.add_argument("--models", default=os.path.join(TOP, "perfmodels", "reference", "sampling"))
    ap.add_argument("--nb", type=int, default=2048)
    ints = lambda t: [int(x) for x in t.split(",")]
    ap.add_argument("--n", type=ints, default=[20000, 30000])
    ap.add_argument("--streams", type=ints, default=[1, 2, 4])
    ap.add_argument("--overhead", type=lambda t: [float(x) * 1e-6 for x in t.split(",")],
                    default=[0.0], help="runtime cost per task on its stream, us (list)")
    ap.add_argument("--widths", default="", help="kernel=width,... (default: %s, assumed)"
                    % ",".join("%s=%g" % kv for kv in DEFAULT_WIDTHS.items()))
    ap.add_argument("--variants", default="trsm,trtri")
    ap.add_argument("--csv")
    args = ap.parse_args()
    if not args.rates and not args.node:
        ap.error("give tila-cuda-rates CSV files or --node")
    times = node_times(args.node, args.nb, args.models) if args.node else \
        rates_times(args.rates, args.nb)
    source = {k: ("node %s, history" % args.node if args.node else "tila-cuda-rates")
              for k in times}
    if "trtri" not in times and "potrf" in times:
        times["trtri"] = times["potrf"]
        source["trtri"] = "ASSUMED: potrf's time (no trtri row)"
    missing = [k for k in KERNELS if k not in times]
    if missing:
        sys.exit("stream-model: no time for %s at nb = %d" % (", ".join(missing), args.nb))
    widths, wsource = dict(DEFAULT_WIDTHS), {k: "ASSUMED" for k in DEFAULT_WIDTHS}
    for k, w in rates_widths(args.rates, args.nb).items():
        if k in widths:
            widths[k], wsource[k] = w, "measured beside gemms (tila-cuda-rates)"
    for kv in filter(None, args.widths.split(",")):
        k, v = kv.split("=")
        widths[k], wsource[k] = float(v), "given"
    print("# stream-model: dpotrf (lower) on one GPU, nb = %d, a fluid model of concurrent "
          "streams (not StarPU, not SimGrid)" % args.nb)
    for k in KERNELS:
        print("#   %-5s %8.3f ms alone (%s), width %.2f (%s)"
              % (k, times[k] * 1e3, source[k], widths[k], wsource[k]))
    if any(v == "ASSUMED" for v in wsource.values()):
        print("# The widths marked ASSUMED are assumptions, not measurements: the rates CSV has "
              "no \"width\" rows for them (tila-cuda-rates measures them beside gemms since "
              "session 36).  Predictions with several streams are only as good as they are; "
              "one stream does not depend on them.")
    rows = []
    print("%6s %-6s %6s %6s %9s %8s %8s %10s %8s" % ("n", "trsm", "us/tsk", "tasks", "kernels",
                                                   "crit", "streams", "time", "TFLOP/s"))
    for n in args.n:
        for variant in args.variants.split(","):
            tasks = tasks_potrf(n, args.nb, times, widths, variant)
            work, crit = sum(t[2] for t in tasks), critical_path(tasks)
            for o in args.overhead:
                for s in args.streams:
                    span = simulate(tasks, s, o)
                    rate = n ** 3 / 3 / span / 1e12
                    rows.append({"n": n, "nb": args.nb, "variant": variant,
                                 "overhead_us": "%g" % (o * 1e6), "streams": s,
                                 "tasks": len(tasks), "kernel_seconds": "%.4f" % work,
                                 "critical_path": "%.4f" % crit, "seconds": "%.4f" % span,
                                 "tflops": "%.1f" % rate})
                    print("%6d %-6s %6g %6d %7.1f ms %5.1f ms %8d %7.1f ms %8.1f"
                          % (n, variant, o * 1e6, len(tasks), work * 1e3, crit * 1e3, s,
                             span * 1e3, rate))
    if args.csv:
        with open(args.csv, "w") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)


if __name__ == "__main__":
    main()
