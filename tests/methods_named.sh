#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The registry is the only place a method is named: no C file of the
# library, the CLI, the benchmark or the simulator branches on one
# method's constant (COREPCG_METHOD_AUTO, the one that chooses, aside),
# but src/methods/registry.c, which holds every row and rule (the bench
# names methods by their names, in bench/bench_policy.c); and no script
# of tools/ or tests/ writes the methods out as a list (below).
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
# Nor does a script of tools/ or tests/ spell the methods out as a list
# (tools/memcheck's "every method" missed amgpcg so): one that runs every
# method reads them from the built CLI (`corepcg solve --help`'s --method
# line, as tools/demo does). A line naming three or more of the
# registry's names (as words; "a|b|c" and "(a, b, c)" alike) is such a
# list; comment lines are prose ("corepcg" is the project's name too, and
# "auto" and "direct" are words). The C files are the check above's; the
# Python tests name the few methods a test is about, and tests/fuzz's
# dictionaries the names a fuzzer should try: neither is scanned.
names=$(sed -n 's/.*\.name = "\([^"]*\)".*/\1/p' src/methods/registry.c | paste -sd' ')
[ -n "$names" ] || { echo "no method names in src/methods/registry.c"; exit 1; }
scripts=$(find tools tests -maxdepth 1 -type f ! -name '*.c' ! -name '*.h' | sort)
listed=$(for f in $scripts; do
             awk -v names="$names" -v file="$f" '
                 BEGIN { n = split(names, a, " "); for (i = 1; i <= n; i++) is[a[i]] = 1 }
                 /^[ \t]*#/ { next }
                 { split("", seen); c = 0
                   k = split($0, w, /[^a-z0-9-]+/)
                   for (i = 1; i <= k; i++)
                       if ((w[i] in is) && !(w[i] in seen)) { seen[w[i]] = 1; c++ }
                   if (c >= 3) print file ":" FNR ": " $0 }' "$f"
         done)
if [ -n "$listed" ]; then
    echo "methods written out as a list (read them from \`corepcg solve --help\`):"
    echo "$listed"
    echo "1 passed, 1 failed"
    exit 1
fi
echo "2 passed, 0 failed"
