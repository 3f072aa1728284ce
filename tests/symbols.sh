#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The shared library exports exactly the public API: every defined dynamic
# symbol starts with corepcg_, and every function the header declares is
# exported. Usage: symbols.sh LIBRARY HEADER
set -euo pipefail
lib=$1 header=$2
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBR]$/ {print $3}' | sort)
leaked=$(grep -v '^corepcg_' <<<"$exported" || true)
declared=$(grep -o 'corepcg_[a-z_]*(' "$header" | tr -d '(' | sort -u)
missing=$(comm -23 <(echo "$declared") <(echo "$exported"))
fail=0
if [ -n "$leaked" ]; then echo "exported but not public:"; echo "$leaked"; fail=1; fi
if [ -n "$missing" ]; then echo "declared but not exported:"; echo "$missing"; fail=1; fi
echo "$(wc -l <<<"$exported") symbols exported, $(wc -l <<<"$declared") declared"
if [ "$fail" -eq 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
exit "$fail"
