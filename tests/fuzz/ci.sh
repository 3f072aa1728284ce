#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fuzz/ci.sh [SECONDS [SEED]]
# A short fuzzing pass for CI: installs clang if needed, builds build-fuzz
# (libFuzzer + ASan + UBSan) and runs each target for SECONDS (default 60)
# from the committed corpus, leak detection on, with a fixed SEED (default
# 1) so that a failure is the same on every run and machine, not luck; long
# exploratory runs use run.sh without a seed. Fails on any crash, leak,
# timeout or broken invariant (the input is left in /tmp/corepcg-fuzz-*/).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../tools/setup.sh"
seconds=${1:-60}
seed=${2:-1}
corepcg_install clang libclang-rt-14-dev
cd "$corepcg_root"
if [ ! -f build-fuzz/build.ninja ]; then
    CC=clang meson setup build-fuzz -Dfuzz=true \
        -Db_sanitize=address,undefined -Db_lundef=false >&2
fi
meson compile -C build-fuzz tests/fuzz/fuzz_constraints tests/fuzz/fuzz_bundle \
    tests/fuzz/fuzz_steps tests/fuzz/fuzz_obj >&2
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
status=0
for t in constraints bundle steps obj; do
    work=$(mktemp -d "${TMPDIR:-/tmp}/corepcg-fuzz-$t-XXXXXX")
    if "$here/run.sh" build-fuzz "$t" "$seconds" "$work" -seed="$seed" > "$work/log" 2>&1; then
        grep -E "^#[0-9]+.*DONE" "$work/log" | sed "s/^/fuzz_$t: /"
        rm -rf "$work"
    else
        status=1
        echo "fuzz_$t: FAILED (input and log in $work)" >&2
        grep -v "Uses:" "$work/log" | tail -40 >&2
    fi
done
exit "$status"
