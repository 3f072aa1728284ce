#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run.sh -- corepcg's cold solve against peer solvers on the same systems
# (bench/peers/README.md). From the repository root, after the README's
# build (build-release/ by default: COREPCG_BUILD=DIR to change it):
#     bench/peers/run.sh [--tol T] [--repeats K] BUNDLE...
# Installs Debian's Eigen, sequential MUMPS and petsc4py if missing
# (apt-get: root), builds the two C/C++ drivers, writes each bundle's reduced system, and prints
# a Markdown table per bundle: cold seconds (median of K), iterations and
# the true relative residual of every answer.
set -eu
tol=1e-6
repeats=3
while [ $# -gt 0 ]; do
    case $1 in
    --tol) tol=$2; shift 2 ;;
    --repeats) repeats=$2; shift 2 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
[ $# -gt 0 ] || { echo "usage: bench/peers/run.sh [--tol T] [--repeats K] BUNDLE..." >&2; exit 2; }
here=$(dirname "$0")
build=${COREPCG_BUILD:-build-release}
cli=$build/tools/corepcg
[ -x "$cli" ] || { echo "run.sh: no $cli: build corepcg first (README)" >&2; exit 1; }
python=/usr/bin/python3

need=""
[ -f /usr/include/eigen3/Eigen/Sparse ] || need="$need libeigen3-dev"
[ -f /usr/include/dmumps_c.h ] || need="$need libmumps-seq-dev"
$python -c 'import scipy' 2>/dev/null || need="$need python3-scipy"
[ -n "$(ls -d /usr/lib/petscdir/petsc*/*-real 2>/dev/null)" ] ||
    need="$need python3-petsc4py"
if [ -n "$need" ]; then
    apt-get update -q >/dev/null && apt-get install -y -q $need >/dev/null
fi

# petsc4py finds PETSc through /usr/lib/petsc, which only petsc-dev (MPI's
# headers and a large tree) provides; name the runtime's own directory
petsc_dir=$(ls -d /usr/lib/petscdir/petsc*/*-real | sort | tail -n 1)

work=$build/peers
mkdir -p "$work"
# the peers at their best on this machine: -O3, every instruction it has
g++ -O3 -march=native -DNDEBUG -I/usr/include/eigen3 \
    "$here/eigen_peers.cpp" -o "$work/eigen_peers"
gcc -O3 -march=native -I/usr/include/mumps_seq "$here/mumps_peer.c" \
    -o "$work/mumps_peer" -ldmumps_seq -lmumps_common_seq -lmpiseq_seq \
    -lpord_seq -lm

for bundle in "$@"; do
    name=$(basename "$bundle")
    sys=$work/$name
    PYTHONPATH=python $python "$here/export_reduced.py" "$bundle" "$sys" >/dev/null
    echo
    echo "### $name, tol $tol, cold, median of $repeats"
    echo
    echo "| solver | seconds | iterations | true rel. residual |"
    echo "|---|---:|---:|---:|"
    for method in auto corepcg icpcg direct; do
        opt="--tol $tol"
        [ $method = direct ] && opt=""
        for r in $(seq "$repeats"); do
            "$cli" solve "$bundle" --method $method $opt --json
            echo
        done | $python -c '
import json, statistics, sys
runs = [json.loads(l) for l in sys.stdin if l.strip()]
t = statistics.median(r["time_setup_s"] + r["time_solve_s"] for r in runs)
r = runs[-1]
used = "" if r["method_used"] == r["method"] else " (ran " + r["method_used"] + ")"
print("| corepcg %s%s | %.4f | %d | %.2e |" % (r["method"], used, t,
      r["iterations"], r["rel_residual"]))'
    done
    # each driver's rows into a file first: one that fails stops the script
    # (set -e) instead of leaving its rows out of a table
    rows=$sys/rows.txt
    "$work/eigen_peers" "$sys" "$tol" "$repeats" >"$rows"
    "$work/mumps_peer" "$sys" "$repeats" >>"$rows"
    PETSC_DIR=$petsc_dir $python "$here/petsc_peers.py" "$sys" "$tol" "$repeats" >>"$rows"
    awk '{ n = NF; printf "| %s", $1; for (i = 2; i <= n - 3; i++) printf " %s", $i;
           printf " | %s | %s | %s |\n", $(n-2), $(n-1), $n }' "$rows"
done
