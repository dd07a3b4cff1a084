#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""trace_check.py REPORT-JSON RANKS: checks bench/tila-trace's report (--json) on the trace of
one warm call of tila-bench-run potrf --n 2000 --nb 200 (nt = 10), printing PASS/FAIL lines:
every rank's window holds its tasks, 220 in all (potrf 10, trsm 45, herk 45, gemm 120: each
task once, on the rank that ran it), times in order, busy shares in (0, 1], and a critical
path that starts at the first diagonal potrf and passes through at least nt tasks."""
import json
import sys

report, ranks = json.load(open(sys.argv[1])), int(sys.argv[2])
want = {"zpotrf": 10, "ztrsm": 45, "zherk": 45, "zgemm": 120}
fails = []
if len(report) != ranks:
    fails.append("%d ranks' windows, not %d" % (len(report), ranks))
got = {}
for r in report:
    for name, n in r["by_name"].items():
        got[name] = got.get(name, 0) + n["count"]
    for w in r["workers"].values():
        if w["tasks"] and not 0 < w["busy"] <= 1:
            fails.append("rank %d worker %s busy %g" % (r["rank"], w["name"], w["busy"]))
    if r["latency_us"]["ready_to_start_median"] < 0:
        fails.append("rank %d: a task started before it was ready" % r["rank"])
if got != want:
    fails.append("tasks %s, not %s" % (got, want))
paths = [r["critical_path"] for r in report if r["rank"] == 0]
if not paths or paths[0]["tasks"] < (10 if ranks == 1 else 2):
    fails.append("critical path on rank 0: %s" % (paths[0]["tasks"] if paths else "none"))
print(("FAIL trace np=%d: " % ranks + "; ".join(fails)) if fails else
      "PASS trace np=%d: 220 tasks (potrf 10, trsm 45, herk 45, gemm 120), critical path %d tasks"
      % (ranks, paths[0]["tasks"]))
sys.exit(1 if fails else 0)
