#!/bin/sh
# Predictions for nodes of 4 x H100 (node description h100x4-model: model, not calibrated;
# tools/sim-node-model.py), made with bench/tila-sim on the 2-core build machine.  Network:
# tila-sim's default, 25 GB/s (200 Gb/s) and 1 us a link, one switch up to 16 nodes, else a
# fat tree.  Run from the repository's root; each writes h100-*.csv beside this script.
set -e
R=bench/results/sim
S="python3 bench/tila-sim"
N="--node h100x4-model --cores 64"
# Weak scaling of potrf, n = 49152 sqrt(nodes) in 2048-tiles, StarPU's pinning cost on and off.
for pin in on off; do
    $S potrf $N --pin-cost $pin --nb 2048 --n 49152 --nodes 1 --csv $R/h100-potrf-weak-1-$pin.csv
    $S potrf $N --pin-cost $pin --nb 2048 --n 98304 --nodes 4 --csv $R/h100-potrf-weak-4-$pin.csv
    $S potrf $N --pin-cost $pin --nb 2048 --n 196608 --nodes 16 --csv $R/h100-potrf-weak-16-$pin.csv
done
# The same at n = 32768 sqrt(nodes), with its plot (log-log, beside perfect scaling).
$S potrf $N --pin-cost off --nb 2048 --n 32768,65536,131072 --nodes 1,4,16 --weak \
    --csv $R/h100-potrf-weak-plot.csv --plot $R/h100-potrf-weak.png
# Strong scaling of potrf, n = 131072 in 2048-tiles, on 1 to 64 nodes.
$S potrf $N --pin-cost off --nb 2048 --n 131072 --nodes 1,4,16,64 --csv $R/h100-potrf-strong-off.csv
# P x Q shapes at 16 nodes.
for pq in "1 16" "2 8" "4 4" "8 2" "16 1"; do
    set -- $pq
    $S potrf $N --pin-cost off --nb 2048 --n 131072 --nodes 16 --p $1 --q $2 \
        --csv $R/h100-potrf-grid-$1x$2.csv
done
# At 16 nodes, n = 131072: a user's device level, StarPU-MPI's cooperative sends, 4x the bandwidth.
$S potrf $N --pin-cost off --nb 2048 --n 131072 --nodes 16 --devmap 2d --csv $R/h100-potrf-devmap-2d.csv
STARPU_MPI_COOP_SENDS=1 $S potrf $N --pin-cost off --nb 2048 --n 131072 --nodes 16 \
    --csv $R/h100-potrf-coop-sends.csv
$S potrf $N --pin-cost off --nb 2048 --n 131072 --nodes 16 --bw 100GBps --csv $R/h100-potrf-bw100.csv
# geqrf in 1024-tiles (the QR kernels' models exist for the calibrated tiles only).
$S geqrf $N --pin-cost off --nb 1024 --n 32768 --tree flat,binary --nodes 1,4,16 --csv $R/h100-geqrf.csv
# Norms M and F of n = 131072 in 1024-tiles, 1 and 64 nodes.
$S lange $N --pin-cost off --norm M,F --nb 1024 --n 131072 --nodes 1,64 --csv $R/h100-lange.csv
# Large tiles (node h100x4-model-big: the same model, its regressions fitted on 4096- to
# 16384-tiles), GPUs only (--cores 0): far fewer tasks, so 64 and 256 nodes fit in minutes.
B="--node h100x4-model-big --cores 0 --pin-cost off"
# Weak scaling of potrf in 8192-tiles, n = 49152 sqrt(nodes) (1 to 64), n = 98304 sqrt(nodes)
# (1 to 16) and n = 32768 sqrt(nodes) (1 to 256; the 256 nodes took 18 min here before session
# 23 mapped folded memory in SMPI's local mode, docs/SIMULATION.md section 6).
$S potrf $B --nb 8192 --n 49152,98304,196608,393216 --nodes 1,4,16,64 --weak \
    --csv $R/h100big-potrf-weak-49152.csv --plot $R/h100big-potrf-weak-49152.png
$S potrf $B --nb 8192 --n 98304,196608,393216 --nodes 1,4,16 --weak --csv $R/h100big-potrf-weak-98304.csv
$S potrf $B --nb 8192 --n 32768,65536,131072,262144,524288 --nodes 1,4,16,64,256 --weak \
    --csv $R/h100big-potrf-weak-32768.csv
# Strong scaling of potrf, n = 196608 in 4096-tiles, 4 to 64 nodes.
$S potrf $B --nb 4096 --n 196608 --nodes 4,16,64 --csv $R/h100big-potrf-strong.csv
# The norms of a 10^6 x 10^6 matrix (8 TB) in 8000-tiles on 64 nodes: the tiles in host memory
# (read over PCIe), then on the GPUs (--warm: a second call).
$S lange $B --nb 8000 --n 1000000 --norm M,O,I,F --nodes 64 --csv $R/h100big-lange-1e6.csv
$S lange $B --nb 8000 --n 1000000 --norm M,O,I,F --nodes 64 --warm --csv $R/h100big-lange-1e6-warm.csv
# Weak scaling of geqrf (flat tree) in 8192-tiles, n = 49152 sqrt(nodes), 1 to 64 nodes.
$S geqrf $B --nb 8192 --tree flat --n 49152,98304,196608,393216 --nodes 1,4,16,64 --weak \
    --csv $R/h100big-geqrf-weak.csv
# The same for n = 32768 sqrt(nodes), potrf's 256-node series, 1 to 256 nodes (session 23; the
# 256 nodes map about 97000 receive buffers at once, above Linux's default vm.max_map_count,
# and take 10 min and 5.4 GB here; docs/SIMULATION.md section 6).
sysctl -w vm.max_map_count=262144
$S geqrf $B --nb 8192 --ib 2048 --tree flat --n 32768,65536,131072,262144,524288 --nodes 1,4,16,64,256 --weak \
    --csv $R/h100big-geqrf-weak-32768.csv
# geqrf's trees across ranks (session 21): tall and skinny (4 tile columns, 12 x nodes tile rows,
# one process column), the binary tree (domains of each rank's tiles) and the flat tree, 4 to
# 64 nodes (flat: to 16); then square, binary against flat, 4 and 16 nodes.
# h100big-geqrf-tall-before.csv: the same binary runs with the tree before session 21
# (domains of consecutive tile rows: drivers/ at commit 3f11dc4).
for c in "4 393216 binary,flat" "16 1572864 binary,flat" "64 6291456 binary"; do
    set -- $c
    $S geqrf $B --nb 8192 --ib 2048 --tree $3 --m $2 --n 32768 --nodes $1 --p $1 --q 1 \
        --csv $R/h100big-geqrf-tall-$1.csv
done
$S geqrf $B --nb 8192 --ib 2048 --tree binary,flat --n 98304,196608 --nodes 4,16 --weak \
    --csv $R/h100big-geqrf-square-trees.csv
$S geqrf $B --nb 8192 --ib 2048 --tree binary --n 393216 --nodes 64 \
    --csv $R/h100big-geqrf-square-binary-64.csv
# Strong scaling of geqrf, n = 196608, 4 to 64 nodes, both trees, in 4096-tiles (ib 1024: the
# model has no 4096-tile QR kernels at ib 2048) and in 8192-tiles (session 24; the 4096-tile
# flat runs take 100-140 s each here, the rest 3-45 s).
$S geqrf $B --nb 4096 --ib 1024 --tree flat,binary --n 196608 --nodes 4,16,64 --csv $R/h100big-geqrf-strong-4096.csv
$S geqrf $B --nb 8192 --ib 2048 --tree flat,binary --n 196608 --nodes 4,16,64 --csv $R/h100big-geqrf-strong-8192.csv
# Weak scaling of potrf with the matrix filling 43 % of the nodes' GPU memory (n = 131072
# sqrt(nodes), 1 to 64 nodes; issue 56), each rank's window of submitted tasks tila-sim's
# auto (the 64 nodes aborted past vm.max_map_count before it); then the 16 nodes at 100,
# 200 and 400 Gb/s a node (docs/SIMULATION.md, section 5).
$S potrf $B --nb 8192 --n 131072,262144,524288,1048576 --nodes 1,4,16,64 --weak \
    --csv $R/h100big-potrf-weak-131072.csv
for bw in 12.5GBps 25GBps 50GBps; do
    $S potrf $B --nb 8192 --n 524288 --nodes 16 --bw $bw --csv $R/h100big-potrf-bw-16-$bw.csv
done
# The same matrices in 4096-tiles on 1 to 16 nodes (session 41: direct sends, TILA_BCAST's
# auto below 256 MiB tiles), then at 16 nodes the relay trees against direct sends by tile
# size (4096, 6144 at n = 522240 = 85 x 6144, 8192).
$S potrf $B --nb 4096 --n 131072,262144,524288 --nodes 1,4,16 --weak \
    --csv $R/h100big-potrf-weak-131072-nb4096.csv
for b in direct tree; do
    for nb in 4096 8192; do
        TILA_BCAST=$b $S potrf $B --nb $nb --n 524288 --nodes 16 \
            --csv $R/h100big-potrf-bcast-16-nb$nb-$b.csv
    done
    TILA_BCAST=$b $S potrf $B --nb 6144 --n 522240 --nodes 16 \
        --csv $R/h100big-potrf-bcast-16-nb6144-$b.csv
done
# The same tiles with the matrix at 74 % of the nodes' GPU memory (session 42).
$S potrf $B --nb 4096 --n 172032,344064,688128 --nodes 1,4,16 --weak \
    --csv $R/h100big-potrf-weak-172032-nb4096.csv
# 64 nodes in 6144-tiles, the matrix at 43 % of GPU memory (session 43; 33 min of host time).
$S potrf $B --nb 6144 --n 129024,258048,516096,1032192 --nodes 1,4,16,64 --weak \
    --csv $R/h100big-potrf-weak-129024-nb6144.csv
TILA_BCAST=tree $S potrf $B --nb 6144 --n 1032192 --nodes 64 \
    --csv $R/h100big-potrf-bcast-64-nb6144-tree.csv
# The sends in flight a rank (session 44): 16 nodes against StarPU-MPI's count and the
# bytes' bound (STARPU_MPI_NDETACHED_SEND_MB, set by tila_init to 1536; the lines of
# h100big-potrf-sends-16-s44.txt), and 64 nodes in 8192-tiles with 2 direct sends in flight.
for nd in 1 2 3 4 6 10; do
    TILA_BCAST=direct STARPU_MPI_NDETACHED_SEND=$nd STARPU_MPI_NDETACHED_SEND_MB=0 \
        $S potrf $B --nb 8192 --n 524288 --nodes 16
done
for b in direct tree; do
    TILA_BCAST=$b $S potrf $B --nb 8192 --n 524288 --nodes 16
done
TILA_BCAST=direct STARPU_MPI_NDETACHED_SEND=2 STARPU_MPI_NDETACHED_SEND_MB=0 \
    $S potrf $B --nb 8192 --n 1048576 --nodes 64 --csv $R/h100big-potrf-64-nb8192-direct-nd2.csv
# The matrix at 74 % of GPU memory in 8192-tiles, 1 to 64 nodes (session 44; 58 min of host
# time for the 64; run before the bound: TILA_BCAST=tree STARPU_MPI_NDETACHED_SEND_MB=0
# gives the same choices now), and the 16 nodes with the bound.
TILA_BCAST=tree STARPU_MPI_NDETACHED_SEND_MB=0 \
    $S potrf $B --nb 8192 --n 172032,344064,688128,1376256 --nodes 1,4,16,64 --weak \
    --csv $R/h100big-potrf-weak-172032-nb8192.csv
$S potrf $B --nb 8192 --n 688128 --nodes 16 --csv $R/h100big-potrf-16-nb8192-74pc-bound.csv
