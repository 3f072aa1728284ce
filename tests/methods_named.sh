#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The registry is the only place a method is named: no C file of the
# library, the CLI, the benchmark or the simulator branches on one
# method's constant (COREPCG_METHOD_AUTO, the one that chooses, aside),
# but src/methods/registry.c, which holds every row and rule (the bench
# names methods by their names, in bench/bench_policy.c).
# Usage: methods_named.sh SOURCE_ROOT
set -euo pipefail
cd "$1"
allowed='^src/methods/registry\.c:'
# every constant of the header's corepcg_method, auto and the count aside
methods=$(sed -n '/^typedef enum corepcg_method {/,/} corepcg_method;/p' include/corepcg.h |
          grep -oE 'COREPCG_METHOD_[A-Z0-9_]+' | grep -vE '_(AUTO|COUNT)$' | paste -sd'|')
[ -n "$methods" ] || { echo "no method constants in include/corepcg.h"; exit 1; }
named=$(grep -rnE "($methods)\b" \
            src tools bench cloth util --include='*.c' --include='*.h' |
        grep -vE "$allowed" || true)
if [ -n "$named" ]; then
    echo "a method named outside the registry:"
    echo "$named"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "1 passed, 0 failed"
