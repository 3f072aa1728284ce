#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fuzz/run.sh BUILD_DIR TARGET SECONDS [WORK_DIR [LIBFUZZER_FLAG...]]
# Runs one libFuzzer target (constraints | bundle | steps | obj) from the committed seed
# corpus for SECONDS, with leak detection, keeping the growing corpus and
# any crash in WORK_DIR (default /tmp/corepcg-fuzz-TARGET). Further
# arguments go to libFuzzer (-seed=1 makes the run repeatable). A crash
# input belongs in tests/fuzz/regressions/TARGET/ once the bug is fixed.
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR constraints|bundle|steps|obj SECONDS [WORK_DIR]}
target=${2:?target}
seconds=${3:-600}
here=$(cd "$(dirname "$0")" && pwd)
work=${4:-/tmp/corepcg-fuzz-$target}
shift $(($# < 4 ? $# : 4))
# a target's own dictionary when it has one (obj.dict), else the files'
dict="$here/$target.dict"
[ -f "$dict" ] || dict="$here/bundle.dict"
mkdir -p "$work/corpus" "$work/artifacts"
cp -n "$here/corpus/$target/"* "$work/corpus/" 2>/dev/null || true
cp -n "$here/regressions/$target/"* "$work/corpus/" 2>/dev/null || true
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
exec "$build/tests/fuzz/fuzz_$target" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=4096 -detect_leaks=1 -print_final_stats=1 \
    -dict="$dict" -artifact_prefix="$work/artifacts/" \
    "$@" "$work/corpus"
